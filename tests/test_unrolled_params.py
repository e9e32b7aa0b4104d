"""An int parameter's loop over constant bounds (framework/compiler/legal.py): comparisons
of the parameter with constants, once the mover is known (`i < 6 if mover == South else
i >= 6`), narrow the loop's range, and a last parameter of at most MAX_UNROLLED values is
written out value by value (a sum of tests to count, an `or` chain for "any", an append
per value; a part of the tests that does not name the parameter and cannot raise is
computed once before them).  The compiled games play exactly as the reference interpreter does, errors
included (an index that leaves the list for some values, tested in the loop's order),
the moves come in the interpreter's order, and the kernel's counts agree with its lists (`check_one`: Kalah, Oware and games drawn
at random)."""
from __future__ import annotations

import random

import pytest

from framework import load, load_text
from framework.conformance.generate import check_one
from tests.conftest import ROOT
from tests.lockstep import spec_in_lockstep as same_order

GAME = """game: Houses
players: [A, B]
state:
  h: {type: 0..20, size: SIZE, initial: 1}
  n: {type: 0..99, initial: 0}
define:
  mine(p, i): "i < HALF if p == A else i >= HALF"
actions:
  take(OUTER i in LO..HI):
    if: "COND"
    then: |
      h[(i + SIZE * 4) % SIZE] = 0
      h[(i + SIZE * 4 + 1) % SIZE] += 1
      n += 1
terminal: n >= 8 or not can_move(mover)
utility: "h[0] - h[SIZE - 1]"
"""


def houses(rng: random.Random) -> str:
    size = rng.randint(3, 8)
    lo, hi = rng.choice([(0, size - 1), (-1, size), (1, size - 2), (0, 20)])
    item = rng.choice(["h[i] > 0", "h[i] > 0", "h[i + 1] >= 1", "h[(i + SIZE) % SIZE] > 0",
                       "h[i] > 0 and ((sum k in 0..SIZE - 1: h[k]) > 3 or h[i] > 1)",    # hoisted
                       "h[i] > 0 and (i > 50 and abs(h[n]) > 0 or h[i] < 99)"])   # h[n] may leave h: not hoisted
    bounds = rng.sample(["mine(mover, i)", "i < HALF", "i >= 1", "2 <= i", "i > LO", "i <= HI - 1",
                         "i == 2", "HI > i"], rng.randint(0, 2))
    conds = bounds + [item]
    rng.shuffle(conds)
    outer = rng.choice(["", "", "j in 0..1, "])
    if outer:
        conds.append(rng.choice(["(j == 0 or h[j] > 0)", "h[j] >= j"]))
    text = GAME.replace("COND", " and ".join(conds)).replace("OUTER ", outer)
    return (text.replace("HALF", str(size // 2)).replace("SIZE", str(size))
            .replace("LO", str(lo)).replace("HI", str(hi)))


def test_kalah_and_oware_play_as_the_interpreter():
    """(Kalah's whole differential check is tests/test_local_lists.py's.)"""
    assert check_one((ROOT / "game_specs" / "oware.yaml").read_text(),
                     bfs_states=60, playouts=2, plies=40) is None
    same_order((ROOT / "benchmarks" / "specs" / "kalah.yaml").read_text(), playouts=2, plies=40)


@pytest.mark.parametrize("seed", range(10))
def test_random_parameter_loops_play_as_the_interpreter(seed):
    text = houses(random.Random(seed))
    assert check_one(text, bfs_states=50, playouts=3, plies=20) is None, text
    same_order(text)


def test_bounds_narrow_the_loop_and_short_loops_are_written_out():
    source = load(ROOT / "benchmarks" / "specs" / "kalah.yaml").python_source
    actions = source[source.index("def k_actions"):source.index("def k_count")]
    assert "if (v_house[0] > 0): acts.append(0)" in actions and "for p_i" not in actions
    assert "if (v_house[11] > 0): acts.append(11)" in actions and "(p_i < 6)" not in actions
    count = source[source.index("def k_count"):source.index("def k_apply")]
    assert "n += (1 if (v_house[6] > 0) else 0) + (1 if (v_house[7] > 0) else 0)" in count
    wide = load_text(GAME.replace("OUTER ", "").replace("COND", "i >= 2 and h[i] > 0")
                     .replace("SIZE", "30").replace("LO", "0").replace("HI", "29").replace("HALF", "15")
                     .replace("0..20", "0..99")).python_source
    assert "for p_i in range(2, 30):" in wide      # more values than MAX_UNROLLED: a loop
    oware = load(ROOT / "game_specs" / "oware.yaml").python_source
    oware = oware[oware.index("def k_actions"):oware.index("def k_count")]
    assert oware.count("(v_pits[6]) + (v_pits[7])") == 1 and " and (_h" in oware   # side(next(mover)) once


def test_a_part_that_may_raise_is_not_computed_before_the_tests():
    """`abs(h[n])` names no parameter but may leave `h` (n grows past its size); the loop
    never reaches it (`i > 50` is false), so it must not be computed before the tests."""
    text = (GAME.replace("OUTER ", "").replace("COND", "h[i] > 0 and (i > 50 and abs(h[n]) > 0 or h[i] < 99)")
            .replace("SIZE", "3").replace("LO", "0").replace("HI", "2").replace("HALF", "1"))
    assert check_one(text, bfs_states=30, playouts=2, plies=12) is None
