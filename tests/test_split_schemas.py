"""A move's condition that chooses by a test of its first cell, `X if T(c) else Y` (a king's
capture or a man's), written in two halves when counting or testing (framework/compiler/
splits.py `schema_halves`): c drawn from the cells where T holds with X, then from the
others with Y, each half lowered on its own (the men's jumps and steps as shifted masks,
shifts.py).  The compiled game's perft (the kernel's counts and its `can_move`) equals the
reference interpreter's on drawn specs whose jump, single or compound and under `prefer:
longest` or not, chooses so; the kernel agrees with the course interface (counts, leaves),
the course interface with the interpreter (moves in order, terminal tests); Brazilian
draughts gives the published counts."""
from __future__ import annotations

import re

import pytest
from hypothesis import strategies as st

import framework
from framework.checker import check
from framework.compiler import splits
from framework.conformance.generate_shifts import shift_spec_texts
from framework.conformance.kernel_check import walk_difference
from framework.errors import SpecError
from framework.interpreter import InterpretedGame
from framework.perft import perft
from tests.conftest import ROOT
from tests.drawn import drawn
from tests.lockstep import moves_in_lockstep, plays_as_the_interpreter

HOP = "'own(a) and jumps(a, b) and board[b] == empty and enemy(middle(a, b))'"
KINGS = ["abs(col(b) - col(a)) == 2 and row(b) == row(a) and enemy(middle(a, b))",
         "abs(col(b) - col(a)) == abs(row(b) - row(a)) and abs(col(b) - col(a)) >= 2 and enemy(middle(a, b))",
         "jumps(a, b) and enemy(middle(a, b)) and flag"]
# a flying king's capture: one piece between a and b, an enemy (masks.py: relations of three cells)
FLYING = ("abs(col(b) - col(a)) == abs(row(b) - row(a)) and (count e in cell: inside(a, b, e) and board[e] != empty)"
          " == 1 and (exists e in cell: inside(a, b, e) and enemy(e))")
INSIDE = ("  inside(a, b, e): abs(col(e) - col(a)) == abs(row(e) - row(a)) and abs(col(b) - col(e)) == abs(row(b) - row(e))"
          " and (col(e) - col(a)) * (col(b) - col(e)) > 0 and (row(e) - row(a)) * (row(b) - row(e)) > 0\n")
# jumps at the start: A's man (0, 4) over (1, 3), then on over (3, 1); A's king (4, 4) over (3, 3)
# or (3, 4); B's king (0, 0) over (1, 1)
PLACED = ((0, 4, "A"), (1, 3, "B"), (2, 2, "empty"), (3, 1, "B"), (4, 0, "empty"), (4, 4, "Ak"), (3, 3, "B"),
          (3, 4, "B"), (2, 4, "empty"), (1, 1, "A"), (0, 0, "Bk"))
MEN = ["jumps(a, b) and enemy(middle(a, b))",
       "jumps(a, b) and enemy(middle(a, b)) and (row(b) < row(a)) == (mover == A)"]


@st.composite
def chosen_hop_texts(draw, kings=tuple(KINGS + [FLYING])):
    """generate_shifts' specs whose hop chooses a king's way (a flying king's among them)
    or a man's by a's value, one jump or going on from b (`continue hop(b)`), under
    `prefer: longest` or not."""
    text = draw(shift_spec_texts().filter(lambda t: " flag or board[b]" not in t))   # (not any move at all)
    text = re.sub(r"width: (\d+), height: (\d+)", lambda m: f"width: {max(5, int(m[1]))}, height: {max(5, int(m[2]))}", text)
    text = text.replace("  n = 0\n", "".join(f"  board[({x}, {y})] = {v}\n" for x, y, v in PLACED) + "  n = 0\n", 1)
    text = re.sub(r"jumps\(a, b\): .*", "jumps(a, b): abs(col(b) - col(a)) == 2 and abs(row(b) - row(a)) == 2", text, 1)
    text = text.replace("  must_hop:", INSIDE + "  must_hop:", 1)
    test = draw(st.sampled_from(["king(mover)", "mover", "empty"]))
    king = draw(st.sampled_from(kings))
    chosen = f"'own(a) and board[b] == empty and ({king} if board[a] == {test} else {draw(st.sampled_from(MEN))})'"
    text = text.replace(HOP, chosen, 1)
    if king == FLYING:                  # the hop empties the cells between
        text = text.replace("board[a] = empty; board[middle(a, b)] = empty",
                            "board[a] = empty; for e in cell do { if inside(a, b, e) then board[e] = empty }", 1)
    if draw(st.booleans()):             # a compound move: the piece hops on while it can
        text = re.sub(r"(    then: 'board\[b\] = board\[a\]; board\[a\] = empty; board\[middle\(a, b\)\] = empty)"
                      r"; n \+= 1[^']*'", r"\1; continue hop(b)'", text, 1)
        if draw(st.booleans()):
            text += "prefer: longest\n"
    return text


def same_perft(game, text, depth, budget=6000):
    """The compiled game's perft equals the interpreter's (or both fail with the same
    message), to `depth` or the deepest ply whose perft has at most `budget` nodes."""
    interpreted = InterpretedGame(check(game.spec, {}))
    for ply in range(1, depth + 1):
        counts = _perft(game, ply)
        assert _perft(interpreted, ply) == counts, text
        if isinstance(counts, str) or sum(counts) * max(counts[-1], 1) > budget * max(counts[0], 1):
            return              # (the next ply would take about counts[-1] / counts[0] times as long)


def _perft(game, depth):
    try:
        return perft(game.initial_state(), depth)
    except SpecError as error:
        return error.message


def counts_as_interpreted(text):
    game = framework.load_text(text)
    same_perft(game, text, 3)
    moves_in_lockstep(game, text, playouts=1, plies=8, kernel=True)     # terminal tests too
    found = walk_difference(game, bfs_states=8, playouts=1, plies=8)      # counts, leaves
    assert found is None, f"{found}\n{text}"
    return game


def test_drawn_chosen_jumps_count_as_the_interpreter(monkeypatch):
    monkeypatch.setenv("PLYSPEC_CACHE", "off")          # the compiler runs, so the spy sees it
    fired = []

    def spy(self, a, mode, _real=splits.SplitsMixin.schema_halves):
        halves = _real(self, a, mode)
        fired[-1] |= len(halves) == 2
        return halves
    monkeypatch.setattr(splits.SplitsMixin, "schema_halves", spy)

    @drawn(4, chosen_hop_texts(KINGS))
    def chosen(text):
        fired.append(False)
        counts_as_interpreted(text)
    chosen()
    assert sum(fired) >= 3, fired


def test_drawn_flying_kings_count_as_the_interpreter():
    """A king's capture over one piece at a distance: `inside(a, b, e)`, a relation of three
    cells, read from a table per (a, b) (relations.py `relation`), in the count, the test of an
    enemy between and the hop's loop over the cells between."""
    @drawn(3, chosen_hop_texts((FLYING,)))
    def flying(text):
        source = counts_as_interpreted(text).python_source
        assert re.search(r"cell_table\(lambda _q, _r: .* and \(\(\(COL\[_c\] - COL\[_q\]\) \*", source), text
    flying()


@pytest.mark.slow
def test_many_drawn_chosen_jumps_count_as_the_interpreter():
    @drawn(25, chosen_hop_texts())
    def many(text):
        game = framework.load_text(text)
        same_perft(game, text, 4)
        plays_as_the_interpreter(text, bfs_states=30, playouts=2, plies=14)
        found = walk_difference(game, bfs_states=12, playouts=2, plies=12)
        assert found is None, f"{found}\n{text}"
    many()


def test_a_condition_that_may_fail_is_not_split():
    """`h[n]` may be read outside its list: the halves would meet such an error in another
    order, so the schema is written whole."""
    spec = """game: Halves
players: [A, B]
board: {width: 4, height: 4, cells: [empty, A, B, Ak, Bk]}
state:
  n: {type: '0..9', initial: 0}
  h: {type: 0..3, size: 3, initial: 0}
init: |
  board[(0, 0)] = A
  board[(1, 1)] = Ak
  board[(3, 3)] = B
define:
  king(p): Ak if p == A else Bk
actions:
  go(a in cell, b in neighbors(a, queen)):
    if: "(board[a] == mover or board[a] == king(mover)) and board[b] == empty and (h[n] == 0 if board[a] == king(mover) else row(b) != row(a))"
    then: board[b] = board[a]; board[a] = empty; n += 1
terminal: n >= 5 or not can_move(mover)
winner: none
"""
    game = framework.load_text(spec)
    count = game.python_source[game.python_source.index("def k_count"):game.python_source.index("def k_apply")]
    assert count.count("# action go") == 2     # one schema for each mover, not two halves
    plays_as_the_interpreter(spec, bfs_states=20, playouts=2, plies=8)


def test_brazilian_draughts_counts_its_mens_moves_by_shifts():
    game = framework.load(ROOT / "game_specs" / "brazilian_draughts.yaml")
    source = game.python_source
    count = source[source.index("def k_count"):source.index("def k_apply")]
    assert "for p_c in bits(b_bk & (b_b | b_bk)):" in count      # the kings' half: a loop over the kings
    assert re.search(r"_j\d+ = \(\(_A\d+ & \d+\) >> 20 ", count)     # the men's jumps: shifted masks
    assert re.search(r"n \+= \(\(_A\d+ & \d+\) >> 10 & _s\d+\)\.bit_count\(\)", count)    # the men's steps
    assert perft(game.initial_state(), 5) == [7, 49, 302, 1469, 7473]      # the published counts
    assert walk_difference(game, bfs_states=6, playouts=1, plies=30) is None
