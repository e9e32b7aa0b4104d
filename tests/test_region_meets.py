"""`size(region(A, dirs, S) & T) > 0` (or `== 0`, `!= 0`, `>= 1`, `< 1`, the `&` either way
round) asks only whether the region meets T, and is compiled as a flood that stops at the
first cell of T it reaches (framework.builtins.connectivity.region_meets: Quoridor's path
to the goal row).  Drawn games whose moves and ends ask it (seeds a cell or a set, targets
rows, columns, a value's cells or nothing) play alike compiled (course interface and
kernel, moves in order) and interpreted."""
from __future__ import annotations

import random

import pytest

from framework import load_text
from tests.lockstep import plays_as_the_interpreter

ASKS = ("> 0", "== 0", "!= 0", ">= 1", "< 1")


def drawn_game(seed: int) -> str:
    rng = random.Random(seed)
    width, height = rng.choice([(4, 4), (5, 3), (3, 5)])
    dirs = rng.choice(["orthogonal", "king", "diagonal"])

    def meets(seeds):
        through = rng.choice(["cells(board, empty) | cells(board, mover)", "cells(board, empty)",
                              "cells(board, mover) | cells(board, next(mover))", "cells(board, wall) | cells(board, mover)"])
        target = rng.choice([f"row_cells({rng.randrange(height)})", f"column_cells({rng.randrange(width)})",
                             "cells(board, next(mover))", "cells(board, wall)", "row_cells(99)"])
        region = f"region({seeds}, {dirs}, {through})"
        both = f"{region} & {target}" if rng.random() < 0.5 else f"{target} & {region}"
        return f"size({both}) {rng.choice(ASKS)}"
    return f"""
game: Drawn region {seed}
players: [A, B]
board: {{width: {width}, height: {height}, cells: [empty, A, B, wall]}}
state:
  t: {{type: 0..{width * height}, initial: 0}}
actions:
  put(c in cells(board, empty)):
    if: "{meets('c')} or {meets('cells(board, mover)')}"
    then: |
      board[c] = mover
      t += 1
  block(c in cells(board, empty)):
    if: "{meets('cells(board, next(mover))')}"
    then: |
      board[c] = wall
      t += 1
terminal: "t == {width * height} or full(board) or {meets('cells(board, A)').replace('mover', 'A')}"
utility: count(board, A) - count(board, B)
"""


@pytest.mark.parametrize("seed", range(6))
def test_drawn_region_questions_play_as_the_interpreter(seed):
    plays_as_the_interpreter(drawn_game(seed), bfs_states=150, playouts=4, plies=20)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6, 60))
def test_many_more_drawn_region_questions(seed):
    plays_as_the_interpreter(drawn_game(seed), bfs_states=300, playouts=6, plies=30)


def test_the_question_is_compiled_as_a_flood_that_stops():
    assert "meets(_flood_" in load_text(drawn_game(0)).python_source
