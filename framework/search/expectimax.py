"""Expectimax / expectiminimax with Star1 and Star2 pruning.

One player: the value is the maximum at decision nodes and the probability-weighted mean
at chance nodes.  Two players with zero- or constant-sum utilities: the same in negamax
form (a state's value for one player is minus its value for the other, once the constant
sum c is taken off: the search works on u - c/2).  Chance nodes may be followed by either
player, as in Pig where rolling a 1 passes the turn.  Games with 3+ players or with
general-sum utilities are refused (max-n searches them, chance nodes included).

Depth counts every edge, decision or chance, as a ply; at the cut-off the evaluation
(`evaluate=` or the spec's) stands in for the utility.  Without a depth the search runs to
the terminal states; with a time or node budget it deepens iteratively and returns the
deepest completed iteration.

Pruning (Ballard 1983; Hauk, Buro & Schaeffer 2004), on when the game declares finite
utility bounds [L, U] (or `bounds=` gives them):
  * decision nodes run fail-soft alpha-beta;
  * Star1: at a chance node, after some outcomes are searched, the unsearched ones can
    only add between L and U times their probability, so each outcome is searched with
    the narrowest window that can still change the node's value, and the node is cut off
    as soon as its value is known to lie outside (alpha, beta);
  * Star2 (`star2=True`, builds on Star1): before that, a probing phase searches only the
    first move of every outcome's decision node.  The probe is a lower bound of the
    outcome's value for the player who moves there (an upper bound when the opponent
    moves), which may already cut the chance node off and otherwise tightens Star1's
    windows.
Both return exactly the plain expectimax value (up to floating-point rounding), provided
every value the search meets lies within [L, U].  Utilities do by declaration; an
evaluation value outside the bounds makes the search restart without pruning (reported
in `Result.extra["pruning"]`).

Transposition table (`tt=True`: framework.search.exact_table, `tt_size` slots of 32 bytes
or `tt_mb` megabytes of them, one slot per hash, the newest entry kept): chance games
revisit states (in Pig, rolling 2 then 3 or 3 then 2 gives the same turn total).  Only
*exact* values are stored (every value of the plain search; with pruning, a value
strictly inside its window), keyed by the state's 64-bit hash, with the remaining depth,
whether the subtree touched the depth horizon and the principal line below.  An entry answers a node searched to the same remaining
depth, or to any larger one when no horizon was touched below it (always so without a
depth limit).  A stored value was computed by the same sums in the same order as a
re-search would compute it, so the table changes no value, not even by rounding: Star1
and Star2 stay exactly equal to plain expectimax.  `stats.tt_hits` counts the answers.

A compiled game's kernel (framework.kernel.Rules) runs the search over packed states
unless an `evaluate=` function (which takes States) is given: the same nodes, values and
line as on the course interface.
"""
from __future__ import annotations

import math

from framework.kernel import Rules
from framework.search.depth_first import UNLIMITED_DEPTH, DepthFirstSearch, root_mover
from framework.search.result import Result
from framework.search.star_pruning import INF, StarPruningMixin, _OutsideBounds
from framework.search.exact_table import ExactTable

CHECK_EVERY = 128          # nodes between looks at the clock in the search without a table


def search(game, state=None, *, depth=None, time_limit=None, node_limit=None, evaluate=None,
           star1=True, star2=True, bounds=None, tt=True, tt_size=262_144, tt_mb=None) -> Result:
    """Expectimax value of `state` (default: the initial state) for the player to move.

    `star1` / `star2` switch the pruning (Star2 builds on Star1); `bounds=(L, U)`
    overrides the game's utility bounds (they must hold for evaluations too); `tt` the
    transposition table of exact values (`tt_size` entries, or `tt_mb` megabytes of them)."""
    game.require(players=(1, 2), algorithm="expectimax")
    if game.num_players == 2 and not (game.zero_sum or game.constant_sum is not None):
        raise ValueError(f"expectimax cannot search {game.name!r}: two-player games must be "
                         "zero-sum or constant-sum (use maxn or mcts for general-sum games)")
    if tt_mb is not None and tt_mb <= 0:
        raise ValueError(f"expectimax: tt_mb must be more than 0 (got {tt_mb})")
    if star2 and not star1:
        raise ValueError("star2 builds on star1: use star1=True, star2=True for Star2")
    root = game.initial_state() if state is None else state
    offset = game.constant_sum / 2 if game.num_players == 2 and game.constant_sum else 0
    low, high = bounds if bounds is not None else game.utility_bounds
    low, high = low - offset, high - offset
    if game.num_players == 2:                 # the other player's values are -v
        low, high = max(low, -high), min(high, -low)
    pruning = "star2" if star2 else "star1" if star1 else "off"
    if pruning != "off" and not (math.isfinite(low) and math.isfinite(high)):
        pruning = "off: the game declares no finite utility bounds"
    searcher = _Expectimax(Rules(game, root, evaluate), offset, low, high, pruning,
                           time_limit, node_limit, None if not tt else ExactTable.from_megabytes(tt_mb)
                           if tt_mb is not None else ExactTable(tt_size))
    result = searcher.run(root, depth)
    result.extra["pruning"] = searcher.pruning
    result.stats.tt_hits = searcher.tt_hits
    if result.value is not None:
        result.value += offset
        if game.num_players == 1:
            result.values = (result.value,)
        else:
            other = 2 * offset - result.value
            result.values = (result.value, other) if root_mover(root) == 0 else (other, result.value)
    return result


class _Expectimax(StarPruningMixin, DepthFirstSearch):
    """One search; values inside are offset by -c/2 so that negation swaps the players."""

    algorithm = "expectimax"

    def __init__(self, rules, offset, low, high, pruning, time_limit, node_limit, table):
        super().__init__(rules, time_limit, node_limit)
        self.evaluate = rules.evaluate
        self.offset = offset
        self.low = low
        self.high = high
        self.pruning = pruning
        self.table = table                       # of values for player 0, lines as moves, or None
        self.tt_hits = 0
        self.unproven_hits = 0                   # table answers for subtrees with a horizon
        self.unlimited = False

    def horizon_marks(self):
        """Grows whenever the search meets the depth horizon, directly or through the table."""
        return self.evaluations + self.unproven_hits

    def search_to(self, root, limit):
        player = self.root_player
        self.unlimited = limit == UNLIMITED_DEPTH
        if self.pruning in ("star1", "star2"):
            try:
                return self._pruned_search(self.pruning == "star2")(root, player, limit, -INF, INF)
            except _OutsideBounds as err:
                self.pruning = f"off: {err}"
        if self.table is None:
            if self.rules.kernel is not None and self.rules.kernel.INDEXED:
                return self._kernel_search(root, player, limit)
            return self._exact_search(root, player, limit)
        return self._plain_search()(root, player, limit)

    def _table_functions(self):
        """(probe, store) over the table of exact values, or (None, None) without one.
        probe(state, player, depth) -> (value for player, line) or None;
        store(state, player, depth, value, line, proven: no horizon below).  Without a
        depth limit every entry is proven (and stored with depth 0)."""
        table = self.table
        if table is None:
            return None, None
        get, put = table.probe, table.store
        unlimited = self.unlimited

        def probe(state, player, depth):
            entry = get(state)
            if entry is None or not (entry[0] == depth or (entry[3] and (unlimited or entry[0] <= depth))):
                return None
            self.tt_hits += 1
            if not entry[3]:
                self.unproven_hits += 1      # the answer stands for a subtree with a horizon
            return (entry[1] if player == 0 else -entry[1]), entry[2]

        def store(state, player, depth, v, line, proven):
            put(state, 0 if unlimited else depth, -v if player else v, line, proven)

        return probe, store

    def _horizon(self, state, player):
        """Evaluation of the non-terminal `state` at the depth limit, for `player`, offset."""
        self.horizon_reached()
        return self.evaluate(state, player) - self.offset

    def _plain_search(self):
        """value(state, player, depth) -> (value for player, principal line or None)."""
        tick = self.budget.tick
        horizon = self._horizon
        offset = self.offset
        tt_probe, tt_store = self._table_functions()
        marks = self.horizon_marks
        rules = self.rules
        terminal, utility, chance, outcomes = rules.terminal, rules.utility, rules.chance, rules.outcomes
        player_of, actions, result = rules.player, rules.actions, rules.result

        def value(state, player, depth):
            tick()
            if terminal(state):
                return utility(state, player) - offset, None
            if depth == 0:
                return horizon(state, player), None
            if tt_probe is not None:
                if (known := tt_probe(state, player, depth)) is not None:
                    return known
                before = marks()
            if chance(state):
                total = 0
                for outcome, probability in outcomes(state):
                    total += probability * value(result(state, outcome), player, depth - 1)[0]
                answer = total, None
            else:
                mover = player_of(state)
                best, best_line = -INF, None
                for action in actions(state):
                    v, line = value(result(state, action), mover, depth - 1)
                    if v > best:
                        best, best_line = v, (action, line)
                answer = (best if mover == player else -best), best_line
            if tt_store is not None:
                tt_store(state, player, depth, answer[0], answer[1], marks() == before)
            return answer

        return value

    def _exact_search(self, root, player, limit):
        """Plain expectimax without a table, the same nodes in the same order as
        `_plain_search`: (value for `player`, line) of `root` searched `limit` plies deep.
        Leaves are scored in their parent's loop and nodes counted there; the budget is
        looked at every CHECK_EVERY nodes and exactly at the node limit."""
        budget, horizon, offset, rules = self.budget, self._horizon, self.offset, self.rules
        terminal, utility, chance, children = rules.terminal, rules.utility, rules.chance, rules.children
        player_of = rules.player
        nodes = budget.nodes
        check_at = nodes
        last_line = None                      # principal line of the node searched last

        def value(state, player, depth):
            """The value for `player` of the non-terminal `state`, depth >= 1."""
            nonlocal nodes, last_line, check_at
            if chance(state):
                total = 0
                for probability, child in children(state):
                    nodes += 1
                    if nodes >= check_at:
                        check_at = budget.check_counted(nodes, CHECK_EVERY)
                    if terminal(child):
                        total += probability * (utility(child, player) - offset)
                    elif depth == 1:
                        total += probability * horizon(child, player)
                    else:
                        total += probability * value(child, player, depth - 1)
                last_line = None
                return total
            mover = player_of(state)
            best, best_line = -INF, None
            for action, child in children(state):
                nodes += 1
                if nodes >= check_at:
                    check_at = budget.check_counted(nodes, CHECK_EVERY)
                line = None
                if terminal(child):
                    v = utility(child, mover) - offset
                elif depth == 1:
                    v = horizon(child, mover)
                else:
                    v = value(child, mover, depth - 1)
                    line = last_line
                if v > best:
                    best, best_line = v, (action, line)
            last_line = best_line
            return best if mover == player else -best

        nodes += 1
        if nodes >= check_at:
            check_at = budget.check_counted(nodes, CHECK_EVERY)
        if terminal(root):
            answer = utility(root, player) - offset, None
        elif limit == 0:
            answer = horizon(root, player), None
        else:
            answer = value(root, player, limit), last_line
        budget.nodes = nodes
        return answer

    def _kernel_search(self, root, player, limit):
        """`_exact_search` over the kernel's packed states (the same nodes, order, count,
        budget checks and sums), with a function per kind of node, the packed fields read
        by index and the rules bound as locals: terminal s[-1]; at a decision node of a
        game with chance the mover s[-3] and `pending` s[-2] ((), or a non-empty tuple:
        true at chance nodes); without chance the mover s[-2] and no chance node.  A
        decision node below a chance node is searched in the chance node's loop (`decide`
        written again without its line: a call saved per node, most of Pig's nodes)."""
        budget, offset, rules = self.budget, self.offset, self.rules
        who, pending = (-3, -2) if rules.kernel.chance is not None else (-2, -1)
        utility = rules.utility
        if offset:
            def utility(state, me, utility=rules.utility):
                return utility(state, me) - offset
        nodes = budget.nodes
        check_at = nodes
        last_line = None                      # principal line of the decision node searched last

        def chance(state, player, depth, children=rules.children, successors=rules.kernel.successors,
                   utility=utility, horizon=self._horizon, check=budget.check_counted, pending=pending, who=who):
            """The value for `player` of the chance node `state`, depth >= 1; a decision
            node below it is searched here (its line is not kept: a chance node has none)."""
            nonlocal nodes, check_at
            total = 0
            deeper = depth - 1
            last = deeper - 1
            for probability, child in children(state):
                nodes += 1
                if nodes >= check_at:
                    check_at = check(nodes, CHECK_EVERY)
                if child[-1]:
                    total += probability * utility(child, player)
                elif not deeper:
                    total += probability * horizon(child, player)
                elif child[pending]:
                    total += probability * chance(child, player, deeper)
                else:                                   # decide(child, player, deeper) inline
                    mover = child[who]
                    best = -INF
                    for grandchild in successors(child):
                        nodes += 1
                        if nodes >= check_at:
                            check_at = check(nodes, CHECK_EVERY)
                        if grandchild[-1]:
                            v = utility(grandchild, mover)
                        elif not last:
                            v = horizon(grandchild, mover)
                        elif grandchild[pending]:
                            v = chance(grandchild, mover, last)
                        else:
                            v = decide(grandchild, mover, last)
                        if v > best:
                            best = v
                    total += probability * (best if mover == player else -best)
            return total

        def decide(state, player, depth, children=rules.children, utility=utility, horizon=self._horizon,
                   check=budget.check_counted, pending=pending, who=who):
            """The value for `player` of the decision node `state`, depth >= 1; its line
            in `last_line`."""
            nonlocal nodes, check_at, last_line
            mover = state[who]
            best, best_action, below = -INF, None, None
            deeper = depth - 1
            for action, child in children(state):
                nodes += 1
                if nodes >= check_at:
                    check_at = check(nodes, CHECK_EVERY)
                if child[-1]:
                    v = utility(child, mover)
                    if v > best:
                        best, best_action, below = v, action, None
                elif not deeper:
                    v = horizon(child, mover)
                    if v > best:
                        best, best_action, below = v, action, None
                elif child[pending]:
                    v = chance(child, mover, deeper)
                    if v > best:
                        best, best_action, below = v, action, None
                else:
                    v = decide(child, mover, deeper)
                    if v > best:
                        best, best_action, below = v, action, last_line
            last_line = best_action, below
            return best if mover == player else -best

        nodes += 1
        if nodes >= check_at:
            check_at = budget.check_counted(nodes, CHECK_EVERY)
        if root[-1]:
            answer = utility(root, player), None
        elif limit == 0:
            answer = self._horizon(root, player), None
        elif root[pending]:
            answer = chance(root, player, limit), None
        else:
            answer = decide(root, player, limit), last_line
        budget.nodes = nodes
        return answer
