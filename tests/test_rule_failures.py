"""A rule that fails during play fails alike everywhere: the compiled course interface, the
kernel the searchers and `perft` use, and the reference interpreter raise the same
positioned `SpecRuntimeError` (never an IndexError, never an illegal action), and the
commands report it as a spec error (exit 1, with the line and a caret), not as a usage
error.  Also: what a cell that is `none` means (docs/spec_language.md)."""
import pytest

from framework import load_text
from framework.cli import main
from framework.errors import SpecRuntimeError
from framework.interpreter import interpret_text
from framework.perft import perft

# issue 23 item 9: a store to board[none] (the drop into a column off the 2x2 board)
OFFBOARD = """game: Offboard
players: [A, B]
board: {width: 2, height: 2, cells: [empty, A, B]}
actions:
  put(x in 0..1):
    if: board[(x, 0)] == empty
    then: board[drop(board, x + 1)] = mover
terminal: full(board)
winner: none
"""


def _with(rule: str, effect: str = "board[c] = mover", state: str = "") -> str:
    """A 2x2 game whose move `put(c)` tests `rule` and makes `effect`."""
    return f"""game: Failing
players: [A, B]
board: {{width: 2, height: 2, cells: [empty, A, B]}}
state:
  last: {{type: cell, initial: none}}
  h: {{type: 0..5, size: 2, initial: 0}}
  n: {{type: 0..3, initial: 0}}
{state}actions:
  put(c in cell):
    if: '{rule}'
    then: '{effect}; last = c'
terminal: full(board)
winner: none
"""


FAILING = {   # spec text -> (line, column, message) of the failure, in the first moves
    "store to a full column": (OFFBOARD, 7, 11, "board[none] is not a cell of the board"),
    "store off the board": (_with("board[c] == empty", "board[cell(col(c) + 2, 0)] = mover"),
                            11, 12, "board[none] is not a cell of the board"),
    "col(none)": (_with("board[c] == empty", "n = col(last)"),
                  11, 16, "col(none): the cell is `none`, which has no column"),
    "row(none) in a condition": (_with("board[c] == empty and row(last) >= 0"), 10, 32,
                                 "row(none): the cell is `none`, which has no row"),
    "an index off a list": (_with("board[c] == empty", "h[n + 2] = 1"), 11, 12,
                            "index 2 is outside `h`, whose indexes are 0..1"),
    "a variable out of range": (_with("board[c] == empty", "n -= 1"), 7, 3,
                                "state variable `n` would become -1, outside its range 0..3"),
    "max over an empty domain": (_with("board[c] == empty", "n = max i in 1..n: i"), 11, 16,
                                 "`max` over an empty domain has no value"),
}


def _failure(call):
    with pytest.raises(SpecRuntimeError) as caught:
        call()
    err = caught.value
    return err.line, err.col, err.message


def _move(state):
    """The successor by the last legal move (the move list is made first: it may fail)."""
    return state.result(state.actions()[-1])


@pytest.mark.parametrize("name", FAILING)
def test_a_failing_rule_raises_the_same_error_compiled_in_the_kernel_and_interpreted(name):
    text, line, col, message = FAILING[name]
    game, igame = load_text(text, file="failing.yaml"), interpret_text(text, file="failing.yaml")
    expected = (line, col, message)
    assert _failure(lambda: _move(game.initial_state())) == expected
    assert _failure(lambda: _move(igame.initial_state())) == expected
    kernel, root = game.kernel, tuple(game.initial_state())
    assert _failure(lambda: kernel.apply(root, kernel.actions(root)[-1])) == expected
    assert _failure(lambda: perft(game.initial_state(), 2)) == expected      # through the kernel


@pytest.mark.parametrize("command", [["perft", "-d", "3"], ["solve"], ["test", "--examples", "5"]])
def test_the_commands_report_a_failing_rule_as_a_spec_error(tmp_path, capsys, command):
    spec = tmp_path / "offboard.yaml"
    spec.write_text(OFFBOARD)
    code = main([command[0], str(spec), *command[1:]])
    out = capsys.readouterr()
    text = out.out + out.err
    assert code == 1, text
    assert "board[none] is not a cell of the board" in text
    assert "IndexError" not in text and "not an action" not in text and "Traceback" not in text
    if command[0] != "test":
        assert "offboard.yaml:7:11: error:" in text and "^^^" in text


def test_play_reports_a_failing_rule_at_the_rule(tmp_path, capsys, monkeypatch):
    import io
    spec = tmp_path / "offboard.yaml"
    spec.write_text(OFFBOARD)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    code = main(["play", str(spec), "--as", "A"])
    out = capsys.readouterr()
    assert code == 1 and "offboard.yaml:7:11: error: board[none] is not a cell of the board" in out.out + out.err


NONE_CELLS = """game: Nothing here
players: [A, B]
board: {width: 3, height: 1, cells: [empty, A, B]}
state:
  last: {type: cell, initial: none}
define:
  around: size(neighbors(last, orthogonal)) + size(slide(board, last, orthogonal, empty)) + size(between(board, last, orthogonal, empty, A)) + size(group(board, last, orthogonal))
actions:
  put(c in cell):
    if: board[c] == empty and around >= 0 and board[last] != A and last not in cells(board, A) and drop(board, 7) == none and cell(5, 0) == none and board[cell(5, 0)] != empty and board[(col(c) + 3, 0)] != empty
    then: board[c] = mover; last = c
terminal: full(board)
winner: none
"""


def test_what_a_none_cell_reads_as_is_the_same_compiled_and_interpreted():
    """Reading board[none] gives no value, `none in S` is false, the set builtins give the
    empty set, `drop` off the board and `cell` off the board are none."""
    compiled, interpreted = load_text(NONE_CELLS), interpret_text(NONE_CELLS)
    assert len(compiled.initial_state().actions()) == 3
    assert len(interpreted.initial_state().actions()) == 3
