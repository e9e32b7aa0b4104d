"""Names of the searchers, as the CLI and the conformance suite know them.

Each entry maps an algorithm name to the module that implements it; the module exposes
`search(game_or_problem, state=None, *, depth=None, time_limit=None, node_limit=None, ...)`.
Modules are imported on first use so that `plyspec check` stays fast.
"""
from __future__ import annotations

import importlib

GAME_SEARCHERS = {
    "minimax": "framework.search.minimax",
    "alphabeta": "framework.search.alphabeta",
    "expectimax": "framework.search.expectimax",
    "maxn": "framework.search.maxn",
    "paranoid": "framework.search.paranoid",
    "mcts": "framework.search.mcts",
    "retrograde": "framework.search.retrograde",
}

PLANNING_SEARCHERS = {
    "bfs": "framework.search.bfs",
    "dfs": "framework.search.dfs",
    "iddfs": "framework.search.iddfs",
    "ucs": "framework.search.ucs",
    "astar": "framework.search.astar",
    "gbfs": "framework.search.gbfs",
    "lazy-gbfs": "framework.search.lazy_gbfs",
    "wastar": "framework.search.wastar",
    "lama-first": "planners.configurations.lama",
    "lama": "planners.configurations.lama_anytime",
}


def searcher(name: str):
    """The `search` function registered under `name` (ValueError for unknown names)."""
    module = GAME_SEARCHERS.get(name) or PLANNING_SEARCHERS.get(name)
    if module is None:
        from framework.errors import did_you_mean
        names = {**GAME_SEARCHERS, **PLANNING_SEARCHERS}
        hint = did_you_mean(name, names)
        raise ValueError(f"unknown algorithm {name!r}"
                         + (f" ({hint})" if hint else "") + f"; known: {', '.join(sorted(names))}")
    return importlib.import_module(module).search
