"""Shared searchers.  One module per algorithm; every searcher has the signature

    search(game_or_problem, state=None, *, depth=None, time_limit=None, node_limit=None, ...)

and returns a `framework.search.result.Result`.  `ALGORITHMS` maps the CLI names to them.
"""
from framework.search.result import Result, Stats, Budget, BudgetExceeded

ALGORITHMS: dict = {}
