"""The compact `.plan` format: the same problems as the YAML specs, with errors at their
place in the `.plan` file."""
from __future__ import annotations

import pytest

import planners
from framework.search import bfs
from tests.planning_support import TOUR_PLAN as GOOD
from tests.planning_support import assert_spec_error

PROBLEMS = planners.PROBLEMS_DIR


def plan_texts(problem):
    task = planners.ground(problem)
    result = bfs.search(task)
    assert result.extra["valid"]
    return [task.action_text(a) for a in result.pv]


@pytest.mark.parametrize("name", ["monkey_bananas", "hanoi"])
def test_plan_file_agrees_with_its_yaml_twin(name):
    text = planners.load(PROBLEMS / f"{name}.plan")
    spec = planners.load(PROBLEMS / f"{name}.yaml")
    assert plan_texts(text) == plan_texts(spec)
    assert [a.name for a in text.actions] == [a.name for a in spec.actions]
    assert sorted(o.name for o in text.objects) == sorted(o.name for o in spec.objects)


@pytest.mark.parametrize("disks", [1, 2, 3, 4])
def test_plan_file_options(disks):
    assert len(plan_texts(planners.load(PROBLEMS / "hanoi.plan", disks=disks))) == 2 ** disks - 1


@pytest.mark.parametrize("old,new,where,message", [
    ("pre At(x), x != y", "pre At(x), x != y, Seen(y)", "5:22", "unknown predicate `Seen`"),
    ("init At(A)", "init At(D)", "8:9", "unknown object `D`"),
    ("goal Visited(C)", "goal Visited(C, A)", "9:6", "predicate `Visited` takes 1 argument(s)"),
    ("problem Tour\n", "problem Tour\npre At(A)\n", "2:1", "`pre` belongs to an action"),
    ("init At(A)", "inti At(A)", "8:1", "unexpected"),
    ("objects place: A, B, C", "objects place: A, B, A", "2:22", "duplicate object `A`"),
])
def test_errors_point_into_the_plan_file(tmp_path, old, new, where, message):
    assert_spec_error(tmp_path / "bad.plan", GOOD, old, new, where, message)


def test_long_lists_continue_after_a_comma(tmp_path):
    source = tmp_path / "tour.plan"
    source.write_text(GOOD.replace("goal Visited(C)", "goal Visited(C),\n     Visited(B)"))
    assert len(plan_texts(planners.load(source))) == 2
