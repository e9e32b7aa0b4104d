"""Compound jumps counted from masks (framework/compiler/onward.py): where the count of a
compound move's shifted jumps would call the count walk on each, a test over all the
jumps' masks first shows none can go on, and the jumps are counted by their bits.  Drawn
specs whose hop goes on as a compound move (the copy first or not, a crowning that ends
it, both ways going on, a man's way read on the jumper) in lockstep with the reference
interpreter, moves in order, and the kernel's counts and leaves against the course
interface's moves (framework.conformance.kernel_check); the shipped English draughts'
published counts."""
import re

from hypothesis import strategies as st

import framework
from framework.conformance.kernel_check import walk_difference
from framework.conformance.generate_shifts import shift_spec_texts
from framework.perft import perft
from tests.conftest import ROOT
from tests.drawn import drawn
from tests.lockstep import moves_in_lockstep

HOP = "own(a) and jumps(a, b) and board[b] == empty and enemy(middle(a, b))"
EFFECTS = "board[b] = board[a]; board[a] = empty; board[middle(a, b)] = empty; n += 1"
# A's man at (0, 5) jumps to (2, 3), then on to (0, 1) or (4, 1): one jump, two moves
CHAIN = ((0, 5, "A"), (1, 4, "B"), (2, 3, "empty"), (1, 2, "B"), (3, 2, "B"), (0, 1, "empty"), (4, 1, "empty"))
ONWARD = re.compile(r"\n +_K\d+ = .*\n +_U\d+ = ")     # the written cells' masks of the test


@st.composite
def compound_hop_texts(draw):
    """generate_shifts' specs whose hop goes on from b (`continue hop(b)`) as one move."""
    text = draw(shift_spec_texts())
    text = re.sub(r"width: (\d+), height: (\d+)", lambda m: f"width: {max(6, int(m[1]))}, height: {max(6, int(m[2]))}", text)
    text = text.replace("  n = 0\n", "".join(f"  board[({x}, {y})] = {v}\n" for x, y, v in CHAIN) + "  n = 0\n", 1)
    text = re.sub(r"jumps\(a, b\): .*", "jumps(a, b): " + draw(st.sampled_from([
        "abs(col(b) - col(a)) == 2 and abs(row(b) - row(a)) == 2", "b in neighbors(a, mine)"])), text, 1)
    text = re.sub(r"; if exists e in cells\(board, empty\).* then flag = not flag", "", text)     # (a field written)
    last = int(re.search(r"height: (\d+)", text)[1]) - 1
    way = draw(st.sampled_from(["", " and (board[a] == king(mover) or (row(b) < row(a)) == (mover == A))"]))
    first = draw(st.sampled_from([
        "board[b] = board[a]; board[a] = empty; board[middle(a, b)] = empty",
        "board[middle(a, b)] = empty; board[b] = board[a]; board[a] = empty",     # the copy not first
        "board[b] = board[a]; board[middle(a, b)] = empty; board[a] = empty; n = 0"]))   # a field: walks
    end = draw(st.sampled_from([
        f"if board[b] == mover and row(b) == (0 if mover == A else {last}) then board[b] = king(mover)"
        " else continue hop(b)",
        "continue hop(b)",
        "if flag then { board[b] = king(mover); continue hop(b) } else continue hop(b)",
        "if row(b) == 0 then board[b] = king(mover) else continue hop(a)"]))     # not from b: walks
    return text.replace(f"'{HOP}'", f"'{HOP}{way}'", 1).replace(EFFECTS, f"{first}; {end}", 1)


def test_drawn_compound_hops_counted_from_masks_play_as_interpreted(monkeypatch):
    monkeypatch.setenv("PLYSPEC_CACHE", "off")
    fired = []

    @drawn(4, compound_hop_texts())
    def plays_as_interpreted(text):
        game = framework.load_text(text)
        fired.append(ONWARD.search(game.python_source) is not None)
        moves_in_lockstep(game, text, playouts=1, plies=8, kernel=True)
        found = walk_difference(game, bfs_states=12, playouts=1, plies=8)   # counts, leaves
        assert found is None, f"{found}\n{text}"
    plays_as_interpreted()
    assert any(fired) and not all(fired), fired


def test_english_draughts_counts_its_last_jumps_from_masks():
    game = framework.load(ROOT / "game_specs" / "draughts.yaml")
    leaves = game.python_source[game.python_source.index("def k_leaves"):]
    assert ONWARD.search(leaves)
    assert perft(game.initial_state(), 6) == [7, 49, 302, 1469, 7361, 36768]    # the published counts
