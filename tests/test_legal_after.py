"""`legal_after: CONDITION` (a move is legal only if CONDITION holds in the position it
leaves) in both syntaxes, the checker's refusals with their positions, the compiler against
an independent count and the reference interpreter, and compact code (large definitions
written once as functions, the bound on the generated module's size)."""
import pytest

import framework
from framework import load_text
from framework.checker import check
from framework.compiler import Compiler
from framework.errors import SpecError
from framework.frontend.printer import to_game, to_yaml
from framework.interpreter import interpret_text
from framework.loader import parse_spec, parse_text
from framework.perft import perft
from tests.conftest import SPECS

NO_THREE = """game: No three
players: [X, O]
board: {width: 3, height: 3, cells: [empty, X, O]}
actions:
  place(c in cell):
    if: board[c] == empty
    legal_after: not line(board, 3, mover)
    then: board[c] = mover
terminal: full(board) or not can_move(mover)
winner: none
"""

NO_THREE_GAME = """game "No three"
players X, O
board 3 x 3 of empty, X, O
action place(c in cell)
    if board[c] == empty
    legal_after not line(board, 3, mover)
    then board[c] = mover
terminal full(board) or not can_move(mover)
winner none
"""

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def independent_perft(depth):
    """Counted without plyspec: a player may fill an empty cell unless that makes three of
    their own in a row; the game ends on a full board or when the player to move cannot."""
    counts = [0] * depth

    def moves(board, p):
        return [i for i in range(9) if board[i] is None and
                not any(all((board[j] if j != i else p) == p for j in line) for line in LINES)]

    def walk(board, p, d):
        if d == depth or None not in board or not moves(board, p):
            return
        for i in moves(board, p):
            counts[d] += 1
            child = board[:i] + (p,) + board[i + 1:]
            walk(child, 1 - p, d + 1)
    walk((None,) * 9, 0, 0)
    return counts


@pytest.mark.parametrize("text, fmt", [(NO_THREE, "yaml"), (NO_THREE_GAME, "game")])
def test_compiled_and_interpreted_perft_equal_an_independent_count(text, fmt):
    expected = independent_perft(7)
    assert expected[-1] > 0 and expected[:3] == [9, 72, 504]
    assert perft(load_text(text, fmt).initial_state(), 7) == expected
    assert perft(interpret_text(text, fmt).initial_state(), 4) == expected[:4]


def test_both_syntaxes_print_and_read_back_legal_after():
    spec = parse_text(NO_THREE, "<spec>", "yaml")
    assert "legal_after: not line(board, 3, mover)" in to_yaml(spec)
    assert "    legal_after not line(board, 3, mover)" in to_game(spec)
    again = parse_text(to_game(spec), "<spec>", "game")
    assert again.actions[0].legal_after == spec.actions[0].legal_after


def test_mover_is_who_moved_and_parameters_keep_their_values():
    text = NO_THREE.replace("not line(board, 3, mover)", "board[c] == mover and col(c) != 1")
    acts = load_text(text).initial_state().actions()
    assert sorted(acts) == [(x, y) for x in (0, 2) for y in range(3)]


REFUSED = [
    ("not a condition", "legal_after: not line(board, 3, mover)", "legal_after: count(board, X)",
     "legal_after of `place` must be a condition, not a whole number"),
    ("a state query", "legal_after: not line(board, 3, mover)", "legal_after: can_move(X)",
     "`can_move` cannot be used in actions or the turn rule"),
    ("an unknown name", "legal_after: not line(board, 3, mover)", "legal_after: not line(bord, 3, mover)",
     "unknown name `bord`"),
]


@pytest.mark.parametrize("what, old, new, message", REFUSED, ids=[r[0] for r in REFUSED])
def test_refusals_are_positioned(what, old, new, message):
    with pytest.raises(SpecError) as err:
        load_text(NO_THREE.replace(old, new), file="t.yaml")
    text = str(err.value)
    assert message in text and text.startswith("t.yaml:7:") and "^" in text


def test_a_chance_action_or_a_compound_move_is_refused_with_a_hint():
    roll = NO_THREE.replace("terminal:", "  roll:\n    chance: d in 1..2\n    legal_after: d == 1\n"
                            "    then: board[(0, 0)] = X\nterminal:")
    with pytest.raises(SpecError) as err:
        load_text(roll, file="t.yaml")
    assert "`legal_after` on `roll`, which draws a chance outcome" in str(err.value)
    assert err.value.line == 11 and err.value.hint
    walk = NO_THREE.replace("then: board[c] = mover", "then: 'board[c] = mover; continue place'")
    with pytest.raises(SpecError) as err:
        load_text(walk, file="t.yaml")
    assert "part of a compound move" in str(err.value) and err.value.line == 7


def test_chess_compiles_to_well_under_a_megabyte_with_its_checks_written_once():
    source = Compiler(check(parse_spec(SPECS / "chess.yaml"), {})).module()
    assert len(source) < 1_000_000
    assert source.count("\ndef _after") == 10              # one legal_after test per action
    assert "def _def" in source and "def k_leaves2" not in source


def test_a_large_definition_is_one_function_called_from_each_use():
    text = NO_THREE.replace("legal_after: not line(board, 3, mover)", "legal_after: safe(c)") + \
        "define:\n  safe(c): 'not line(board, 3, mover) and (count(board, X) < 5 or board[(1, 1)] != empty" \
        " or exists d in neighbors(c, queen): board[d] == next(mover))'\n"
    game = load_text(text)
    source = game.python_source               # one function per player to move (`mover` folded in)
    assert source.count("\ndef _def") == 2 and source.count("_def1(") == 2 and source.count("_def2(") == 2
    assert perft(game.initial_state(), 4) == perft(interpret_text(text).initial_state(), 4)


def test_a_module_over_the_size_bound_is_refused(monkeypatch):
    import framework.compiler.state_class as state_class
    import framework.loader as loader
    monkeypatch.setattr(state_class, "MAX_SOURCE_CHARS", 1000)
    monkeypatch.setattr(loader, "_CACHE", {})    # compile anew, whatever an earlier test loaded
    with pytest.raises(SpecError) as err:
        framework.load(SPECS / "tictactoe.yaml")
    assert "characters of Python, more than 1,000" in str(err.value) and err.value.hint
