"""Shared searchers.  One module per algorithm; every searcher has the signature

    search(game_or_problem, state=None, *, depth=None, time_limit=None, node_limit=None, ...)

and returns a `framework.search.result.Result`.  `registry.searcher(name)` finds one by
the name the CLI uses.
"""
from framework.search.result import Result, Stats, Budget, BudgetExceeded
from framework.search.registry import searcher, GAME_SEARCHERS, PLANNING_SEARCHERS
