"""Weighted A*: best-first search on g + W·h (W >= 1, default 2).  With an admissible
heuristic the plan costs at most W times the cheapest; W = 1 is A*.  The default
heuristic on planning tasks is h_FF (inadmissible, so no bound, but far better
informed), as satisficing planners use weighted A*."""
from __future__ import annotations

from framework.search.best_first import best_first

DEFAULT_WEIGHT = 2


def search(problem, state=None, *, depth=None, time_limit=None, node_limit=None,
           heuristic=None, progress=None, weight: float = DEFAULT_WEIGHT, **kw):
    """A plan guided by g + `weight` · `heuristic` (a name or a function)."""
    if weight < 1:
        raise ValueError(f"the weight of weighted A* must be at least 1, not {weight}")
    if heuristic is None:
        heuristic = "hff" if hasattr(problem, "heuristic") else "blind"
    return best_first("wastar", problem, state, g_weight=1, h_weight=weight,
                      heuristic=heuristic, depth=depth, time_limit=time_limit,
                      node_limit=node_limit, progress=progress)
