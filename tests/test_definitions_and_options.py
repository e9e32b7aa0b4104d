"""Effect definitions (`name(p): {then: EFFECTS}`, run by the effect `name(a)`) and option
defaults computed from earlier options: their meaning in compiled games and in the reference
interpreter, both syntaxes, the printer's round trip, and the checker's positioned errors."""
import pytest

from framework import load_text
from framework.errors import SpecError
from framework.frontend.printer import to_game, to_yaml
from framework.interpreter import interpret_text
from framework.loader import parse_text
from framework.perft import perft

# A hop game on a 4x1 strip: a hop over an enemy piece captures it through an effect
# definition, which runs another one, keeps a local named like the caller's, and assigns
# its parameter; `bonus` counts captures made from column 0.
HOPS = """
game: Hops
players: [X, O]
options: {n: 6, cap: "n - 1"}
board: {width: n, height: 1, cells: [empty, X, O]}
state:
  taken: {type: 0..cap, per: player}
  bonus: {type: 0..9}
define:
  mid(a, b): "cell((col(a) + col(b)) // 2, 0)"
  capture(c, from):
    then: |
      let k = 1
      board[c] = empty
      taken[mover] += k
      from = cell(col(from) + 0, 0)
      if col(from) == 0 then note()
  note: {then: "bonus += 1"}
init: "board[(0, 0)] = X; board[(1, 0)] = O; board[(4, 0)] = O; board[(5, 0)] = O"
actions:
  hop(a in cells(board, mover), b in cell):
    if: "board[b] == empty and abs(col(a) - col(b)) == 2 and board[mid(a, b)] == next(mover)"
    then: |
      let k = 7
      board[b] = mover
      board[a] = empty
      capture(mid(a, b), a)
      if k == 7 then bonus += 0
  step(a in cells(board, mover), b in neighbors(a, orthogonal)):
    if: board[b] == empty
    then: "board[b] = mover; board[a] = empty"
terminal: "count(board, X) == 0 or count(board, O) == 0"
winner: "X if count(board, O) == 0 else O if count(board, X) == 0 else none"
max_length: 40
"""


def test_an_effect_definition_runs_its_effects_with_its_arguments():
    # X hops from (0,0) over O on (1,0): `capture` empties (1,0), counts it, and runs `note`
    # (the hop starts on column 0); the action's own `k` is still 7 after `capture`'s `k`
    game = load_text(HOPS)
    after = game.initial_state().result(game.parse_action(game.initial_state(), "hop(0,0,2,0)"))
    assert str(after) == ". . X . O O\ntaken: X=1, O=0\nbonus: 1\nO to move"
    snapshot = interpret_text(HOPS).initial_state().result("hop(0,0,2,0)").s
    assert (snapshot.board, snapshot.get("taken"), snapshot.get("bonus")) == ((0, 0, 1, 0, 2, 2), (1, 0), 1)


def _counts(text, depth, fmt="yaml", **options):
    compiled = perft(load_text(text, fmt, **options).initial_state(), depth)
    interpreted = perft(interpret_text(text, fmt, **options).initial_state(), depth)
    assert compiled == interpreted
    return compiled


def test_effect_definitions_compiled_agree_with_the_interpreter_in_both_syntaxes():
    counts = _counts(HOPS, 6)
    game_text = to_game(parse_text(HOPS, "<hops>", "yaml"))
    assert "define capture(c, from) then" in game_text and "capture(mid(a, b), a)" in game_text
    assert _counts(game_text, 6, "game") == counts
    assert to_game(parse_text(to_yaml(parse_text(game_text, "<g>", "game")), "<y>", "yaml")) == game_text


OPTIONS = """
game: Walls
players: [A, B]
options: {n: 4, walls: "n * n // 8", spare: "max(walls - 1, 0)"}
board: {width: n, height: 1, cells: [empty, A, B]}
state:
  left: {type: 0..100, per: player, initial: walls + spare}
actions:
  wall(c in cell):
    if: board[c] == empty and left[mover] > 0
    then: "board[c] = mover; left[mover] -= 1"
terminal: full(board) or left[A] + left[B] == 0
winner: none
"""


def test_an_option_default_is_computed_from_the_earlier_options_after_set():
    assert load_text(OPTIONS).options == {"n": 4, "walls": 2, "spare": 1}
    assert load_text(OPTIONS, n=8).options == {"n": 8, "walls": 8, "spare": 7}
    assert load_text(OPTIONS, n=8, walls=1).options == {"n": 8, "walls": 1, "spare": 0}
    game_text = to_game(parse_text(OPTIONS, "<o>", "yaml"))
    assert "option n = 4, walls = n * n // 8, spare = max(walls - 1, 0)" in game_text
    assert load_text(game_text, "game", n=8).options == {"n": 8, "walls": 8, "spare": 7}
    # n=3: walls 1, spare 0, so each player has one wall: 3 first moves, then 2, then none
    assert _counts(OPTIONS, 3, n=3) == [3, 6, 0]


ERRORS = [
    # (text replaced in HOPS, new text, message, (line, col))
    ('options: {n: 6, cap: "n - 1"}', 'options: {cap: "n - 1", n: 4}',
     "option `cap` uses option `n`, which is declared after it", (4, 17)),
    ('options: {n: 6, cap: "n - 1"}', 'options: {n: 4, cap: "board"}',
     "the default of option `cap` must be a constant", (4, 23)),
    ("      capture(mid(a, b), a)\n", "      capture(mid(a, b))\n", "`capture` takes 2 argument(s), got 1", (27, 7)),
    ("      capture(mid(a, b), a)\n", "      mid(a, b)\n", "`mid` is a definition of a value, not of effects", (27, 7)),
    ("      capture(mid(a, b), a)\n", "      captur(mid(a, b), a)\n", "unknown effect definition `captur`", (27, 7)),
    ("board[b] == empty and abs", "note and board[b] == empty and abs",
     "`note` is an effect definition, not a value", (22, 10)),
    ('  note: {then: "bonus += 1"}', '  note: {then: "bonus += 1; note()"}', "definition `note` uses itself", (18, 29)),
    ('  note: {then: "bonus += 1"}', '  note: {then: "bonus += 1; continue hop(a)"}',
     "`continue` cannot go in effect definition `note`", (18, 38)),
    ("      let k = 1\n", "      let k = 1\n      let from = 2\n", "`from` is already a local variable here", (14, 11)),
    ("      from = cell(col(from) + 0, 0)\n", "      a = cell(col(from) + 0, 0)\n", "unknown state variable `a`", (16, 7)),
]


@pytest.mark.parametrize("old, new, message, where", ERRORS)
def test_misuse_is_named_at_its_position(old, new, message, where):
    assert old in HOPS
    with pytest.raises(SpecError) as caught:
        load_text(HOPS.replace(old, new, 1))
    error = caught.value
    assert error.message == message
    assert (error.line, error.col) == where, str(error)
    assert error.hint


def test_the_editor_hover_shows_an_effect_definition_and_a_computed_default():
    from framework.lsp.analysis import analyse
    result = analyse("hops.yaml", HOPS)
    line = HOPS.splitlines().index("      capture(mid(a, b), a)") + 1
    used = result.declaration(result.at(line, 8))
    assert used.detail == ("effect definition capture(c, from): let k = 1; board[c] = empty; taken[mover] += k; "
                           "from = cell(col(from) + 0, 0); if col(from) == 0 then {note()}")
    assert result.symbol("cap").detail == "option `cap` (default n - 1; override with --set cap=...)"
