"""Greedy best-first search: expands the state the heuristic rates closest to the goal;
fast with an informative heuristic such as h_FF, plans not necessarily optimal."""
from __future__ import annotations

from framework.search.best_first import best_first


def search(problem, state=None, *, depth=None, time_limit=None, node_limit=None,
           heuristic=None, progress=None, **kw):
    """A plan guided by `heuristic`: a name ("hff", the default on planning tasks) or a
    function state -> estimate (blind when a problem has no heuristic of its own)."""
    if heuristic is None:
        heuristic = "hff" if hasattr(problem, "heuristic") else "blind"
    return best_first("gbfs", problem, state, g_weight=0, h_weight=1, heuristic=heuristic,
                      depth=depth, time_limit=time_limit, node_limit=node_limit,
                      progress=progress)
