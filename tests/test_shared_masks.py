"""Per-node speed of compound-move games (issue 28): a bit expression repeated in a
definition's function is computed once (framework/compiler/outline.py `_shared_masks`),
and shifted jump candidates with nothing to do per move are counted by bit counts
(framework/compiler/shifts.py, `plain`).  Generated specs where both fire: the compiled
game against the reference interpreter (moves in order, the kernel's counts and moves
against the course interface's), and the rewriting itself on chosen expressions."""
import ast
import re

from hypothesis import strategies as st

import framework
from framework.compiler import outline
from framework.conformance.generate import check_one
from framework.conformance.generate_shifts import shift_spec_texts
from tests.conftest import ROOT
from tests.drawn import drawn
from tests.lockstep import moves_in_lockstep


def lines_of(code):
    return outline._statements(code)


def test_a_repeated_bit_expression_is_bound_once_before_its_readers():
    lines = lines_of("(a | b) & 3 or (a | b) >> 2 & ~(c | d) or ~(c | d) << 1")
    bound = {line.split(" = ")[1]: line.split(" = ")[0].strip() for line in lines[:-1]}
    assert set(bound) == {"a | b", "~(c | d)"} and len(lines) == 3
    assert "a | b" not in lines[-1] and "c | d" not in lines[-1]
    # the longest shared expression first: the one inside it is not bound apart
    assert lines_of("(x | y | z) >> 1 and (x | y | z) & 5") == ["    _s0 = x | y | z", "    return _s0 >> 1 and _s0 & 5"]
    # a binding that reads another comes after it
    lines = lines_of("((a | b) & c) >> 1 or ((a | b) & c) >> 2 or (a | b) << 3")
    assert lines[:2] == ["    _s1 = a | b", "    _s0 = _s1 & c"], lines


def test_shifts_are_factored_and_nothing_that_may_fail_or_is_bound_inside_moves():
    assert lines_of("(a >> 8 | b >> 8) & c or (a >> 8 | b >> 8) & d") == \
        ["    _s0 = (a | b) >> 8", "    return _s0 & c or _s0 & d"]
    for code in ("T[a | b] and T[a | b]",                       # an index may fail
                 "(a >> n) & 1 and (a >> n) & 2",               # a shift by a variable may be negative
                 "any((q | a) & 1 for q in X) or any((q | a) & 2 for q in X)",   # a loop's variable
                 "((m := a | b), m & c & d, m & c & d)[-1]",   # a name bound by :=
                 "f(a | b) + f(a | b)"):
        body = lines_of(code)
        shared = [line for line in body if line.lstrip().startswith("_s")]
        assert all(not re.search(r"\b(q|m|n)\b", line) and "T[" not in line for line in shared), (code, body)
    # values are unchanged
    env = {"a": 0b1011, "b": 0b0110, "c": 0b1100, "d": 0b0101, "x": 3, "y": 4, "z": 9}
    for code in ("(a | b) & 3 or (a | b) >> 2 & ~(c | d) or ~(c | d) << 1", "(a >> 1 | b >> 1) ^ (a >> 1 | b >> 1) & d"):
        scope = dict(env)
        exec("def f():\n" + "\n".join(lines_of(code)), scope)
        assert scope["f"]() == eval(code, dict(env))


def test_must_capture_binds_the_players_masks_once_and_checkers_counts_jumps_by_bits():
    # Brazilian draughts' `must_capture` (a function: its lists under `prefer: longest` test
    # it); checkers' `must_jump` is read off the jumps everywhere (compulsory.py), not written
    brazilian = framework.load(ROOT / "game_specs" / "brazilian_draughts.yaml").python_source
    assert re.search(r"\n        _s\d+ = b_b \| b_bk\n", brazilian)
    source = framework.load(ROOT / "benchmarks" / "specs" / "checkers.yaml").python_source
    assert "_def" not in source
    count = source[source.index("def k_count"):source.index("def k_apply")]
    assert "for p_b in bits(_m)" not in count           # jumps counted by bit counts, no loop per jump


def test_generated_specs_with_shared_masks_and_counted_jumps_play_as_interpreted(monkeypatch):
    """Drawn specs of steps and hops (framework.conformance.generate_shifts) whose `must_hop`
    function shares masks and whose hops are counted by bit counts: the two games in
    lockstep (moves in order, the kernel's too), then the differential check of
    framework.conformance (kernel counts against the course interface included)."""
    monkeypatch.setenv("PLYSPEC_CACHE", "off")
    fired = []
    real = outline._shared_masks
    monkeypatch.setattr(outline, "_shared_masks", lambda tree, known=None: fired.append(1) or real(tree, known))
    seen = []

    @drawn(3, shift_spec_texts().filter(lambda text: "not must_hop" in text and "exists b in neighbors(a, diagonal)" in text))
    def plays_as_interpreted(text):
        before = len(fired)
        game = framework.load_text(text)
        source = game.python_source
        count = source[source.index("def k_count"):source.index("def k_apply")]
        shared = len(fired) > before and re.search(r"\n        _s\d+ = ", source) is not None
        counted = "# action hop" in count and "for p_b in bits(_m)" not in count and "_A" in count
        seen.append((shared, counted))
        moves_in_lockstep(game, text, playouts=1, plies=8, kernel=True)
        found = check_one(text, bfs_states=6, playouts=1, plies=6)
        assert found is None, f"{found[0]}: {found[1]} after {found[2]}\n{text}"
    plays_as_interpreted()
    assert any(s for s, _ in seen) and any(c for _, c in seen), seen


@st.composite
def capture_loop_texts(draw):
    """generate_shifts' specs whose hop, to any empty cell, clears cells in a `for e in cell do if ... then`
    loop: geometric tests of e against a and b (masks), then a test of the board, of the
    state or of a local the loop writes (left in the loop); some tests only of the state."""
    text = draw(shift_spec_texts())
    where = draw(st.lists(st.sampled_from([
        "abs(col(e) - col(a)) == abs(row(e) - row(a))", "e != a", "row(e) == row(b)",
        "abs(col(e) - col(b)) + abs(row(e) - row(b)) <= 1", "(col(e) - col(a)) * (col(b) - col(e)) >= 0",
        "col(e) < col(a) + row(b)"]), min_size=1, max_size=3))
    rest = draw(st.sampled_from(["board[e] != empty", "enemy(e)", "k < 2", "n > 3", "k < 2 and enemy(e)"]))
    first = draw(st.sampled_from(["", "n > 2 and "]))          # a test of the state first: no masks
    loop = f"let k = 0; for e in cell do if {first}{' and '.join(where)} and {rest} then {{ board[e] = empty; k += 1 }}"
    text = text.replace("own(a) and jumps(a, b) and board[b] == empty and enemy(middle(a, b))",
                        "own(a) and board[b] == empty", 1)          # (a hop at most plies)
    return text.replace("board[middle(a, b)] = empty", loop, 1)


def test_generated_loops_over_cells_narrowed_by_masks_play_as_interpreted(monkeypatch):
    """`for e in cell do if A and R then ...` with A masks of where e lies loops over A's
    cells (framework/compiler/effects.py `where_cells`): drawn specs in lockstep with the
    interpreter, then the differential check (errors, kernel counts)."""
    monkeypatch.setenv("PLYSPEC_CACHE", "off")
    narrowed = []

    @drawn(2, capture_loop_texts())
    def plays_as_interpreted(text):
        game = framework.load_text(text)
        narrowed.append("in bits(FULL & " in game.python_source)
        moves_in_lockstep(game, text, playouts=1, plies=8, kernel=True)
        found = check_one(text, bfs_states=6, playouts=1, plies=8)
        assert found is None, f"{found[0]}: {found[1]} after {found[2]}\n{text}"
    plays_as_interpreted()
    assert any(narrowed), narrowed


def test_brazilian_draughts_marks_the_jumped_pieces_among_the_cells_between_only():
    source = framework.load(ROOT / "game_specs" / "brazilian_draughts.yaml").python_source
    assert "in ALL_CELLS:" not in source[source.index("def _walkn1_m0"):source.index("def _walkn1(")]
