"""The conformance properties of a STRIPS planning problem (YAML or `.plan`): it loads and
grounds; the plan breadth-first search finds replays to the goal under the lifted
problem's own semantics (`planners.lifted.validate`), independently of grounding and search; and
its YAML and `.plan` versions, where both exist, ground to the same task."""
from __future__ import annotations

from pathlib import Path

from framework.conformance.report import FAILED, NOT_APPLICABLE, PASSED, Outcome
from framework.errors import SpecError

PLAN_NODE_LIMIT = 200_000        # states the breadth-first search may generate


def check_planning(path, *, options=None, node_limit=PLAN_NODE_LIMIT):
    """(name, outcomes) for the planning problem at `path`."""
    import planners
    from planners.lifted.validate import validate_plan
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
    outcomes.append(_syntaxes_agree(path, options, task))
    return problem.name, outcomes


def _syntaxes_agree(path, options, task) -> Outcome:
    """The YAML and `.plan` versions of a problem ground to the same task."""
    import planners
    name = "syntaxes_agree"
    other = {".yaml": ".plan", ".yml": ".plan", ".plan": ".yaml"}.get(Path(path).suffix.lower())
    other_path = Path(path).with_suffix(other) if other else None
    if other_path is None or not other_path.exists():
        return Outcome(name, NOT_APPLICABLE, "no version in the other syntax")
    try:
        twin = planners.ground(planners.load(other_path, **dict(options or {})))
    except (SpecError, ValueError) as err:
        return Outcome(name, FAILED, f"{other_path} does not load: {err}")

    def facts(task, bits):
        return sorted(f for i, f in enumerate(task.facts) if bits >> i & 1)
    for what, mine, theirs in (
            ("facts", sorted(task.facts), sorted(twin.facts)),
            ("operators", sorted(o.name for o in task.operators), sorted(o.name for o in twin.operators)),
            ("initial state", facts(task, task.initial), facts(twin, twin.initial)),
            ("goal", facts(task, task.goal), facts(twin, twin.goal))):
        if mine != theirs:
            extra = sorted(set(mine) ^ set(theirs))[:5]
            return Outcome(name, FAILED, f"the {what} differ from {other_path.name}'s (e.g. {extra})")
    return Outcome(name, PASSED, f"same facts, operators, initial state and goal as {other_path.name}")
