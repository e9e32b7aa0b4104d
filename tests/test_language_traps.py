"""The traps docs/spec_language.md settles: a range chosen by a condition is a domain wherever
a domain goes, the operator precedence table is the parser's, an action cannot be named `pass`
(with a hint that fits a pass a player may always choose), and every builtin given a `none`
cell (or the no-value a `none` cell reads as) means the same compiled and interpreted."""
import pytest

from framework import load_text
from framework.errors import SpecError, SpecRuntimeError
from framework.frontend.expressions import parse_expression, text_origin
from framework.frontend.printer import to_game
from framework.interpreter import interpret_text
from framework.loader import parse_text
from framework.perft import perft

RANGES = """
game: Ranges
players: [A, B]
options: {c: 1}
state:
  n: {type: 0..30}
actions:
  add(k in (1..2 if n < 3 else 3..4)):
    if: "forall x in (5..6 if c == 1 else 1..3): x > k"
    then: "for i in (0..0 if k == 1 else 1..2) do n += i + k"
terminal: n > 12
winner: none
pass: true
"""


def test_a_range_chosen_by_a_condition_is_a_domain_everywhere():
    # c == 1: the `forall` holds for k in 1..4.  While n < 3, k is 1 (n += 1, over i in 0..0)
    # or 2 (n += 3 + 4, over i in 1..2); then k is 3 (n += 4 + 5) or 4 (n += 5 + 6).  From 0:
    # 1, 7; then 2, 8 (from 1) and 16, 18 (from 7, both over 12: the end); then 3, 9 (from 2)
    # and 17, 19 (from 8); then 12, 14 (from 3) and 18, 20 (from 9)
    counts = perft(load_text(RANGES).initial_state(), 4)
    assert counts == perft(interpret_text(RANGES).initial_state(), 4)
    assert counts == [2, 4, 4, 4]
    # c == 0: the `forall` over 1..3 needs k < 1, so nothing is legal but the forced pass
    assert load_text(RANGES, c=0).initial_state().actions() == ["pass"]
    written = to_game(parse_text(RANGES, "<r>", "yaml"))
    assert "add(k in (1 if n < 3 else 3)..(2 if n < 3 else 4))" in written
    assert perft(load_text(written, "game").initial_state(), 4) == counts


@pytest.mark.parametrize("rule, message, col", [
    ("forall x in (5..6 if c == 1 else 2): x > k", "the other branch of this `if` is a range", 43),
    ("forall x in (5 if c == 1 else 1..3): x > k", "the other branch of this `if` is a range", 23),
    ("(1..2) == k", "a range `a..b` can only be a domain", 11),
])
def test_a_range_that_is_not_a_domain_is_refused_at_its_position(rule, message, col):
    text = RANGES.replace("forall x in (5..6 if c == 1 else 1..3): x > k", rule)
    with pytest.raises(SpecError) as caught:
        load_text(text)
    assert caught.value.message.startswith(message) and caught.value.hint
    assert (caught.value.line, caught.value.col) == (9, col), str(caught.value)


# each expression parses as the explicitly parenthesised one (the precedence table)
PRECEDENCE = [
    ("a if c else b and d", "a if c else (b and d)"),
    ("a if c else b if d else e", "a if c else (b if d else e)"),
    ("a or b and c", "a or (b and c)"),
    ("not a and b", "(not a) and b"),
    ("not a == b", "not (a == b)"),
    ("x in S | T", "x in (S | T)"),
    ("S | T & U", "(S | T) & U"),
    ("a + b * c", "a + (b * c)"),
    ("a - b - c", "(a - b) - c"),
    ("-a * b", "(-a) * b"),
    ("a < b + c", "a < (b + c)"),
    ("p or exists x in cell: q and r", "p or (exists x in cell: (q and r))"),
    ("a + b if c or d else e", "(a + b) if (c or d) else e"),
]


@pytest.mark.parametrize("text, explicit", PRECEDENCE)
def test_the_precedence_table_is_the_parsers(text, explicit):
    assert _parse(text) == _parse(explicit)


def _parse(text):
    return parse_expression(text, text_origin(text, "<rule>"), "rule")


def test_a_chained_comparison_is_a_syntax_error():
    with pytest.raises(SpecError):
        _parse("a < b < c")


SKIP = """
game: Skips
players: [A, B]
state:
  n: {type: 0..9}
actions:
  pass:
    then: n += 0
  take:
    if: n < 2
    then: n += 1
terminal: n >= 2
winner: none
max_length: 4
"""


def test_an_action_named_pass_is_refused_with_a_hint_for_a_voluntary_pass():
    with pytest.raises(SpecError) as caught:
        load_text(SKIP)
    assert (caught.value.line, caught.value.col) == (7, 3)
    assert "name the action otherwise" in caught.value.hint and "pass: true" in caught.value.hint
    # the hint's remedy: a pass under another name, which a player may always choose
    game = load_text(SKIP.replace("  pass:", "  skip:"))
    assert [game.action_text(a) for a in game.initial_state().actions()] == ["skip", "take"]


# what a rule given `none` (or the no-value `board[none]` reads as) gives: docs/spec_language.md
NOWHERE = "cell(7, 7)"              # off the 3x3 board: none
NONE_RULES = [
    (f"size(neighbors({NOWHERE}, orthogonal))", 0),
    (f"size(slide(board, {NOWHERE}, queen, empty))", 0),
    (f"size(between(board, {NOWHERE}, queen, empty, A))", 0),
    (f"size(group(board, {NOWHERE}, orthogonal))", 0),
    (f"size(liberties(board, {NOWHERE}, orthogonal))", 0),
    (f"count(board, board[{NOWHERE}])", 0),
    (f"size(cells(board, board[{NOWHERE}]))", 0),
    (f"1 if line(board, 1, board[{NOWHERE}]) else 0", 0),
    (f"size(slide(board, (0, 0), queen, board[{NOWHERE}]))", 0),
    (f"1 if connected(board, row_cells(0), row_cells(2), orthogonal, board[{NOWHERE}]) else 0", 0),
    (f"1 if board[{NOWHERE}] == board[cell(8, 8)] else 0", 1),
    (f"1 if board[{NOWHERE}] == empty else 0", 0),
    (f"1 if {NOWHERE} in neighbors((0, 0), queen) else 0", 0),
    (f"1 if {NOWHERE} == none else 0", 1),
    ("size(group(board, drop(board, 5), orthogonal))", 0),
]


def _after_first_move(make, rule):
    text = f"""
game: Nowhere
players: [A, B]
board: {{width: 3, height: 3, cells: [empty, A, B]}}
state:
  v: {{type: -9..9}}
actions:
  place(c in cell):
    if: board[c] == empty
    then: "board[c] = mover; v = {rule}"
terminal: full(board)
winner: none
"""
    game = make(text)
    state = game.initial_state()
    return state.result(state.actions()[0])


@pytest.mark.parametrize("rule, value", NONE_RULES)
def test_a_builtin_given_none_means_the_same_compiled_and_interpreted(rule, value):
    compiled = _after_first_move(load_text, rule)
    interpreted = _after_first_move(interpret_text, rule)
    assert str(compiled).splitlines()[-2] == f"v: {value}"
    assert interpreted.s.get("v") == value


@pytest.mark.parametrize("rule, word", [(f"col({NOWHERE})", "column"), (f"row(drop(board, 5))", "row"),
                                        (f"size(row_cells(row({NOWHERE})))", "row")])
def test_col_and_row_of_none_fail_alike_at_the_call(rule, word):
    errors = []
    for make in (load_text, interpret_text):
        with pytest.raises(SpecRuntimeError) as caught:
            _after_first_move(make, rule)
        errors.append(caught.value)
    assert [str(e) for e in errors][0] == [str(e) for e in errors][1]
    assert f"the cell is `none`, which has no {word}" in errors[0].message
    assert errors[0].line == 10 and errors[0].col > 30
