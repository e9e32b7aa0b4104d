"""Damaged planning specs and PDDL files raise a SpecError (with a position), never
another exception."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import planners
from framework.errors import SpecError
from tests.planning_support import TOUR_PLAN as GOOD_PLAN
from tests.planning_support import TOUR_YAML as GOOD_YAML

GOOD_PDDL_DOMAIN = """(define (domain tour)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types place)
  (:predicates (at ?x - place) (visited ?x - place))
  (:action go :parameters (?x ?y - place)
    :precondition (and (at ?x) (not (= ?x ?y)))
    :effect (and (at ?y) (visited ?y) (not (at ?x)))))
"""
GOOD_PDDL_PROBLEM = """(define (problem t1) (:domain tour)
  (:objects a b c - place)
  (:init (at a))
  (:goal (and (visited c) (not (visited b)))))
"""

ALPHABET = st.sampled_from(list("()[]{},:-=!#?. \n\tabxyAB01") + ["not ", "for i in 1..2",
                                                                 "  ", "\n  - "])


@st.composite
def damaged(draw, text: str) -> str:
    """`text` with a few characters deleted, replaced or inserted."""
    chars = list(text)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(chars)))
        action = draw(st.sampled_from(["delete", "replace", "insert"]))
        piece = draw(ALPHABET)
        if action == "insert" or at == len(chars):
            chars[at:at] = list(piece)
        elif action == "delete":
            del chars[at]
        else:
            chars[at] = piece
    return "".join(chars)


def loads_or_refuses(*paths):
    try:
        planners.ground(planners.load(*paths))
    except SpecError as err:
        assert err.line is not None and err.line >= 1
        str(err)


FUZZ = settings(max_examples=100, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(text=damaged(GOOD_YAML))
def test_damaged_yaml_specs(tmp_path, text):
    (tmp_path / "spec.yaml").write_text(text)
    loads_or_refuses(tmp_path / "spec.yaml")


@FUZZ
@given(text=damaged(GOOD_PLAN))
def test_damaged_plan_files(tmp_path, text):
    (tmp_path / "spec.plan").write_text(text)
    loads_or_refuses(tmp_path / "spec.plan")


@FUZZ
@given(domain=damaged(GOOD_PDDL_DOMAIN), problem=damaged(GOOD_PDDL_PROBLEM))
def test_damaged_pddl_files(tmp_path, domain, problem):
    (tmp_path / "d.pddl").write_text(domain)
    (tmp_path / "p.pddl").write_text(problem)
    loads_or_refuses(tmp_path / "d.pddl", tmp_path / "p.pddl")
