"""Lazy greedy best-first search with preferred operators (Fast Downward's `lazy_greedy`
with a preferred-successors queue, the search of LAMA's first iteration): a successor
enters the open lists with its parent's estimate and is evaluated only when it is taken
out; successors reached by a preferred operator (a helpful action of h_FF) also enter a
second queue, which is taken from more often after each improvement of the best
estimate (a boost of 1000 picks).  Plans are not necessarily cheapest.
"""
from __future__ import annotations

from heapq import heappop, heappush
from itertools import count

from framework.search.problem import STOPS, SearchRun, plan_to, resolve_heuristic

INF = float("inf")
BOOST = 1000


def _evaluator(problem, heuristic):
    """state -> (estimate, preferred actions)."""
    preferred = getattr(problem, "preferred_heuristic", None)
    if isinstance(heuristic, str) and preferred is not None:
        with_preferred = preferred(heuristic)
        if with_preferred is not None:
            return with_preferred
    h = resolve_heuristic(problem, heuristic)
    return lambda state: (h(state), ())


def search(problem, state=None, *, depth=None, time_limit=None, node_limit=None,
           heuristic=None, progress=None, **kw):
    """A plan guided by `heuristic` (default "hff" on planning tasks, with its preferred
    operators)."""
    run = SearchRun("lazy-gbfs", problem, state, time_limit=time_limit,
                    node_limit=node_limit, progress=progress)
    problem, start = run.problem, run.start
    if heuristic is None:
        heuristic = "hff" if hasattr(problem, "heuristic") else "blind"
    evaluate = _evaluator(problem, heuristic)
    successors, is_goal, tick = problem.successors, problem.is_goal, run.tick
    parents = {}
    queues = ([], [])                  # regular, preferred
    priority = [0, 0]
    order = count()
    best = INF
    pending = [(start, None)]          # (state, (parent, action)) to evaluate and expand
    try:
        while True:
            while pending:
                state, link = pending.pop()
                if state in parents:
                    continue
                parents[state] = link
                if is_goal(state):
                    run.generated = len(parents)
                    return run.solved(plan_to(parents, state))
                value, preferred = evaluate(state)
                if value == INF:
                    continue
                if value < best:
                    best = value
                    priority[1] -= BOOST
                tick()
                for action, child, _ in successors(state):
                    if child in parents:
                        continue
                    entry = (value, next(order), child, state, action)
                    heappush(queues[0], entry)
                    if action in preferred:
                        heappush(queues[1], entry)
            live = [i for i in (1, 0) if queues[i]]
            if not live:
                break
            pick = min(live, key=priority.__getitem__)
            priority[pick] += 1
            _, _, child, parent, action = heappop(queues[pick])
            pending.append((child, (parent, action)))
    except STOPS as why:
        run.generated = len(parents)
        return run.stopped(why)
    run.generated = len(parents)
    return run.no_plan()
