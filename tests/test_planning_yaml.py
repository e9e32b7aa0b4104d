"""The YAML planning specs shipped in planners/data/problems, their options, their error
messages, and their export to PDDL."""
from __future__ import annotations

import textwrap

import pytest

import planners
from framework.errors import SpecError
from framework.search import astar, bfs, ucs
from planners.formats.export import to_pddl
from planners.lifted.validate import validate_plan
from tests.planning_support import TOUR_YAML as GOOD
from tests.planning_support import assert_spec_error

PROBLEMS = planners.PROBLEMS_DIR
OPTIMUM = {"monkey_bananas": 4, "blocks": 6, "gripper": 11, "spare_tire": 3, "air_cargo": 6,
           "hanoi": 7}


def solve(problem):
    task = planners.ground(problem)
    result = bfs.search(task)
    assert result.extra["valid"]
    plan = [task.action_text(a) for a in result.pv]
    assert validate_plan(problem, plan).valid
    return plan


@pytest.mark.parametrize("name", sorted(OPTIMUM))
def test_shipped_problem_has_its_known_optimum(name):
    assert len(solve(planners.load(PROBLEMS / f"{name}.yaml"))) == OPTIMUM[name]


def test_monkey_and_bananas_plan_in_the_lectures_terms():
    plan = solve(planners.load(PROBLEMS / "monkey_bananas.yaml"))
    assert plan == ["Move(A, C)", "PushBox(C, B)", "ClimbUp(B)", "TakeBananas(B)"]


@pytest.mark.parametrize("disks", [1, 2, 3, 4])
def test_hanoi_needs_two_to_the_n_minus_one_moves(disks):
    problem = planners.load(PROBLEMS / "hanoi.yaml", disks=disks)
    assert problem.options == {"disks": disks}
    assert len(solve(problem)) == 2 ** disks - 1
    result = astar.search(planners.ground(problem), heuristic="hmax")
    assert result.cost == 2 ** disks - 1


def test_options_come_from_the_command_line_as_text():
    problem = planners.load(PROBLEMS / "gripper.yaml", balls="2")
    assert len(solve(problem)) == 5


@pytest.mark.parametrize("name", sorted(OPTIMUM))
def test_export_to_pddl_round_trips(name, tmp_path):
    problem = planners.load(PROBLEMS / f"{name}.yaml")
    domain_text, problem_text = to_pddl(problem)
    (tmp_path / "domain.pddl").write_text(domain_text)
    (tmp_path / "problem.pddl").write_text(problem_text)
    again = planners.load(tmp_path / "domain.pddl", tmp_path / "problem.pddl")
    assert len(solve(again)) == OPTIMUM[name]


def test_action_costs_are_kept_and_exported(tmp_path):
    spec = tmp_path / "roads.yaml"
    spec.write_text(textwrap.dedent("""\
        objects: {city: [A, B, C]}
        predicates: [At(x - city)]
        actions:
          Highway(x - city, y - city):
            pre: [At(x), x == A, y == C]
            add: [At(y)]
            del: [At(x)]
            cost: 10
          Road(x - city, y - city):
            pre: [At(x), x != y]
            add: [At(y)]
            del: [At(x)]
            cost: 3
        init: [At(A)]
        goal: [At(C)]
        """))
    problem = planners.load(spec)
    task = planners.ground(problem)
    assert len(bfs.search(task).pv) == 1         # Highway(A, C) or Road(A, C)
    assert ucs.search(task).cost == 3            # the cheap one
    domain_text, problem_text = to_pddl(problem)
    assert ":action-costs" in domain_text and "(increase (total-cost) 10)" in domain_text
    (tmp_path / "d.pddl").write_text(domain_text)
    (tmp_path / "p.pddl").write_text(problem_text)
    again = planners.ground(planners.load(tmp_path / "d.pddl", tmp_path / "p.pddl"))
    assert astar.search(again, heuristic="hmax").cost == 3


ERRORS = [
    # (replace this, with this, expected location, expected message, expected hint)
    ("pre: [At(x), x != y]", "pre: [Att(x), x != y]", "5:11", "unknown predicate `Att`",
     "did you mean `At`?"),
    ("add: [At(y), Visited(y)]", "add: [At(y, x), Visited(y)]", "6:11",
     "predicate `At` takes 1 argument(s), 2 given", None),
    ("init: [At(A)]", "init: [At(D)]", "8:11", "unknown object `D`", None),
    ("init: [At(A)]", "init: [At(AA)]", "8:11", "unknown object `AA`", "did you mean `A`?"),
    ("Go(x - place, y - place)", "Go(x - place, y - plac)", "4:17", "unknown type `plac`",
     "did you mean `place`?"),
    ("Visited(x - place)]", "At(x - place)]", "2:29", "duplicate predicate `At`", "line 2"),
    ("del: [At(x)]", "del: [At(z)]", "7:14", "unknown object `z`", None),
    ("goal: [Visited(C)]", "gaol: [Visited(C)]", "9:1", "unknown section `gaol`",
     "did you mean `goal`?"),
    ("pre: [At(x), x != y]", "pre: [At(x), x !! y]", "5:20", "unexpected", None),
    ("    del: [At(x)]", "    dell: [At(x)]", "7:5", "unknown part `dell`", "did you mean `del`?"),
    ("init: [At(A)]", "init: [not At(A)]", "8:8", "init lists only facts that hold", None),
    ("objects: {place: [A, B, C]}", "objects: {place: [A, B, A]}", "1:25",
     "duplicate object `A`", None),
]


@pytest.mark.parametrize("old,new,where,message,hint", ERRORS)
def test_spec_errors_point_at_the_mistake(tmp_path, old, new, where, message, hint):
    assert_spec_error(tmp_path / "bad.yaml", GOOD, old, new, where, message, hint)


def test_caret_sits_under_the_unknown_name(tmp_path):
    spec = tmp_path / "bad.yaml"
    spec.write_text(GOOD.replace("pre: [At(x), x != y]", "pre: [At(x), Atx(y)]"))
    with pytest.raises(SpecError) as err:
        planners.load(spec)
    source, caret = str(err.value).splitlines()[1:3]
    column = caret.index("^")
    assert source[column:column + 3] == "Atx" and caret.count("^") == 3


def test_unknown_option_is_refused_with_a_hint():
    with pytest.raises(SpecError, match="did you mean `disks`"):
        planners.load(PROBLEMS / "hanoi.yaml", disk=3)


def test_broken_yaml_is_a_spec_error(tmp_path):
    spec = tmp_path / "bad.yaml"
    spec.write_text("predicates: [At(x)\ninit: {")
    with pytest.raises(SpecError) as err:
        planners.load(spec)
    assert "not valid YAML" in str(err.value)


def test_ground_operator_limit_applies_to_specs():
    problem = planners.load(PROBLEMS / "hanoi.yaml", disks=6)
    with pytest.raises(ValueError, match="exceeds 100 operators"):
        planners.ground(problem, max_operators=100)


def test_objects_of_the_wrong_type_are_refused(tmp_path):
    spec = GOOD.replace("objects: {place: [A, B, C]}", "objects: {place: [A, B, C], level: [Low]}")
    text = assert_spec_error(tmp_path / "bad.yaml", spec, "init: [At(A)]", "init: [At(Low)]",
                             "8:11", "object `Low` is a level, `At` expects a place here")
    assert text.splitlines()[2].count("^") == 3


@pytest.mark.parametrize("blocks,length", [(3, 6), (4, 8)])
def test_inverting_a_tower_takes_the_published_number_of_actions(tmp_path, blocks, length):
    names = "ABCD"[:blocks]
    text = (PROBLEMS / "blocks.yaml").read_text()
    text = text[:text.index("objects:")] + f"objects: {{block: [{', '.join(names)}]}}\n" + \
        text[text.index("predicates:"):text.index("init:")]
    tower = [f"On({upper}, {lower})" for lower, upper in zip(names, names[1:])]      # B on A, C on B ...
    inverted = [f"On({lower}, {upper})" for lower, upper in zip(names, names[1:])]   # A on B, B on C ...
    init = tower + [f"OnTable({names[0]})", f"Clear({names[-1]})", "HandEmpty"]
    text += "init: [" + ", ".join(init) + "]\ngoal: [" + ", ".join(inverted) + "]\n"
    path = tmp_path / "tower.yaml"
    path.write_text(text)
    assert len(solve(planners.load(path))) == length


def test_a_generator_over_a_written_empty_range_is_an_error_not_a_vanishing_item(tmp_path):
    """`- Free(Middle) for i in 1..0` used to stand for nothing, silently (and then "no plan
    exists"); a range whose bounds read an option may still come out empty (hanoi, disks=1)."""
    text = (tmp_path / "empty.yaml")
    good = (PROBLEMS / "hanoi.yaml").read_text()
    old = "  - On(D{i}, D{i+1}) for i in 1..disks-1\n"
    line = good[:good.index(old)].count("\n") + 1
    assert_spec_error(text, good, old, "  - On(D{i}, D{i+1}) for i in 1..0\n", f"{line}:26",
                      "`i in 1..0` is an empty range: this item stands for nothing",
                      "a range counts up")
    plan_file = tmp_path / "empty.plan"
    plan_file.write_text((PROBLEMS / "hanoi.plan").read_text().replace("for i in 1..disks-1", "for i in 3..2", 1))
    with pytest.raises(SpecError, match="`i in 3..2` is an empty range"):
        planners.load(plan_file)
    assert len(planners.ground(planners.load(PROBLEMS / "hanoi.yaml", disks=1)).facts) > 0
