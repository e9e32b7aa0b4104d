"""Definitions are hygienic (docs/spec_language.md): a definition's body sees its parameters,
the state, the options and the spec's constants, never a variable of the place that uses it.
A body that reads the caller's variable (an action parameter, a quantifier's variable, a
`let` local, a `for` variable, a chance variable, or a parameter of a definition it is used
in) is refused by the checker, at the name, with the repair as the hint, in both syntaxes.
Compiled code once read such a variable while the interpreter refused it; the refusal is
what makes that disagreement impossible, and the repaired spec (the variable passed as a
parameter) plays the same compiled and interpreted."""
import pytest

from framework import load_text
from framework.conformance.generate import check_one
from framework.errors import SpecError
from framework.frontend.printer import to_game
from framework.loader import parse_text

# A strip of 4 cells; `DEFINE` and `ACTIONS` are filled in by each case.
STRIP = """\
game: Strip
players: [X, O]
board: {width: 4, height: 1, cells: [empty, X, O]}
state:
  marks: {type: 0..20}
define:
DEFINE
actions:
ACTIONS
terminal: full(board) or marks >= 6
winner: none
max_length: 40
"""

# (case, leaky definitions, leaky actions, repaired definitions, repaired actions,
#  (the caller's variable, the definition that reads it))
CASES = [
    ("an action parameter",
     "  free: board[c] == empty",
     "  place(c in cell):\n    if: free\n    then: board[c] = mover",
     "  free(c): board[c] == empty",
     "  place(c in cell):\n    if: free(c)\n    then: board[c] = mover", ("c", "free")),
    ("a quantifier's variable",
     "  taken: board[d] != empty",
     "  place(c in cell):\n    if: 'board[c] == empty and exists d in cell: taken'\n    then: board[c] = mover",
     "  taken(d): board[d] != empty",
     "  place(c in cell):\n    if: 'board[c] == empty and exists d in cell: taken(d)'\n    then: board[c] = mover", ("d", "taken")),
    ("a let local",
     "  bump: 'k + 1'",
     "  place(c in cell):\n    if: board[c] == empty\n    then: 'board[c] = mover; let k = col(c); marks = min(bump, 20)'",
     "  bump(k): 'k + 1'",
     "  place(c in cell):\n    if: board[c] == empty\n    then: 'board[c] = mover; let k = col(c); marks = min(bump(k), 20)'",
     ("k", "bump")),
    ("a for variable",
     "  here: (i, 0)",
     "  place(c in cell):\n    if: board[c] == empty\n"
     "    then: 'board[c] = mover; for i in 0..1 do { if board[here] == empty then marks = min(marks + 1, 20) }'",
     "  here(i): (i, 0)",
     "  place(c in cell):\n    if: board[c] == empty\n"
     "    then: 'board[c] = mover; for i in 0..1 do { if board[here(i)] == empty then marks = min(marks + 1, 20) }'",
     ("i", "here")),
    ("a chance variable",
     "  gain: 'd + marks'",
     "  place(c in cell):\n    if: board[c] == empty\n    chance: d in 1..2\n    probability: 1 / 2\n"
     "    then: 'board[c] = mover; marks = min(gain, 20)'",
     "  gain(d): 'd + marks'",
     "  place(c in cell):\n    if: board[c] == empty\n    chance: d in 1..2\n    probability: 1 / 2\n"
     "    then: 'board[c] = mover; marks = min(gain(d), 20)'", ("d", "gain")),
    ("a parameter of the definition it is used in",
     "  near: 'abs(col(a) - col(b)) <= 1'\n  ok(a, b): board[b] == empty and near",
     "  place(c in cell):\n    if: 'ok(c, c) and forall e in cell: board[e] == empty or ok(e, c)'\n"
     "    then: board[c] = mover",
     "  near(a, b): 'abs(col(a) - col(b)) <= 1'\n  ok(a, b): board[b] == empty and near(a, b)",
     "  place(c in cell):\n    if: 'ok(c, c) and forall e in cell: board[e] == empty or ok(e, c)'\n"
     "    then: board[c] = mover", ("a", "near")),
    ("an action parameter, in an effect definition",
     "  put:\n    then: board[c] = mover",
     "  place(c in cell):\n    if: board[c] == empty\n    then: put()",
     "  put(c):\n    then: board[c] = mover",
     "  place(c in cell):\n    if: board[c] == empty\n    then: put(c)", ("c", "put")),
    ("a let local, in an effect definition used by another",
     "  count_it:\n    then: marks = min(marks + k, 20)\n  put(c):\n    then: 'let k = 1; board[c] = mover; count_it()'",
     "  place(c in cell):\n    if: board[c] == empty\n    then: put(c)",
     "  count_it(k):\n    then: marks = min(marks + k, 20)\n  put(c):\n    then: 'let k = 1; board[c] = mover; count_it(k)'",
     "  place(c in cell):\n    if: board[c] == empty\n    then: put(c)", ("k", "count_it")),
]


def _spec(define: str, actions: str) -> str:
    return STRIP.replace("DEFINE", define).replace("ACTIONS", actions)


@pytest.mark.parametrize("fmt", ["yaml", "game"])
@pytest.mark.parametrize("case, define, actions, fixed_define, fixed_actions, read", CASES,
                         ids=[c[0] for c in CASES])
def test_a_definition_reading_a_callers_variable_is_refused_at_the_name(case, define, actions, fixed_define,
                                                                      fixed_actions, read, fmt):
    text = _spec(define, actions)
    if fmt == "game":
        text = to_game(parse_text(text, "<spec>", "yaml"))
    with pytest.raises(SpecError) as caught:
        load_text(text, fmt)
    error = caught.value
    name, definition = read
    assert error.message == f"definition `{definition}` cannot see `{name}`, a variable of where it is used"
    assert error.source_line[error.col - 1:error.col - 1 + len(name)] == name      # the caret is on the name
    assert text.splitlines()[error.line - 1] == error.source_line
    assert f"pass it as a parameter: `{definition}(" in error.hint and f"{name})`" in error.hint


@pytest.mark.parametrize("case, define, actions, fixed_define, fixed_actions, read", CASES,
                         ids=[c[0] for c in CASES])
def test_the_repaired_definition_plays_the_same_compiled_and_interpreted(case, define, actions, fixed_define,
                                                                        fixed_actions, read):
    assert check_one(_spec(fixed_define, fixed_actions), bfs_states=60, playouts=4) is None


def test_a_definitions_own_variables_may_be_named_like_the_callers():
    # `d` is the caller's quantifier variable and the definition's own: each means its own
    text = _spec("  busy(c): 'exists d in cell: d == c and board[d] != empty'",
                 "  place(c in cell):\n    if: 'board[c] == empty and not exists d in cell: busy(d) and col(d) == col(c) + 1'\n"
                 "    then: board[c] = mover")
    game = load_text(text)
    # X on (1, 0): a cell is refused when the cell right of it is occupied, so (0, 0) is
    s = game.initial_state()
    s = s.result(game.parse_action(s, "place(1,0)"))
    assert sorted(game.action_text(a) for a in s.actions()) == ["place(2,0)", "place(3,0)"]
    assert check_one(text, bfs_states=60, playouts=4) is None


@pytest.mark.parametrize("fmt", ["yaml", "game"])
def test_a_definition_named_like_a_builtin_says_so(fmt):
    # a Quoridor spec's `between(a, b)` (the slot between two squares) met "duplicate name",
    # which did not say what it duplicated
    text = _spec("  between(a, b): 'cell((col(a) + col(b)) // 2, 0)'",
                 "  place(c in cell):\n    if: board[between(c, c)] == empty\n    then: board[c] = mover")
    if fmt == "game":
        text = to_game(parse_text(text, "<spec>", "yaml"))
    with pytest.raises(SpecError) as caught:
        load_text(text, fmt)
    assert caught.value.message == "`between` is a built-in function"
    assert "my_between" in caught.value.hint
    assert caught.value.source_line[caught.value.col - 1:].startswith("between")
