"""Conditional effects and action costs written in the YAML and `.plan` planning formats: the
samples planners/data/problems/lamps.yaml and lamps.plan ground to the same facts and operators as its PDDL twin
(planners/data/pddl/lamps/), A* with LM-cut finds its optimal cost (checked by uniform-cost
search and the validator), and mistakes in a `when` entry are SpecErrors at their place."""
from __future__ import annotations

import re

import pytest

import planners
from conftest import ROOT
from framework.errors import SpecError
from framework.search.registry import searcher
from planners.lifted.check import check
from planners.lifted.validate import validate_plan
from planners.formats.yaml_spec import parse_yaml

YAML = ROOT / "planners" / "data" / "problems" / "lamps.yaml"
PLAN = ROOT / "planners" / "data" / "problems" / "lamps.plan"
PDDL = ROOT / "planners" / "data" / "pddl" / "lamps"


def _names(text: str) -> tuple:
    """`Flip(L1)` and `(flip l1)` alike as ("flip", "l1")."""
    return tuple(re.findall(r"[\w-]+", text.lower()))


def _facts(task, mask: int) -> frozenset:
    return frozenset(_names(f) for i, f in enumerate(task.facts) if mask >> i & 1)


def _grounded(task) -> set:
    """Every operator as names: (name, cost, pre, absent, add, delete, conditional effects)."""
    return {(_names(op.name), op.cost, *(_facts(task, m) for m in
             (op.pre, op.absent, op.add, op.delete)),
             frozenset(tuple(_facts(task, m) for m in effect) for effect in op.effects))
            for op in task.operators}


@pytest.mark.parametrize("path", [YAML, PLAN], ids=["yaml", "plan"])
def test_yaml_plan_and_pddl_ground_to_the_same_task(path):
    yaml_task = planners.ground(planners.load(path))
    pddl_task = planners.ground(planners.load(PDDL / "domain.pddl", PDDL / "task01.pddl"))
    assert {_names(f) for f in yaml_task.facts} == {_names(f) for f in pddl_task.facts}
    assert _grounded(yaml_task) == _grounded(pddl_task)
    assert any(op.effects for op in yaml_task.operators)     # conditional effects survive
    for task_mask in ("initial", "goal", "goal_absent"):
        assert (_facts(yaml_task, getattr(yaml_task, task_mask))
                == _facts(pddl_task, getattr(pddl_task, task_mask)))


def test_astar_lmcut_finds_the_optimal_cost_of_the_yaml_task():
    problem = planners.load(YAML)
    task = planners.ground(problem)
    result = searcher("astar")(task, heuristic="lmcut", time_limit=60)
    plan = [task.action_text(a) for a in result.pv]
    check = validate_plan(problem, plan)
    assert check.valid, check.message
    ucs = searcher("ucs")(task, time_limit=60)
    assert check.cost == result.cost == ucs.cost == 6
    assert len(plan) == 2                      # the two pair flips, not four single ones


BASE = """problem: p
objects: {lamp: [L1]}
predicates: [On(x - lamp)]
actions:
  Flip(x - lamp):
    when:
%s
init: []
goal: [On(L1)]
"""


@pytest.mark.parametrize("entry, message, line", [
    ("      - {add: [On(x)]}", "has no `if` conditions", 7),
    ("      - {if: [On(x)], adds: [On(x)]}", "unknown part `adds`", 7),
    ("      - On(x)", "maps if/add/del to lists", 7),
    ("      - {if: [On(y)], add: [On(x)]}", "bad.yaml:7:18: error: unknown object `y`", 7),
    ("      - {if: [On(x)], add: [not On(x)]}", "lists only facts that hold", 7),
])
def test_mistakes_in_a_when_entry_are_positioned_spec_errors(entry, message, line):
    with pytest.raises(SpecError) as err:
        _load(BASE % entry)
    assert message in str(err.value)
    assert f"bad.yaml:{line}:" in str(err.value)


def _load(text):
    return check(parse_yaml(text, "bad.yaml"))


def test_pddl_export_of_the_yaml_task_grounds_to_the_same_task(tmp_path):
    from planners.formats.export import to_pddl
    domain_text, problem_text = to_pddl(planners.load(YAML))
    assert "(when (on ?x) (not (on ?x)))" in domain_text.lower()
    (tmp_path / "domain.pddl").write_text(domain_text)
    (tmp_path / "problem.pddl").write_text(problem_text)
    exported = planners.ground(planners.load(tmp_path / "domain.pddl", tmp_path / "problem.pddl"))
    assert _grounded(exported) == _grounded(planners.ground(planners.load(YAML)))


@pytest.mark.parametrize("text, message, line, col", [
    ("  when On(x)\n    pre On(x)\n", "`pre` after a `when`", 7, 5),
    ("  when On(y)\n    add On(x)\n", "unknown object `y`", 6, 11),
    ("  when On(x)\n    add not On(x)\n", "lists only facts that hold", 7, 9),
])
def test_mistakes_in_a_plan_when_are_positioned_spec_errors(text, message, line, col):
    from planners.formats.plan_text import parse_plan_text
    head = "problem p\nobjects lamp: L1\npredicates On(x - lamp)\ninit On(L1)\naction Flip(x - lamp)\n"
    with pytest.raises(SpecError) as err:
        check(parse_plan_text(head + text + "goal On(L1)\n", "bad.plan"))
    assert message in str(err.value)
    assert f"bad.plan:{line}:{col}:" in str(err.value)


ADL = """problem: p
types: [block]
objects: {block: [A, B]}
predicates: [Clear(x - block), On(x - block, y - block)]
%s
actions:
  Take(x - block):
    pre: [%s]
    add: [Clear(x)]
%s
init: [%s]
goal: [%s]
"""


def _adl(derived="", pre="Clear(x)", when="", init="Clear(A)", goal="Clear(A)") -> str:
    return ADL % (derived, pre, when, init, goal)


@pytest.mark.parametrize("text, message, where", [
    (_adl(pre="forall(b - blok) Clear(b)"), "unknown type `blok`", "8:18"),
    (_adl(pre="forall(b - block Clear(b)"), "unexpected `Clear`", "8:28"),
    (_adl(pre="exists(z - block) On(q, z)"), "unknown object `q`", "8:32"),
    (_adl(pre="if Clear(x) then"), "unexpected end of text", "8:27"),
    (_adl(pre="Clear(x) and forall(b - block) Clear(b)"), "goes in parentheses", "8:33"),
    (_adl(pre="not (Clear(x) or)"), "unexpected `)`", "8:27"),
    (_adl(pre="exists(y - block or plain) On(x, y)"), "unknown type `plain`", "8:18"),
    (_adl(init="Clear(A) or Clear(B)"), "init lists facts, not a formula", "11:8"),
    (_adl(goal="forall(b - block) Clear(c)"), "unknown object `c`", "12:32"),
    (_adl(derived="derived:\n  Top(x - block): [not (exists(y - block) Onn(y, x))]",
          goal="Top(A)"), "unknown predicate `Onn`", "6:43"),
    (_adl(derived="derived:\n  Clear(x - block): [On(x, x)]"),
     "changes the derived predicate `Clear`", "10:11"),
    (_adl(derived="derived:\n  Top(x - blok): [Clear(x)]"), "unknown type `blok`", "6:7"),
    (_adl(derived="derived: [Top]"), "derived must be a mapping", "5:10"),
    (_adl(when="    when:\n      - {forall: [c - crat], add: [Clear(c)]}"),
     "unknown type `crat`", "11:19"),
    (_adl(when="    when:\n      - {forall: [c block], add: [Clear(c)]}"),
     "unexpected `block`", "11:21"),
    (_adl(when="    when:\n      - {forall: [c - block], add: [Clear(d)]}"),
     "unknown object `d`", "11:43"),
    (_adl(when="    when:\n      - {forall: [c - block], add: [Clear(c) or Clear(x)]}"),
     "lists facts, not a formula", "11:37"),
    (_adl(when="    when:\n      - {forall: [c - block], fi: [Clear(c)]}"),
     "unknown part `fi`", "11:31"),
])
def test_mistakes_in_adl_items_are_positioned_spec_errors(text, message, where):
    with pytest.raises(SpecError) as err:
        _load(text)
    assert message in str(err.value)
    assert f"bad.yaml:{where}:" in str(err.value)
    assert "^" in str(err.value)                  # the caret under the culprit


def test_a_derived_predicate_negating_itself_is_refused_at_its_rule():
    problem = _load(_adl(derived="derived:\n  Top(x - block): [not Top(x)]", goal="Top(A)"))
    with pytest.raises(SpecError, match="depends negatively on itself") as err:
        planners.ground(problem)
    assert "bad.yaml:6:3:" in str(err.value)


@pytest.mark.parametrize("text, message, where", [
    ("if P\n", "`if` belongs to a derived predicate", "4:1"),
    ("forall x - t\n", "`forall` belongs to an action", "4:1"),
    ("action A\n  forall x - t\n  pre P\n", "`pre` after a `when`", "6:3"),
    ("derived Q(x - t)\n  if P\n  pre P\n", "`pre` belongs to an action", "6:3"),
    ("action A\n  pre forall(x - u) P\n", "unknown type `u`", "5:14"),
    ("derived Q(x - t)\n  if not (exists(y - t) R(y))\naction A\n", "unknown predicate `R`", "5:25"),
    ("action A\n  forall x - t\n  when P or\n    add P\n", "unexpected end of text", "6:12"),
])
def test_mistakes_in_plan_adl_lines_are_positioned_spec_errors(text, message, where):
    from planners.formats.plan_text import parse_plan_text
    head = "problem p\ntypes t\npredicates P\n"
    with pytest.raises(SpecError) as err:
        check(parse_plan_text(head + text + "init P\ngoal P\n", "bad.plan"))
    assert message in str(err.value)
    assert f"bad.plan:{where}:" in str(err.value)
