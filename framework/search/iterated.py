"""Anytime search: phases run one after another, each looking only for a plan cheaper
than the best found so far (Fast Downward's `iterated` search with its bound passed on,
as its `lama` alias runs it), until the time, node or memory budget ends, or the last
phase, repeated while it improves the plan, finds no cheaper plan.

A phase is (label, start) where `start(problem, state, bound=..., time_limit=...,
node_limit=..., progress=...)` runs one search and returns its `Result`; `bound` is None
for the first plan, then the best plan's cost.  `on_plan(result, label, seconds)` hears of
each better plan as it is found.  The result is the best plan's, with every plan found
(`extra["plans"]`: label, cost, length, seconds), the statistics summed over the phases,
and `complete` true only when the last phase proved that no cheaper plan exists (a phase
that exhausts every state cheaper than the bound, re-opening states reached more cheaply).
"""
from __future__ import annotations

import time

from framework.search.result import BudgetExceeded, Result, Stats, search_ended, search_resumed


def search(problem, state=None, *, phases, time_limit=None, node_limit=None, progress=None,
           on_plan=None, algorithm="iterated", **kw):
    """The cheapest plan the phases find within the budget (see the module docstring)."""
    started = time.perf_counter()
    best, plans, expanded, generated, memory = None, [], 0, 0, 0.0
    last, ran, index = None, -1, 0
    while True:
        label, start = phases[min(index, len(phases) - 1)]
        left = None if time_limit is None else time_limit - (time.perf_counter() - started)
        nodes = None if node_limit is None else node_limit - expanded
        if (left is not None and left <= 0) or (nodes is not None and nodes <= 0):
            break
        search_resumed()                # the alarm of `plan --time` cuts the next set-up too
        try:
            last = start(problem, state, bound=None if best is None else best.cost,
                         time_limit=left, node_limit=nodes, progress=progress)
        except BudgetExceeded:          # (while the next phase's heuristics were being made)
            break
        ran = index
        expanded += last.stats.expanded
        generated += last.stats.nodes
        memory = max(memory, last.extra.get("memory_mb", 0.0))
        if last.extra.get("solved"):
            best = last
            seconds = time.perf_counter() - started
            plans.append({"phase": label, "cost": last.cost, "length": len(last.pv),
                          "seconds": round(seconds, 3)})
            if on_plan is not None:
                on_plan(last, label, seconds)
        elif not last.complete or best is None:  # a budget, the memory bound or Ctrl-C
            break                       # ended it, or no plan exists at all
        elif index >= len(phases) - 1:  # the last phase found nothing cheaper: none exists
            break
        index += 1
    search_ended(resumed=True)          # the alarm no longer raises: the result is being made
    final = best or last
    stats = Stats(nodes=generated, expanded=expanded, time_s=time.perf_counter() - started)
    if final is None:                   # no phase ran: the budget was spent before
        return Result(algorithm, stats=stats, complete=False,
                      extra={"valid": False, "solved": False, "reason": "time limit",
                             "plans": plans})
    ended = None if last is None or last is best else last.extra.get("reason")
    proved = best is not None and last is not best and last.complete and ran >= len(phases) - 1
    extra = {**final.extra, "plans": plans, "reason": ended, "proved_cheapest": proved,
             "memory_mb": memory, **{k: last.extra[k] for k in ("closed", "open")
                                     if k in last.extra}}
    return Result(algorithm, value=final.value, best_action=final.best_action, pv=final.pv,
                       stats=stats, complete=proved or (best is None and final.complete),
                       cost=final.cost, extra=extra)
