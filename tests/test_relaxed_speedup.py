"""The optimised relaxed exploration (`planners.heuristics.relaxation.Relaxation`: one counter per
operator, the state's preconditions counted in one sweep, a bucket queue, the heap past
`safe_depth`) against the straightforward one in tests/relaxation_reference.py: on
breadth-first and random-walk states of every shipped sample (STRIPS, ADL with
conditional effects, negative conditions, derived predicates, action costs) and of
random small tasks (zero and fractional costs among them), every fact's cost and
supporter, h_max, h_add, h_FF, the relaxed plan and the preferred operators agree.  The
pure-Python code runs here, also where the C accelerator is installed."""
from __future__ import annotations

import random

import pytest

import planners
import relaxation_reference as reference
from conftest import ROOT
from planners.heuristics import relaxation as module
from planners.heuristics.relaxation import INF, Relaxation

SAMPLES = ROOT / "planners" / "data" / "pddl"
TASKS = sorted(f"{p.parent.name}/{p.stem}" for p in SAMPLES.glob("*/task*.pddl"))


@pytest.fixture(autouse=True)
def _pure(monkeypatch):
    """The pure-Python code (the C accelerator is held to it by test_relaxed_accelerator)."""
    monkeypatch.setattr(module, "ACCELERATOR", None)


def _states(task, count: int, seed: int = 0) -> list[int]:
    """`count` breadth-first states, then `count` ends of random walks."""
    seen, frontier = [task.initial], [task.initial]
    while frontier and len(seen) < count:
        for _, child, _ in task.successors(frontier.pop(0)):
            if child not in seen and len(seen) < count:
                seen.append(child)
                frontier.append(child)
    return seen + reference.walk_ends(task, count, seed, longest=30)


def _agree(relaxation: Relaxation, states) -> int:
    """Assert that every value agrees with the reference on `states`; the number of
    states with a reachable goal."""
    reached = 0
    for state in states:
        for use_max in (True, False):
            expected = reference.explore(relaxation, state, use_max)
            assert relaxation.explore(state, use_max) == expected
            goal = [expected[0][g] for g in relaxation.goal]
            value = (max(goal, default=0) if use_max else sum(goal)) if expected[2] else INF
            assert (relaxation.h_max if use_max else relaxation.h_add)(state) == value
        plan = reference.relaxed_plan(relaxation, state)
        assert relaxation.relaxed_plan(state) == plan
        assert relaxation.h_ff(state) == plan[0]
        assert relaxation.h_ff_preferred(state) == (plan[0], reference.preferred(relaxation, state))
        reached += plan[0] < INF
    return reached


@pytest.mark.parametrize("name", TASKS)
@pytest.mark.parametrize("unit", [False, True])
def test_samples_agree_with_the_reference(name, unit):
    folder, stem = name.split("/")
    task = planners.ground(planners.load(SAMPLES / folder / "domain.pddl",
                                         SAMPLES / folder / f"{stem}.pddl"))
    relaxation = Relaxation(task, unit=unit)
    assert _agree(relaxation, _states(task, 25)) > 0


def test_of_equal_costs_the_fact_reached_last_settles_first(tmp_path):
    """Fast Downward's tie rule (its bucket queue pops the fact pushed last): x and y are
    both reached at cost 1 from a, y second (make-y fires after make-x), so y settles
    first and g's supporter is from-y; the relaxed plan is {make-y, from-y}.  The lowest-
    index-first rule would take from-x.  Bucket and heap explorations and the reference
    agree (test_relaxed_accelerator holds the C accelerator to them)."""
    (tmp_path / "d.pddl").write_text(
        "(define (domain t) (:predicates (a) (x) (y) (g))\n"
        " (:action make-x :precondition (a) :effect (x))\n"
        " (:action make-y :precondition (a) :effect (y))\n"
        " (:action from-x :precondition (x) :effect (g))\n"
        " (:action from-y :precondition (y) :effect (g)))")
    (tmp_path / "p.pddl").write_text("(define (problem p) (:domain t) (:init (a)) (:goal (g)))")
    task = planners.ground(planners.load(tmp_path / "d.pddl", tmp_path / "p.pddl"))
    names = [task.action_text(op) for op in range(len(task.operators))]
    assert names.index("(make-x)") < names.index("(make-y)")
    for unit in (True, False):
        relaxation = Relaxation(task, unit=unit)
        g = task.facts.index("(g)")
        for explored in (relaxation.explore(task.initial, False),        # buckets
                         relaxation.explore(task.initial, False, relaxation.cost)):  # heap
            assert names[explored[1][g]] == "(from-y)"
        value, chosen = relaxation.relaxed_plan(task.initial)
        assert {names[k] for k in chosen} == {"(make-y)", "(from-y)"} and value == 2
        assert reference.relaxed_plan(relaxation, task.initial) == (value, chosen)


def test_deep_buckets_fall_back_to_the_heap():
    """Past `safe_depth` the bucket exploration restarts on the heap: same answers."""
    task = planners.ground(planners.load(SAMPLES / "logistics" / "domain.pddl",
                                         SAMPLES / "logistics" / "task02.pddl"))
    relaxation = Relaxation(task, unit=True)
    relaxation.safe_depth = 1
    assert _agree(relaxation, _states(task, 15)) > 0


def _random_pddl(rng: random.Random, costs) -> tuple[str, str]:
    """A small random domain and problem: unary predicates over three objects, actions
    of two parameters with positive and negative preconditions, conditional effects and
    costs drawn from `costs`."""
    preds = [f"p{i}" for i in range(5)]

    def literal(negative_too: bool) -> str:
        atom = f"({rng.choice(preds)} ?{rng.choice('xy')})"
        return f"(not {atom})" if negative_too and rng.random() < 0.3 else atom

    actions = []
    for a in range(rng.randrange(3, 7)):
        pre = " ".join(literal(True) for _ in range(rng.randrange(0, 4)))
        effects = [literal(True) for _ in range(rng.randrange(1, 3))]
        if rng.random() < 0.4:
            effects.append(f"(when {literal(True)} {literal(False)})")
        effects.append(f"(increase (total-cost) {rng.choice(costs)})")
        actions.append(f"(:action a{a} :parameters (?x ?y - obj) :precondition (and {pre})"
                       f" :effect (and {' '.join(effects)}))")
    domain = (f"(define (domain rnd) (:requirements :typing :negative-preconditions "
              f":conditional-effects :action-costs) (:types obj) (:predicates "
              f"{' '.join(f'({p} ?x - obj)' for p in preds)}) "
              f"(:functions (total-cost) - number) {' '.join(actions)})")
    facts = [f"({p} {o})" for p in preds for o in ("o1", "o2", "o3")]
    init = rng.sample(facts, rng.randrange(1, 6))
    goal = rng.sample(facts, rng.randrange(1, 4))
    problem = (f"(define (problem r) (:domain rnd) (:objects o1 o2 o3 - obj) "
               f"(:init {' '.join(init)} (= (total-cost) 0)) (:goal (and {' '.join(goal)})) "
               f"(:metric minimize (total-cost)))")
    return domain, problem


def random_tasks(folder, costs, seed: int, count: int = 40):
    """`count` random tasks (`_random_pddl`) written to and read from `folder`."""
    rng = random.Random(seed)
    for _ in range(count):
        domain, problem = _random_pddl(rng, costs)
        (folder / "d.pddl").write_text(domain)
        (folder / "p.pddl").write_text(problem)
        yield planners.ground(planners.load(folder / "d.pddl", folder / "p.pddl"))


@pytest.mark.parametrize("costs", [(1,), (1, 2, 5), (0, 1, 2), (1, 2.5)])
def test_random_tasks_agree_with_the_reference(tmp_path, costs):
    reached = 0
    for n, task in enumerate(random_tasks(tmp_path, costs, 7)):
        for unit in (False, True):
            reached += _agree(Relaxation(task, unit=unit), _states(task, 8, seed=n))
    assert reached > 40
