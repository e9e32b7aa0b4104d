"""The shared single-agent searchers and the relaxation heuristics on grounded tasks and
on hand-made search problems and 1-player games."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from framework.game import Game
from framework.search import astar, bfs, dfs, gbfs, iddfs, ucs
from framework.search.problem import GameProblem, replay
from framework.search.registry import searcher
from planners.heuristics.relaxation import INF, Relaxation
from planners.heuristics.lmcut import LandmarkCut
from tests.planning_support import SHORTEST, ipc_task

@pytest.mark.parametrize("domain,number", sorted(SHORTEST))
def test_astar_hmax_finds_bfs_length(domain, number):
    result = astar.search(ipc_task(domain, number), heuristic="hmax")
    assert result.extra["valid"]
    assert len(result.pv) == SHORTEST[domain, number]


@pytest.mark.parametrize("domain,number", [("blocks", 10), ("logistics", 2), ("miconic", 5),
                                           ("depot", 1), ("satellite", 1), ("rovers", 1)])
def test_astar_lmcut_finds_the_optimum_expanding_little(domain, number):
    task = ipc_task(domain, number)
    result = astar.search(task, heuristic="lmcut")
    assert result.extra["valid"] and len(result.pv) == SHORTEST[domain, number]
    assert result.stats.expanded < astar.search(task, heuristic="hmax").stats.expanded


@pytest.mark.parametrize("domain,number", sorted(SHORTEST))
def test_gbfs_hff_finds_a_valid_plan(domain, number):
    result = gbfs.search(ipc_task(domain, number))
    assert result.extra["valid"] and len(result.pv) >= SHORTEST[domain, number]


@pytest.mark.parametrize("module", [ucs, iddfs])
@pytest.mark.parametrize("domain,number", [("gripper", 1), ("blocks", 4), ("miconic", 3),
                                           ("satellite", 1)])
def test_optimal_searchers_agree_with_bfs(module, domain, number):
    result = module.search(ipc_task(domain, number))
    assert result.extra["valid"] and len(result.pv) == SHORTEST[domain, number]


@pytest.mark.parametrize("name", ["dfs", "astar", "gbfs"])
def test_every_searcher_returns_a_replayable_plan(name):
    task = ipc_task("blocks", 4)
    result = searcher(name)(task, heuristic="hadd")
    assert result.extra["valid"] and replay(task, result.pv)[0]


@pytest.mark.parametrize("domain,number", [("gripper", 1), ("blocks", 4), ("logistics", 1),
                                           ("miconic", 3), ("depot", 1), ("rovers", 1)])
def test_hmax_is_admissible_along_an_optimal_plan(domain, number):
    task = ipc_task(domain, number)
    relaxation = Relaxation(task)
    lmcut = LandmarkCut(relaxation)
    plan = bfs.search(task).pv
    state = task.initial_state()
    for steps_left in range(len(plan), -1, -1):
        assert relaxation.h_max(state) <= lmcut(state) <= steps_left
        assert relaxation.h_max(state) <= relaxation.h_add(state)
        if steps_left:
            state = next(t for a, t, _ in task.successors(state) if a == plan[-steps_left])
    assert task.is_goal(state)
    assert relaxation.h_max(state) == relaxation.h_add(state) == relaxation.h_ff(state) == 0
    assert lmcut(state) == 0


def test_budget_exhaustion_returns_no_plan():
    result = bfs.search(ipc_task("gripper", 4), node_limit=50)
    assert not result.complete and result.pv == [] and not result.extra["valid"]
    result = astar.search(ipc_task("gripper", 4), heuristic="hmax", time_limit=0.05)
    assert not result.complete and result.pv == []


def test_depth_limit_cuts_bfs():
    result = bfs.search(ipc_task("gripper", 1), depth=5)
    assert not result.complete and "5 steps" in result.extra["reason"]


@dataclass
class Chain:
    """States 0..length; from n one may step to n+1 (or back to n-1: cycles)."""
    length: int

    def initial_state(self):
        return 0

    def is_goal(self, state):
        return state == self.length

    def successors(self, state):
        steps = [("back", state - 1, 1)] if state else []
        if state < self.length:
            steps.insert(0, ("step", state + 1, 1))
        return steps

    def action_text(self, action):
        return action


def test_dfs_on_a_deep_chain_does_not_recurse():
    result = dfs.search(Chain(100_000))
    assert result.extra["valid"] and len(result.pv) == 100_000


def test_iddfs_goes_deeper_than_the_recursion_limit():
    result = iddfs.search(Chain(1_500))
    assert result.extra["valid"] and len(result.pv) == 1_500


def test_unreachable_goal_is_reported_complete():
    chain = Chain(5)
    chain.is_goal = lambda state: False
    for module in (bfs, dfs, iddfs, ucs, astar, gbfs):
        result = module.search(chain)
        assert result.complete and result.pv == [] and result.extra["reason"] == "no plan exists"


class CounterState:
    """A 1-player puzzle: add 1 or 3 until exactly 7."""

    def __init__(self, value=0):
        self.value = value

    def __eq__(self, other):
        return self.value == other.value

    def __hash__(self):
        return hash(self.value)

    def actions(self):
        return [] if self.terminal_test() else [1, 3]

    def result(self, action):
        return CounterState(self.value + action)

    def terminal_test(self):
        return self.value >= 7

    def utility(self, player):
        return 1 if self.value == 7 else -1


def test_one_player_games_are_search_problems():
    game = Game("counter", ("solver",), _initial=CounterState, _action_text=lambda a: f"+{a}")
    result = bfs.search(game)
    assert result.extra["valid"] and len(result.pv) == 3       # 3 + 3 + 1
    assert astar.search(game, heuristic=lambda s: (7 - s.value) / 3).extra["length"] == 3
    assert gbfs.search(game).extra["valid"]


def test_multi_player_games_are_refused():
    with pytest.raises(ValueError, match="1-player"):
        GameProblem(Game("duel", ("a", "b")))
    with pytest.raises(ValueError, match="chance"):
        GameProblem(Game("dice", ("a",), chance=True))


def test_dead_end_start_is_detected_by_the_heuristic():
    task = ipc_task("gripper", 1)
    result = gbfs.search(task, heuristic=lambda state: INF)
    assert result.complete and result.pv == []
