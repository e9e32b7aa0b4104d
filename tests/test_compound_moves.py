"""Compound moves (`continue`, `steps`, `prefer: longest`): one action and one ply per move,
its whole path in the action text, counted against independent implementations."""
import random

import pytest

from conftest import SPECS
from framework import load, load_text
from framework.conformance.differential import find_difference
from framework.errors import SpecError
from framework.interpreter import interpret, interpret_text
from tests import amazons_reference, draughts_reference

# TRUTHS.md: English draughts perft (A. Bik, 2009), plies 1..7
DRAUGHTS = [7, 49, 302, 1469, 7361, 36768, 179740]
# TRUTHS.md: Brazilian draughts (international rules on 8x8: flying kings, men capture
# backwards, maximum capture compulsory), R. Halbersma's perft collection, plies 1..7
BRAZILIAN = [7, 49, 302, 1469, 7473, 37628, 187302]


def perft(state, depth):
    """Leaf counts 1..depth (a terminal state ends its line)."""
    counts = [0] * depth

    def walk(s, d):
        for a in s.actions():
            counts[d] += 1
            if d + 1 < depth:
                child = s.result(a)
                if not child.terminal_test():
                    walk(child, d + 1)
    walk(state, 0)
    return counts


@pytest.mark.parametrize("name", ["draughts.yaml", "draughts.game"])
def test_draughts_perft_is_the_published_count(name):
    game = load(SPECS / name)
    assert perft(game.initial_state(), 5) == DRAUGHTS[:5]


@pytest.mark.slow
def test_draughts_perft_to_ply_seven():
    assert perft(load(SPECS / "draughts.yaml").initial_state(), 7) == DRAUGHTS


def test_brazilian_draughts_maximum_capture_is_the_published_count():
    """Ply 5 is where the rules part from English draughts (7473, not 7361): backward
    captures by men and the maximum-capture rule (`prefer: longest`)."""
    assert perft(load(SPECS / "brazilian_draughts.yaml").initial_state(), 5) == BRAZILIAN[:5]


@pytest.mark.slow
def test_brazilian_draughts_perft_to_ply_six():
    assert perft(load(SPECS / "brazilian_draughts.yaml").initial_state(), 6) == BRAZILIAN[:6]


def _path(text):
    """`jump(2,5,4,3,2,1)` -> ((2, 5), (4, 3), (2, 1))."""
    numbers = [int(x) for x in text[text.index("(") + 1:-1].split(",")]
    return tuple(zip(numbers[::2], numbers[1::2]))


def _random_position(rng):
    """A reference board of men and kings on dark cells (no man on its crowning row), and
    the draughts spec with an `init` that sets it up."""
    board = {}
    cells = [(x, y) for y in range(8) for x in range(8) if (x + y) % 2 == 1]
    for cell in rng.sample(cells, 14):
        player, king = rng.randrange(2), rng.random() < 0.25
        if not king and cell[1] == (0 if player == 0 else 7):
            continue
        board[cell] = (player, king)
    names = {(0, False): "b", (1, False): "w", (0, True): "bk", (1, True): "wk"}
    setup = "".join(f"  board[({x}, {y})] = {names[v]}\n" for (x, y), v in sorted(board.items()))
    text = (SPECS / "draughts.yaml").read_text()
    start, end = text.index("init: |"), text.index("define:")
    return board, text[:start] + "init: |\n" + setup + text[end:]


def test_draughts_moves_are_whole_paths_as_the_reference_plays_them():
    """From random positions, along random games, the spec's moves (as texts) are the
    reference implementation's paths, position after position: multi-jumps, crowning in
    the middle of a jump, kings jumping back."""
    rng = random.Random(7)
    longest = 0
    for _ in range(8):
        board, text = _random_position(rng)
        game, mover = load_text(text), 0
        state = game.initial_state()
        for ply in range(40):
            texts = {_path(game.action_text(a)): a for a in state.actions()} if not state.terminal_test() else {}
            expected = {tuple(path): after for path, after in draughts_reference.moves(board, mover)}
            assert sorted(texts) == sorted(expected), f"ply {ply}"
            if not expected:
                break
            path = rng.choice(sorted(expected))
            longest = max([longest] + [len(p) for p in expected])
            state, board, mover = state.result(texts[path]), expected[path], 1 - mover
    assert longest >= 3          # multi-jumps (three cells or more) were compared


def test_draughts_agrees_with_the_interpreter():
    path = SPECS / "draughts.yaml"
    assert find_difference(load(path), interpret(path), bfs_states=30, playouts=2, plies=40) is None


@pytest.mark.parametrize("n, depth", [(5, 2), (4, 2)])
def test_amazons_perft_matches_an_independent_implementation(n, depth):
    cells, mover = amazons_reference.initial(n)
    expected = [amazons_reference.perft(cells, mover, n, d) for d in range(1, depth + 1)]
    assert perft(load(SPECS / "amazons.yaml", n=n).initial_state(), depth) == expected
    if n == 4:
        assert perft(interpret(SPECS / "amazons.game", n=n).initial_state(), depth) == expected


def test_amazons_move_text_is_the_whole_move():
    game = load(SPECS / "amazons.yaml")
    state = game.initial_state()
    move = game.parse_action(state, "move(1,4,1,1,0,0)")
    assert move == ((1, 4), (1, 1), (0, 0)) and game.action_text(move) == "move(1,4,1,1,0,0)"
    after = state.result(move)
    assert str(after).splitlines()[:2] == ["x B . B .", ". W . . ."] and after.player() == 1
    assert find_difference(game, interpret(SPECS / "amazons.yaml"), bfs_states=20, playouts=2, plies=20) is None


HOPS = """game: Hops
players: [A, B]
options: {w: 7}
board: {width: w, height: 1, cells: [empty, A, B, stone]}
init: "board[(0, 0)] = A; board[(w - 1, 0)] = B; board[(2, 0)] = stone; board[(4, 0)] = stone"
define:
  over(c, d): cell((col(c) + col(d)) // 2, 0)
  hop(c, d): abs(col(d) - col(c)) == 2 and board[over(c, d)] == stone
actions:
  walk(c in cells(board, mover), d in neighbors(c, orthogonal)):
    if: board[d] == empty
    then: "board[d] = mover; board[c] = empty"
  jump(c in cells(board, mover), d in cell):
    if: board[d] == empty and hop(c, d)
    then: "board[d] = mover; board[c] = empty; board[over(c, d)] = empty; continue again(d)"
steps:
  again(c in cell, d in cell):
    if: board[d] == empty and hop(c, d)
    then: "board[d] = mover; board[c] = empty; board[over(c, d)] = empty; continue again(d)"
terminal: "board[(w - 1, 0)] == A or board[(0, 0)] == B"
winner: "A if board[(w - 1, 0)] == A else B"
"""


@pytest.mark.parametrize("load_game", [load_text, interpret_text])
def test_a_jump_continues_while_it_can_and_is_one_ply(load_game):
    game = load_game(HOPS)
    state = game.initial_state()
    state = state.result(next(a for a in state.actions() if "walk(0,0,1,0)" in _text(game, a)))
    state = state.result(next(a for a in state.actions() if "walk(6,0,5,0)" in _text(game, a)))
    texts = sorted(_text(game, a) for a in state.actions())
    # the jump from (1,0) over the stone at (2,0) must go on over (4,0): (1,0) -> (3,0) -> (5,0)?
    # (5,0) is B's, so the path stops at (3,0); walking stays legal (no compulsory capture)
    assert texts == ["jump(1,0,3,0)", "walk(1,0,0,0)"]


@pytest.mark.parametrize("load_game", [load_text, interpret_text])
def test_prefer_longest_keeps_only_the_moves_with_most_steps(load_game):
    spec = HOPS.replace("terminal:", "prefer: longest\nterminal:").replace(
        'board[(w - 1, 0)] = B', 'board[(w - 2, 0)] = B')
    game = load_game(spec, w=8)
    state = game.initial_state()
    state = state.result(next(a for a in state.actions() if "walk(0,0,1,0)" in _text(game, a)))
    state = state.result(next(a for a in state.actions() if "walk(6,0,7,0)" in _text(game, a)))
    assert sorted(_text(game, a) for a in state.actions()) == ["jump(1,0,3,0,5,0)"]
    after = state.result(state.actions()[0])
    assert after.player() == 1 and not after.terminal_test()


def _text(game, action):
    return game.action_text(action) if hasattr(game, "action_text") else action


@pytest.mark.parametrize("rule, message", [
    ("continue hop(d)", "no action or step is called `hop`"),
    ("continue again(d, d, d)", "`again` has 2 parameter(s), `continue` gives 3"),
    ("continue again(1)", "`again`'s parameter `c` is a cell, not a whole number"),
])
def test_a_wrong_continue_says_what_is_wrong(rule, message):
    with pytest.raises(SpecError) as info:
        load_text(HOPS.replace('continue again(d)"\nsteps', rule + '"\nsteps'))
    assert message in info.value.message and info.value.line == 15


@pytest.mark.parametrize("load_game", [load_text, interpret_text])
def test_a_move_whose_steps_repeat_forever_is_an_error_not_a_hang(load_game):
    endless = HOPS.replace("; board[over(c, d)] = empty", "")       # the stone stays: hop back and forth
    game = load_game(endless)
    state = game.initial_state()
    state = state.result(next(a for a in state.actions() if "walk(0,0,1,0)" in _text(game, a)))
    state = state.result(next(a for a in state.actions() if "walk(6,0,5,0)" in _text(game, a)))
    with pytest.raises(SpecError, match="a compound move went on for 100 steps"):
        state.actions()


def test_misused_steps_and_preferences_are_refused():
    load_text(HOPS.replace("steps:\n", "steps:\n  unused: \"board[(3, 0)] = empty\"\n"))   # harmless
    with pytest.raises(SpecError, match="unknown preference `shortest`"):
        load_text(HOPS.replace("terminal:", "prefer: shortest\nterminal:"))
    with pytest.raises(SpecError, match="cannot be part of a compound move"):
        load_text(HOPS.replace("d in cell):\n    if", "d in cell):\n    chance: k in 1..2\n    if", 1))

@pytest.mark.parametrize("name", ["draughts", "amazons", "kalah", "pig2"])
def test_both_syntaxes_of_the_new_games_are_the_same_game(name):
    from framework.frontend.printer import spec_fields
    from framework.loader import parse_spec
    assert spec_fields(parse_spec(SPECS / f"{name}.yaml")) == spec_fields(parse_spec(SPECS / f"{name}.game"))


@pytest.mark.parametrize("text, fmt, message", [
    ('game "T"\nplayers A, B\nstate n : 0..9 = 0\naction go\n    then continue\nterminal n >= 3\n',
     "game", "`continue` needs the step the move goes on with"),
    (HOPS.replace('"board[(0, 0)] = A;', '"let;'), "yaml", "`let` needs a name and a value"),
    ('game "T"\nplayers A, B\nstate n : 0..9 = 0\naction go\n    chance a in 1..2 b in 1..2\n'
     '    then n += a\nterminal n >= 3\n', "game", "outcome variables are separated by commas"),
    (HOPS.replace("  walk(c in cells(board, mover), d in neighbors(c, orthogonal)):\n",
                  "  roll:\n    chance: a in 1..2 b in 1..2\n  walk(c in cells(board, mover), d in neighbors(c, orthogonal)):\n"),
     "yaml", "outcome variables are separated by commas"),
])
def test_unfinished_new_constructs_are_named_in_the_users_words(text, fmt, message):
    with pytest.raises(SpecError) as info:
        load_text(text, fmt=fmt)
    assert message in info.value.message and "NAME" not in str(info.value)


# issue 23 item 11 (found by the fuzz campaign): an action with no `if`/`then` reached by
# `continue` had no walk function in the compiled module (NameError: _walk0)
HOP = """game "Hop"
players A, B
board 3 x 1 of empty, A, B
action hop(c in cell, d in cell)
action step(c in cell)
    if board[c] == empty
    then
        board[c] = mover
        continue hop(c)
terminal full(board)
winner none
"""


def test_an_action_without_effects_reached_by_continue_plays():
    from framework.perft import perft
    game, igame = load_text(HOP, "game"), interpret_text(HOP, "game")
    start = game.initial_state()
    # 9 plain hops (which change nothing) and 3 steps, each going on with 3 choices of d
    assert len(start.actions()) == len(igame.initial_state().actions()) == 9 + 3 * 3
    assert perft(start, 3) == [18, 297, 4536]

    def count(state, depth):                    # the interpreter's tree, walked plainly
        return 0 if depth == 0 or state.terminal_test() else \
            sum(1 + count(state.result(a), depth - 1) for a in state.actions())
    assert count(igame.initial_state(), 2) == 18 + 297
    assert find_difference(game, igame, bfs_states=200) is None
