"""Single-agent search problems and the bookkeeping the single-agent searchers share.

`SearchProblem` is what BFS, DFS, IDDFS, uniform-cost, A* and greedy best-first search:
a grounded STRIPS task (`planners.grounding.task.Task`) is one, and `GameProblem` makes one of a
compiled 1-player game.  `SearchRun` gives every searcher the same budget, progress
reports, Ctrl-C handling and result: a plan is reported only after it was replayed from
the start state and reached the goal (`Result.extra["valid"]`).
"""
from __future__ import annotations

import time

from framework.kernel import kernel_of
from framework.search.result import Budget, BudgetExceeded, Result, Stats, reraise_interrupt, search_ended
from framework.game import unchecked


class SearchProblem:
    """The interface the single-agent searchers use (duck-typed: nothing inherits it; not a
    `typing.Protocol`, so that `plyspec plan` does not import `typing` at start-up)."""

    def initial_state(self) -> Any: ...
    def is_goal(self, state) -> bool: ...
    def successors(self, state) -> Iterable[tuple[Any, Any, float]]:
        """(action, next state, cost) for every action applicable in `state`."""
    def action_text(self, action) -> str: ...


class GameProblem:
    """A compiled 1-player game as a search problem: the goal is a terminal state with a
    positive utility, every move costs 1.  With the game's kernel (framework.kernel) the
    searchers walk packed states and raw actions (the same states, equal and hashed
    alike, in the same order) and `course_plan` turns a plan back into course actions."""

    def __init__(self, game):
        if game.num_players != 1:
            raise ValueError(f"single-agent search needs a 1-player game; {game.name!r} has "
                             f"{game.num_players} players (use an adversarial searcher)")
        if game.chance:
            raise ValueError(f"single-agent search needs a deterministic game; {game.name!r} "
                             "has chance nodes (use expectimax or mcts)")
        self.game = game
        self.kernel = kernel_of(game.initial_state())
        if self.kernel is not None:
            self.is_goal, self.successors = self._kernel_goal, self._kernel_successors

    def initial_state(self):
        return self.game.initial_state()

    def is_goal(self, state) -> bool:
        return state.terminal_test() and state.utility(0) > 0

    def successors(self, state):
        if state.terminal_test():
            return []
        result = unchecked(type(state), "result")
        return [(action, result(state, action), 1) for action in state.actions()]

    def _kernel_goal(self, state) -> bool:
        return self.kernel.terminal(state) and self.kernel.utility(state, 0) > 0

    def _kernel_successors(self, state):
        if self.kernel.terminal(state):
            return []
        return [(action, child, 1) for action, child in self.kernel.children(state)]

    def course_plan(self, plan: list) -> list:
        """The course-interface actions of a plan found over successors()."""
        return plan if self.kernel is None else [self.kernel.action(a) for a in plan]

    def action_text(self, action) -> str:
        return self.game.action_text(action)


def as_problem(problem_or_game) -> SearchProblem:
    """A search problem as given, or a 1-player game wrapped in a `GameProblem`."""
    if hasattr(problem_or_game, "num_players"):
        return GameProblem(problem_or_game)
    return problem_or_game


def replay(problem, plan, state=None) -> tuple[bool, float, int | None]:
    """Replays `plan` from `state` (default: the initial state).  Returns (valid, cost,
    index of the first inapplicable step or None); a plan whose steps all apply but that
    ends outside the goal is invalid with index None."""
    state = problem.initial_state() if state is None else state
    cost = 0
    for index, action in enumerate(plan):
        step = next(((t, c) for a, t, c in problem.successors(state) if a == action), None)
        if step is None:
            return False, cost, index
        state, step_cost = step
        cost += step_cost
    return problem.is_goal(state), cost, None


def plan_to(parents: dict, state) -> list:
    """The actions leading to `state`, from a map state -> (parent state, action) | None."""
    plan = []
    link = parents[state]
    while link is not None:
        state, action = link
        plan.append(action)
        link = parents[state]
    plan.reverse()
    return plan


def resolve_heuristic(problem, heuristic) -> Callable[[Any], float]:
    """A heuristic function from None / "blind" (always 0), a problem's named heuristic
    ("hmax", "lmcut", "hadd", "hff" on planning tasks) or a callable state -> estimate."""
    if heuristic is None or heuristic == "blind":
        return lambda state: 0
    if callable(heuristic):
        return heuristic
    if not hasattr(problem, "heuristic"):
        raise ValueError(f"this problem has no named heuristic {heuristic!r}; pass a function "
                         "state -> estimate")
    return problem.heuristic(heuristic)


class SearchRun:
    """Budget, statistics, progress and the final `Result` of one single-agent search.

    `tick()` is called once per expanded state; `progress`, when given, is called with
    the current `Stats` about once a second.  A searcher that keeps its reached states in a
    container sets `reached` to it, so that progress reports count them during the search,
    and its open lists in `frontier` (a list of containers): the result reports both sizes
    and the memory the search added (`memory_mb`; `memory_bound` bounds it)."""

    PROGRESS_EVERY = 1.0

    def __init__(self, algorithm: str, problem, state=None, *, time_limit=None,
                 node_limit=None, progress=None):
        self.algorithm = algorithm
        self.problem = as_problem(problem)
        self.start = self.problem.initial_state() if state is None else state
        self.budget = Budget(time_limit, node_limit)
        self.generated = 0
        self.reached = ()
        self.frontier = []
        self.depth = 0
        self.progress = progress
        self._next_report = self.budget.start + self.PROGRESS_EVERY
        self.tick = self.budget.tick if progress is None else self._tick_with_progress

    def _tick_with_progress(self):
        self.budget.tick()
        if self.budget.nodes & 63 == 0 and time.perf_counter() >= self._next_report:
            self._next_report = time.perf_counter() + self.PROGRESS_EVERY
            self.progress(self.stats())

    def stats(self) -> Stats:
        return Stats(nodes=self.generated or len(self.reached), expanded=self.budget.nodes, depth=self.depth,
                     time_s=self.budget.elapsed())

    def memory(self) -> dict:
        """The sizes of the closed and open lists and the memory (MB) the search added."""
        budget = self.budget
        try:
            budget.check_memory()
        except BudgetExceeded:                   # past the bound only now: it still ended
            pass
        return {"closed": len(self.reached), "open": sum(len(q) for q in self.frontier),
                "memory_mb": round(budget.memory_peak, 1), "memory_limit_mb": budget.memory_limit}

    def solved(self, plan: list) -> Result:
        """The result for a found plan, after replaying it to the goal."""
        search_ended()
        stats = self.stats()
        valid, cost, failed_at = replay(self.problem, plan, self.start)
        if not valid:
            where = "ends outside the goal" if failed_at is None else f"fails at step {failed_at + 1}"
            raise RuntimeError(f"{self.algorithm} found a plan that {where} on replay")
        if hasattr(self.problem, "course_plan"):
            plan = self.problem.course_plan(plan)
        return Result(self.algorithm, best_action=plan[0] if plan else None, pv=plan, stats=stats,
                      cost=cost, extra={"valid": True, "solved": True, "length": len(plan),
                                        **self.memory()})

    def no_plan(self, *, complete: bool = True, reason: str = "no plan exists") -> Result:
        """The result when no plan was found: proved impossible (complete) or cut short."""
        search_ended()
        return Result(self.algorithm, stats=self.stats(), complete=complete,
                      extra={"valid": False, "solved": False, "reason": reason, **self.memory()})

    def stopped(self, why: BaseException) -> Result:
        """The result after a budget ran out or the user pressed Ctrl-C."""
        if isinstance(why, KeyboardInterrupt):
            reraise_interrupt(why)
        reason = "interrupted" if isinstance(why, KeyboardInterrupt) else \
            "memory limit (MemoryError)" if isinstance(why, MemoryError) else str(why)
        return self.no_plan(complete=False, reason=reason)


STOPS = (BudgetExceeded, KeyboardInterrupt, MemoryError)
"""What ends a single-agent search early; the searcher returns `run.stopped(...)`."""
