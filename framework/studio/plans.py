"""A plan `plyspec plan` found, replayed step by step for the plan view: each action with
the facts it adds and deletes, the state after it and the goal facts that hold.

The problem is grounded again here (the same `planners.ground` the planner used) and each
action of the plan is matched by its text to an applicable operator, so what the page shows
is a replay of the plan, not a second planner.  A 1-player game spec (a puzzle) is replayed
on its states instead, shown as `str(state)`.
"""
from __future__ import annotations

from framework.search.result import Budget, BudgetExceeded

MAX_STEPS = 1_000          # steps replayed for the page (a longer plan is listed, not replayed)
MAX_FACTS = 2_000          # facts listed per state
GROUND_SECONDS = 20.0


def replay(files: list, options: dict, plan: list) -> dict:
    if len(files) == 1 and _is_game(files[0]):
        return _replay_game(files[0], options, plan)
    import planners
    problem = planners.load(*files, **options)
    try:
        task = planners.ground(problem, budget=Budget(GROUND_SECONDS))
    except BudgetExceeded:
        return {"facts": False, "steps": [], "note": "the problem is too large to replay here"}
    names = task.facts

    def facts(mask) -> list:
        out, i = [], 0
        while mask and len(out) < MAX_FACTS:
            if mask & 1:
                out.append(names[i])
            mask, i = mask >> 1, i + 1
        return out

    state = task.initial_state()
    goal = facts(task.goal)
    steps = [{"action": None, "add": [], "delete": [], "state": facts(state),
              "goal_met": facts(state & task.goal)}]
    for text in plan[:MAX_STEPS]:
        follow = [(op, nxt) for op, nxt, _ in task.successors(state) if task.action_text(op) == text]
        if not follow:
            raise ValueError(f"the plan's action {text!r} does not apply at step {len(steps)}")
        op, nxt = follow[0]
        steps.append({"action": text, "cost": task.operators[op].cost, "add": facts(nxt & ~state),
                      "delete": facts(state & ~nxt), "state": facts(nxt), "goal_met": facts(nxt & task.goal)})
        state = nxt
    return {"facts": True, "goal": goal, "goal_absent": facts(task.goal_absent), "steps": steps,
            "replayed_all": len(plan) <= MAX_STEPS}


def _is_game(path) -> bool:
    from framework.cli.plan_cmd import _is_game_spec
    return _is_game_spec(path)


def _replay_game(path, options, plan) -> dict:
    from framework import load
    game = load(path, **options)
    state = game.initial_state()
    steps = [{"action": None, "text": str(state)}]
    for text in plan[:MAX_STEPS]:
        state = state.result(game.parse_action(state, text))
        steps.append({"action": text, "text": str(state)})
    return {"facts": False, "steps": steps, "replayed_all": len(plan) <= MAX_STEPS}
