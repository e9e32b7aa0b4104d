"""Direction sets of the spec's own (`directions:` in YAML, `directions NAME = ...` in
`.game`) and the built-in `hex` set: both syntaxes read them, every builtin taking a
direction set takes them (by shifts when steps move at most one column, else by tables),
the compiled game agrees with the interpreter, and a bad set is a SpecError at its name."""
import pytest

from framework import load_text
from framework.checker import DIRECTION_SETS
from framework.conformance.differential import find_difference
from framework.errors import SpecError
from framework.frontend.printer import to_game, to_yaml
from framework.interpreter import interpret_text
from framework.lsp.vocabulary import builtin_help
from framework.perft import perft

# camel: long leaps (table-driven); wazir: one orthogonal step (shifts)
RINGS = """
game: Rings
players: [A, B]
board: {width: 4, height: 4, cells: [empty, A, B]}
directions:
  camel: [[1, 3], [3, 1], [-1, 3], [-3, 1], [1, -3], [3, -1], [-1, -3], [-3, -1]]
  wazir: [[1, 0], [0, 1], [-1, 0], [0, -1]]
actions:
  place(c in cell):
    if: "board[c] == empty and (size(cells(board, mover)) == 0 or
         exists d in neighbors(c, camel): board[d] == mover or size(slide(board, c, wazir, empty)) > 2)"
    then: board[c] = mover
pass: true
terminal: "full(board) or connected(board, row_cells(0), row_cells(3), camel, A)
           or (board[(0, 0)] == B and size(liberties(board, (0, 0), wazir)) == 0)"
winner: "A if connected(board, row_cells(0), row_cells(3), camel, A) else none"
"""


def test_both_syntaxes_read_a_direction_set_and_play_the_same_game():
    yaml_game = load_text(RINGS)
    game_text = to_game(yaml_game.spec)
    assert "directions camel = (1, 3), (3, 1)," in game_text
    game_game = load_text(game_text, fmt="game")
    assert to_yaml(game_game.spec) == to_yaml(yaml_game.spec)
    counts = perft(yaml_game.initial_state(), 4)
    assert counts == perft(game_game.initial_state(), 4) and counts[:2] == [16, 240] and counts[2] < 16 * 15 * 14


def test_the_compiled_game_agrees_with_the_interpreter():
    assert find_difference(load_text(RINGS), interpret_text(RINGS), bfs_states=300, playouts=20, plies=16) is None


LEAPS = """
game: Leaps
players: [A, B]
board: {width: 4, height: 4, cells: [empty, A, B]}
directions: {camel: [[1, 3], [3, 1], [-1, 3], [-3, 1], [1, -3], [3, -1], [-1, -3], [-3, -1]]}
state:
  out: {type: '0..99', initial: 0}
actions:
  place(c in cell):
    then: board[c] = mover; out = 10 + size(neighbors(c, camel)) + 20 * size(group(board, c, camel))
terminal: out > 0
utility: out - 10
"""


@pytest.mark.parametrize("cell, expected", [
    ((0, 0), 2 + 20),        # leaps to (1,3) and (3,1); alone in its group
    ((1, 1), 0 + 20),        # every leap from (1,1) leaves the 4x4 board
    ((0, 2), 2 + 20),        # (3,3) and (3,1)
])
def test_neighbors_and_groups_by_a_set_of_leaps(cell, expected):
    assert load_text(LEAPS).initial_state().result(cell).utility(0) == expected
    assert interpret_text(LEAPS).initial_state().result(f"place({cell[0]},{cell[1]})").utility(0) == expected


@pytest.mark.parametrize("steps, message", [
    ("[[0, 0]]", "the step (0, 0) does not move"),
    ("[[1]]", "is not a pair of whole numbers"),
    ("[[1, 0], [1, 0]]", "lists the step (1, 0) twice"),
    ("[]", "needs 1 to 64 steps"),
    ("[[100, 0]]", "is not a pair of whole numbers"),
])
def test_a_bad_direction_set_is_refused_at_its_name(steps, message):
    text = RINGS.replace("  wazir: [[1, 0], [0, 1], [-1, 0], [0, -1]]", f"  wazir: {steps}")
    with pytest.raises(SpecError) as caught:
        load_text(text)
    assert message in caught.value.message and caught.value.line == 7


@pytest.mark.parametrize("name, message", [("hex", "is a built-in direction set"),
                                           ("A", "duplicate name `A`")])
def test_a_direction_set_needs_a_new_name(name, message):
    with pytest.raises(SpecError) as caught:
        load_text(RINGS.replace("  wazir:", f"  {name}:"))
    assert message in caught.value.message


def test_hex_is_the_six_neighbours_of_a_rhombus_and_the_editor_knows_it():
    assert sorted(DIRECTION_SETS["hex"]) == [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)]
    assert builtin_help("hex") == "direction set `hex`: (1,0), (-1,0), (0,1), (0,-1), (1,-1), (-1,1)"
    for name in ("connected", "group", "liberties", "row_cells", "column_cells"):
        assert name in builtin_help(name)


def test_the_editor_knows_a_spec_s_own_direction_set():
    from framework.lsp.analysis import analyse
    from framework.lsp.vocabulary import completions_for
    result = analyse("rings.yaml", RINGS)
    camel = result.symbol("camel", None)
    assert camel.detail.startswith("direction set `camel`: (1, 3), (3, 1)") and camel.line == 6
    assert ("camel", "EnumMember") in [item[:2] for item in completions_for(result, None, False, False)]
