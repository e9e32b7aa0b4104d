"""`exists c in D: A or B` over cells with A a mask and B unable to fail, written as
`D & mask(A) != 0 or exists c in D: B` (framework/compiler/masks.py `exists_split`): the
compiled game plays exactly as the reference interpreter does (Go on 3x3 and 4x4, and
drawn games whose B may fail, which keep the loop), and the split is made only where B
cannot fail."""
from __future__ import annotations

import random
import re

import pytest

from framework import load_text
from framework.conformance.generate import check_one
from tests.conftest import SPECS

GO = (SPECS / "go5.yaml").read_text()
SPLIT_LOOP = re.compile(r"for p_c in bits\(_e\d+ & ~_e\d+\)")    # the mask part counted at once (splits.split_loop)

NEAR = """game: Near
players: [A, B]
board: {width: W, height: H, cells: [empty, A, B]}
state:
  h: {type: 0..9, size: 2, initial: 1}
  n: {type: 0..20, initial: 0}
define:
  open(c): "exists d in neighbors(c, DIRS): board[d] == FIRST or SECOND"
actions:
  put(c in cells(board, empty)):
    if: open(c) or n > 6
    then: |
      board[c] = mover
      n += 1
      h[n % 2] = min(n, 9)
terminal: full(board) or n >= 12
utility: 0
"""


@pytest.mark.parametrize("size", [3, 4])
def test_go_plays_as_the_interpreter(size):
    text = GO.replace("options: {n: 5,", f"options: {{n: {size},")
    source = load_text(text).python_source
    assert "(FULL & ~(b_Black | b_White)))) != 0 or any(" in source or SPLIT_LOOP.search(source)
    assert check_one(text, bfs_states=120, playouts=4, plies=40) is None


def near(rng: random.Random, second: str) -> str:
    text = NEAR.replace("W", str(rng.randint(2, 4))).replace("H", str(rng.randint(2, 3)))
    text = text.replace("DIRS", rng.choice(["orthogonal", "diagonal", "queen"]))
    return text.replace("FIRST", rng.choice(["empty", "mover"])).replace("SECOND", second)


SAFE = ["(board[d] == mover and size(group(board, d, orthogonal)) > 1)",    # not masks, cannot fail
        "size(liberties(board, d, orthogonal)) == n % 3"]
RISKY = ["h[n - 5] > 3", "(board[d] == mover and h[n] > 0)"]     # an index that may leave the list


@pytest.mark.parametrize("seed", range(10))
def test_drawn_games_play_as_the_interpreter(seed):
    rng = random.Random(seed)
    second = rng.choice(SAFE + RISKY)
    text = near(rng, second)
    source = load_text(text).python_source
    split = ") != 0 or any(" in source or bool(SPLIT_LOOP.search(source))
    assert split == (second in SAFE), text
    assert check_one(text, bfs_states=80, playouts=4, plies=30) is None, text


# `LEFT or open(c)`: the split's mask test goes before LEFT when no operand can fail
# (framework/compiler/expressions.py cheap_first), else the chain keeps its order
LEFTS = {"(exists d in neighbors(c, orthogonal): board[d] == next(mover) and size(liberties(board, d, orthogonal)) == 1)": True,
         "n > 6": True,
         "h[n - 5] > 3": False}           # an index that may leave the list: it is tested first, as written


@pytest.mark.parametrize("seed", range(6))
def test_the_mask_test_of_a_split_goes_first_in_an_or_chain_when_nothing_can_fail(seed):
    rng = random.Random(seed)
    left = list(LEFTS)[seed % len(LEFTS)]
    text = near(rng, rng.choice(SAFE)).replace("if: open(c) or n > 6", f'if: "{left} or open(c)"')
    source = load_text(text).python_source
    assert ("if ((NEIGHBORS_" in source or bool(SPLIT_LOOP.search(source))) == LEFTS[left], text
    assert check_one(text, bfs_states=80, playouts=4, plies=30) is None, text
