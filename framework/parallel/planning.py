"""Planning sweeps: one PDDL task per worker task (`plyspec plan DOMAIN TASK...`, task
folders or a suite folder of domain folders), each grounded, searched within its time limit and validated on the worker, with a
coverage table at the end.  Task files travel as text, like specs."""
from __future__ import annotations

from pathlib import Path

from planners.formats.pddl_alone import domain_beside

REF = "framework.parallel.planning:plan_task"


def suite(paths) -> list:
    """[(domain file, problem file)] for `DOMAIN TASK...`, or for one or more folders of IPC
    tasks (a `domain.pddl` with `taskNN.pddl`, or one `domainNN.pddl` per `taskNN.pddl`); a
    folder holding no task but domain folders (an IPC suite) stands for all of them."""
    paths = [Path(p) for p in paths]
    if paths and all(p.is_dir() for p in paths):
        pairs = []
        for folder in paths:
            inner = sorted(d for d in folder.iterdir() if d.is_dir()) if not any(folder.glob("*.pddl")) else []
            for each in inner or [folder]:
                pairs += _folder(each)
        return pairs
    domain, tasks = paths[0], paths[1:]
    return [(domain, task) for task in tasks]


def _folder(folder: Path) -> list:
    tasks = sorted(p for p in folder.glob("*.pddl") if not p.name.lower().startswith("domain"))
    pairs = []
    for task in tasks:
        domain = domain_beside(task)
        if domain is None:
            raise ValueError(f"{folder}: no domain.pddl (nor domainNN.pddl) for {task.name}")
        pairs.append((domain, task))
    if not pairs:
        raise ValueError(f"{folder}: no PDDL tasks (taskNN.pddl) in this folder")
    return pairs


def plan_task(domain_text, problem_text, names, algorithm, heuristic, time_limit, node_limit) -> dict:
    """Ground, search and validate one task; runs on a worker."""
    import os
    import tempfile
    import time
    import planners
    from framework.search.registry import searcher
    from framework.search.result import Budget, BudgetExceeded
    from planners.lifted.validate import validate_plan
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="plyspec-plan-") as folder:
        files = []
        for name, text in zip(names, (domain_text, problem_text)):
            files.append(os.path.join(folder, name))
            with open(files[-1], "w", encoding="utf-8") as f:
                f.write(text)
        problem = planners.load(*files)
        budget = Budget(time_limit)
        try:
            task = planners.ground(problem, budget=budget)
        except BudgetExceeded:
            return {"solved": False, "valid": False, "length": None, "cost": None, "expanded": 0,
                    "reason": "time limit (while grounding)", "algorithm": algorithm,
                    "heuristic": heuristic, "seconds": round(time.perf_counter() - start, 3), "plan": None}
    if time_limit is not None:
        time_limit = max(time_limit - budget.elapsed(), 1e-9)     # the budget covers grounding too
    if algorithm == "auto":
        algorithm, heuristic = planners.AUTO[0], heuristic or planners.AUTO[1]
    heuristic = heuristic or planners.DEFAULT_HEURISTIC.get(algorithm)
    result = searcher(algorithm)(task, time_limit=time_limit, node_limit=node_limit, heuristic=heuristic)
    plan = [task.action_text(a) for a in result.pv]
    solved = bool(result.extra.get("solved"))
    valid = solved and validate_plan(problem, plan).valid
    return {"solved": solved, "valid": valid, "length": len(plan) if solved else None,
            "cost": result.cost if solved else None, "expanded": result.stats.expanded,
            "reason": result.extra.get("reason"), "algorithm": algorithm, "heuristic": heuristic,
            "seconds": round(time.perf_counter() - start, 3), "plan": plan if solved else None}


def check_plan_record(record: dict, shape, domain, task) -> None:
    """Raises `shape.wrong(...)` (framework.readback) for a record of a results file that
    `plan_task` could not have written for (domain, task): its plan is replayed again, so a
    forged `solved` / `valid` (an empty plan, say) is refused, never counted."""
    import planners
    from planners.lifted.validate import validate_plan
    shape.mapping(record, "the record", ("solved", "valid", "length", "cost", "plan"))
    if record["solved"] is False:
        shape.require(record["valid"] is False and record["plan"] is None,
                      "an unsolved task with a plan or a valid flag")
        return
    shape.require(record["solved"] is True, "`solved` is neither true nor false")
    plan = shape.sequence(record["plan"], "`plan`")
    for step in plan:
        shape.text(step, "a step of the plan")
    check = validate_plan(planners.load(domain, task), plan)
    shape.require(check.valid, f"its plan does not validate: {check.message}")
    shape.require(record["valid"] is True and record["length"] == len(plan) and
                  record["cost"] == check.cost,
                  f"its length or cost is not its plan's ({len(plan)} steps, cost {check.cost:g})")

