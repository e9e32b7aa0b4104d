"""The shipped Quoridor (game_specs/quoridor.yaml: walls on a grid of squares and slots, a
wall legal only if both pawns keep a path, `legal_after` with `region`) against an
independent implementation written the usual way (tests/quoridor_reference.py: squares,
two sets of wall anchors, a search for each pawn's path) and against OpenSpiel's
`quoridor(board_size=5, wall_count=3)`.  The rules agree with OpenSpiel's but for one
thing: OpenSpiel scores a game whose 100th move reaches the goal as a draw (its move limit
is read after the win), the spec and the reference as a win (a position the game's own
rules end is scored by them, docs/spec_language.md, Repetition)."""
from __future__ import annotations

import random
from collections import Counter

import pyspiel
import pytest

import framework
from framework.conformance.golden import golden_path, read_golden
from framework.perft import perft
from tests.conftest import ROOT
from tests.quoridor_reference import Quoridor
from tests.test_oware_go import spiel_perft

SPEC = ROOT / "game_specs" / "quoridor.yaml"


def spiel_game(n=5, walls=3):
    return pyspiel.load_game("quoridor", {"board_size": n, "wall_count": walls})


def as_reference(action):
    """The spec's action (on the grid of squares and slots) as the reference's move."""
    name, *cells = action
    x, y = cells[-1]
    return ("move" if name == "move" else name[0], (x // 2, y // 2))


def as_spiel(action) -> str:
    """The spec's action as OpenSpiel names it: the square (or the wall's first slot) as a
    column letter and a row number from the top, `h` / `v` for a wall."""
    name, *cells = action
    x, y = cells[-1]
    return f"{chr(ord('a') + x // 2)}{y // 2 + 1}" + {"hwall": "h", "vwall": "v"}.get(name, "")


def kind(action) -> str:
    if action[0] != "move":
        return "wall"
    (ax, ay), (bx, by) = action[1:]
    return "step" if abs(ax - bx) + abs(ay - by) == 2 else "jump" if ax == bx or ay == by else "side"


def test_perft_equals_the_reference_and_openspiel():
    game, reference = framework.load(SPEC), Quoridor()
    counts = perft(game.initial_state(), 3)
    assert counts == [reference.perft(reference.start(), d) for d in (1, 2, 3)] == [35, 1109, 31540]
    assert counts == [spiel_perft(spiel_game().new_initial_state(), d) for d in (1, 2, 3)]
    (options, golden), = read_golden(golden_path(SPEC))       # the golden file holds these counts
    assert golden == counts


@pytest.mark.slow
def test_perft_4_equals_the_reference_and_openspiel():
    game, reference = framework.load(SPEC), Quoridor()
    assert perft(game.initial_state(), 4)[-1] == reference.perft(reference.start(), 4) == \
        spiel_perft(spiel_game().new_initial_state(), 4) == 794442


@pytest.mark.parametrize("n, walls", [(3, 1), (4, 2)])
def test_perft_on_smaller_boards_equals_the_reference_and_openspiel(n, walls):
    game, reference = framework.load(SPEC, n=n, walls=walls), Quoridor(n, walls)
    depth = 5 if n == 3 else 3
    assert perft(game.initial_state(), depth) == [reference.perft(reference.start(), d) for d in range(1, depth + 1)] \
        == [spiel_perft(spiel_game(n, walls).new_initial_state(), d) for d in range(1, depth + 1)]


def test_random_playouts_agree_with_the_reference():
    """Replayed in both: the same legal moves at every state, the same end and returns.
    The playouts jump straight on and beside the opponent, refuse walls that would cut a
    path, and end in wins for both and in draws at the move limit."""
    game, reference = framework.load(SPEC), Quoridor()
    rng, ends, kinds = random.Random(5), Counter(), Counter()
    for _ in range(40):
        ours, theirs = game.initial_state(), reference.start()
        while not ours.terminal_test():
            actions = ours.actions()
            assert sorted(map(as_reference, actions)) == sorted(reference.moves(theirs)), str(ours)
            move = rng.choice(actions)
            kinds[kind(move)] += 1
            ours, theirs = ours.result(move), reference.result(theirs, as_reference(move))
        assert reference.terminal(theirs) and ours.returns() == reference.returns(theirs)
        ends[ours.returns()] += 1
    assert set(ends) == {(1, -1), (-1, 1), (0, 0)}
    assert kinds["jump"] and kinds["side"] and kinds["wall"] and reference.refused


def test_random_playouts_agree_with_openspiel():
    """The same legal moves at every state; the same returns, but for a win on the 100th
    move, which OpenSpiel scores as a draw."""
    game, spiel = framework.load(SPEC), spiel_game()
    rng, ends = random.Random(7), Counter()
    for _ in range(30):
        ours, theirs = game.initial_state(), spiel.new_initial_state()
        while not ours.terminal_test():
            named = {theirs.action_to_string(a): a for a in theirs.legal_actions()}
            actions = ours.actions()
            assert sorted(map(as_spiel, actions)) == sorted(named), str(ours)
            move = rng.choice(actions)
            ours = ours.result(move)
            theirs.apply_action(named[as_spiel(move)])
        assert theirs.is_terminal()
        if tuple(theirs.returns()) != ours.returns():
            assert theirs.returns() == [0, 0] and ours.returns() != (0, 0) and theirs.move_number() == 100
            ends["won on the 100th move"] += 1
        ends[ours.returns()] += 1
    assert {(1, -1), (-1, 1), (0, 0)} <= set(ends)


def test_a_wall_that_would_cut_a_path_is_refused():
    # (squares (x, y), y from the top) X shuts columns 0-3 between rows 2 and 3 with two
    # walls and puts a wall right of (3, 2) and (3, 3); O's walls go on the top edge.  The
    # way down is then column 4 alone, and a wall under (3, 3) and (4, 3) fits (it overlaps
    # and crosses nothing) but would shut both pawns in: the move leaves no path, so
    # `legal_after` refuses it, as the reference does
    game, reference = framework.load(SPEC), Quoridor()
    s, r = game.initial_state(), reference.start()
    for text in ["hwall(0,5)", "hwall(0,1)", "hwall(4,5)", "hwall(4,1)", "vwall(7,4)"]:
        move = game.parse_action(s, text)
        s, r = s.result(move), reference.result(r, as_reference(move))
    assert reference.wall_fits(r[1], r[2], "h", (3, 3))
    legal = {game.action_text(a) for a in s.actions()}
    assert "hwall(6,7)" not in legal and "hwall(4,7)" in legal
    assert sorted(as_reference(a) for a in s.actions()) == sorted(reference.moves(r))
