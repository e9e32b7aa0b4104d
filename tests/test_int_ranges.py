"""Ranges of whole-number expressions proved while compiling, and `cell(x, y)` read from a
table (framework/compiler/int_ranges.py): the compiled game plays exactly as the reference
interpreter does on Ultimate tic-tac-toe and on games drawn at random (coordinates and list
indexes of arithmetic over a state variable and parameters, on and off the board or the
list, through a definition written once as a function and called with arguments of other
ranges), the ranges are the true least and greatest values, and the fast forms appear where
they apply.  tests/test_generated_specs.py draws such indexes and coordinates too."""
from __future__ import annotations

import itertools
import random
import re

import pytest

from framework import load_text
from framework.checker import check
from framework.compiler import Compiler
from framework.conformance.generate import check_one
from framework.loader import parse_text
from tests.conftest import ROOT

UTTT = (ROOT / "benchmarks" / "specs" / "ultimate_tictactoe.yaml").read_text()

BOXES = """game: Boxes
players: [A, B]
board: {width: W, height: H, cells: [empty, A, B]}
state:
  b: {type: LO..HI, initial: LO}
  h: {type: 0..9, size: S, initial: 1}
define:
  at(v, x, y): cell(M * (v % Q) + x, N * (v // Q) + y)
  free(v): "(forall x in 0..2: forall y in 0..1: board[at(v, x, y)] != empty) or h[INDEX] > 3"
actions:
  pick(i in 0..HI2):
    if: free(b) == free(i)
    then: |
      b = PICKED
      h[INDEX2] = (h[INDEX2] + 1) % 10
  place(x in 0..2, y in 0..1):
    if: board[at(b, x, y)] == empty
    then: |
      board[at(b, x, y)] = mover
      b = PLACED
terminal: full(board) or h[0] > 8
utility: 0
"""


def boxes(rng: random.Random) -> str:
    lo = rng.choice([-2, -1, 0, 1])
    hi = lo + rng.randint(1, 9)
    size = rng.randint(2, 6)
    subs = {"LO": lo, "HI2": rng.randint(0, 12), "HI": hi, "W": rng.randint(2, 7), "H": rng.randint(2, 6),
            "S": size, "M": rng.choice([1, 2, 3]), "N": rng.choice([1, 2, 3]), "Q": rng.choice([1, 2, 3]),
            "INDEX2": rng.choice([f"b % {size}", f"abs(b) % {size}", "b + 1", f"(b - {lo}) // 2"]),
            "INDEX": rng.choice([f"v % {size}", f"abs(v - 1) % {size}", "v", "2 * v - v // 2"]),
            "PICKED": rng.choice([f"{lo} + (b - {lo} + i) % {hi - lo + 1}", "i - 1"]),      # i - 1: maybe out of range
            "PLACED": rng.choice([f"{lo} + (b - {lo} + 1) % {hi - lo + 1}", f"(b + x + y) % {hi + 1}"])}
    return fill(subs)


def fill(subs: dict) -> str:
    text = BOXES
    for key in sorted(subs, key=len, reverse=True):        # INDEX2 before INDEX before N
        text = text.replace(key, str(subs[key]))
    return text


def test_ultimate_tictactoe_plays_as_the_interpreter():
    assert check_one(UTTT, bfs_states=150, playouts=6, plies=80) is None


@pytest.mark.parametrize("seed", range(16))
def test_random_box_games_play_as_the_interpreter(seed):
    text = boxes(random.Random(seed))
    load_text(text)                     # a game the checker accepts
    assert check_one(text, bfs_states=80, playouts=4, plies=40) is None, text


def test_ranges_are_the_least_and_greatest_values():
    spec = """game: R
players: [A, B]
state:
  b: {type: -4..7, initial: 0}
actions:
  go(x in 1..3):
    if: "E"
    then: "b = 0"
terminal: false
utility: 0
"""
    exact = ["b % 3", "b // 3", "3 * (b % 3) + x", "b * x - 7", "abs(b - 6)", "(b if x > 1 else 9) // 2",
             "b % 5 // 2 - x * 2", "-(b // 2)"]
    loose = ["-b + abs(b - x)", "b * b", "(b if x > 1 else x * 5) // 2 - x"]      # a name twice: a wider range
    for form in exact + loose:
        checked = check(parse_text(spec.replace("E", f"{form} > -100"), "<r>", "yaml"), {})
        node = checked.actions[0].precondition.left
        lo, hi = Compiler(checked).interval(node)
        values = [_evaluate(form, b, x) for b, x in itertools.product(range(-4, 8), range(1, 4))]
        assert lo <= min(values) and max(values) <= hi, form
        assert (lo, hi) == (min(values), max(values)) or form in loose, form


def _evaluate(form, b, x):
    return eval(form, {"abs": abs, "b": b, "x": x})       # noqa: S307 (the test's own constant forms)


def test_the_fast_forms_appear_where_they_apply():
    source = load_text(UTTT).python_source
    assert re.search(r"_CT\d+ = tuple\(CELL\(", source)          # a table over target, x, y
    assert not re.search(r"(?<!set_)item\(v_won", source)                          # won[3 * r + q], won[3 * y + x] proved in range
    legal = source[source.index("def k_actions"):source.index("def k_count")]
    assert "CELL(" not in legal
    assert "(v_target + 1)]" in source and "def _def3" not in source   # the small-board tests: inline, by target
    unsure = fill({"LO": 0, "HI2": 3, "HI": 5, "W": 3, "H": 2, "S": 3, "M": 1, "N": 1, "Q": 2, "INDEX2": "b + 1",
                   "INDEX": "v % 3", "PICKED": "i % 6", "PLACED": "(b + 1) % 6"})
    assert "item(v_h, (v_b + 1)" in load_text(unsure).python_source     # b + 1 may be 6: tested


# a cell proved on the board whose coordinates divide (quadrants, as Pentago's): a table read
QUADRANTS = """game: Quadrants
players: [A, B]
board: {width: 4, height: 4, cells: [empty, A, B]}
define:
  at(q, x, y): cell(2 * (q % 2) + x, 2 * (q // 2) + y)
actions:
  place(c in cell, q in 0..3, d in 0..1):
    if: board[c] == empty
    then: |
      board[c] = mover
      let corner = board[at(q, 0, 0)]
      if d == 0 then {
        board[at(q, 0, 0)] = board[at(q, 0, 1)]
        board[at(q, 0, 1)] = board[at(q, 1, 1)]
        board[at(q, 1, 1)] = board[at(q, 1, 0)]
        board[at(q, 1, 0)] = corner
      } else {
        board[at(q, 0, 0)] = board[at(q, 1, 0)]
        board[at(q, 1, 0)] = board[at(q, 1, 1)]
        board[at(q, 1, 1)] = board[at(q, 0, 1)]
        board[at(q, 0, 1)] = corner
      }
terminal: line(board, 3, A) or line(board, 3, B) or full(board)
winner: "none if line(board, 3, A) == line(board, 3, B) else A if line(board, 3, A) else B"
"""


def test_a_cell_on_the_board_whose_coordinates_divide_is_a_table_read():
    source = load_text(QUADRANTS).python_source
    apply = source[source.index("def k_apply"):source.index("def k_leaves")]
    assert "_CT" in apply and "//" not in apply and "%" not in apply
    assert check_one(QUADRANTS, bfs_states=200, playouts=6, plies=20) is None
