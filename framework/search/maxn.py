"""Max-n (Luckhardt & Irani 1986) with Korf's shallow pruning.

Every node has a vector of values, one per player: the utility vector at terminal states,
the evaluation of every player at the depth limit, the vector of the child best for the
player to move at decision nodes (the first such child on ties), and the
probability-weighted mean vector at chance nodes.  Any number of players, general-sum.

Shallow pruning (Korf 1991), `prune=True`: when every utility is >= 0 and the utilities
sum to at most S (the game's `max_utility_sum`: its constant sum, 1 for a winner-takes-all
game, else players x the upper utility bound U), a node whose mover q has already secured
s_q leaves at most S - s_q to the player p who moves at its parent; once that is no more
than p's best alternative, p will not choose the node and its remaining children are
skipped.  Also, a mover who secures S cannot do better.  Since s_q and p's best are at
most U, nothing is ever cut when S > 2U (e.g. three or more players with no known sum):
pruning is then off.  It turns on by itself whenever the game's capabilities allow it.
Deep pruning is not sound for max-n (Korf) and is not done.  Pruning needs the bounds;
without them it is off (the reason is in `Result.extra["pruning"]`), and an evaluation
vector outside them (at the depth limit) makes the search restart without pruning.
With or without pruning the root vector and the chosen action are the same.

Depth counts every edge as a ply; with a time or node budget the search deepens
iteratively and returns the deepest completed iteration (see `depth_first`).  A compiled
game's kernel runs the search over packed states (framework.kernel.Rules) unless an
`evaluate=` function is given.
"""
from __future__ import annotations

import math

from framework.kernel import Rules
from framework.search.depth_first import DepthFirstSearch, root_mover
from framework.search.result import Result


class _OutsideBounds(Exception):
    """A value vector outside the bounds shallow pruning relies on."""


def sum_bound(game):
    """The bound S on the sum of the utilities that shallow pruning needs, or None when
    the game does not guarantee non-negative utilities with a bounded sum.

    Read from the game's capabilities: `utility_bounds` (L, U) with L >= 0 is required;
    S is the least of `constant_sum` (when declared), `max_utility_sum` (the bound the
    checker inferred or the spec declared) and players x U."""
    low, high = game.utility_bounds
    if low < 0:
        return None
    bounds = [game.max_utility_sum, game.num_players * high]
    if game.constant_sum is not None:
        bounds.append(game.constant_sum)
    return min(bounds) if math.isfinite(min(bounds)) else None


def search(game, state=None, *, depth=None, time_limit=None, node_limit=None, evaluate=None,
           prune=True) -> Result:
    """Max-n vector of `state` (default: the initial state) in `values`; `value` is the
    entry of the player to move at the root."""
    root = game.initial_state() if state is None else state
    limit_sum = sum_bound(game) if prune else None
    if not prune:
        pruning = "off"
    elif limit_sum is None:
        pruning = "off: shallow pruning needs utilities >= 0 with a bounded sum"
    elif limit_sum > 2 * game.utility_bounds[1]:
        pruning = (f"off: with utilities summing to at most {limit_sum} and each at most "
                   f"{game.utility_bounds[1]}, shallow pruning can never cut (declare the "
                   "game's constant sum or a bound on the sum)")
        limit_sum = None
    else:
        pruning = "shallow"
    searcher = _MaxN(game.num_players, Rules(game, root, evaluate), limit_sum, pruning,
                     time_limit, node_limit)
    result = searcher.run(root, depth)
    result.extra["pruning"] = searcher.pruning
    if result.value is not None:
        result.values = result.value
        result.value = result.values[root_mover(root)]
    return result


class _MaxN(DepthFirstSearch):
    """One search; the recursive value functions return (vector, line)."""

    algorithm = "maxn"

    def __init__(self, num_players, rules, limit_sum, pruning, time_limit, node_limit):
        super().__init__(rules, time_limit, node_limit)
        self.players = range(num_players)
        self.evaluate = rules.evaluate
        self.limit_sum = limit_sum
        self.pruning = pruning

    def search_to(self, root, limit):
        if self.pruning == "shallow":
            try:
                return self._pruned_search()(root, limit, -math.inf, -1)
            except _OutsideBounds as err:
                self.pruning = f"off: {err}"
        return self._plain_search()(root, limit)

    def _horizon(self, state):
        self.horizon_reached()
        evaluate = self.evaluate
        return tuple(evaluate(state, p) for p in self.players)

    def _chance(self, state, depth, value_of):
        """Mean vector over the outcomes; `value_of(child, depth)` gives a child's vector."""
        total = [0] * len(self.players)
        result = self.rules.result
        for outcome, probability in self.rules.outcomes(state):
            vector = value_of(result(state, outcome), depth - 1)
            for p, v in enumerate(vector):
                total[p] += probability * v
        return tuple(total)

    def _rule_functions(self):
        r = self.rules
        return r.terminal, r.returns, r.chance, r.player, r.actions, r.result

    def _plain_search(self):
        """value(state, depth) -> (vector, principal line or None)."""
        tick = self.budget.tick
        horizon = self._horizon
        chance = self._chance
        terminal, returns, chance_node, player_of, actions, result = self._rule_functions()

        def vector_of(state, depth):
            return value(state, depth)[0]

        def value(state, depth):
            tick()
            if terminal(state):
                return returns(state), None
            if depth == 0:
                return horizon(state), None
            if chance_node(state):
                return chance(state, depth, vector_of), None
            mover = player_of(state)
            best, best_line, best_own = None, None, -math.inf
            for action in actions(state):
                vector, line = value(result(state, action), depth - 1)
                if vector[mover] > best_own:
                    best, best_line, best_own = vector, (action, line), vector[mover]
            return best, best_line

        return value

    def _pruned_search(self):
        """value(state, depth, parent_best, parent_mover) -> (vector, line); the vector is
        exact unless it leaves the parent's mover no more than `parent_best` (the best
        value that mover has secured at the parent, -inf if none yet)."""
        tick = self.budget.tick
        horizon = self._horizon
        chance = self._chance
        limit_sum = self.limit_sum
        terminal, returns, chance_node, player_of, actions, result = self._rule_functions()

        def checked(vector):
            if min(vector) < 0 or sum(vector) > limit_sum:
                raise _OutsideBounds(f"value vector {vector} is not >= 0 with sum <= {limit_sum}")
            return vector

        def vector_of(state, depth):
            return value(state, depth, -math.inf, -1)[0]

        def value(state, depth, parent_best, parent_mover):
            tick()
            if terminal(state):               # utilities meet the bounds by declaration
                return returns(state), None
            if depth == 0:
                return checked(horizon(state)), None
            if chance_node(state):
                return chance(state, depth, vector_of), None
            mover = player_of(state)
            if parent_mover == mover or parent_best <= 0:
                enough = limit_sum            # only a maximal value ends the search early
            else:
                enough = limit_sum - parent_best
            best, best_line, best_own = None, None, -math.inf
            for action in actions(state):
                vector, line = value(result(state, action), depth - 1, best_own, mover)
                own = vector[mover]
                if own > best_own:
                    best, best_line, best_own = vector, (action, line), own
                    if own >= enough:
                        self.cutoffs += 1
                        break
            return best, best_line

        return value
