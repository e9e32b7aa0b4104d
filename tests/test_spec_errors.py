"""Each kind of spec mistake gives a SpecError with the right message, position and caret."""
import re

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

import framework
from framework import SpecError

GOOD = """game: T
players: [X, O]
options: {k: 3}
board: {width: 3, height: 3, cells: [empty, X, O]}
actions:
  place(c in cell):
    if: board[c] == empty
    then: board[c] = mover
terminal: line(board, k, X) or full(board)
winner: X if line(board, k, X) else none
"""


def error_of(text, **options):
    with pytest.raises(SpecError) as info:
        framework.load_text(text, file="t.yaml", **options)
    return info.value


def test_good_spec_loads():
    assert framework.load_text(GOOD).initial_state().actions()


@pytest.mark.parametrize("old,new,message,line,col,hint", [
    ("if: board[c] == empty", "if: bord[c] == empty", "unknown name `bord`", 7, 9, "did you mean `board`?"),
    ("then: board[c] = mover", "then: board[c] = mover +", "ends too early", 8, None, None),
    ("players: [X, O]", "players: [X, O", "YAML syntax", None, None, None),
    ("line(board, k, X) or full", "line(board, X) or full", "`line` takes 3 argument(s), got 2", 9, 11, "line("),
    ("if: board[c] == empty", "if: board[c] == 3", "cannot compare a cell value with a whole number", 7, 18, None),
    ("if: board[c] == empty", "if: board[c] == emty", "unknown name `emty`", 7, 21, "did you mean `empty`?"),
    ("board: {width: 3", "board: {width: 0", "board dimension must be at least 1", 4, 16, None),
    ("players: [X, O]", "players: [X, X]", "duplicate player `X`", 2, None, None),
    ("place(c in cell)", "place(c in 5..1)", "empty domain", 6, None, None),
    ("terminal: line(board, k, X) or full(board)", "terminal: k + 1", "terminal test must be a condition", 9, 11, None),
    ("then: board[c] = mover", "then: board[(3, 0)] = mover", "cell (3, 0) is off the 3x3 board", 8, 17, None),
    ("game: T\n", "game: T\nfoo: 1\n", "unknown section `foo`", 2, 1, None),
    ("options: {k: 3}", "options: {k: 3, k: 4}", "duplicate key `k`", 3, 17, None),
    ("then: board[c] = mover", "then: mover = X", "cannot assign to `mover`", 8, 11, None),
    ("if: board[c] == empty", "if: board[c] == empty and 1", "`and` needs conditions", 7, 31, None),
])
def test_error_kinds(old, new, message, line, col, hint):
    text = GOOD.replace(old, new)
    e = error_of(text)
    if message:
        assert message in e.message
    assert e.file == "t.yaml" and e.line is not None
    if line:
        assert e.line == line
    if col:
        assert e.col == col
    if hint:
        assert hint in (e.hint or "")
    rendered = str(e)
    assert rendered.startswith(f"t.yaml:{e.line}:") and "^" in rendered
    assert e.source_line == text.split("\n")[e.line - 1]  # the offending line itself


def test_missing_sections():
    assert "missing section `players`" in error_of("game: T\nactions: {}\nterminal: true\n").message
    assert "missing section `terminal`" in error_of(GOOD.replace("terminal:", "# terminal:")).message


def test_out_of_range_constant():
    text = GOOD.replace("board: {", "state:\n  n: {type: 0..5, initial: 9}\nboard: {")
    e = error_of(text)
    assert "out of range 0..5" in e.message and e.line == 5


def test_type_mismatch_in_assignment():
    text = GOOD.replace("board: {", "state:\n  n: {type: 0..5}\nboard: {").replace(
        "then: board[c] = mover", "then: n = c")
    assert "must be a whole number, not a cell" in error_of(text).message


def test_unknown_option_override():
    e = error_of(GOOD, kk=4)
    assert "unknown option `kk`" in e.message and "did you mean `k`" in e.hint


def test_bad_option_type():
    assert "must be a whole number" in error_of(GOOD, k="x").message


COUNTER = """game: Count
players: [A]
options: {start: [0, 1, 2], first: 0}
state:
  n: {type: 0..2, initial: "sum i in 0..2: start[i] if i == first else 0"}
actions:
  up: n += 1
terminal: false
utility: {A: n}
"""


def test_runtime_range_error_points_at_the_declaration():
    game = framework.load_text(COUNTER, file="count.yaml")
    state = game.initial_state().result(()).result(())
    with pytest.raises(SpecError) as info:
        state.result(())
    e = info.value
    assert "state variable `n` would become 3, outside its range 0..2" in e.message
    assert (e.file, e.line, e.col, e.source_line.strip()[:16]) == ("count.yaml", 5, 3, "n: {type: 0..2, ")


def test_initial_values_computed_from_options_are_checked_when_loading():
    e = error_of(COUNTER.replace("[0, 1, 2]", "[5, 1, 2]"))
    assert "the initial value of `n` would be 5, outside its range 0..2" in e.message and e.line == 5
    e = error_of(COUNTER.replace("i == first else 0", "i == first else start[i + first]"), first=1)
    assert "index 3 is outside" in e.message and (e.line, e.col) == (5, 72)   # the very expression
    assert "index" in e.hint


def test_options_must_be_finite_numbers():
    text = COUNTER.replace("first: 0}", "first: 0, rate: 0.5}")
    for bad in (float("inf"), float("nan")):
        assert "must be a finite number" in error_of(text, rate=bad).message


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_any_text_loads_or_raises_spec_error_inside_input(text):
    check_position(text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_spec_loads_or_raises_spec_error_inside_input(data):
    i = data.draw(st.integers(0, len(GOOD) - 1))
    j = data.draw(st.integers(i, min(len(GOOD), i + 8)))
    insert = data.draw(st.sampled_from(["", "(", ")", ":", " ", "x", "[", "1", "\n", "==", "board", "'", "-"]))
    check_position(GOOD[:i] + insert + GOOD[j:])


def check_position(text):
    try:
        framework.load_text(text, file="t.yaml")
    except SpecError as e:
        lines = re.split("\r\n|[\r\n\x85\u2028\u2029]", text)
        if e.line is not None:
            assert 1 <= e.line <= len(lines)
            if e.col is not None:
                assert 1 <= e.col <= len(lines[e.line - 1]) + 1
