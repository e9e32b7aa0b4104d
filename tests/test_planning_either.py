"""`either` types: the shipped either-transport sample end to end (parse -> ground ->
plan -> validate), type checks through a union, and `either` refused where PDDL would
give an object two types."""
from __future__ import annotations


import pytest

import planners
from framework.errors import SpecError
from framework.search import bfs
from planners.lifted.validate import validate_plan

SAMPLES = planners.PDDL_DIR / "either-transport"

# Optimal lengths counted by hand: task01 drive, load, drive, unload; task02 p1 goes
# c1 -truck-> a1 -plane-> a2 -truck-> c2 (9 steps), p2 rides the same truck and plane
# back (their return trips: +6).
OPTIMAL = {1: 4, 2: 15}


def load(number: int):
    return planners.load(SAMPLES / "domain.pddl", SAMPLES / f"task{number:02d}.pddl")


@pytest.mark.parametrize("number", sorted(OPTIMAL))
def test_either_sample_plans_validate_with_the_optimal_length(number):
    problem = load(number)
    task = planners.ground(problem)
    result = bfs.search(task)
    texts = [task.action_text(a) for a in result.pv]
    check = validate_plan(problem, texts)
    assert check.valid and len(texts) == OPTIMAL[number] == check.cost


def test_either_parameters_range_over_every_member_type():
    task = planners.ground(load(1))
    loads = sorted(op.name for op in task.operators if op.name.startswith("(load"))
    assert loads == ["(load p1 t1 a)", "(load p1 t1 b)", "(load p1 t1 c)"]


def test_validator_rejects_an_object_outside_the_union():
    problem = load(2)
    for plan, why in ((["(load p1 p2 c1)"], "`p2` is not a (either plane truck)"),
                      (["(load t1 t1 c1)"], "`t1` is not a package")):
        check = validate_plan(problem, plan)
        assert not check.valid and why in check.message


@pytest.mark.parametrize("declaration,what", [
    ("(:objects x - (either a b))", "`either` as the type of an object"),
    ("(:types c - (either a b))", "`either` as the type of a type"),
])
def test_either_refused_for_objects_and_types(tmp_path, declaration, what):
    domain = "(define (domain d) (:requirements :typing) (:types a b) (:predicates (p ?x - a)))"
    problem = f"(define (problem q) (:domain d) {declaration} (:init) (:goal (and)))"
    if "types" in declaration:
        domain, problem = domain.replace("(:types a b)", f"(:types a b) {declaration}"), \
            "(define (problem q) (:domain d) (:init) (:goal (and)))"
    (tmp_path / "d.pddl").write_text(domain)
    (tmp_path / "p.pddl").write_text(problem)
    with pytest.raises(SpecError) as err:
        planners.load(tmp_path / "d.pddl", tmp_path / "p.pddl")
    assert what in str(err.value) and err.value.line == 1 and err.value.col > 1


def test_unknown_either_member_is_a_positioned_error(tmp_path):
    (tmp_path / "d.pddl").write_text("(define (domain d) (:requirements :typing) (:types a)\n"
                                     " (:predicates (p ?x - (either a zz))))")
    (tmp_path / "p.pddl").write_text("(define (problem q) (:domain d) (:init) (:goal (and)))")
    with pytest.raises(SpecError) as err:
        planners.load(tmp_path / "d.pddl", tmp_path / "p.pddl")
    assert "unknown type `zz`" in str(err.value) and err.value.line == 2
