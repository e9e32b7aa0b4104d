"""Uniform-cost search (Dijkstra): expands states in order of path cost g; the first
plan found is the cheapest."""
from __future__ import annotations

from framework.search.best_first import best_first


def search(problem, state=None, *, depth=None, time_limit=None, node_limit=None,
           heuristic=None, progress=None, **kw):
    """Cheapest plan; `heuristic` is ignored."""
    return best_first("ucs", problem, state, g_weight=1, h_weight=0, depth=depth,
                      time_limit=time_limit, node_limit=node_limit, progress=progress)
