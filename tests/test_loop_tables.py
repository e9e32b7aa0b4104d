"""Loops whose course reads no state, as tables (framework/compiler/loop_tables.py): a
sowing loop's outcome (the locals it leaves, the items it adds to) is computed once per
value of the locals it reads and applied as additions.  Sowing games drawn at random --
cycles of 3 to 8 houses, a skipped house, a store passed on the way, hands of several laps,
additions of 1, 2 or -1 (items that leave their range: the loop itself then runs and
raises), indexes that may leave the list, counters outside the list, effects after the
loop that read its final position, bodies that read the state (not tabled), the per-player
stores read and written at constant indexes (one local per item: local_lists.py) -- play
exactly as the reference interpreter does, errors included (`check_one`: the compiled
course interface against the interpreter, the kernel against the course interface), and
list their moves in the interpreter's order, kernel included (tests/lockstep.py)."""
from __future__ import annotations

import random

import pytest

from framework import load, load_text
from framework.errors import SpecRuntimeError
from framework.interpreter import interpret_text
from tests.conftest import ROOT
from tests.lockstep import plays_as_the_interpreter

GAME = """game: Sow
players: [A, B]
state:
  h: {type: @LOW..@HI, size: @N, initial: @SEEDS}
  store: {type: 0..@SHI, per: player, initial: 0}
  laps: {type: 0..@LHI, initial: 0}
  n: {type: 0..99, initial: 0}
define:
  lead(p): "sum j in 0..laps: (store[p] * (j + 1) - store[next(p)] * j) % (j + 2) + store[p] - store[next(p)]"
actions:
  sow(i in 0..@LAST):
    if: n < 12 and h[i] > 0
    then: |
      let pos = @START
      let flag = false
      let start = i
      let hand = @HAND
      h[i] = 0
      for k in 1..hand do {
        @BODY
      }
      @AFTER
      n += 1
terminal: n >= 12
utility: "store[A] - store[B] + laps"
"""

NEXT = ["(pos + 1) % @N", "0 if pos == @LAST else pos + 1", "pos - 1 if pos > 0 else @LAST",
        "pos + 1", "(pos + 2) % @N"]                     # pos + 1 leaves the list
BODIES = [
    # Kalah's: a store passed on the way (one per player), counted once per lap
    "if not flag and pos == (@STOP if mover == A else @LAST) then { store[mover] += 1; flag = true }"
    " else { pos = 0 if flag and pos == @LAST else pos + 1 if flag else @NEXT; flag = false; h[pos] += @D }",
    # Oware's: the emptied house skipped
    "pos = @NEXT; if pos == start then pos = @NEXT; h[pos] += @D",
    # a counter outside the list, an item at a constant index, the loop's variable read
    "pos = @NEXT; h[pos] += @D; if pos == 0 then laps += 1; if k % 3 == 0 then h[@LAST] = h[@LAST] + @D",
    # a nested loop
    "pos = @NEXT; for j in 0..1 do { if j == 0 or pos == @STOP then h[(pos + j) % @N] += @D }",
    # the shipped kalah.yaml's: the opponent's store skipped (a builtin of the mover)
    "pos = @NEXT; if pos == (@STOP if next(mover) == A else @LAST) then pos = @NEXT; h[pos] += @D",
    # mixed signs on one list, a read of the state: loops, not tables
    "pos = @NEXT; h[pos] += 1; if pos == @STOP then h[0] -= 1",
    "pos = @NEXT; if h[pos] < 3 then h[pos] += @D",
]
TABLED = 5                  # BODIES[:TABLED] are tables
AFTERS = ["", "if flag then turn = mover", "store[mover] += pos",
          "if h[pos] == 1 and h[@LAST - pos] > 0 then { store[mover] += h[@LAST - pos]; h[@LAST - pos] = 0 }",
          "if pos == start then laps += 1",
          # the stores as one local per item (constant indexes), or a list (an index that varies)
          "store[next(mover)] += 1; if store[mover] > store[A] + 1 then laps += 1",
          "store[A if pos % 2 == 0 else B] += 1", "if lead(mover) > 2 and lead(next(mover)) < 9 then laps += 1"]


def sowing(rng: random.Random, body: int) -> tuple:
    """(spec text, `body`)."""
    size, delta = rng.randint(3, 8), rng.choice(["1", "1", "2", "-1"])
    return fill(BODIES[body], size=size, delta=delta, after=rng.choice(AFTERS), nxt=rng.choice(NEXT),
                start=rng.choice(["i", "(i + 1) % @N", "@LAST - i"]),
                hand=rng.choice(["h[i]", "h[i]", "h[i] + @N", "2 * h[i] + @N + 1", "h[i] - 1"]),
                stop=rng.randint(0, size - 1), low="-3" if delta == "-1" and rng.random() < 0.5 else "0",
                shi=rng.choice([5, 60]), lhi=rng.choice([2, 60]), hi=rng.choice([6, 12, 60]),
                seeds=rng.randint(1, 4)), body


def fill(body, *, size, delta, after, nxt, start, hand, stop, low, shi, lhi, hi, seeds) -> str:
    text = GAME.replace("@BODY", body).replace("@AFTER", after).replace("@NEXT", nxt).replace("@D", delta)
    text = text.replace("@START", start).replace("@HAND", hand).replace("@STOP", str(stop))
    text = text.replace("@LOW", low).replace("@SHI", str(shi)).replace("@LHI", str(lhi))
    text = text.replace("@HI", str(hi)).replace("@SEEDS", str(seeds))
    return text.replace("@LAST", str(size - 1)).replace("@N", str(size))


def same(text, playouts=2, plies=14):
    plays_as_the_interpreter(text, 40, playouts, plies)


@pytest.mark.parametrize("seed", range(7))
def test_random_sowing_loops_play_as_the_interpreter(seed):
    text, body = sowing(random.Random(seed), seed % len(BODIES))
    assert ("_LT" in load_text(text).python_source) == (body < TABLED), text
    same(text)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(7, 400))
def test_random_sowing_loops_play_as_the_interpreter_at_size(seed):
    text, body = sowing(random.Random(seed), seed % len(BODIES))
    assert ("_LT" in load_text(text).python_source) == (body < TABLED), text
    same(text, playouts=4, plies=30)


def test_an_item_leaving_its_range_fails_as_the_loop_does():
    """The table adds, sees an item out of range, takes the additions back and lets the
    loop run: the error names the first value that passes (5, not the final 7)."""
    text = fill(BODIES[1], size=3, delta="1", after="", nxt="(pos + 1) % 3", start="i", hand="2 * h[i] + 1",
                stop=0, low="0", shi=60, lhi=60, hi=4, seeds=4)
    game, igame = load_text(text), interpret_text(text)
    assert "loop_outcome(_LT" in game.python_source
    with pytest.raises(SpecRuntimeError) as mine:
        game.initial_state().result(game.initial_state().actions()[0])
    with pytest.raises(SpecRuntimeError) as theirs:
        igame.initial_state().result(igame.initial_state().actions()[0])
    assert "would become 5" in mine.value.message and mine.value.message == theirs.value.message


def test_stores_as_locals_passed_to_a_definition_written_as_a_function():
    text = fill(BODIES[0], size=4, delta="1", after=AFTERS[-1] + "; " + AFTERS[-3], nxt=NEXT[0], start="i",
                hand="h[i] + 4", stop=1, low="0", shi=60, lhi=60, hi=60, seeds=3)
    source = load_text(text).python_source
    assert "_v_store_0, _v_store_1, = v_store" in source and "(_v_store_0, _v_store_1,)" in source
    assert "_def1((_v_store_0, _v_store_1,), " in source
    same(text, playouts=3, plies=20)


def test_the_drawn_games_reach_every_path():
    """The default seeds draw laps, additions that leave the range (the loop runs again and
    raises); the loops of Kalah (ours and the stranger's) and Oware are tables."""
    drawn = [sowing(random.Random(seed), seed % len(BODIES))[0] for seed in range(7)]
    assert any("2 * h[i]" in t for t in drawn) and any("+= -1" in t for t in drawn)
    for spec in (ROOT / "benchmarks" / "specs" / "kalah.yaml", ROOT / "game_specs" / "oware.yaml",
                 ROOT / "game_specs" / "kalah.yaml"):
        source = load(spec).python_source
        assert "loop_outcome(_LT" in source and "for _j" in source, spec
    assert "_v_store_0, _v_store_1, = v_store" in load(ROOT / "benchmarks" / "specs" / "kalah.yaml").python_source


def test_a_loop_that_reads_no_local_at_all_is_one_constant_outcome():
    """A loop over constant bounds whose body reads no local (no key): its table has one
    entry, keyed `()` (the generated code was `.get((,))`, a syntax error, found by a
    drawn spec of tests/test_generated_specs.py)."""
    text = """game: Drain
players: [A, B]
options: {k: 1}
state:
  h: {type: 0..9, size: 3, initial: 5}
  n: {type: 0..9, initial: 0}
actions:
  drain(i in 0..1):
    if: n < 4
    then: 'for t in 0..k do { h[t] -= 1 }; n += 1'
terminal: n >= 4
utility: h[0] - h[2]
"""
    source = load_text(text).python_source
    assert ".get(())" in source and "loop_outcome(_LT0, (), " in source
    plays_as_the_interpreter(text, 10, 1, 5)
