"""`size(liberties(board, c, dirs)) OP K` (K from 0 to 3) is compiled as the liberty count
capped at K + 1 (framework.builtins.connectivity.capped_liberties: a stone with K + 1 empty
neighbours is answered without flooding its group).  Drawn games whose moves test and
capture by such comparisons, on stones, on empty points and on no cell, play alike compiled
(course interface and kernel, moves in order) and interpreted."""
from __future__ import annotations

import random

import pytest

from framework import load_text
from tests.lockstep import plays_as_the_interpreter

OPS = ("==", "!=", "<", "<=", ">", ">=")


def drawn_game(seed: int) -> str:
    rng = random.Random(seed)
    dirs = rng.choice(["orthogonal", "king", "diagonal"])

    def test(cell):
        return f"size(liberties(board, {cell}, {rng.choice([dirs, 'orthogonal'])})) {rng.choice(OPS)} {rng.randint(0, 3)}"
    width, height = rng.choice([(4, 3), (3, 3), (5, 2)])
    return f"""
game: Drawn liberties {seed}
players: [A, B]
board: {{width: {width}, height: {height}, cells: [empty, A, B]}}
state:
  t: {{type: 0..{width * height + 2}, initial: 0}}
actions:
  place(c in cells(board, empty)):
    if: "{test("c")} or (exists d in neighbors(c, {dirs}): {test("d")})"
    then: |
      board[c] = mover
      t += 1
      for d in neighbors(c, {dirs}) do
        if board[d] == next(mover) and {test("d")} then board[group(board, d, {dirs})] = empty
  lift(c in cells(board, mover)):
    if: "{test("c")} {rng.choice(["and", "or"])} {test("cell(9, 9)")}"
    then: |
      board[c] = empty
      t += 1
terminal: t == {width * height + 2} or full(board)
utility: count(board, A) - count(board, B)
"""


@pytest.mark.parametrize("seed", range(6))
def test_drawn_liberty_comparisons_play_as_the_interpreter(seed):
    plays_as_the_interpreter(drawn_game(seed), bfs_states=150, playouts=4, plies=20)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6, 60))
def test_many_more_drawn_liberty_comparisons(seed):
    plays_as_the_interpreter(drawn_game(seed), bfs_states=300, playouts=6, plies=30)


def test_the_comparison_is_compiled_capped():
    source = load_text(drawn_game(0)).python_source
    assert "liberties_upto(" in source
