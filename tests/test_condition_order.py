"""A precondition's operands are tested where the reference interpreter tests them: one that
may raise (an array index, a division, a built-in given `none`) is never tested sooner in
the compiled game, nor behind a loop mask built from an operand written after it, so both
raise for exactly the same moves (framework/compiler/common.py: loop_depths, may_raise)."""
from framework import load_text
from framework.conformance.differential import agrees_with_interpreter

HEAD = """
game: Order
players: [A, B]
board: {width: 2, height: 2, cells: [empty, A, B]}
state:
  n: {type: '0..9', initial: 1}
  h: {type: '0..9', size: 1, initial: 0}
actions:
  put(i in cell):
    if: 'board[i] == empty'
    then: 'board[i] = mover'
"""


def _agrees(hop):
    outcome = agrees_with_interpreter(load_text(HEAD + hop + "terminal: 'full(board)'\nwinner: 'none'\n"))
    assert outcome.status == "passed", outcome.detail


def test_an_operand_naming_no_parameter_is_not_tested_before_the_loops():
    # h[n] (n = 1: outside h) is read only for a cell holding the mover's piece: after
    # put(A), not before; the compiled game must not read it before its loop over `a`
    _agrees("  hop(a in cell):\n    if: 'board[a] == mover and h[n] == 0'\n    then: 'board[a] = empty'\n")


def test_an_operand_that_may_raise_is_not_put_behind_a_mask_of_a_later_one():
    # h[row(b) + col(b)] is read for every b before `b` beside `a` is tested: the interpreter
    # raises for b = (1, 1); a loop over the cells beside `a` alone would never read it there
    _agrees("  hop(a in cell, b in cell):\n"
            "    if: 'board[a] == mover and h[row(b) + col(b)] == 0 and row(b) == row(a) and col(b) == col(a)'\n"
            "    then: 'board[a] = empty'\n")
