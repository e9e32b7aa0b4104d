"""Breadth-first search: a plan with the fewest steps.

Graph search layer by layer; a state is goal-tested when it is generated (as pyperplan
does), so the search stops one layer earlier than testing at expansion.  The map of
visited states to (parent, action) doubles as the closed set and yields the plan.
"""
from __future__ import annotations

from framework.search.problem import STOPS, SearchRun, plan_to


def search(problem, state=None, *, depth=None, time_limit=None, node_limit=None,
           heuristic=None, progress=None, **kw):
    """Shortest plan (in steps) within `depth` steps, or no plan."""
    run = SearchRun("bfs", problem, state, time_limit=time_limit, node_limit=node_limit,
                    progress=progress)
    problem, start = run.problem, run.start
    if problem.is_goal(start):
        return run.solved([])
    parents = {start: None}
    run.reached = parents
    successors, is_goal, tick = problem.successors, problem.is_goal, run.tick
    layer = [start]
    try:
        while layer and (depth is None or run.depth < depth):
            run.depth += 1
            next_layer = []
            run.frontier = [layer, next_layer]
            append = next_layer.append
            for state in layer:
                tick()
                for action, child, _ in successors(state):
                    if child not in parents:
                        parents[child] = (state, action)
                        if is_goal(child):
                            run.generated = len(parents)
                            return run.solved(plan_to(parents, child))
                        append(child)
            layer = next_layer
    except STOPS as why:
        run.generated = len(parents)
        return run.stopped(why)
    run.generated = len(parents)
    if layer:
        return run.no_plan(complete=False, reason=f"no plan within {depth} steps")
    return run.no_plan()
