"""STRIPS planning in plyspec: declare a problem in YAML or bring IPC PDDL files, ground it
into a compact task, search it with the shared single-agent searchers, validate the plan.

    import planners
    problem = planners.load("planners/data/problems/hanoi.yaml", disks=4)   # or load(domain, problem)
    task = planners.ground(problem)
    result = planners.plan(task, algorithm="astar", heuristic="hmax")
"""
from __future__ import annotations

from pathlib import Path

from planners.lifted.ast import PlanningProblem
from planners.grounding.ground import DEFAULT_MAX_OPERATORS, ground
from planners.grounding.task import Task

DATA_DIR = Path(__file__).with_name("data")
PROBLEMS_DIR = DATA_DIR / "problems"     # the shipped YAML and .plan problems
PDDL_DIR = DATA_DIR / "pddl"             # the shipped PDDL samples: DOMAIN/domain.pddl, DOMAIN/taskNN.pddl


def load(path, problem_path=None, **options) -> PlanningProblem:
    """A checked planning problem from a YAML planning spec or a `.plan` file (with
    `options` overriding its declared options), or from a PDDL domain and problem file."""
    if problem_path is None:                     # a shipped problem by name: load("gripper")
        from framework.conformance.discover import resolve
        path = resolve(path)
    path = Path(path)
    if path.suffix.lower() == ".pddl" or problem_path is not None:
        from planners.formats.pddl import load_pddl
        if problem_path is None:
            raise ValueError(f"{path}: a PDDL domain needs a problem file too "
                             "(load(domain, problem))")
        if options:
            raise ValueError("PDDL problems take no options")
        return load_pddl(path, problem_path)
    if path.suffix.lower() == ".plan":
        from planners.formats.plan_text import load_plan_text
        return load_plan_text(path, **options)
    from planners.formats.yaml_spec import load_yaml
    return load_yaml(path, **options)


# What `plyspec plan` runs when no --algo/--config is given: cheapest plans, with the
# strongest admissible heuristic (fewest steps when actions have no costs).
AUTO = ("astar", "lmcut")
# the heuristic of a searcher given none
DEFAULT_HEURISTIC = {"astar": "hmax", "wastar": "hff", "gbfs": "hff", "lazy-gbfs": "hff",
                     "lama-first": "hff+lmcount", "lama": "hff+lmcount"}


def plan(task: Task, algorithm: str = "bfs", **kw):
    """Searches `task` with a shared single-agent searcher by name; returns its Result."""
    from framework.search.registry import searcher
    return searcher(algorithm)(task, **kw)


__all__ = ["load", "ground", "plan", "AUTO", "DEFAULT_HEURISTIC", "PlanningProblem", "Task", "DEFAULT_MAX_OPERATORS",
           "PROBLEMS_DIR", "PDDL_DIR"]
