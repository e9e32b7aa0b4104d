"""Quantifiers over small integer ranges that read one cell each as one mask test, moves over
integer parameters at one cell each from a table, outlined definitions that test their
arguments' ranges once, and the terminal test skipped while a move leaves the lists it
reads as they were (framework/compiler/range_masks.py, outline.py, apply.py): the compiled
game plays exactly as the reference interpreter does, moves in the same order, on games
drawn at random (coordinates on and off the board, several values at one cell, `exists` /
`forall`, `==` / `!=`, a definition called with arguments outside the table's range), and
the fast forms appear where they apply."""
from __future__ import annotations

import random

import pytest

from framework import load, load_text
from framework.conformance.generate import check_one
from framework.interpreter import interpret_text
from tests.conftest import ROOT

GRIDS = """game: Grids
players: [A, B]
board: {width: W, height: H, cells: [empty, A, B]}
state:
  t: {type: LO..HI, initial: LO}
  won: {type: 0..2, size: 3, initial: 0}
define:
  at(v, x, y): cell(XE, YE)
  test(v, p): "QUANT"
actions:
  place(x in 0..PX, y in 0..PY):
    if: TOP board[at(t, x, y)] == empty
    then: |
      board[at(t, x, y)] = mover
      if test(t, mover) then won[WI] = 1 if mover == A else 2
      t = LO + (t - LO + x + y + 1) % SPAN
  shift(i in LO..HI):
    if: i != t
    then: t = i
terminal: "(won[0] > 0 and won[1] > 0) or full(board) or test(OUTSIDE, B)"
winner: A if won[0] == 1 else B if won[0] == 2 else none
"""

COORDS = ["M * (v % Q) + x", "x + v - 1", "x // 2 + v", "2 * x - v", "x"]
QUANTS = ["forall x in 0..XR: forall y in 0..YR: board[at(v, x, y)] OP VAL",
          "exists y in 0..YR: forall x in 0..XR: board[at(v, x, y)] OP VAL",
          "exists x in 0..XR: board[at(v, x, K)] OP VAL",
          "forall k in 0..XR: board[at(v, k, k)] OP VAL",
          "(exists x in 0..XR: exists y in 0..YR: board[at(v, x, y)] OP VAL) and v > LO",
          "(forall x in 0..XR: board[at(v, x, K)] OP VAL) or count(board, p) > v + 3"]     # a call: outlined


def grids(rng: random.Random, form=None) -> str:
    lo = rng.choice([-1, 0, 1])
    hi = lo + rng.randint(1, 5)
    xe, ye = rng.choice(COORDS), rng.choice(COORDS).replace("x", "y")
    quant = (rng.choice(QUANTS) if form is None else QUANTS[form]).replace("OP", rng.choice(["==", "!="])).replace("VAL", rng.choice(["p", "empty", "A"]))
    subs = {"QUANT": quant, "XE": xe, "YE": ye, "LO": lo, "HI": hi, "SPAN": hi - lo + 1,
            "W": rng.randint(3, 7), "H": rng.randint(3, 6), "M": rng.choice([1, 2, 3]), "Q": rng.choice([2, 3]),
            "PX": rng.randint(0, 3), "PY": rng.randint(0, 2), "XR": rng.randint(0, 2), "YR": rng.randint(1, 2),
            "K": rng.randint(-1, 3), "WI": rng.choice(["0", "1", f"(t - {lo}) % 3"]),
            "TOP": rng.choice(["", f"t != {hi} and"]), "OUTSIDE": rng.choice([hi + 2, lo - 1, lo])}
    text = GRIDS
    for key in sorted(subs, key=len, reverse=True):           # SPAN before PX ..., XR before XE
        text = text.replace(key, str(subs[key]))
    return text


@pytest.mark.parametrize("seed", range(len(QUANTS)))
def test_random_grid_games_play_as_the_interpreter(seed):
    text = grids(random.Random(seed), form=seed)        # each form of quantifier once
    assert check_one(text, bfs_states=40, playouts=3, plies=30) is None, text


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.slow
def test_more_random_grid_games_play_as_the_interpreter(seed):
    text = grids(random.Random(seed))
    assert check_one(text, bfs_states=80, playouts=4, plies=40) is None, text


def test_moves_are_listed_in_the_interpreters_order():
    """The differential check compares sets of moves; the table lists them in the
    parameters' loop order, as the interpreter does."""
    rng = random.Random(7)
    for seed in range(2):
        text = grids(random.Random(seed))
        game, reference = load_text(text), interpret_text(text)
        state, ref = game.initial_state(), reference.initial_state()
        for _ in range(12):
            if state.terminal_test():
                break
            moves = state.actions()
            assert [game.action_text(a) for a in moves] == [reference.action_text(a) for a in ref.actions()], text
            i = rng.randrange(len(moves))
            state, ref = state.result(moves[i]), ref.result(ref.actions()[i])


def test_an_outlined_definition_tests_its_arguments_ranges_once():
    source = load_text(grids(random.Random(0), form=len(QUANTS) - 1)).python_source
    outlined = source[source.index("def _def"):].split("\n\n")[0]     # the first one
    fast, _, slow = outlined.partition(" if 0 <= d_0 <= ")
    assert "_QM" in fast and slow and "_QM" not in slow.split(" else ", 1)[1]     # else: the loop's terms


def test_the_fast_forms_appear_in_ultimate_tictactoe():
    source = load(ROOT / "benchmarks" / "specs" / "ultimate_tictactoe.yaml").python_source    # (loaded once)
    assert "_QM" in source and "cells_mask(" in source          # small_line, small_full: masks per board
    assert "_GL0 = tuple(" in source and "_GM0 = tuple(moves_mask(" in source     # place(x, y): a table
    legal = source[source.index("def k_count"):source.index("def k_apply")]
    assert "bit_count()" in legal and "for p_x" not in legal
    assert "def _def2" not in source      # small_line, small_full: a few mask tests, inline (outline.py)
    assert "_was_v_won = v_won" in source and "v_won is not _was_v_won" in source
