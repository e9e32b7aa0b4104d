"""The conformance properties of a STRIPS planning problem (YAML or `.plan`): it loads and
grounds, and the plan breadth-first search finds replays to the goal under the lifted
problem's own semantics (`planners.validate`), independently of grounding and search."""
from __future__ import annotations

from framework.conformance.report import FAILED, NOT_APPLICABLE, PASSED, Outcome
from framework.errors import SpecError

PLAN_NODE_LIMIT = 200_000        # states the breadth-first search may generate


def check_planning(path, *, options=None, node_limit=PLAN_NODE_LIMIT):
    """(name, outcomes) for the planning problem at `path`."""
    import planners
    from planners.validate import validate_plan
    try:
        problem = planners.load(path, **dict(options or {}))
        task = planners.ground(problem)
    except (SpecError, ValueError) as err:
        return None, [Outcome("loads", FAILED, str(err))]
    outcomes = [Outcome("loads", PASSED, f"grounded: {len(task.facts):,} facts, "
                        f"{len(task.operators):,} operators")]
    name = "plan_replays_to_goal"
    result = planners.plan(task, "bfs", node_limit=node_limit)
    plan = [task.action_text(a) for a in result.pv]
    if not result.extra.get("solved"):
        status = NOT_APPLICABLE if not result.complete else FAILED
        outcomes.append(Outcome(name, status, f"breadth-first search: {result.extra.get('reason')}"))
        return problem.name, outcomes
    check = validate_plan(problem, plan)
    if check.valid and result.extra.get("valid"):
        outcomes.append(Outcome(name, PASSED, f"{len(plan)}-step plan (breadth-first) replays to the goal"))
    else:
        outcomes.append(Outcome(name, FAILED, check.message, plan))
    return problem.name, outcomes
