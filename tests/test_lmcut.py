"""LM-cut (planners/lmcut.py) against a straightforward reference written here from the
definition (Helmert & Domshlak 2009): every round recomputes h_max from scratch by a
fixpoint over all operators, hangs each reached operator from its precondition of
highest h_max (ties: the highest fact index), grows the goal zone backwards through
zero-cost operators, explores forwards from the state to the cut and charges its
cheapest cost.  The two must give the same value on every state tried (shipped samples
with costs, conditional effects, derived predicates, negative preconditions and shared
IPC tasks), and LM-cut must lie between h_max and the true cost to go."""
from __future__ import annotations

from collections import deque

import pytest

import planners
from conftest import ROOT
from framework.runtime import bits
from framework.search.registry import searcher
from planners.heuristics import INF, Relaxation
from planners.lmcut import LandmarkCut
from tests.planning_support import ipc_task

SAMPLES = ROOT / "planners" / "pddl"


def reference_lmcut(relaxation, state) -> float:
    start, goal = relaxation.facts, relaxation.facts + 1
    pre = [p or [start] for p in relaxation.pre] + [relaxation.goal or [start]]
    eff = [list(a) for a in relaxation.add] + [[goal]]
    cost = list(relaxation.cost) + [0]
    owner = list(relaxation.owner) + [-1]
    initial = [start, *bits(relaxation.relaxed(state))]
    total = 0
    while True:
        h = [INF] * (goal + 1)
        for fact in initial:
            h[fact] = 0
        changed = True
        while changed:                       # h_max as a fixpoint
            changed = False
            for k, p in enumerate(pre):
                reach = max(h[q] for q in p) + cost[k]
                for fact in eff[k]:
                    if reach < h[fact]:
                        h[fact], changed = reach, True
        if h[goal] == INF:
            return INF
        if h[goal] == 0:
            return total
        supporter = [max(p, key=lambda q: (h[q], q)) if max(h[q] for q in p) < INF else None
                     for p in pre]
        zone, todo = {goal}, [goal]
        while todo:
            fact = todo.pop()
            for k in range(len(pre)):
                parent = supporter[k]
                if fact in eff[k] and cost[k] == 0 and parent is not None \
                        and parent not in zone:
                    zone.add(parent)
                    todo.append(parent)
        before, todo, cut = set(initial), list(initial), set()
        while todo:
            fact = todo.pop()
            for k in range(len(pre)):
                if supporter[k] != fact:
                    continue
                if zone.intersection(eff[k]):
                    cut.add(k)
                    continue
                for added in eff[k]:
                    if added not in before:
                        before.add(added)
                        todo.append(added)
        charge = min(cost[k] for k in cut)
        assert charge > 0
        total += charge
        for k in range(len(cost)):           # an operator's effect copies share its cost
            if owner[k] >= 0 and owner[k] in {owner[c] for c in cut}:
                cost[k] -= charge


def first_states(task, count):
    seen, queue = {task.initial}, deque([task.initial])
    while queue and len(seen) < count:
        for _, child, _ in task.successors(queue.popleft()):
            if child not in seen and len(seen) < count:
                seen.add(child)
                queue.append(child)
    return sorted(seen)


def sample(name):
    folder, task = name.split("/")
    return planners.ground(planners.load(SAMPLES / folder / "domain.pddl",
                                         SAMPLES / folder / f"{task}.pddl"))


SAMPLE_TASKS = ["blocks/task04", "gripper/task02", "logistics/task02", "miconic/task05",
                "scanalyzer/task01", "lamps/task01", "miconic-fulladl/task02",
                "psr-middle/task01", "openstacks-adl/task01", "either-transport/task02"]


@pytest.mark.parametrize("name", SAMPLE_TASKS)
def test_lmcut_equals_the_reference_on_the_samples(name):
    task = sample(name)
    relaxation = Relaxation(task)
    lmcut = LandmarkCut(relaxation)
    values = [(lmcut(s), reference_lmcut(relaxation, s)) for s in first_states(task, 40)]
    assert all(ours == theirs for ours, theirs in values), values


@pytest.mark.parametrize("domain,number", [("depot", 1), ("freecell", 1), ("rovers", 2),
                                           ("parcprinter", 1), ("airport", 3)])
def test_lmcut_equals_the_reference_on_ipc_tasks(domain, number):
    task = ipc_task(domain, number)
    relaxation = Relaxation(task)
    lmcut = LandmarkCut(relaxation)
    for state in first_states(task, 15):
        assert lmcut(state) == reference_lmcut(relaxation, state)


@pytest.mark.parametrize("name", ["gripper/task01", "scanalyzer/task01", "lamps/task01",
                                  "psr-middle/task01", "miconic-fulladl/task01"])
def test_lmcut_is_admissible_and_at_least_hmax(name):
    task = sample(name)
    relaxation = Relaxation(task)
    lmcut = LandmarkCut(relaxation)
    for state in first_states(task, 40)[::8]:
        optimum = searcher("ucs")(task, state, time_limit=60)
        assert optimum.complete
        to_go = optimum.cost if optimum.extra.get("solved") else INF
        assert relaxation.h_max(state) <= lmcut(state) <= to_go


def test_goal_states_get_zero_and_dead_ends_infinity():
    task = sample("gripper/task01")
    lmcut = LandmarkCut(Relaxation(task))
    plan = searcher("astar")(task, heuristic="lmcut").pv
    state = task.initial
    for action in plan:
        state = next(child for a, child, _ in task.successors(state) if a == action)
    assert task.is_goal(state) and lmcut(state) == 0
    balls = [i for i, name in enumerate(task.facts) if name.startswith("(at ball1")]
    stuck = task.initial & ~sum(1 << i for i in balls)   # ball1 nowhere: no operator moves it
    assert lmcut(stuck) == INF == reference_lmcut(Relaxation(task), stuck)
