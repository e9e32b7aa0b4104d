"""What the recursive searchers for chance and many-player games share (expectimax,
max-n, paranoid): their counters, iterative deepening under a budget, and the `Result`.

Those searchers return `(value, line)` pairs from their recursive value functions, where
`line` is the principal line below a node as nested pairs `(action, line)` ending in None
(cheap to build: one small tuple when a better move is found).  Depth counts every edge,
decision or chance, as a ply.  A search runs on a deep stack (`twoplayer.run_deep`) with
room for its depth limit, or MAX_SEARCH_PLIES without one, so a long game needs no
special care; a game with cycles searched without a depth limit gets a clear LimitError
instead of a RecursionError.

The searchers call the game's rules through `framework.kernel.Rules`: over packed states
and raw actions when the game has a kernel, else over the State objects; the principal
line is given back in course-interface actions either way.
"""
from __future__ import annotations

from framework.search.result import Budget, BudgetExceeded, Result, Stats
from framework.search.twoplayer import run_deep

UNLIMITED_DEPTH = 1 << 62


class DepthFirstSearch:
    """Counters and budget of one search; subclasses supply `search_to(root, limit)`
    returning `(value, line)` and call `self.horizon_reached()` at every depth cut-off."""

    algorithm = "depth-first"

    def __init__(self, rules, time_limit=None, node_limit=None):
        self.rules = rules
        self.budget = Budget(time_limit, node_limit)
        self.deepen = time_limit is not None or node_limit is not None
        self.evaluations = 0
        self.cutoffs = 0
        self.reached_horizon = False

    def horizon_reached(self):
        self.reached_horizon = True
        self.evaluations += 1

    def search_to(self, root, limit):
        raise NotImplementedError

    def run(self, root, depth) -> Result:
        """Search `root` (a State) to `depth` plies (None: to the end), iteratively deepening when a
        budget is set; the result of the deepest completed iteration, with `value` the
        returned value and `best_action`/`pv` from its line."""
        self.root_player = root_mover(root)
        (deepest, finished), interrupted = run_deep(
            lambda: self._iterate(self.rules.root, depth), self.budget, depth, self.algorithm)
        stats = Stats(nodes=self.budget.nodes, evaluations=self.evaluations,
                      cutoffs=self.cutoffs, time_s=self.budget.elapsed())
        result = Result(self.algorithm, stats=stats, complete=finished and not interrupted)
        if interrupted:
            result.extra["interrupted"] = True
        if deepest is not None:
            result.value, line, limit = deepest
            stats.depth = 0 if limit == UNLIMITED_DEPTH else limit   # 0: to the end
            course_action = self.rules.course_action
            while line is not None:
                action, line = line
                result.pv.append(course_action(action))
            result.best_action = result.pv[0] if result.pv else None
        return result

    def _iterate(self, root, depth):
        horizon = UNLIMITED_DEPTH if depth is None else depth
        deepest = None                        # (value, line, depth) of the last full iteration
        try:
            for limit in (range(min(1, horizon), horizon + 1) if self.deepen else [horizon]):
                self.reached_horizon = False
                value, line = self.search_to(root, limit)
                deepest = (value, line, limit)
                if not self.reached_horizon:  # the whole tree was searched: exact
                    break
        except BudgetExceeded:
            return deepest, False
        return deepest, True


def root_mover(state) -> int:
    """The player whose point of view a root value takes (player 0 at chance or terminal
    roots)."""
    return 0 if state.terminal_test() or state.is_chance() else state.player()
