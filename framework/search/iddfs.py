"""Iterative deepening depth-first search: depth-limited DFS (iterative, see `dfs`) with
limits 0, 1, 2, ...; the first plan found is a shortest one, and memory stays that of one
depth-first pass.  Stops with "no plan" when a pass is not cut by its limit."""
from __future__ import annotations

from itertools import count

from framework.search.dfs import depth_limited
from framework.search.problem import STOPS, SearchRun


def search(problem, state=None, *, depth=None, time_limit=None, node_limit=None,
           heuristic=None, progress=None, **kw):
    """Shortest plan of at most `depth` steps (unbounded when None), or no plan."""
    run = SearchRun("iddfs", problem, state, time_limit=time_limit, node_limit=node_limit,
                    progress=progress)
    limits = count() if depth is None else range(depth + 1)
    try:
        for limit in limits:
            plan, cut = depth_limited(run, limit)
            if plan is not None:
                return run.solved(plan)
            if not cut:
                return run.no_plan()
    except STOPS as why:
        return run.stopped(why)
    return run.no_plan(complete=False, reason=f"no plan within {depth} steps")
