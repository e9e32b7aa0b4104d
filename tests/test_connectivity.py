"""Connectivity (`connected`, `group`, `liberties`), the `hex` direction set and the games
they ship: Hex and Atari Go, each checked against an independent plain-Python program
(tests/reference_hex.py, tests/atari_go_reference.py) and against the reference interpreter."""
import pytest

import framework
from conftest import SPECS
from framework import load_text
from framework.errors import SpecError
from framework.conformance.differential import find_difference
from framework.interpreter import interpret, interpret_text
from framework.perft import perft
from framework.search import alphabeta
from tests import atari_go_reference, reference_hex


@pytest.mark.parametrize("n, depth", [(3, 9), (4, 5)])
def test_hex_perft_equals_the_independent_count(n, depth):
    # 3x3 to the end of every game (wins from ply 5 on); 4x4 to ply 5
    assert perft(framework.load(SPECS / "hex.yaml", n=n).initial_state(), depth) == reference_hex.ply_counts(n, depth)


def test_hex_game_syntax_plays_the_same_game():
    assert perft(framework.load(SPECS / "hex.game", n=3).initial_state(), 7) == reference_hex.ply_counts(3, 7)


@pytest.mark.parametrize("spec", ["hex.yaml", "atari_go.yaml"])
def test_the_interpreter_plays_the_compiled_game(spec):
    game = framework.load(SPECS / spec, n=3)
    assert find_difference(game, interpret(SPECS / spec, n=3), bfs_states=300, playouts=20, plies=12) is None


def test_the_first_player_wins_hex_3x3():
    assert reference_hex.first_player_wins(3)
    result = alphabeta.search(framework.load(SPECS / "hex.yaml", n=3))
    assert result.value == 1 and result.complete


@pytest.mark.slow
def test_the_first_player_wins_hex_4x4():
    # about 0.8 million nodes with the transposition table and no iterative deepening
    result = alphabeta.search(framework.load(SPECS / "hex.yaml", n=4), id=False)
    assert result.value == 1 and result.complete


@pytest.mark.parametrize("n, depth", [(3, 7), (5, 4)])
def test_atari_go_perft_equals_the_independent_count(n, depth):
    # 3x3: captures and refused suicides from ply 4 on (2,928 < 9*8*7*6); the golden file
    # holds 3x3 to the end of every game (ply 9), checked by `plyspec test`
    assert perft(framework.load(SPECS / "atari_go.yaml", n=n).initial_state(), depth) == \
        atari_go_reference.ply_counts(n, depth)


def test_atari_go_game_syntax_plays_the_same_game():
    assert perft(framework.load(SPECS / "atari_go.game", n=4).initial_state(), 4) == \
        atari_go_reference.ply_counts(4, 4)


def test_a_capture_removes_the_group_and_wins():
    game = framework.load(SPECS / "atari_go.yaml", n=3)
    state = game.initial_state()
    for move in ["play(0,0)", "play(1,0)", "play(2,2)", "play(0,1)"]:      # White takes (0,0)
        state = state.result(game.parse_action(state, move))
    assert state.terminal_test() and state.utility(1) == 1
    assert str(state).splitlines()[0].split() == [".", "O", "."]


# one position, read by each builtin: A at (0,0), (3,0), (1,1), (2,1), (3,2); B at (1,0)
#   A B . A
#   . A A .
#   . . . A
PROBE = """
game: Probe
players: [A, B]
board: {width: 4, height: 3, cells: [empty, A, B]}
state:
  out: {type: '0..99', initial: 0}
init: |
  board[(0, 0)] = A
  board[(3, 0)] = A
  board[(1, 1)] = A
  board[(2, 1)] = A
  board[(3, 2)] = A
  board[(1, 0)] = B
actions:
  read(k in 0..7):
    then: |
      out = 10 + (size(group(board, (1, 1), orthogonal)) if k == 0
        else size(group(board, (1, 1), hex)) if k == 1
        else size(liberties(board, (2, 1), orthogonal)) if k == 2
        else (1 if connected(board, column_cells(0), column_cells(3), king, A) else 0) if k == 3
        else (1 if connected(board, row_cells(0), row_cells(2), orthogonal, A) else 0) if k == 4
        else (1 if connected(board, row_cells(0), row_cells(2), king, A) else 0) if k == 5
        else size(group(board, (0, 1), knight)) if k == 6
        else size(group(board, cell(9, 9), orthogonal)))
terminal: out > 0
utility: out - 10
"""


@pytest.mark.parametrize("k, expected", [
    (0, 2),    # (1,1)-(2,1); (0,0) and (3,0) touch the pair only diagonally
    (1, 3),    # hex steps (1,-1): (2,1)-(3,0) joins; (1,1)-(0,0) is (-1,-1), not a hex step
    (2, 5),    # the empty (0,1), (1,2), (2,0), (2,2), (3,1) next to {(1,1), (2,1)}
    (3, 1),    # king steps: (0,0)-(1,1)-(2,1)-(3,0) reach column 3
    (4, 0),    # orthogonally (0,0) and (3,0) are alone
    (5, 1),    # king steps: (3,0)-(2,1)-(3,2) join row 0 to row 2
    (6, 5),    # empty cells by knight jumps from (0,1): (2,2), (2,0), (1,2), (3,1); not (0,2)
    (7, 0),    # no cell, no group
])
def test_each_builtin_reads_one_position(k, expected):
    compiled, interpreted = load_text(PROBE).initial_state(), interpret_text(PROBE).initial_state()
    assert compiled.result(k).utility(0) == expected
    assert interpreted.result(f"read({k})").utility(0) == expected


@pytest.mark.parametrize("call", ["column_cells(0)", "row_cells(0)", "neighbors(cell(0, 0), hex)"])
def test_a_board_builtin_without_a_board_is_refused_where_it_is_called(call):
    text = f"""
game: G
players: [A, B]
state:
  n: {{type: '0..9', initial: 0}}
actions:
  go:
    if: size({call}) == 0
    then: n += 1
terminal: n > 3
winner: none
"""
    with pytest.raises(SpecError) as caught:
        load_text(text)
    assert caught.value.line == 8 and "needs a board" in caught.value.message
