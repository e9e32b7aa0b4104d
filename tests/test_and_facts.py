"""What the operands of an `and` before it say narrows an expression's range
(framework/compiler/int_ranges.py `_compared`): in `pos - k >= opp and pits[pos - k] == 2`
Python reads the item only when the test before held, so with opp 6 and pos at most 11 the
index is in range and read with no test.  So does the test of an `if` effect in its
branches (negated in the `else`), unless the branch assigns a name the test reads.  Guards drawn at random -- sufficient or not,
flipped, negated, inside `or`s (which say nothing), about another expression, a name
shadowed by a quantifier's variable, in preconditions, effects and quantifier bodies,
`if` branches that assign the guarded names --
play exactly as the reference interpreter does, errors included (an index the guard does
not keep on the list fails as before), moves in the interpreter's order, kernel included."""
from __future__ import annotations

import random

import pytest

from framework import load, load_text
from tests.conftest import ROOT
from tests.lockstep import plays_as_the_interpreter

GAME = """game: Guards
players: [A, B]
state:
  h: {type: 0..9, size: @N, initial: @SEEDS}
  n: {type: 0..99, initial: 0}
actions:
  take(i in 0..@LAST):
    if: "@COND"
    then: |
      let pos = i
      let opp = @OPP
      for k in 0..@K do {
        if @GUARD and h[@IDX] @CMP then @THEN
      }
      @AFTER
      h[i] = 0
      n += 1
terminal: n >= 10 or not can_move(mover)
utility: "h[0] - h[@LAST]"
"""
GUARDS = ["pos - k >= 0", "pos - k >= opp", "opp <= pos - k", "pos - k >= -1", "not (pos - k < 0)",
          "pos + k <= @LAST", "pos + k < @N", "@N > pos + k", "pos + k <= @N", "k <= pos",
          "(pos - k > 0 or k == 0)", "pos - k >= 0 and pos + k <= @LAST", "pos * 2 - k >= 0",
          "pos - k >= 0 and (exists k in 0..2: h[pos - k] > 0)"]
INDEXES = ["pos - k", "pos + k", "pos * 2 - k", "k - pos", "pos - k + 1"]
THENS = ["h[@IDX] = @V", "{ n += 0; h[@IDX] = @V }", "{ pos = pos + 1; h[@IDX] = @V }",   # pos: the test's no more
         "for j in 0..1 do h[@IDX] = @V"]
AFTERS = ["", "if pos - 1 < 0 then n += 0 else h[pos - 1] = 1", "if pos + 1 < @N then n += 0 else h[pos + 1] = 1",
          "if not (pos >= 1) then n += 0 else h[pos - 1] = 2", "if pos - 1 >= 0 then { pos = 0; h[pos - 1] = 1 }"]
CONDS = ["h[i] > 0", "i + 1 <= @LAST and h[i + 1] >= 0 and h[i] > 0", "i - 1 >= 0 and h[i - 1] > 0 or h[i] > 1",
         "h[i] > 0 and (i < 1 or h[i - 1] < 9)", "h[i] > 0 and (exists j in 0..2: i + j <= @LAST and h[i + j] > 0)"]


def guards(rng: random.Random) -> str:
    size = rng.randint(3, 7)
    text = GAME.replace("@COND", rng.choice(CONDS)).replace("@GUARD", rng.choice(GUARDS))
    text = text.replace("@THEN", rng.choice(THENS)).replace("@AFTER", rng.choice(AFTERS))
    text = text.replace("@IDX", rng.choice(INDEXES)).replace("@CMP", rng.choice(["> 0", "== 1", "< 9"]))
    text = text.replace("@V", rng.choice(["0", "2", "h[i] + 1"])).replace("@K", str(rng.randint(0, 3)))
    text = text.replace("@OPP", rng.choice(["0", "1", "i // 2"])).replace("@SEEDS", str(rng.randint(1, 3)))
    return text.replace("@LAST", str(size - 1)).replace("@N", str(size))


def same(text, playouts=2, plies=12):
    plays_as_the_interpreter(text, 30, playouts, plies)


@pytest.mark.parametrize("seed", range(6))
def test_random_guards_play_as_the_interpreter(seed):
    same(guards(random.Random(seed)))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6, 300))
def test_random_guards_play_as_the_interpreter_at_size(seed):
    same(guards(random.Random(seed)), playouts=3, plies=20)


def test_what_the_guards_prove():
    """Oware's capture reads and writes pits[pos - k] bare after `pos - k >= opp`; a guard
    that does not keep the index on the list, an `or`, a shadowed name or a branch that
    assigns a name of its test leaves the test."""
    oware = load(ROOT / "game_specs" / "oware.yaml").python_source
    assert "== 2) or (v_pits[(_l" in oware and "item(" not in oware and "bad_index(" not in oware
    def code(guard, index="pos - k", after=""):
        text = GAME.replace("@COND", "h[i] > 0").replace("@GUARD", guard).replace("@THEN", "h[@IDX] = @V")
        text = text.replace("@AFTER", after).replace("@IDX", index)
        text = text.replace("@CMP", "> 0").replace("@V", "0").replace("@K", "2").replace("@OPP", "1")
        return load_text(text.replace("@SEEDS", "1").replace("@LAST", "3").replace("@N", "4")).python_source
    assert "item(" not in code("pos - k >= 0") and "item(" not in code("not (pos - k < 0)")
    assert "item(" not in code("pos + k <= 3", "pos + k") and "item(" not in code("4 > pos + k", "pos + k")
    for guard, index in (("pos - k >= -1", "pos - k"), ("(pos - k > 0 or k == 0)", "pos - k"),
                         ("pos - k >= 0", "pos + k"), ("pos + k <= 4", "pos + k"),
                         ("pos - k >= 0 and (exists k in 0..2: h[pos - k] > 0)", "pos")):
        assert "item(" in code(guard, index), guard
    assert "bad_index(" not in code("pos - k >= 0", after=AFTERS[1]) and "bad_index(" not in code("pos - k >= 0", after=AFTERS[3])
    assert "bad_index(" in code("pos - k >= 0", after=AFTERS[2]) and "bad_index(" in code("pos - k >= 0", after=AFTERS[4])
