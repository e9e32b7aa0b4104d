"""Best-first graph search, the engine of uniform-cost search, A* and greedy best-first
search: states leave a priority queue in order of `g_weight * g + h_weight * h`
(ties: smaller h, then first generated); a state is goal-tested when it is expanded, so
with `g_weight` 1 and an admissible h the first plan found is optimal.  When g counts,
a cheaper path re-opens a state; greedy search (`g_weight` 0) keeps the first path.
A heuristic whose `path_dependent` is true (`planners.landmarks.lmcp`) evaluates a state
once, given the state it was first reached from (`h(child, parent)`), and hears of every
later path to it (`h.reached(child, parent)`).
"""
from __future__ import annotations

from heapq import heappop, heappush
from itertools import count

from framework.search.problem import STOPS, SearchRun, plan_to, resolve_heuristic

INF = float("inf")


def best_first(algorithm: str, problem, state=None, *, g_weight: float, h_weight: float,
               heuristic=None, depth=None, time_limit=None, node_limit=None, progress=None):
    run = SearchRun(algorithm, problem, state, time_limit=time_limit, node_limit=node_limit,
                    progress=progress)
    problem, start = run.problem, run.start
    h = resolve_heuristic(problem, heuristic if h_weight else None)
    successors, is_goal, tick, check = problem.successors, problem.is_goal, run.tick, run.budget.check
    reopen = g_weight > 0
    path_dependent = getattr(h, "path_dependent", False)
    h_start = h(start)
    if h_start == INF:
        return run.no_plan(reason="the heuristic proves the start a dead end")
    best_g = {start: 0}
    parents = {start: None}
    run.reached = parents
    estimates = {start: h_start}
    order = count()
    queue = [(h_weight * h_start, h_start, next(order), 0, 0, start)]
    run.frontier = [queue]
    closed = set()
    cut_by_depth = False
    try:
        while queue:
            _, _, _, g, steps, state = heappop(queue)
            if state in closed or g > best_g[state]:
                continue
            if is_goal(state):
                run.generated = len(parents)
                return run.solved(plan_to(parents, state))
            closed.add(state)
            if depth is not None and steps >= depth:
                cut_by_depth = True
                continue
            tick()
            run.depth = max(run.depth, steps + 1)
            for action, child, cost in successors(state):
                new_g = g + cost
                if path_dependent and child in estimates:
                    h.reached(child, state)     # another path: the heuristic learns of it
                known = best_g.get(child)
                if known is not None and (not reopen or known <= new_g):
                    continue
                estimate = estimates.get(child)
                if estimate is None:
                    check()                  # a heuristic (LM-cut) can take long on each child
                    estimate = estimates[child] = h(child, state) if path_dependent else h(child)
                if estimate == INF:
                    continue
                best_g[child] = new_g
                parents[child] = (state, action)
                closed.discard(child)
                heappush(queue, (g_weight * new_g + h_weight * estimate, estimate, next(order),
                                 new_g, steps + 1, child))
    except STOPS as why:
        run.generated = len(parents)
        return run.stopped(why)
    run.generated = len(parents)
    if cut_by_depth:
        return run.no_plan(complete=False, reason=f"no plan within {depth} steps")
    return run.no_plan()
