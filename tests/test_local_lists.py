"""A list written item by item in a run of effects is a local Python list there
(framework/compiler/local_lists.py): the compiled game still plays exactly as the reference
interpreter does (Kalah, and sowing games drawn at random: wrapped and unwrapped indexes
that leave the list, items that leave their range, whole-list reads that keep the tuple),
and the lowering is made where it applies and only there.  tests/test_generated_specs.py
draws sowing loops in random specs too (framework/conformance/generate_lists.py)."""
from __future__ import annotations

import random

import pytest

from framework import load_text
from framework.conformance.generate import check_one
from tests.conftest import ROOT

KALAH = (ROOT / "benchmarks" / "specs" / "kalah.yaml").read_text()

SOWING = """game: Sowing
players: [A, B]
state:
  h: {type: 0..HI, size: SIZE, initial: SEEDS}
  store: {type: 0..99, per: player, initial: 0}
  n: {type: 0..99, initial: 0}
actions:
  sow(i in 0..LAST):
    if: n < 12 and h[i] > 0
    then: |
      let pos = i
      let hand = h[i]
      h[i] = 0
      for k in 1..hand do {
        pos = NEXT
        WRITE
        EXTRA
      }
      n += 1
      AFTER
terminal: n >= 12
utility: "store[A] - store[B]"
"""


MEMOISED = """game: Memo
players: [A, B]
state:
  h: {type: 0..99, size: 14, initial: 1}
  n: {type: 0..99, initial: 0}
define:
  heavy: "(sum i in 0..13: h[i] * (i % 3) + (1 if h[i] > 2 else 0)) + (count j in 0..13: h[j] == 0)"
actions:
  sow(i in 0..13):
    if: n < 6 and h[i] > 0 and heavy >= 0
    then: |
      let pos = i
      let hand = h[i]
      h[i] = 0
      for k in 1..hand do {
        pos = (pos + 1) % 14
        h[pos] += 1
        n = min(heavy % 7 + n, 99)
      }
terminal: n >= 6 or heavy > 90
utility: heavy % 5
"""


def sowing(rng: random.Random) -> str:
    size = rng.randint(2, 7)
    text = SOWING.replace("SIZE", str(size)).replace("LAST", str(size - 1))
    text = text.replace("HI", str(rng.choice([6, 9, 40]))).replace("SEEDS", str(rng.randint(1, 3)))
    text = text.replace("NEXT", rng.choice([f"(pos + 1) % {size}", f"(pos + {size} - 1) % {size}", "pos + 1",
                                            f"(pos + k) % {size}"]))
    text = text.replace("WRITE", rng.choice(["h[pos] += 1", "h[pos] = h[pos] + 1",
                                             f"if h[pos] > 2 then store[mover] += 1 else h[pos] += 1"]))
    text = text.replace("EXTRA", rng.choice(["", "store[mover] += h[0] % 2", "n = min(sum(h), 11)",
                                             f"if k == hand and h[pos] == 1 then h[(pos + 1) % {size}] = 0"]))
    return text.replace("AFTER", rng.choice(["", "h[0] = 0", "store[mover] += max(h) % 3",
                                             f"for j in 0..{size - 1} do h[j] = 0"]))


def test_kalah_plays_as_the_interpreter():
    assert check_one(KALAH, bfs_states=150, playouts=6, plies=80) is None


@pytest.mark.parametrize("seed", range(12))
def test_random_sowing_games_play_as_the_interpreter(seed):
    text = sowing(random.Random(seed))
    assert check_one(text, bfs_states=60, playouts=4, plies=40) is None, text


def test_the_lowering_applies_where_only_items_are_read():
    source = load_text(KALAH).python_source
    apply = source[source.index("def k_apply"):source.index("def k_leaves")]
    assert "v_house = list(v_house)" in apply and "v_house = tuple(v_house)" in apply
    assert "set_item(v_house" not in apply
    whole = SOWING.replace("SIZE", "3").replace("LAST", "2").replace("HI", "9").replace("SEEDS", "1")
    whole = whole.replace("NEXT", "(pos + 1) % 3").replace("WRITE", "h[pos] += 1").replace("AFTER", "")
    read = load_text(whole.replace("EXTRA", "n = min(sum(h), 11)")).python_source   # the loop reads all of h
    assert "list(v_h)" not in read and "set_item(v_h" in read
    items = load_text(whole.replace("EXTRA", "")).python_source
    assert "v_h = list(v_h)" in items


def test_a_memoised_definition_reads_the_list_as_a_tuple():
    """`heavy` is written once as a function and memoised (compiler/outline.py): called in
    the sowing loop, it is given the list as a tuple (a memory's key must be hashable)."""
    source = load_text(MEMOISED).python_source
    assert "@memoise" in source and "v_h = list(v_h)" in source and "(tuple(v_h))" in source
    assert check_one(MEMOISED, bfs_states=100, playouts=4, plies=30) is None
