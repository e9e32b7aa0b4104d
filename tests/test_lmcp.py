"""The admissible landmark heuristic `lmcp` (planners/landmarks/lmcp.py) proved on whole
state spaces: h* of every reachable state is computed by a backward uniform-cost search
from the goal states, and every value the heuristic gives during A* (each state on the
path it was first reached by, and again after every later path was merged in) is at most
h*; A* with it finds the cost of blind uniform-cost search and of A* with LM-cut, and the
plan passes the validator of the lifted problem (planners/lifted/validate.py)."""
from __future__ import annotations

from heapq import heappop, heappush

import pytest

import planners
from conftest import ROOT
from framework.search.registry import searcher
from planners.heuristics.relaxation import INF
from planners.landmarks.lmcp import LandmarkCostPartitioning
from planners.lifted.validate import validate_plan
from tests.planning_support import domain_file, require_pddl
from tests.test_lmcut import _random_task

SAMPLES = ROOT / "planners" / "data" / "pddl"
MAX_STATES = 30_000

SAMPLE_TASKS = ["blocks/task04", "briefcase/task01", "either-transport/task02",
                "gripper/task02", "lamps/task01", "logistics/task01", "miconic/task05",
                "miconic-fulladl/task02", "openstacks-adl/task01", "psr-middle/task01",
                "scanalyzer/task01"]
IPC_TASKS = ["airport/task02", "depot/task01", "freecell/task01", "movie/task01",
             "openstacks/task01", "parcprinter/task02", "psr-small/task02",
             "satellite/task02"]


def load(folder, name):
    domain, number = name.split("/")
    task_file = folder / domain / f"{number}.pddl"
    problem = planners.load(domain_file(task_file), task_file)
    return problem, planners.ground(problem)


def cost_to_go(task) -> dict:
    """h* of every state reachable from the initial state (absent: no plan from it), by a
    backward uniform-cost search from the goal states over the whole state space."""
    seen, stack, before = {task.initial}, [task.initial], {}
    while stack:
        state = stack.pop()
        for _, child, cost in task.successors(state):
            before.setdefault(child, []).append((state, cost))
            if child not in seen:
                seen.add(child)
                stack.append(child)
        assert len(seen) <= MAX_STATES, "too large a state space for this test"
    best = {s: 0 for s in seen if task.is_goal(s)}
    queue = [(0, i, s) for i, s in enumerate(best)]
    tie = len(queue)
    while queue:
        g, _, state = heappop(queue)
        if g > best[state]:
            continue
        for parent, cost in before.get(state, ()):
            if g + cost < best.get(parent, INF):
                best[parent] = g + cost
                tie += 1
                heappush(queue, (g + cost, tie, parent))
    return best


class Recorded(LandmarkCostPartitioning):
    """lmcp keeping every value it gives."""

    def __call__(self, state, parent=None):
        value = super().__call__(state, parent)
        self.values.append((state, value))
        return value


def check(problem, task):
    truth = cost_to_go(task)
    h = Recorded(task)
    h.values = []
    found = searcher("astar")(task, heuristic=h, time_limit=600)
    assert h.values and all(value <= truth.get(state, INF) for state, value in h.values)
    for state in h.future:                       # after every path was merged in
        value = 0 if task.is_goal(state) else h.partitioned(h.future[state] & ~h.free)
        assert value <= truth.get(state, INF)
    if task.initial not in truth:
        assert not found.extra.get("solved")
        return h, truth
    assert found.cost == truth[task.initial]
    assert searcher("astar")(task, heuristic="lmcut").cost == found.cost
    assert searcher("ucs")(task).cost == found.cost
    check_plan = validate_plan(problem, [task.action_text(a) for a in found.pv])
    assert check_plan.valid and check_plan.cost == found.cost, check_plan.message
    return h, truth


@pytest.mark.parametrize("name", SAMPLE_TASKS)
def test_lmcp_never_exceeds_the_true_cost_on_the_samples(name):
    check(*load(SAMPLES, name))


@pytest.mark.parametrize("name", IPC_TASKS)
def test_lmcp_never_exceeds_the_true_cost_on_ipc_tasks(name):
    check(*load(require_pddl(), name))


@pytest.mark.parametrize("seed", range(60))
def test_lmcp_never_exceeds_the_true_cost_on_random_tasks(seed, tmp_path):
    """Generated tasks with action costs 0-6, conditional effects and dead ends."""
    task = _random_task(seed, tmp_path)
    truth = cost_to_go(task)
    h = Recorded(task)
    h.values = []
    found = searcher("astar")(task, heuristic=h)
    assert all(value <= truth.get(state, INF) for state, value in h.values)
    assert found.extra.get("solved", False) == (task.initial in truth)
    if task.initial in truth:
        assert found.cost == truth[task.initial] == searcher("ucs")(task).cost


def test_lmcp_is_informative_and_uses_every_kind_of_landmark():
    """Not a blind heuristic: positive at the start of tasks with plans, fewer expansions
    than blind search, and the landmark graphs tried include disjunctive landmarks and
    greedy-necessary orderings (so the proofs above cover them)."""
    kinds = set()
    for name in ["blocks/task04", "logistics/task01", "gripper/task02", "miconic/task05"]:
        _, task = load(SAMPLES, name)
        h = LandmarkCostPartitioning(task)
        assert h(task.initial) > 0
        astar = searcher("astar")(task, heuristic=h)
        assert astar.stats.expanded < searcher("ucs")(task).stats.expanded
        graph = h.graph
        kinds |= {"disjunctive"} if graph.disjunctive else set()
        kinds |= {"gn"} if any(graph.gn_children) else set()
    assert kinds == {"disjunctive", "gn"}


def test_goal_states_get_zero_and_the_switch_names_it():
    problem, task = load(SAMPLES, "gripper/task01")
    found = searcher("astar")(task, heuristic="lmcp")
    state = task.initial
    h = task.heuristic("lmcp")
    h(state)
    for action in found.pv:
        parent = state
        state = next(child for a, child, _ in task.successors(state) if a == action)
        h(state, parent)
    assert task.is_goal(state) and h(state) == 0
    assert found.cost == searcher("astar")(task, heuristic="lmcut").cost
