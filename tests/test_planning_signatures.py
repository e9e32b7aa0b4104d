"""Signatures and argument types of planning problems: a parameter named like an object is
refused in YAML and `.plan` (it would hide the object), every predicate argument must be of
the declared type or a subtype (never a wider or merely overlapping one), and so no shipped
problem grounds an ill-typed fact (checked against the declared types independently)."""
from __future__ import annotations

import re

import pytest

import planners
from framework.errors import SpecError
from tests.planning_support import assert_spec_error

PROBLEMS = planners.PROBLEMS_DIR
SAMPLES = planners.PDDL_DIR

SPARE = (PROBLEMS / "spare_tire.yaml").read_text()


def test_yaml_parameter_named_like_an_object_is_refused(tmp_path):
    text = assert_spec_error(tmp_path / "s.yaml", SPARE, "PutOn(t - tire, p - place):",
                             "PutOn(t - tire, Axle):", "14:19",
                             "parameter `Axle` has the name of the object `Axle` (line 7)",
                             "`p - place` and `p == Axle` in `pre`")
    assert len(text.splitlines()) == 4          # message, line, caret, hint: one error


def test_plan_text_parameter_named_like_an_object_is_refused(tmp_path):
    good = (PROBLEMS / "monkey_bananas.plan").read_text()
    assert_spec_error(tmp_path / "m.plan", good, "action ClimbUp(x - place)",
                      "action ClimbUp(A)", "12:16", "parameter `A` has the name of the object `A`")


def test_quantified_variable_named_like_an_object_is_refused(tmp_path):
    assert_spec_error(tmp_path / "s.yaml", SPARE, "goal:\n  - At(Spare, Axle)",
                      "goal:\n  - forall(Trunk - place) not At(Flat, Trunk)", "30:12",
                      "parameter `Trunk` has the name of the object `Trunk`")


def test_pddl_variable_may_share_a_constant_name(tmp_path):
    """`?axle` and the constant `axle` are different names in PDDL."""
    (tmp_path / "d.pddl").write_text(
        "(define (domain d) (:requirements :typing) (:types place)\n"
        " (:constants axle - place) (:predicates (at ?p - place))\n"
        " (:action go :parameters (?axle - place) :precondition (at axle)\n"
        "  :effect (and (at ?axle) (not (at axle)))))")
    (tmp_path / "p.pddl").write_text("(define (problem q) (:domain d) (:objects b - place)"
                                     " (:init (at axle)) (:goal (at b)))")
    task = planners.ground(planners.load(tmp_path / "d.pddl", tmp_path / "p.pddl"))
    assert sorted(op.name for op in task.operators) == ["(go b)"]


@pytest.mark.parametrize("old,new,where,message", [
    # an untyped (object) parameter in a place slot of an add effect
    ("Remove(t - tire, p - place):", "Remove(t - tire, p):", "11:17",
     "parameter `p` is an object, `At` expects a place here"),
    # ... in a precondition
    ("PutOn(t - tire, p - place):", "PutOn(t, p - place):", "15:14",
     "parameter `t` is an object, `At` expects a tire here"),
    # an object of another type
    ("goal:\n  - At(Spare, Axle)", "goal:\n  - At(Spare, Flat)", "30:15",
     "object `Flat` is a tire, `At` expects a place here"),
])
def test_yaml_argument_of_a_wider_or_other_type_is_refused(tmp_path, old, new, where, message):
    assert_spec_error(tmp_path / "s.yaml", SPARE, old, new, where, message)


def test_the_issue_example_grounds_no_ill_typed_fact(tmp_path):
    """`Look(x)` adding `At(x, x)`: before, `At(Flat, Flat)` was a fact of the task."""
    (tmp_path / "t.yaml").write_text(
        "problem: t\nobjects: {tire: [Flat], place: [Axle]}\n"
        "predicates: [At(t - tire, p - place), Seen(x)]\n"
        "actions:\n  Look(x):\n    pre: [Seen(x)]\n    add: [At(x, x)]\n"
        "init: [Seen(Flat)]\ngoal: [At(Flat, Axle)]\n")
    with pytest.raises(SpecError) as err:
        planners.load(tmp_path / "t.yaml")
    assert "parameter `x` is an object, `At` expects a tire here" in str(err.value)
    assert (err.value.line, err.value.col) == (7, 14)
    assert "give `x` the type tire" in str(err.value)


def _pddl_either(tmp_path, load_param: str):
    (tmp_path / "d.pddl").write_text(
        "(define (domain d) (:requirements :typing)\n"
        " (:types truck plane - vehicle package place)\n"
        " (:predicates (in ?x - package ?v - vehicle) (at ?x - (either package vehicle) ?p - place))\n"
        f" (:action load :parameters (?x - package ?v - {load_param} ?p - place)\n"
        "  :precondition (and (at ?x ?p) (at ?v ?p)) :effect (and (in ?x ?v))))")
    (tmp_path / "p.pddl").write_text(
        "(define (problem q) (:domain d) (:objects p - package t - truck c - place)"
        " (:init (at p c) (at t c)) (:goal (in p t)))")
    return planners.load(tmp_path / "d.pddl", tmp_path / "p.pddl")


def test_pddl_either_inside_the_declared_type_is_accepted(tmp_path):
    assert planners.ground(_pddl_either(tmp_path, "(either truck plane)")).operators


@pytest.mark.parametrize("param,message", [
    # wider than (either package vehicle), in the precondition (at ?v ?p)
    ("object", "parameter `v` is an object, `at` expects a (either package vehicle) here"),
    # only overlaps vehicle, in the effect (in ?x ?v)
    ("(either truck package)",
     "parameter `v` is a (either package truck), `in` expects a vehicle here"),
])
def test_pddl_argument_of_a_wider_or_overlapping_type_is_refused(tmp_path, param, message):
    with pytest.raises(SpecError) as err:
        _pddl_either(tmp_path, param)
    assert message in str(err.value)
    assert err.value.file.endswith("d.pddl") and err.value.line == 5 and err.value.col > 1


def _shipped():
    for path in sorted(PROBLEMS.glob("*.yaml")) + sorted(PROBLEMS.glob("*.plan")):
        if re.search(r"^game:", path.read_text(), re.M):     # a 1-player game, not PDDL-like
            continue
        yield pytest.param(lambda path=path: planners.load(path), id=path.name)
    for folder in sorted(p for p in SAMPLES.iterdir() if p.is_dir()):
        yield pytest.param(lambda f=folder: planners.load(f / "domain.pddl", f / "task01.pddl"),
                           id=folder.name)


@pytest.mark.parametrize("load", _shipped())
def test_no_shipped_problem_grounds_an_ill_typed_fact(load):
    """Every argument of every fact of the grounded task is an object of the type (or a
    subtype of the type) its predicate declares, computed here from the declarations."""
    problem = load()
    parents = {}
    for t in problem.types:
        parents.setdefault(t.name, set()).add(t.parent)

    def is_a(type_name, wanted):
        if wanted.startswith("(either "):
            return any(is_a(type_name, w) for w in wanted[8:-1].split())
        todo, seen = [type_name], set()
        while todo:
            t = todo.pop()
            if t == wanted or wanted == "object":
                return True
            if t not in seen:
                seen.add(t)
                todo += parents.get(t, ())
        return False

    fold = str.lower if problem.action_style == "pddl" else (lambda s: s)
    types = {fold(o.name): o.type for o in problem.objects}
    declared = {fold(p.name): [q.type for q in p.params]
                for p in [*problem.predicates, *(r.head for r in problem.derived)]
                if hasattr(p, "params")}
    task = planners.ground(problem)
    checked = 0
    for fact in task.facts:
        name, *args = re.findall(r"[^\s(),]+", fact)
        if name not in declared:         # an axiom's own auxiliary fact
            continue
        for arg, wanted in zip(args, declared[name], strict=True):
            assert is_a(types[arg], wanted), (fact, arg, wanted)
            checked += 1
    assert checked or not any(declared.values())
