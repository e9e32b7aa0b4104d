"""A*: best-first search on g + h; with an admissible heuristic (h_max, or blind) the
plan found is optimal (cheapest)."""
from __future__ import annotations

from framework.search.best_first import best_first


def search(problem, state=None, *, depth=None, time_limit=None, node_limit=None,
           heuristic="blind", progress=None, **kw):
    """Cheapest plan, guided by `heuristic` (a name such as "hmax" or a function)."""
    return best_first("astar", problem, state, g_weight=1, h_weight=1, heuristic=heuristic,
                      depth=depth, time_limit=time_limit, node_limit=node_limit,
                      progress=progress)
