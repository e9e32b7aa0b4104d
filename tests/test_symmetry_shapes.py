"""`symmetries: all` means the symmetries of the board's shape: the eight of a square, the
four of a rectangle, so an option that makes the board rectangular (tic-tac-toe with
--set m=4) gives a working game whose claims still hold."""
from __future__ import annotations

import framework
from conftest import SPECS
from framework.conformance.symmetry import symmetry_violation


def test_a_rectangular_board_keeps_the_half_turn_and_the_axis_reflections():
    game = framework.load(SPECS / "tictactoe.yaml", m=4)
    state = game.initial_state()
    corner = next(a for a in state.actions() if game.action_text(a) == "place(0,0)")
    images = game.symmetries(state.result(corner))
    assert len(images) == 4                  # the mark lands in each of the four corners
    square = framework.load(SPECS / "tictactoe.yaml")
    state = square.initial_state()
    assert len(square.symmetries(state.result(state.actions()[0]))) == 8


def test_the_symmetry_property_holds_on_the_rectangular_board():
    game = framework.load(SPECS / "tictactoe.yaml", m=4, k=3)
    frontier, seen = [game.initial_state()], set()
    while frontier and len(seen) < 600:                   # the states nearest the start
        state = frontier.pop(0)
        if state in seen:
            continue
        seen.add(state)
        assert symmetry_violation(game, state) is None
        if not state.terminal_test():
            frontier += [state.result(a) for a in state.actions()]


def _first_violation(game, playouts=60):
    """A symmetry claim broken on some state of seeded random playouts (they reach the end)."""
    import random
    rng = random.Random(5)
    for _ in range(playouts):
        state = game.initial_state()
        while True:
            found = symmetry_violation(game, state)
            if found or state.terminal_test():
                break
            state = state.result(rng.choice(state.actions()))
        if found:
            return found
    return None


def test_hex_declares_the_half_turn_and_a_quarter_turn_claim_is_caught(tmp_path):
    game = framework.load(SPECS / "hex.yaml", n=3)
    state = game.initial_state()
    corner = next(a for a in state.actions() if game.action_text(a) == "place(0,0)")
    assert len(game.symmetries(state.result(corner))) == 2       # (0,0) and (2,2)
    assert _first_violation(game) is None
    wrong = tmp_path / "hex_rotate.yaml"                         # a quarter turn swaps the players' sides
    wrong.write_text((SPECS / "hex.yaml").read_text().replace("symmetries: half_turn", "symmetries: rotate"))
    assert _first_violation(framework.load(wrong, n=3)) is not None
