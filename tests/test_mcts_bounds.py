"""MCTS budgets by counts, not wall clock: the node bound, Ctrl-C in the middle of an
iteration (no ZeroDivisionError, the best move so far), playouts on games that never end
(a length cap, and the deadline checked inside playouts with a stepping clock)."""
from __future__ import annotations

import pathlib

import pytest

from framework import load
from framework.game import Game
from framework.search import mcts

from test_search_chance_multi import subtree_counts_consistent

SPECS = pathlib.Path(__file__).resolve().parents[1] / "game_specs"


def endless_game(evaluation=0.25):
    """Two players move 0 or 1 for ever (no terminal state); the evaluation is fixed."""
    class Endless(tuple):
        __slots__ = ()

        def actions(self):
            return [0, 1]

        def player(self):
            return self[0] % 2

        def result(self, action):
            if self[0] < 0:
                raise KeyboardInterrupt
            return Endless((self[0] + 1,))

        def terminal_test(self):
            return False

        def is_chance(self):
            return False

        def chance_outcomes(self):
            return []

    return Game(name="endless", player_names=("A", "B"), zero_sum=True, constant_sum=0,
                has_evaluation=True, state_class=Endless, _initial=lambda: Endless((0,)),
                _evaluate=lambda state, player: evaluation if player == 0 else -evaluation,
                _action_text=str, _parse_action=lambda state, text: int(text))


def test_the_node_bound_holds_and_iterations_go_on():
    game = load(SPECS / "connect_four.yaml")
    tree = mcts.UCTSearch(game, seed=2, max_nodes=50)
    tree.run(iterations=600)
    assert tree.nodes == 50 and tree.iterations == tree.root.visits == 600
    result = mcts.search(game, iterations=600, seed=2, max_nodes=50)
    assert result.stats.nodes == 50 and result.best_action in game.initial_state().actions()
    unbounded = mcts.search(game, iterations=600, seed=2)
    assert unbounded.stats.nodes == 601          # one node an iteration, plus the root


def test_ctrl_c_mid_iteration_returns_the_best_so_far():
    game = load(SPECS / "tictactoe.yaml")
    tree = mcts.UCTSearch(game, seed=1)
    tree.run(iterations=200)
    calls = {"n": 0}
    original = tree._playout

    def interrupted(state):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return original(state)

    tree._playout = interrupted
    nodes = tree.nodes
    assert tree.run(iterations=10) is False
    assert tree.nodes == nodes + 2 and tree.iterations == 202    # the cut iteration left nothing
    assert subtree_counts_consistent(tree.root)
    result = tree.result(complete=False)
    assert result.best_action in game.initial_state().actions()
    tree._playout = original
    assert tree.run(iterations=50) and tree.root.visits == 252


def test_ctrl_c_before_any_iteration_still_gives_a_legal_move():
    game = load(SPECS / "tictactoe.yaml")
    tree = mcts.UCTSearch(game, seed=1)
    tree._playout = lambda state: (_ for _ in ()).throw(KeyboardInterrupt)
    assert tree.run(iterations=5) is False and tree.nodes == 1 and tree.iterations == 0
    result = tree.result(complete=False)                  # no ZeroDivisionError
    assert result.best_action in game.initial_state().actions() and result.value is None


def test_playouts_on_an_endless_game_stop_at_the_cap_and_use_the_evaluation():
    game = endless_game(0.25)
    tree = mcts.UCTSearch(game, seed=0)
    tree.run(iterations=3)
    assert tree.iterations == 3
    assert tree.root_totals[0] == pytest.approx(3 * 0.25)   # raw evaluation: no finite bounds


def test_the_deadline_is_checked_inside_playouts(monkeypatch):
    game = endless_game()
    ticks = {"t": 0.0}

    def clock():                                            # a stepping clock: 1 ms a reading
        ticks["t"] += 0.001
        return ticks["t"]

    monkeypatch.setattr(mcts, "PLAYOUT_CAP", 10 ** 9)       # only the clock can stop a playout
    monkeypatch.setattr(mcts.time, "perf_counter", clock)
    result = mcts.search(game, time_limit=0.05, seed=0)
    assert ticks["t"] < 0.2                                 # stopped by readings, not by a cap
    assert result.best_action in (0, 1)
