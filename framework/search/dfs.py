"""Depth-first search, iterative (an explicit stack of successor iterators, so no
RecursionError however deep the plan) and cycle-safe (a state is expanded again only when
reached by a shorter path, which also keeps a depth-limited search complete within its
limit).  Goal test at generation.  Plans are found fast but are not shortest."""
from __future__ import annotations

from framework.search.problem import STOPS, SearchRun


def depth_limited(run: SearchRun, limit: int | None) -> tuple[list | None, bool]:
    """Depth-first search from `run.start` down to `limit` steps (None: no limit).
    Returns (plan or None, whether the limit cut some path)."""
    problem, tick = run.problem, run.tick
    successors, is_goal = problem.successors, problem.is_goal
    if is_goal(run.start):
        return [], False
    reached = {run.start: 0}
    tick()
    stack = [iter(successors(run.start))]
    path = []
    cut = False
    while stack:
        steps = len(stack)
        for action, child, _ in stack[-1]:
            known = reached.get(child)
            if known is not None and (limit is None or known <= steps):
                continue
            reached[child] = steps
            if is_goal(child):
                run.generated += len(reached)
                return path + [action], cut
            if limit is not None and steps >= limit:
                cut = True
                continue
            tick()
            run.depth = max(run.depth, steps)
            stack.append(iter(successors(child)))
            path.append(action)
            break
        else:
            stack.pop()
            if path:
                path.pop()
    run.generated += len(reached)
    return None, cut


def search(problem, state=None, *, depth=None, time_limit=None, node_limit=None,
           heuristic=None, progress=None, **kw):
    """A plan of at most `depth` steps (any length when None), or no plan."""
    run = SearchRun("dfs", problem, state, time_limit=time_limit, node_limit=node_limit,
                    progress=progress)
    try:
        plan, cut = depth_limited(run, depth)
    except STOPS as why:
        return run.stopped(why)
    if plan is not None:
        return run.solved(plan)
    if cut:
        return run.no_plan(complete=False, reason=f"no plan within {depth} steps")
    return run.no_plan()
