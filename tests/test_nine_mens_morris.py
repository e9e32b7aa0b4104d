"""Nine Men's Morris (game_specs/nine_mens_morris.yaml, on a graph board) against an
independent count: tests/nine_mens_morris_reference.py derives the board from its geometry
and plays the rules in plain Python; the compiled game must agree with it on perft (from the
start and from positions of the moving and flying phases) and, move by move, on random
games (the legal moves, the end, the returns).

OpenSpiel's `nine_mens_morris` (pyspiel) is the third count.  There a removal is a ply of
its own by the same player; folding it into the ply that closed the mill, as the spec's
compound move does (`place(a7,d1)`: place on a7, remove d1), gives pyspiel's counts by
turns (`_pyspiel_turns`): 24, 552, 12,144, 255,024 at depths 1 to 4 in the default run,
equal to the golden file (game_specs/golden/nine_mens_morris.perft.json, written by
`plyspec perft game_specs/nine_mens_morris.yaml -d 5 --write-golden`), and 5,140,800 at
depth 5, the first with mills, under `-m slow` (with the reference's perft to 4).  Random
games of pyspiel agree with the reference turn by turn (5 here; 200 once, 2026-11-28, 9 of
them drawn at the 200-turn limit).
"""
import random

import pytest

import nine_mens_morris_reference as R
from conftest import SPECS
from framework import load
from framework.perft import perft

SPEC = SPECS / "nine_mens_morris.yaml"


@pytest.fixture(scope="module")
def game():
    return load(SPEC)


def test_the_spec_declares_the_board_the_geometry_gives(game):
    graph = game.view.c.graph
    assert list(graph.points) == R.POINTS
    assert [list(a) for a in graph.adjacency] == [sorted(a) for a in R.ADJACENT]
    assert sorted(tuple(sorted(p)) for _, p in graph.lines) == R.MILLS
    assert (len(R.POINTS), sum(map(len, R.ADJACENT)) // 2, len(R.MILLS)) == (24, 32, 16)


def test_perft_from_the_start_equals_the_independent_count(game):
    counts = perft(game.initial_state(), 3)
    assert counts == [R.perft(R.initial(), d) for d in (1, 2, 3)] == [24, 552, 12144]


def _playout(game, rng, stop=lambda p: False):
    """A random game played in both, compared move by move; returns the last pair of
    positions (the compiled state and the reference's)."""
    s, p = game.initial_state(), R.initial()
    while True:
        ref = {R.text(p, m): m for m in R.moves(p)}
        got = {game.action_text(a): a for a in s.actions()} if not s.terminal_test() else {}
        assert set(got) == set(ref), sorted(set(got) ^ set(ref))[:8]
        assert s.terminal_test() == R.terminal(p)
        if R.terminal(p):
            assert (s.utility(0), s.utility(1)) == R.returns(p)
            return s, p
        if stop(p):
            return s, p
        key = rng.choice(sorted(ref))
        s, p = s.result(got[key]), R.play(p, ref[key])


@pytest.mark.parametrize("phase, seed", [("move", 3), ("fly", 5)])
def test_perft_in_the_moving_and_flying_phases_equals_the_independent_count(game, phase, seed):
    def reached(p):
        board, player, hand, _ = p
        return hand == (0, 0) and (board.count(player) > 3 if phase == "move" else board.count(player) == 3)
    rng = random.Random(seed)
    for _ in range(50):
        s, p = _playout(game, rng, reached)
        if not R.terminal(p):
            break
    assert reached(p), "no position of that phase reached"
    assert perft(s, 3) == [R.perft(p, d) for d in (1, 2, 3)]


def _games(game, n, seed):
    rng = random.Random(seed)
    ends = {}
    for _ in range(n):
        _, p = _playout(game, rng)
        ends[R.returns(p)] = ends.get(R.returns(p), 0) + 1
    return ends


def test_random_games_agree_with_the_independent_implementation(game):
    ends = _games(game, 8, seed=11)
    assert sum(ends.values()) == 8 and set(ends) <= {(1, -1), (-1, 1), (0, 0)}


@pytest.mark.slow
def test_a_hundred_random_games_agree_with_the_independent_implementation(game):
    ends = _games(game, 100, seed=12)
    assert {(1, -1), (-1, 1)} <= set(ends)


def _pyspiel_turns(state):
    """{move text as the reference writes it, minus its kind: pyspiel state after the whole
    turn}: a move that closes a mill is followed by its removal ply, folded in here."""
    out = {}
    player = state.current_player()
    for a in state.legal_actions():
        child = state.child(a)
        head = (R.POINTS[a],) if a < 24 else tuple(R.POINTS[i] for i in divmod(a - 24, 24))
        if not child.is_terminal() and child.current_player() == player:
            out.update({head + (R.POINTS[c],): child.child(c) for c in child.legal_actions()})
        else:
            out[head] = child
    return out


def _kind(p):
    """The spec's action name for the player to move in reference position p."""
    board, player, hand, _ = p
    return "place" if hand[player - 1] else "fly" if board.count(player) == 3 else "move"


def test_pyspiel_agrees_with_the_reference_turn_by_turn():
    pyspiel = pytest.importorskip("pyspiel")
    rng = random.Random(7)
    for _ in range(5):
        s, p = pyspiel.load_game("nine_mens_morris").new_initial_state(), R.initial()
        while not R.terminal(p):
            ref = {R.text(p, m): m for m in R.moves(p)}
            got = {f"{_kind(p)}({','.join(k)})": c for k, c in _pyspiel_turns(s).items()}
            assert set(got) == set(ref) and not s.is_terminal()
            key = rng.choice(sorted(ref))
            s, p = got[key], R.play(p, ref[key])
        assert s.is_terminal() and tuple(s.returns()) == R.returns(p)


def _pyspiel_perft(state, depth):
    turns = _pyspiel_turns(state)
    return len(turns) if depth == 1 else sum(_pyspiel_perft(s, depth - 1) for s in turns.values())


def test_pyspiel_counted_by_turns_equals_the_golden_perft():
    import json
    pyspiel = pytest.importorskip("pyspiel")
    golden = json.loads((SPECS / "golden" / "nine_mens_morris.perft.json").read_text())["default"]
    start = pyspiel.load_game("nine_mens_morris").new_initial_state()
    assert [_pyspiel_perft(start, d) for d in (1, 2, 3, 4)] == golden[:4] == [24, 552, 12144, 255024]


@pytest.mark.slow
def test_pyspiel_and_the_reference_at_the_depths_with_mills(game):
    """Depth 5 is the first with mills (a removal after the third man)."""
    pyspiel = pytest.importorskip("pyspiel")
    assert _pyspiel_perft(pyspiel.load_game("nine_mens_morris").new_initial_state(), 5) == 5140800
    assert perft(game.initial_state(), 5)[-1] == 5140800
    assert R.perft(R.initial(), 4) == 255024
