"""LM-cut (planners/lmcut.py) against a straightforward reference written from the
definition (tests/lmcut_reference.py): the two must give the same value on every state
tried (shipped samples with costs, conditional effects, derived predicates, negative
preconditions, and shared IPC tasks), and LM-cut must lie between h_max and the true
cost to go."""
from __future__ import annotations

import pytest

import planners
from conftest import ROOT
from framework.search.registry import searcher
from planners.heuristics import INF, Relaxation
from planners.lmcut import SAMPLE, TRIALS, LandmarkCut
from tests.lmcut_reference import first_states, reference_lmcut
from tests.planning_support import ipc_task

SAMPLES = ROOT / "planners" / "pddl"


def sample(name):
    folder, task = name.split("/")
    return planners.ground(planners.load(SAMPLES / folder / "domain.pddl",
                                         SAMPLES / folder / f"{task}.pddl"))


SAMPLE_TASKS = ["blocks/task04", "gripper/task02", "logistics/task02", "miconic/task05",
                "scanalyzer/task01", "lamps/task01", "miconic-fulladl/task02",
                "psr-middle/task01", "openstacks-adl/task01", "either-transport/task02"]


@pytest.mark.parametrize("repair", [False, True], ids=["relevel", "repair"])
@pytest.mark.parametrize("name", SAMPLE_TASKS)
def test_lmcut_equals_the_reference_on_the_samples(name, repair):
    task = sample(name)
    relaxation = Relaxation(task)
    states = first_states(task, 40)
    for descending in (False, True):
        lmcut = LandmarkCut(relaxation, descending, repair)
        values = [(lmcut(s), reference_lmcut(relaxation, s, descending)) for s in states]
        assert all(ours == theirs for ours, theirs in values), (descending, values)


@pytest.mark.parametrize("repair", [False, True], ids=["relevel", "repair"])
@pytest.mark.parametrize("domain,number", [("depot", 1), ("freecell", 1), ("rovers", 2),
                                           ("parcprinter", 1), ("airport", 3)])
def test_lmcut_equals_the_reference_on_ipc_tasks(domain, number, repair):
    task = ipc_task(domain, number)
    relaxation = Relaxation(task)
    for descending in (False, True):
        lmcut = LandmarkCut(relaxation, descending, repair)
        for state in first_states(task, 15):
            assert lmcut(state) == reference_lmcut(relaxation, state, descending)


def test_both_h_max_updates_serve_and_the_faster_is_kept():
    """Unset, the update of h_max after a cut alternates by state between the
    recomputation by levels and the Dijkstra repair until each served `TRIALS` cuts,
    then the faster per cut is kept; the values stay the reference's throughout."""
    task = ipc_task("freecell", 1)
    relaxation = Relaxation(task)
    lmcut = LandmarkCut(relaxation, False)
    for state in first_states(task, 150):
        assert lmcut(state) == reference_lmcut(relaxation, state)
    by_levels, by_repair, levels_cuts, repair_cuts, _ = lmcut.spent
    assert min(levels_cuts, repair_cuts) == TRIALS and by_levels > 0 and by_repair > 0
    assert lmcut.repair is (by_repair / repair_cuts < by_levels / levels_cuts)


@pytest.mark.parametrize("domain,number", [("freecell", 1), ("openstacks", 1)])
def test_the_sampled_states_get_the_larger_value_and_choose_the_order(domain, number):
    task = ipc_task(domain, number)
    relaxation = Relaxation(task)
    lmcut = LandmarkCut(relaxation)
    states = first_states(task, SAMPLE + 10)
    both = [[reference_lmcut(relaxation, s, d) for d in (False, True)] for s in states]
    finite = [pair for pair in both if pair[0] < INF]
    assert len(finite) >= SAMPLE
    lows, highs = zip(*finite[:SAMPLE])
    chosen = sum(highs) > sum(lows)
    seen = 0
    for state, pair in zip(states, both):
        value = lmcut(state)
        assert value == (max(pair) if seen < SAMPLE else pair[chosen])
        seen += pair[0] < INF
    assert lmcut.descending is chosen


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
