"""Ranges proved for the locals of effects (framework/compiler/int_ranges.py `local_range`):
a `let` local's range is the hull of its first value and of every value assigned to it in
its block, proved by induction and narrowed inside conditionals by what their tests say
(`pos + 1 if in_store else ...` in the else of `in_store and pos == 11` has pos != 11); a
`for` variable has its range's.  A list index proved in range is read and written with no
test, `1..hand` over a local of known range is a plain `range`, and an item's write tests
only the end of its range that the value may pass.  Sowing games drawn at random (safe and
unsafe next-house rules, items that overflow) play exactly as the reference interpreter
does, errors included."""
from __future__ import annotations

import random

import pytest

from framework import load, load_text
from framework.conformance.generate import check_one
from tests.conftest import ROOT

GAME = """game: Ring
players: [A, B]
state:
  h: {type: 0..HI, size: N, initial: SEEDS}
  store: {type: 0..60, per: player, initial: 0}
  n: {type: 0..99, initial: 0}
actions:
  sow(i in 0..LAST):
    if: n < 10 and h[i] > 0
    then: |
      let pos = START
      let flag = false
      let hand = h[i]
      h[i] = 0
      for k in 1..hand do {
        if not flag and pos == STOP then {
          store[mover] += 1
          flag = true
        } else {
          pos = NEXT
          flag = false
          h[pos] += 1
        }
      }
      AFTER
      n += 1
terminal: n >= 10
utility: "store[A] - store[B]"
"""

SAFE = ["(pos + 1) % N", "0 if (flag and pos == LAST) else pos + 1 if flag else (pos + 1) % N",
        "0 if pos == LAST else pos + 1", "0 if (flag or pos == LAST) else pos + 1",
        "pos - 1 if pos > 0 else LAST", "0 if pos >= LAST else pos + 1", "LAST - pos"]
UNSAFE = ["pos + 1", "0 if (flag and pos == LAST) else pos + 1", "pos + 1 if pos <= LAST else 0",
          "0 if pos == LAST - 1 else pos + 1", "(pos + 2) % (N + 1)"]


def ring(rng: random.Random) -> str:
    size = rng.randint(3, 7)
    nxt = rng.choice(SAFE + UNSAFE)
    after = rng.choice(["", "store[mover] += h[pos]", "h[LAST - pos] = 0", "if h[pos] == 1 then h[pos] = 0",
                        "store[mover] -= 1", "for j in 0..pos do h[j] += 0"])
    text = GAME.replace("NEXT", nxt).replace("AFTER", after)
    text = text.replace("START", rng.choice(["i", "i", "(i + 1) % N", "LAST - i"]))
    text = text.replace("STOP", str(rng.choice([-1, 1, size - 1])))
    text = text.replace("HI", str(rng.choice([5, 9, 40]))).replace("SEEDS", str(rng.randint(1, 3)))
    return text.replace("LAST", str(size - 1)).replace("N", str(size))


@pytest.mark.parametrize("seed", range(20))
def test_random_sowing_locals_play_as_the_interpreter(seed):
    text = ring(random.Random(seed))
    assert check_one(text, bfs_states=40, playouts=2, plies=20) is None, text


def test_what_is_proved_and_what_is_not():
    source = load(ROOT / "benchmarks" / "specs" / "kalah.yaml").python_source
    apply = source[source.index("def k_apply"):source.index("def k_leaves")]
    assert "bad_index" not in apply and "item(" not in apply and "span(" not in apply
    assert "v_house[_l" in apply and "if not v_house[_l" in apply     # one end tested: value + 1 >= 0
    def code(nxt):
        text = GAME.replace("NEXT", nxt).replace("AFTER", "").replace("START", "i").replace("STOP", "1")
        text = text.replace("HI", "9").replace("SEEDS", "2").replace("LAST", "4").replace("N", "5")
        return load_text(text).python_source
    assert not [nxt for nxt in SAFE if "bad_index" in code(nxt)]
    assert not [nxt for nxt in UNSAFE if "bad_index" not in code(nxt)]
