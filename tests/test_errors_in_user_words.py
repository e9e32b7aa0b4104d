"""Errors in the user's words (issue 12 item 7): hints name what may be written (`:`, `+`,
an expression, an operator), never a grammar token (PLUS, VBAR, COLON); a set union or
intersection as a quantifier's or a `for`'s domain gets its own message; a line break in a
YAML block scalar reads as in `.game` (after `then`, `else`, `do`, before `else`)."""
import re
from pathlib import Path

import pytest

import framework
from framework import SpecError
from framework.perft import perft

SPECS = Path(__file__).resolve().parents[1] / "game_specs"
NIM = (SPECS / "nim.yaml").read_text()
TICTACTOE = (SPECS / "tictactoe.game").read_text()
# an upper-case word of three letters or more is a grammar token's name, never user text
TOKEN_NAME = re.compile(r"\b(?:[A-Z_]{3,}|\$END)\b")


def error_of(text, fmt="yaml"):
    with pytest.raises(SpecError) as info:
        framework.load_text(text, fmt, file="t." + fmt)
    return info.value


BROKEN_YAML = [
    NIM.replace("n <= heap[h]", "n <= heap[h] +"),
    NIM.replace("terminal: sum(heap) == 0", "terminal: 'forall h in 0..2 heap[h] == 0'"),
    NIM.replace("n <= heap[h]", "n <= heap[h] heap"),
    NIM.replace("n <= heap[h]", "n <= (heap[h]"),
    NIM.replace("heap[h] -= n", "heap[h] -= n n"),
    NIM.replace("heap[h] -= n", "heap[h] == n"),
    NIM.replace("heap[h] -= n", "if n then"),
    NIM.replace("heap[h] -= n", "for k in 0..1 heap[h] -= n"),
    NIM.replace("sum(heap) == 0", "sum(heap) == 0 )"),
]
BROKEN_GAME = [
    TICTACTOE.replace("if board[c] == empty", "if board[c] == empty +"),
    TICTACTOE.replace("then board[c] = mover", "then board[c] mover"),
    TICTACTOE.replace("full(board)", "full(board) full"),
    TICTACTOE.replace("option m = 3", "option m = 3 |"),
]


@pytest.mark.parametrize("text,fmt", [(t, "yaml") for t in BROKEN_YAML] + [(t, "game") for t in BROKEN_GAME])
def test_hints_name_no_grammar_token(text, fmt):
    error = error_of(text, fmt)
    words = f"{error.message} {error.hint or ''}"
    assert not TOKEN_NAME.search(words), words


def test_a_missing_colon_is_named_as_written():
    error = error_of(NIM.replace("terminal: sum(heap) == 0", "terminal: 'forall h in 0..2 heap[h] == 0'"))
    assert "`:`" in error.hint and " or " in error.hint


def test_an_unfinished_sum_expects_an_expression():
    assert error_of(NIM.replace("n <= heap[h]", "n <= heap[h] +")).hint == "expected an expression"


@pytest.mark.parametrize("text,fmt,col", [
    (NIM.replace("terminal: sum(heap) == 0", "terminal: 'forall h in 0..1 | 2..2: heap[h] == 0'"), "yaml", 29),
    (NIM.replace("terminal: sum(heap) == 0", "terminal: 'count h in 0..1 & 1..2: heap[h] == 0'"), "yaml", 28),
    (NIM.replace("then: heap[h] -= n", "then: for k in 0..0 | 1..1 do heap[h] -= n"), "yaml", 25),
    (TICTACTOE.replace("terminal line", "terminal forall c in cell | cell: board[c] == X or line"), "game", 27),
])
def test_set_union_as_a_domain_asks_for_parentheses(text, fmt, col):
    error = error_of(text, fmt)
    assert "as a domain needs parentheses" in error.message
    assert "in (A " in error.hint
    assert error.col == col


def test_parenthesised_union_as_a_domain_loads():
    both = "(count c in (cells(board, X) | cells(board, O)): true) == 9"
    text = TICTACTOE.replace("or full(board)\n", f"or {both}\n")
    assert _counts(text, "game") == _counts(TICTACTOE, "game")


def _counts(text, fmt="yaml"):
    return perft(framework.load_text(text, fmt).initial_state(), 3)


@pytest.mark.parametrize("block", [
    ">-\n      if n > 1 then\n        heap[h] -= n\n      else heap[h] -= 1",
    "|\n      if n > 1 then\n        heap[h] -= n\n      else heap[h] -= 1",
    "|\n      if n > 1\n      then heap[h] -= n\n      else\n        heap[h] -= 1",
    "|\n      for k in 0..0 do\n        if n > 1 then heap[h] -= n\n        else heap[h] -= 1",
    "|\n      heap[h] -= n - 1\n      heap[h] -= 1 if n > 1\n        else 0\n      if n == 1 then heap[h] -= 1",
])
def test_yaml_block_line_breaks_read_as_in_game_format(block):
    one_line = NIM.replace("then: heap[h] -= n", "then: if n > 1 then heap[h] -= n else heap[h] -= 1")
    assert _counts(NIM.replace("then: heap[h] -= n", "then: " + block)) == _counts(one_line)


def test_a_line_break_still_separates_two_effects():
    two = NIM.replace("then: heap[h] -= n", "then: |\n      heap[h] -= n\n      heap[h] += 0")
    assert _counts(two) == _counts(NIM)
    error = error_of(NIM.replace("then: heap[h] -= n", "then: |\n      heap[h] -= n heap[h] += 0"))
    assert error.message.startswith("unexpected `heap`")


@pytest.mark.parametrize("word, key, part", [("pre", "if", "precondition"),
                                             ("effect", "then", "effects"),
                                             ("Preconditions", "if", "precondition")])
def test_the_planning_words_for_an_actions_keys_name_the_game_keys(word, key, part):
    """A user who knows the planning format (or PDDL) writes `pre:` / `effect:` in a game."""
    text = NIM.replace(f"    {key}:", f"    {word}:", 1)
    assert text != NIM
    error = error_of(text)
    assert f"unknown key `{word}`" in str(error)
    assert f"writes its {part} under `{key}:`" in str(error)
