"""Grounding of universal preconditions too large for a disjunctive normal form
(planners/grounding/normalise.py: `forall x: P` becomes `not aux`, `aux :- exists x: not P`,
as Fast Downward's translator does) and semi-naive relaxed reachability
(planners/grounding/reachability.py), checked against independent computations on
generated airport-like tasks: the lifted validator's own semantics step by step (every
action it accepts in a state is a grounded successor there, and no other), the optimal
cost of the old expansion over the objects, and a naive fixpoint of the same schemas."""
from __future__ import annotations

import itertools
import random

import pytest

import planners
from conftest import ROOT
from framework.search.registry import searcher
from planners.grounding import normalise as normalise_module
from planners.grounding import reachability
from planners.lifted.validate import validate_plan

DOMAIN = """(define (domain gates) (:requirements :adl)
  (:types plane seg)
  (:predicates (at ?p - plane ?s - seg) (occupied ?s - seg) (link ?a ?b - seg)
               (guards ?s ?a ?b - seg) (blocked ?s - seg ?p - plane))
  (:action move :parameters (?p - plane ?a ?b - seg)
    :precondition (and (at ?p ?a) (link ?a ?b)
      (not (exists (?q - plane) (and (not (= ?q ?p)) (blocked ?b ?q))))
      (forall (?s - seg) (imply (and (guards ?s ?a ?b) (not (= ?s ?a))) (not (occupied ?s)))))
    :effect (and (at ?p ?b) (not (at ?p ?a)) (occupied ?b) (not (occupied ?a))
                 (blocked ?b ?p) (not (blocked ?a ?p)))))
"""


def _problem_text(seed: int, segments: int = 7) -> str:
    """Two planes on a random graph of `segments` segments with random guards; the
    precondition's `forall` over segments has 3 ** segments clauses in DNF (over 256)."""
    rng = random.Random(seed)
    segs = [f"s{i}" for i in range(segments)]
    links = {(a, b) for a, b in itertools.permutations(segs, 2) if rng.random() < 0.35}
    links |= {(segs[i], segs[i + 1]) for i in range(segments - 1)}
    links |= {(b, a) for a, b in sorted(links) if rng.random() < 0.5}   # sorted: the same task whatever the hash seed
    guards = [(s, a, b) for (a, b) in sorted(links) for s in segs if rng.random() < 0.15]
    start = rng.sample(segs, 2)
    goal = rng.sample(segs, 2)
    init = [f"(at p{i} {s}) (occupied {s}) (blocked {s} p{i})" for i, s in enumerate(start)]
    init += [f"(link {a} {b})" for a, b in sorted(links)]
    init += [f"(guards {s} {a} {b})" for s, a, b in guards]
    return (f"(define (problem gates{seed}) (:domain gates) (:objects p0 p1 - plane "
            f"{' '.join(segs)} - seg) (:init {' '.join(init)}) "
            f"(:goal (and (at p0 {goal[0]}) (at p1 {goal[1]}))))")


def _load(tmp_path, seed: int):
    domain, task = tmp_path / "domain.pddl", tmp_path / f"p{seed}.pddl"
    domain.write_text(DOMAIN)
    task.write_text(_problem_text(seed))
    return planners.load(domain, task)


class _ExpandEveryForall(normalise_module._Normaliser):
    """The normaliser as it was: every `forall` expanded over the objects."""

    def __init__(self, objects_of, derived=frozenset()):
        super().__init__(objects_of, _Everything())


class _Everything:
    def __contains__(self, _):
        return True


@pytest.mark.parametrize("seed", range(6))
def test_the_grounded_successors_are_those_the_lifted_semantics_allows(tmp_path, seed):
    problem = _load(tmp_path, seed)
    task = planners.ground(problem)
    assert task.operators       # a goal out of relaxed reach would prune every move
    names = [o.name for o in problem.objects]
    planes, segs = [n for n in names if n.startswith("p")], [n for n in names if n.startswith("s")]
    candidates = [f"(move {p} {a} {b})" for p in planes for a in segs for b in segs]
    rng = random.Random(seed)
    state, plan = task.initial_state(), []
    for _ in range(6):
        moves = task.successors(state)
        grounded = {task.action_text(op) for op, _, _ in moves}
        lifted = {c for c in candidates
                  if validate_plan(problem, plan + [c]).steps_applied == len(plan) + 1}
        assert grounded == lifted
        if not moves:
            break
        op, state, _ = rng.choice(moves)
        plan.append(task.action_text(op))


@pytest.mark.parametrize("seed", range(6))
def test_the_optimal_cost_equals_that_of_the_expansion_over_the_objects(tmp_path, seed, monkeypatch):
    problem = _load(tmp_path, seed)
    results = []
    for normaliser in (normalise_module._Normaliser, _ExpandEveryForall):
        monkeypatch.setattr(normalise_module, "_Normaliser", normaliser)
        task = planners.ground(problem)
        result = searcher("astar")(task, heuristic="lmcut", time_limit=300)
        plan = [task.action_text(a) for a in result.pv] if result.extra.get("solved") else None
        if plan is not None:
            check = validate_plan(problem, plan)
            assert check.valid and check.cost == result.cost, check.message
        results.append(None if plan is None else result.cost)
    assert results[0] == results[1]


def _naive_fixpoint(schemas, init):
    """Every schema instantiated over all the facts again until nothing new appears."""
    facts, found, changed = reachability.Facts(init), set(), True
    while changed:
        changed = False
        for schema in schemas:
            for full in list(schema.bindings(facts, lambda: None, 10 ** 9)):
                if (id(schema), full) not in found:
                    found.add((id(schema), full))
                    for atom in schema.action.add:
                        changed |= facts.add(*schema.ground_atom(atom, full))
    return facts, found


SAMPLES = sorted(p for p in (ROOT / "planners" / "data" / "pddl").glob("*/task01.pddl"))


@pytest.mark.parametrize("case", [*range(4), *(p.parent.name for p in SAMPLES)])
def test_semi_naive_reachability_finds_what_the_naive_fixpoint_finds(tmp_path, case, monkeypatch):
    if isinstance(case, int):
        problem = _load(tmp_path, case)
    else:
        folder = ROOT / "planners" / "data" / "pddl" / case
        problem = planners.load(folder / "domain.pddl", folder / "task01.pddl")
    seen = {}
    original = reachability.reachable

    def spy(schemas, init, max_operators, tick):
        seen["schemas"], seen["init"] = schemas, init
        return original(schemas, init, max_operators, tick)

    monkeypatch.setattr(planners.grounding.ground, "reachable", spy)
    planners.ground(problem)
    facts, instances = original(seen["schemas"], seen["init"], 10 ** 7, lambda: None)
    naive_facts, naive_found = _naive_fixpoint(seen["schemas"], seen["init"])
    assert facts.by_predicate == naive_facts.by_predicate
    assert {(id(s), full) for s, full in instances} == naive_found


def test_argument_getters_read_a_binding_like_the_plain_definition():
    """`ground._arguments` (itemgetter, one variable among constants, or the general
    case) gives every shape of up to 4 variables and constants the tuple the plain
    definition does."""
    from itertools import product as shapes
    from planners.grounding.ground import _arguments, _term
    from planners.lifted.ast import Pos, Term
    pos = Pos("t", 1, 1)
    binding = {"?a": "o1", "?b": "o2", "?c": "o3", "?d": "o4"}
    for size in range(5):
        for kinds in shapes((True, False), repeat=size):
            terms = tuple(Term(f"?{'abcd'[i]}" if var else f"k{i}", pos, var)
                          for i, var in enumerate(kinds))
            plain = tuple(binding[t.name] if t.variable else t.name for t in terms)
            assert _arguments(terms)(binding) == plain, kinds
            assert all(_term(t)(binding) == p for t, p in zip(terms, plain))
