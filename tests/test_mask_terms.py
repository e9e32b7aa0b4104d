"""`not Q` read off B's moves when the two are proved the same on the masks the compiler
wrote (framework/compiler/mask_terms.py): English draughts' `must_capture`, a neighbour and
the cell beyond it, against the jump's landing cell and the cell between.  Drawn specs write
Q over neighbours in several direction sets, forward-only or not, asking for an enemy or any
piece, and the jump over drawn directions: wherever the lowering fires, Q is the jump's
existence (it may not fire where the proof cannot read the code: sound, not complete), and
the compiled game plays as the reference interpreter (moves in order, kernel counts and tests
included).  The reader itself is checked on hand-written code: equal terms written with other
shifts and temporaries, and each way of differing."""
import pytest
from hypothesis import strategies as st

import framework
from framework.compiler.mask_terms import same_existence
from framework.conformance.generate import check_one
from tests.drawn import drawn
from tests.lockstep import moves_in_lockstep

JUMPS = {"diagonal": "abs(col(b) - col(a)) == 2 and abs(row(b) - row(a)) == 2",
         "orthogonal": "abs(col(b) - col(a)) + abs(row(b) - row(a)) == 2 and (col(b) == col(a) or row(b) == row(a))",
         "king": "max(abs(col(b) - col(a)), abs(row(b) - row(a))) == 2 and (col(b) - col(a)) % 2 == 0 and (row(b) - row(a)) % 2 == 0"}


@st.composite
def neighbour_texts(draw):
    """(spec text, whether `must_jump` says "some jump is legal")."""
    width, height = draw(st.sampled_from([(4, 4), (5, 4), (4, 5)]))
    cells = [(x, y) for y in range(height) for x in range(width)]
    pieces = draw(st.lists(st.tuples(st.sampled_from(cells), st.sampled_from(["A", "B"])),
                           min_size=3, max_size=8, unique_by=lambda p: p[0]))
    jdirs, qdirs = draw(st.sampled_from(sorted(JUMPS))), draw(st.sampled_from(sorted(JUMPS)))
    jforward, qforward = draw(st.booleans()), draw(st.booleans())
    target = draw(st.sampled_from(["enemy(m)", "enemy(m)", "board[m] != empty"]))
    forward = "(row(b) < row(a)) == (mover == A)"
    must = (f"exists a in cell: own(a) and exists m in neighbors(a, {qdirs}): {target}"
            f"{' and (row(m) < row(a)) == (mover == A)' if qforward else ''} and board[beyond(a, m)] == empty")
    same = jdirs == qdirs and jforward == qforward and target == "enemy(m)"
    init = "\n".join(f"  board[({x}, {y})] = {p}" for (x, y), p in pieces)
    text = f"""game: Compulsory by neighbours
players: [A, B]
board: {{width: {width}, height: {height}, cells: [empty, A, B]}}
state:
  n: {{type: '0..20', initial: 0}}
init: |
{init}
define:
  own(c): board[c] == mover
  enemy(c): board[c] != empty and not own(c)
  beyond(a, m): cell(2 * col(m) - col(a), 2 * row(m) - row(a))
  must_jump: "{must}"
actions:
  step(a in cell, b in neighbors(a, orthogonal)):
    if: "not must_jump and own(a) and board[b] == empty"
    then: "board[b] = board[a]; board[a] = empty; n += 1"
  jump(a in cell, b in cell):
    if: "own(a) and board[b] == empty and {JUMPS[jdirs]}{' and ' + forward if jforward else ''} and enemy(cell((col(a) + col(b)) // 2, (row(a) + row(b)) // 2))"
    then: "board[b] = board[a]; board[a] = empty; board[cell((col(a) + col(b)) // 2, (row(a) + row(b)) // 2)] = empty; n += 1"
terminal: n >= 12 or not can_move(mover)
winner: "A if count(board, A) > count(board, B) else B if count(board, B) > count(board, A) else none"
"""
    return text, same


def fires_only_when_true_and_plays_as_the_interpreter(examples):
    seen = []

    @drawn(examples, neighbour_texts())
    def plays_as_interpreted(drawn_text):
        text, same = drawn_text
        game = framework.load_text(text)
        fired = "_none" in game.python_source
        seen.append((fired, same))
        assert same or not fired, text
        moves_in_lockstep(game, text, playouts=2, plies=12, kernel=True)
        found = check_one(text, bfs_states=8, playouts=1, plies=8)
        assert found is None, f"{found[0]}: {found[1]} after {found[2]}\n{text}"
    plays_as_interpreted()
    assert any(fired for fired, _ in seen) and any(not same for _, same in seen), seen


def test_the_lowering_fires_only_when_q_is_the_jumps_existence(monkeypatch):
    monkeypatch.setenv("PLYSPEC_CACHE", "off")
    fires_only_when_true_and_plays_as_the_interpreter(10)


@pytest.mark.slow
def test_the_lowering_fires_only_when_q_is_the_jumps_existence_at_size(monkeypatch):
    monkeypatch.setenv("PLYSPEC_CACHE", "off")
    fires_only_when_true_and_plays_as_the_interpreter(80)


def test_english_draughts_reads_must_capture_off_the_jumps():
    from tests.conftest import ROOT
    from framework.perft import perft
    game = framework.load(ROOT / "game_specs" / "draughts.yaml")
    source = game.python_source
    assert "_none1 = not n" in source and "_def" not in source[source.index("def k_count"):source.index("def k_apply")]
    assert perft(game.initial_state(), 6) == [7, 49, 302, 1469, 7361, 36768]


# ------------------------------------------------------------------ the reader on its own
BOARDS = {"b_x": 1, "b_o": 2}          # values: 0 empty, 1 x, 2 o; an 8-cell row, stride 1
FULL = 0xFF
JUMP_ANY = ["_a = b_x", "if _a:", "    _e = FULL & ~(b_x | b_o)",
            "    _j = (_a & 63) << 2 & _e & b_o << 1",
            "    if _j:", "        for p in bits(_j):", "            return True", "return False"]


def reads(formula, code=JUMP_ANY, bodies=None):
    return same_existence(formula, code, bodies or {}, BOARDS, 3, FULL)


def test_the_same_terms_with_other_anchors_and_names_are_proved():
    assert reads("((b_x & 63) << 1 & b_o & (FULL & ~(b_x | b_o)) >> 1) != 0")       # anchored at the enemy
    assert reads("(b_x & 63 & b_o >> 1 & (FULL & ~(b_x | b_o)) >> 2) != 0")          # at the jumper
    assert reads("_def0(b_x, b_o)", bodies={"_def0": (["d_0", "d_1"], "((d_0 & 63) << 2 & d_1 << 1 & FULL & ~(d_0 | d_1)) != 0")})


@pytest.mark.parametrize("formula", [
    "((b_x & 31) << 1 & b_o & (FULL & ~(b_x | b_o)) >> 1) != 0",      # another edge: a jump less
    "((b_x & 63) << 1 & (b_o | b_x) & (FULL & ~(b_x | b_o)) >> 1) != 0",  # another value
    "((b_x & 63) << 1 & b_o) != 0",                                   # a test less
    "((b_x & 63) << 1 & b_o & (FULL & ~(b_x | b_o)) >> 1 or b_o & 1) != 0",   # a term more
    "((b_x & 63) << 1 & b_o & ~b_x >> 1) != 0",                     # unbounded off the board: not read
    "(_def0(b_x) & b_o) != 0",                                        # an unknown call
])
def test_each_difference_is_refused(formula):
    assert not reads(formula)


def test_code_that_tests_the_cell_or_returns_at_once_is_not_read():
    tests_cell = JUMP_ANY[:5] + ["        for p in bits(_j):", "            if p > 3:", "                return True",
                                 "return False"]
    assert not reads("((b_x & 63) << 2 & b_o << 1 & FULL & ~(b_x | b_o)) != 0", tests_cell)
    assert not reads("((b_x & 63) << 2 & b_o << 1 & FULL & ~(b_x | b_o)) != 0", ["return True"])


def test_a_false_inside_a_block_a_name_a_block_rebinds_and_a_rebound_board_are_not_read():
    formula = "((b_x & 63) << 2 & b_o << 1 & FULL & ~(b_x | b_o)) != 0"
    assert reads(formula)
    cut_off = ["if b_o & 1:", "    return False"] + JUMP_ANY          # False first where b_o holds cell 0
    assert not reads(formula, cut_off)
    rebound = ["_a = b_x", "if b_o & 1:", "    _a = b_o"] + JUMP_ANY[1:]   # _a is either after the block
    assert not reads(formula, rebound)
    assert not reads(formula, ["b_x = b_o"] + JUMP_ANY)
