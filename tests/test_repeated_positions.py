"""positions_do_not_repeat (issue 13 item 3): a cycle in the game graph is found breadth-first
and on playouts and reported with the actions that return to the repeated position."""
from pathlib import Path

import framework
from framework.conformance.cycles import (positions_do_not_repeat, graph_cycle, playout_cycle,
                                          NAME)
from framework.conformance.games import path_text
from framework.conformance.report import PASSED, FAILED

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _returns(game, to_position, back):
    """Replaying the reported actions really comes back to the same position."""
    state = game.initial_state()
    for a in to_position:
        state = state.result(a)
    again = state
    for a in back:
        again = again.result(a)
    return back and again == state


def test_nim_allowing_take_zero_repeats():
    game = framework.load(HERE / "robustness" / "nim_take_zero.yaml")
    outcome = positions_do_not_repeat(game, path_text, seed=1)
    assert outcome.status == FAILED and outcome.name == NAME
    assert outcome.counterexample == ["take(0,0)", "take(0,0)"]
    assert _returns(game, *graph_cycle(game))
    assert _returns(game, *playout_cycle(game, seed=3, playouts=50))


def test_games_that_always_progress_pass():
    for spec in ("nim.yaml", "tictactoe.yaml", "connect_four.yaml"):
        outcome = positions_do_not_repeat(framework.load(ROOT / "game_specs" / spec), path_text, seed=1)
        assert outcome.status == PASSED, (spec, outcome.detail)


def test_max_length_is_a_claim_not_a_rule():
    """max_length only bounds playouts (and is checked); a cycle needs a repetition rule or
    max_moves (tests/test_repetition.py)."""
    text = (HERE / "robustness" / "nim_take_zero.yaml").read_text() + "max_length: 40\n"
    assert positions_do_not_repeat(framework.load_text(text), path_text).status == FAILED
    ruled = positions_do_not_repeat(framework.load_text(text + "max_moves: 40\n"), path_text)
    assert ruled.status == PASSED and "max_moves draw" in ruled.detail


def test_pig_lets_both_players_hold_at_zero_for_ever():
    game = framework.load(ROOT / "game_specs" / "pig.yaml")
    to_position, back = graph_cycle(game)
    assert _returns(game, to_position, back)
    assert path_text(game, [*to_position, *back]) == ["hold", "hold"]
