"""The PDDL samples shipped in planners/data/pddl: every task is solved and its plan validated,
and A* with the admissible LM-cut finds the published shortest plan lengths (TRUTHS.md).
These run from a clean checkout, without the IPC collection in ../shared."""
from __future__ import annotations

from pathlib import Path

import pytest

import planners
from conftest import ROOT
from framework.search.registry import searcher
from planners.lifted.validate import validate_plan

SAMPLES = ROOT / "planners" / "data" / "pddl"

# shortest plan lengths published for these tasks (TRUTHS.md, from the IPC / pyperplan set)
SHORTEST = {
    "gripper/task01": 11, "gripper/task02": 17,
    "blocks/task01": 6, "blocks/task04": 12,
    "logistics/task01": 20, "logistics/task02": 19,
    "miconic/task02": 7, "miconic/task03": 10, "miconic/task04": 14, "miconic/task05": 17,
}
ALL_TASKS = sorted(str(p.relative_to(SAMPLES).with_suffix("")) for p in SAMPLES.glob("*/task*.pddl"))


def _plan(name, algo, heuristic):
    folder, task = name.split("/")
    problem = planners.load(SAMPLES / folder / "domain.pddl", SAMPLES / folder / f"{task}.pddl")
    grounded = planners.ground(problem)
    result = searcher(algo)(grounded, heuristic=heuristic, time_limit=120)
    plan = [grounded.action_text(a) for a in result.pv]
    return problem, result, plan


def test_the_samples_are_there():
    assert {"gripper", "blocks", "logistics", "miconic"} <= {p.parent.name for p in SAMPLES.glob("*/domain.pddl")}
    assert set(SHORTEST) <= set(ALL_TASKS)


@pytest.mark.parametrize("name", sorted(SHORTEST))
def test_astar_lmcut_finds_the_published_shortest_plan(name):
    problem, result, plan = _plan(name, "astar", "lmcut")
    assert result.extra.get("solved") and len(plan) == SHORTEST[name]
    assert validate_plan(problem, plan).valid


@pytest.mark.parametrize("name", ALL_TASKS)
def test_gbfs_hff_solves_every_sample_with_a_valid_plan(name):
    problem, result, plan = _plan(name, "gbfs", "hff")
    assert result.extra.get("solved") and plan
    assert validate_plan(problem, plan).valid
    if name in SHORTEST:
        assert len(plan) >= SHORTEST[name]
