"""Robustness of every loader (game YAML, .game, planning YAML, .plan, PDDL): whatever the
input, only a SpecError whose position lies inside the input escapes.  Small Hypothesis
budgets here (the campaign, `plyspec fuzz --inputs 100000`, runs the same strategies at
scale); then regression tests for the crashes the fuzzer found."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

import framework
import planners
from framework.conformance import fuzz
from framework.errors import LimitError, SpecError, split_lines
from tests.conftest import ROOT, SPECS

TEXTS = fuzz.seed_texts()
LOADER = fuzz.Loader()
# derandomized: the same inputs on every run, so that CI does not flake on a rare known
# issue (docs/conformance.md, "Open"); exploring new inputs is the campaign's job
FUZZ = settings(max_examples=40, deadline=None, database=None, derandomize=True,
                suppress_health_check=list(HealthCheck))


def loads_or_refuses_inside(fmt, text):
    finding = fuzz.run_one(LOADER, fmt, text, fuzz.Tally())
    assert finding is None, finding


def test_every_format_has_shipped_seeds():
    assert all(TEXTS[fmt] for fmt in fuzz.FORMATS)


@pytest.mark.parametrize("fmt", fuzz.FORMATS)
def test_mutated_shipped_specs(fmt):
    FUZZ(given(fuzz.mutations(TEXTS[fmt]))(lambda text: loads_or_refuses_inside(fmt, text)))()


@pytest.mark.parametrize("fmt", ["yaml", "plan-yaml"])
def test_random_yaml_documents(fmt):
    settings(FUZZ, max_examples=25)(given(fuzz.yaml_structures(fmt))(
        lambda text: loads_or_refuses_inside(fmt, text)))()


@pytest.mark.parametrize("fmt", fuzz.FORMATS)
def test_random_text(fmt):
    settings(FUZZ, max_examples=20)(given(fuzz.random_text())(
        lambda text: loads_or_refuses_inside(fmt, text)))()


def test_the_oracle_catches_a_position_outside_the_input():
    err = SpecError("x", file="f", line=3, col=1)
    assert fuzz.position_problem(err, {"f": "one line"}) == "line 3 of an input of 1 line(s)"
    err = SpecError("x", file="f", line=1, col=10)
    assert "column 10" in fuzz.position_problem(err, {"f": "short"})
    assert fuzz.position_problem(SpecError("x", file="f", line=1, col=6), {"f": "short"}) is None


# ---------------------------------------------------------------- regressions the fuzzer found
def error_of(fmt, text, tmp_path=None):
    with pytest.raises(SpecError) as info:
        if fmt in ("yaml", "game"):
            framework.load_text(text, fmt, file=f"t.{fmt}")
        else:
            path = tmp_path / ("t.yaml" if fmt == "plan-yaml" else "t.plan")
            path.write_text(text)
            planners.ground(planners.load(path))
    return info.value


HUGE = "9" * 5000


@pytest.mark.parametrize("fmt,old,new", [
    ("yaml", "line(board, k, X) or", f"line(board, k, X) or {HUGE} < 1 or"),   # in a rule
    ("game", "k = 3", f"k = {HUGE}"),                                            # an option
    ("game", "line(board, k, X) or", f"line(board, k, X) or {HUGE} < 1 or"),
])
def test_a_number_over_4300_digits_is_a_spec_error(fmt, old, new):
    text = (SPECS / f"tictactoe.{fmt}").read_text()
    err = error_of(fmt, text.replace(old, new, 1))
    assert "5,000 digits" in err.message
    line = split_lines(text.replace(old, new, 1))[err.line - 1]
    assert line[err.col - 1] == "9"


@pytest.mark.parametrize("fmt,old,new,message", [
    ("plan-yaml", "for i in 1..disks-1", f"for i in 1..{HUGE}", "cannot read"),
    ("plan-yaml", "disks: 3", f"disks: {HUGE}", "is not a whole number from"),
    ("plan-yaml", "problem: Towers", "problem: \x1fTowers", "not valid YAML"),
    ("plan", "for i in 1..disks-1", f"for i in 1..{HUGE}", "cannot read"),
])
def test_planning_front_ends_refuse_what_python_cannot_read(tmp_path, fmt, old, new, message):
    source = ROOT / "planners" / "data" / "problems" / ("hanoi.yaml" if fmt == "plan-yaml" else "hanoi.plan")
    text = source.read_text()
    assert old in text
    err = error_of(fmt, text.replace(old, new, 1), tmp_path)
    assert message in err.message and err.line is not None
    assert fuzz.position_problem(err, {err.file: text.replace(old, new, 1)}) is None


@pytest.mark.parametrize("brk", ["\x85", "\u2028", "\u2029", "\r", "\r\n"])
def test_every_front_end_counts_unicode_line_ends_as_yaml_does(tmp_path, brk):
    game_text = 'game "T"' + brk + "players A, B" + brk + "action a then x = 1\nterminal true\n"
    assert error_of("game", game_text).line == 3              # `x` is on the third line
    yaml_text = "game: T" + brk + "players: [A, B]" + brk + "actions: {a: x = 1}\nterminal: true\n"
    assert error_of("yaml", yaml_text).line == 3
    plan_text = "problem P" + brk + "predicates Q" + brk + "init Q ) Q\ngoal Q\n"
    err = error_of("plan", plan_text, tmp_path)
    assert err.line == 3 and err.source_line == "init Q ) Q"


def test_a_rule_on_the_second_line_of_a_folded_scalar_points_at_that_line():
    text = (SPECS / "othello.yaml").read_text()
    broken = text.replace("size // 2 - 1)] = B", "size // 2 - 1)] = Q")
    err = error_of("yaml", broken)
    line = split_lines(broken)[err.line - 1]
    assert "unknown name `Q`" in err.message and line[err.col - 1] == "Q"


def test_a_folded_planning_list_item_points_into_its_second_line(tmp_path):
    text = (ROOT / "planners" / "data" / "problems" / "spare_tire.yaml").read_text()
    broken = text.replace("goal:\n  - At(Spare, Axle)\n", "goal:\n  - At(Spare, Axle)\n    - At(Flat, Axle)\n")
    assert broken != text
    err = error_of("plan-yaml", broken, tmp_path)
    line = split_lines(broken)[err.line - 1]
    assert line.strip() == "- At(Flat, Axle)" and line[err.col - 1] == "-"


def test_planning_files_that_are_not_utf8_are_spec_errors(tmp_path):
    for name in ("t.yaml", "t.plan"):
        (tmp_path / name).write_bytes(b"problem: P\xff\xfe\n")
        with pytest.raises(SpecError, match="not UTF-8"):
            planners.load(tmp_path / name)


def test_the_grounding_limit_is_a_positioned_spec_error():
    problem = planners.load(ROOT / "planners" / "data" / "problems" / "hanoi.yaml", disks=6)
    with pytest.raises(LimitError) as info:
        planners.ground(problem, max_operators=50)
    err = info.value
    assert isinstance(err, SpecError) and isinstance(err, ValueError)
    assert "exceeds 50 operators" in err.message and "Move" in err.source_line


def test_a_float_option_too_large_for_a_float_is_a_spec_error():
    text = (SPECS / "slippery_isolation.yaml").read_text()
    huge = "9" * 400 + ".8"                        # YAML reads it as a float: inf
    with pytest.raises(SpecError, match="more than a number may have") as info:
        framework.load_text(text.replace("hit: 0.8", f"hit: {huge}"), file="t.yaml")
    assert info.value.line == 3


@pytest.mark.parametrize("fmt", ["yaml", "plan-yaml"])
def test_a_yaml_directive_with_a_5000_digit_version_is_a_spec_error(tmp_path, fmt):
    text = "# a spec\n%YAML " + HUGE + "\n---\n" + ("game: x\n" if fmt == "yaml" else "problem: x\n")
    err = error_of(fmt, text, tmp_path)
    assert "cannot read a directive" in err.message and err.line == 2


@pytest.mark.parametrize("cost", ["inf", "nan", "1" + "0" * 400])
def test_a_planning_cost_must_be_a_finite_number(tmp_path, cost):
    text = ("problem: Costy\nobjects: {thing: [a, b]}\npredicates: [At(x - thing)]\nactions:\n"
            "  Go(x - thing, y - thing):\n    pre: [At(x), x != y]\n    add: [At(y)]\n    del: [At(x)]\n"
            f"    cost: {cost}\ninit: [At(a)]\ngoal: [At(b)]\n")
    err = error_of("plan-yaml", text, tmp_path)       # a nan cost made the start a "dead end"
    assert "finite number" in err.message and err.line == 9


def test_a_pddl_cost_too_large_for_a_float_is_a_spec_error(tmp_path):
    domain = ("(define (domain tour) (:requirements :strips :typing :action-costs) (:types place)\n"
              "  (:predicates (at ?x - place))\n"
              "  (:functions (total-cost) - number (road ?x ?y - place) - number)\n"
              "  (:action go :parameters (?x ?y - place) :precondition (at ?x)\n"
              "    :effect (and (at ?y) (not (at ?x)) (increase (total-cost) (road ?x ?y)))))\n")
    problem = ("(define (problem t) (:domain tour) (:objects a b - place)\n"
               f"  (:init (at a) (= (road a b) {'9' * 400}))\n  (:goal (at b)))\n")
    (tmp_path / "d.pddl").write_text(domain)
    (tmp_path / "p.pddl").write_text(problem)
    with pytest.raises(SpecError, match="too large") as info:
        planners.load(tmp_path / "d.pddl", tmp_path / "p.pddl")
    assert info.value.line == 2
