"""A count's loop over a parameter with no test of its own that only adds a constant is
written as one product (framework/compiler/legal.py `_counted_loops`: Pentago's quadrant
and turn, `n += 8 * (empty cells).bit_count()`).  Drawn games whose moves have such
parameters (int ranges, cells, before or after tested ones) count and play alike on the
kernel, the course interface and the interpreter."""
from __future__ import annotations

import random

import pytest

from framework import load_text
from framework.errors import SpecError
from framework.interpreter import interpret_text
from framework.perft import perft
from tests.lockstep import plays_as_the_interpreter


def drawn_game(seed: int) -> str:
    rng = random.Random(seed)
    lo = rng.randint(0, 2)
    hi = lo + rng.randint(0, 3)
    free = rng.choice([f"q in {lo}..{hi}", "q in 0..0", f"q in {hi}..{hi + 2}"])
    tested = rng.choice(["", " and q != 1", " and t < 5"])
    cells = rng.choice(["c in cells(board, empty)", "c in cell"])
    cond = "board[c] == empty" + tested
    params = [cells, free, f"d in 0..{rng.randint(0, 2)}"]
    rng.shuffle(params)
    return f"""
game: Counted {seed}
players: [A, B]
board: {{width: 3, height: 3, cells: [empty, A, B]}}
state:
  t: {{type: 0..9, initial: 0}}
actions:
  put({', '.join(params)}):
    if: "{cond}"
    then: |
      board[c] = mover
      t = (t + q + d) % 10
  pass_on(k in 0..2):
    if: t == 9
    then: t = k
terminal: full(board) or line(board, 3, A) or line(board, 3, B)
winner: A if line(board, 3, A) else B if line(board, 3, B) else none
"""


@pytest.mark.parametrize("seed", range(8))
def test_drawn_counts_play_as_the_interpreter(seed):
    text = drawn_game(seed)
    assert _perft(load_text(text)) == _perft(interpret_text(text)), text
    plays_as_the_interpreter(text, bfs_states=60, playouts=3, plies=12)


def _perft(game):
    """perft(3), or the error's message (a drawn position may have no move: both must say so)."""
    try:
        return perft(game.initial_state(), 3)
    except SpecError as error:
        return error.message


def test_the_product_is_written():
    written = ["* (" in load_text(drawn_game(seed)).python_source.split("def k_count")[1].split("def k_apply")[0]
               for seed in range(8)]
    assert any(written) and not all(written), written
