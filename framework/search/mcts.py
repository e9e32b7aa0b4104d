"""Monte Carlo tree search with UCT (Kocsis & Szepesvari 2006), n players, chance nodes.

Each iteration
  1. selects a path from the root: at a decision node the child maximising
     mean reward + c * sqrt(ln(visits of node) / visits of child), at a chance node an
     outcome sampled with its probability;
  2. expands one untried action (or a not yet sampled outcome) into a new node;
  3. plays random moves from it to the end of the game (or for `depth` plies, then
     asks the evaluation), sampling chance outcomes by their probabilities;
  4. adds the playout's rewards along the path: every node stores its reward relative to
     the player who chose the move into it, the quantity that player's selection maximises
     (children of a chance node inherit the chance node's player).
Rewards are utilities scaled to [0, 1] with the game's utility bounds when they are finite
(raw utilities otherwise; evaluations are clipped to [0, 1] when scaled).  The answer is
the root's most visited child.

Budget: `iterations=` or `node_limit` (iterations), `time_limit` (seconds); without one,
DEFAULT_ITERATIONS.  `seed=` makes a run repeatable.  Counts: every node's visits equal
the visits of its children, plus one for the iteration that created it (the root was not
created by an iteration); the root's visits equal the iterations run.

Memory: `max_nodes=` (`search` default DEFAULT_MAX_NODES) bounds the tree (about
NODE_BYTES bytes a node with a small state):
once it holds that many nodes, iterations still select, play out and back up, but no
longer add a node.  Endless games: a playout longer than the game's declared `max_length`
(else PLAYOUT_CAP plies) stops and is scored by the evaluation, and a playout checks the
clock every CLOCK_PLIES plies, so `time_limit` holds on games that need not end.  A game
with a function-level kernel (framework.kernel) plays its playouts on packed states: the
same random choices, the same tree, no State objects built.
Ctrl-C or the deadline in the middle of an iteration undoes that iteration's new node and
returns the answer of the iterations completed (a root move even if none was).
"""
from __future__ import annotations

import math
import random
import time

from framework.kernel import kernel_of
from framework.search.result import Result, Stats, reraise_interrupt
from framework.game import unchecked

DEFAULT_ITERATIONS = 10_000
PLAYOUT_CAP = 1_000
CLOCK_PLIES = 64
NODE_BYTES = 400
DEFAULT_MAX_NODES = 1_000_000                 # about 400 MB at most


class _OutOfTime(Exception):
    """The deadline passed in the middle of a playout."""


class TreeNode:
    """A node of the search tree.  `children` is a list at decision nodes and a dict
    (outcome -> node) at chance nodes; `untried` is None until the node is first
    selected through (then its actions not yet expanded, in random order)."""

    __slots__ = ("state", "parent", "move", "mover", "visits", "reward", "children",
                 "untried", "outcomes", "cumulative", "terminal")

    def __init__(self, state, parent, move, mover):
        self.state = state
        self.parent = parent
        self.move = move                      # action or chance outcome leading here
        self.mover = mover                    # player who chose `move`; -1 at the root
        self.visits = 0
        self.reward = 0.0                     # sum of rewards of `mover`
        self.children = None
        self.untried = None
        self.outcomes = None
        self.cumulative = None
        self.terminal = False

    def open(self, rng):
        """Learn the node's kind and moves (called when first selected through)."""
        state = self.state
        if state.terminal_test():
            self.terminal = True
            self.untried = []
        elif state.is_chance():
            outcomes = state.chance_outcomes()
            self.outcomes = [outcome for outcome, _ in outcomes]
            self.cumulative = list(_running_sum(probability for _, probability in outcomes))
            self.children = {}
            self.untried = []
        else:
            self.untried = list(state.actions())
            rng.shuffle(self.untried)
            self.children = []


def _running_sum(values):
    total = 0.0
    for v in values:
        total += v
        yield total


def _sample(outcomes, cumulative, rng):
    """An outcome drawn with the probabilities whose running sums are `cumulative`."""
    r = rng.random() * cumulative[-1]
    for outcome, bound in zip(outcomes, cumulative):
        if r < bound:
            return outcome
    return outcomes[-1]


class UCTSearch:
    """A search tree that grows by `run()`; `result()` reads the answer off it."""

    def __init__(self, game, state=None, *, exploration=math.sqrt(2), seed=None, depth=None,
                 evaluate=None, max_nodes=None):
        self.game = game
        self.rng = random.Random(seed)
        self.exploration = exploration
        self.playout_depth = depth
        self.playout_cap = getattr(game, "max_length", None) or PLAYOUT_CAP
        self.max_nodes = max_nodes
        self.deadline = None
        self.fresh = None                     # the node the running iteration added
        self.evaluate = evaluate or game.evaluate
        low, high = game.utility_bounds
        self.scaled = math.isfinite(low) and math.isfinite(high) and high > low
        self.low, self.span = (low, high - low) if self.scaled else (0.0, 1.0)
        self.root = TreeNode(game.initial_state() if state is None else state, None, None, -1)
        self.kernel = kernel_of(self.root.state)     # playouts on packed states when the game has one
        self.root.open(self.rng)
        self.root_totals = [0.0] * game.num_players   # summed rewards of every player
        self.iterations = 0
        self.nodes = 1
        self.max_depth = 0

    def run(self, iterations=None, deadline=None) -> bool:
        """Iterate until `iterations` more are done or `time.perf_counter()` passes
        `deadline`; False if Ctrl-C stopped it."""
        done = 0
        clock = time.perf_counter
        iterate = self._iterate
        self.deadline = deadline
        try:
            while (iterations is None or done < iterations) and (deadline is None or clock() < deadline):
                iterate()
                done += 1
        except KeyboardInterrupt:
            self._undo_fresh()
            return False
        except _OutOfTime:
            self._undo_fresh()
        return True

    def _undo_fresh(self):
        """Take back the node added by an iteration that was cut short before backing up."""
        node, self.fresh = self.fresh, None
        if node is None or node.visits or node.parent is None:
            return
        parent = node.parent
        if isinstance(parent.children, dict):
            parent.children.pop(node.move, None)
        elif node in parent.children:
            parent.children.remove(node)
            parent.untried.append(node.move)
        self.nodes -= 1

    def _iterate(self):
        rng = self.rng
        node = self.root
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        depth = 0
        room = self.max_nodes is None or self.nodes < self.max_nodes
        self.fresh = None
        while True:                           # selection, ending with one expansion
            if node.untried is None:
                node.open(rng)
            if node.terminal:
                break
            depth += 1
            if node.outcomes is not None:
                outcome = _sample(node.outcomes, node.cumulative, rng)
                child = node.children.get(outcome)
                if child is None:
                    if not room:                  # at the node bound: play out from here
                        break
                    child = TreeNode(unchecked(type(node.state), "result")(node.state, outcome), node, outcome, node.mover)
                    node.children[outcome] = child
                    self.nodes += 1
                    self.fresh = node = child
                    break
                node = child
            elif node.untried:
                if not room:
                    break
                action = node.untried.pop()
                child = TreeNode(unchecked(type(node.state), "result")(node.state, action), node, action,
                                  node.state.player())
                node.children.append(child)
                self.nodes += 1
                self.fresh = node = child
                break
            else:
                scale = c * sqrt(log(node.visits or 1))
                best, best_score = None, -math.inf
                for child in node.children:
                    visits = child.visits
                    score = child.reward / visits + scale / sqrt(visits)
                    if score > best_score:
                        best, best_score = child, score
                node = best
        if depth > self.max_depth:
            self.max_depth = depth
        rewards = self._playout(node.state)
        totals = self.root_totals
        for p, r in enumerate(rewards):
            totals[p] += r
        while node is not None:
            node.visits += 1
            if node.mover >= 0:
                node.reward += rewards[node.mover]
            node = node.parent
        self.iterations += 1

    def _playout(self, state):
        """Rewards of all players after random play from `state`."""
        if self.kernel is not None:
            return self._kernel_playout(self.kernel, tuple(state))
        rng = self.rng
        choice = rng.choice
        plies_left = self.playout_depth
        cap, deadline, plies = self.playout_cap, self.deadline, 0
        result = unchecked(type(state), "result")
        while not state.terminal_test():
            if plies_left is not None:
                if plies_left == 0:
                    return self._scaled_evaluations(state)
                plies_left -= 1
            plies += 1
            if plies % CLOCK_PLIES == 0:
                if plies > cap:
                    return self._scaled_evaluations(state)
                if deadline is not None and time.perf_counter() >= deadline:
                    raise _OutOfTime
            if state.is_chance():
                outcomes = state.chance_outcomes()
                state = result(state, _sample([o for o, _ in outcomes],
                                              list(_running_sum(p for _, p in outcomes)), rng))
            else:
                state = result(state, choice(state.actions()))
        return self._scaled_returns(state.returns())

    def _kernel_playout(self, kernel, s):
        """`_playout` over the game's kernel (no chance): the same random choices, so the
        same moves and rewards, without building State objects."""
        choice, actions, apply, terminal = self.rng.choice, kernel.actions, kernel.apply, kernel.terminal
        plies_left = self.playout_depth
        cap, deadline, plies = self.playout_cap, self.deadline, 0
        while not terminal(s):
            if plies_left is not None:
                if plies_left == 0:
                    return self._scaled_evaluations(kernel.view(s))
                plies_left -= 1
            plies += 1
            if plies % CLOCK_PLIES == 0:
                if plies > cap:
                    return self._scaled_evaluations(kernel.view(s))
                if deadline is not None and time.perf_counter() >= deadline:
                    raise _OutOfTime
            s = apply(s, choice(actions(s)))
        return self._scaled_returns(kernel.returns(s))

    def _scaled_returns(self, returns):
        if not self.scaled:
            return returns
        low, span = self.low, self.span
        return [(u - low) / span for u in returns]

    def _scaled_evaluations(self, state):
        evaluate, low, span = self.evaluate, self.low, self.span
        rewards = [(evaluate(state, p) - low) / span for p in range(self.game.num_players)]
        return [min(1.0, max(0.0, r)) for r in rewards] if self.scaled else rewards

    def result(self, complete=True, elapsed=0.0) -> Result:
        root = self.root
        stats = Stats(nodes=self.nodes, expanded=self.nodes, depth=self.max_depth, time_s=elapsed)
        result = Result("mcts", stats=stats, complete=complete,
                        extra={"iterations": self.iterations})
        low, span = self.low, self.span
        if root.terminal:
            result.values = tuple(root.state.returns())
            result.value = result.values[0]
            return result
        if root.visits:
            result.values = tuple(low + span * t / root.visits for t in self.root_totals)
        node = root
        while node.outcomes is None and node.children:
            node = max(node.children, key=_visits_then_mean)
            if not node.visits:
                break
            result.pv.append(node.move)
            if node.parent is root:
                result.best_action = node.move
                result.value = low + span * node.reward / node.visits
        if result.best_action is None and root.untried:      # stopped before any iteration
            result.best_action = root.untried[-1]
        return result


def _visits_then_mean(node):
    return (node.visits, node.reward / node.visits) if node.visits else (0, 0.0)


def search(game, state=None, *, depth=None, time_limit=None, node_limit=None, evaluate=None,
           iterations=None, seed=None, exploration=math.sqrt(2), max_nodes=None) -> Result:
    """UCT from `state` (default: the initial state); `best_action` is the most visited
    root move and `value` its mean reward (on the utility scale) for the player to move.
    `depth` caps each random playout (then the evaluation scores it); `max_nodes` bounds
    the tree's size (see the module doc)."""
    if max_nodes is None:
        max_nodes = DEFAULT_MAX_NODES
    if max_nodes < 1:
        raise ValueError(f"mcts: max_nodes must be at least 1 (got {max_nodes})")
    if iterations is None:
        iterations = node_limit
    if iterations is None and time_limit is None:
        iterations = DEFAULT_ITERATIONS
    start = time.perf_counter()
    tree = UCTSearch(game, state, exploration=exploration, seed=seed, depth=depth,
                     evaluate=evaluate, max_nodes=max_nodes)
    deadline = None if time_limit is None else start + time_limit
    finished = tree.run(iterations, deadline)
    result = tree.result(finished, time.perf_counter() - start)
    if not finished:
        reraise_interrupt()
        result.extra["interrupted"] = True
    return result
