"""The shipped Oware (game_specs/oware.yaml: a repeated position ends the game scoring the
seeds) and Go (game_specs/go5.yaml: positional superko, area scoring at a move limit)
against independent implementations: OpenSpiel's `oware` (whose rules the spec follows
exactly, grand slam included: legal, captures nothing) and tests/go_reference.py (OpenSpiel's
`go` ends a game on a superko as a draw instead of forbidding the move, so it is compared
only where no board can repeat yet)."""
from __future__ import annotations

import random

import pyspiel
import pytest

import framework
from framework.conformance.golden import golden_path, read_golden
from framework.perft import perft
from tests.conftest import ROOT
from tests.go_reference import PASS, Go

OWARE, GO = ROOT / "game_specs" / "oware.yaml", ROOT / "game_specs" / "go5.yaml"


def spiel_perft(state, depth):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    return sum(spiel_perft(state.child(a), depth - 1) for a in state.legal_actions())


@pytest.mark.parametrize("houses, seeds, depth", [(6, 4, 5), (3, 2, 11), (2, 2, 14)])
def test_oware_perft_equals_openspiel(houses, seeds, depth):
    game = framework.load(OWARE, houses=houses, seeds=seeds)
    spiel = pyspiel.load_game(f"oware(num_houses_per_player={houses},num_seeds_per_house={seeds})")
    assert perft(game.initial_state(), depth) == [spiel_perft(spiel.new_initial_state(), d) for d in range(1, depth + 1)]


def test_oware_golden_counts_are_openspiels():
    spiel = pyspiel.load_game("oware")
    (_, counts), = read_golden(golden_path(OWARE))
    assert counts == [spiel_perft(spiel.new_initial_state(), d) for d in range(1, len(counts) + 1)]


@pytest.mark.parametrize("houses, seeds", [(3, 2), (6, 4)])
def test_oware_playouts_end_and_score_as_openspiel(houses, seeds):
    """Random games replayed in both: the same legal moves at every state, the same end and
    the same returns; some end on a repeated position (scored by the seeds), some not."""
    game = framework.load(OWARE, houses=houses, seeds=seeds)
    spiel = pyspiel.load_game(f"oware(num_houses_per_player={houses},num_seeds_per_house={seeds})")
    rng, endings = random.Random(houses), set()
    for _ in range(60):
        ours, theirs = game.initial_state(), spiel.new_initial_state()
        while not ours.terminal_test():
            assert sorted(ours.actions()) == theirs.legal_actions()
            move = rng.choice(ours.actions())
            ours = ours.result(move)
            theirs.apply_action(move)
        assert theirs.is_terminal() and ours.returns() == tuple(theirs.returns())
        endings.add("repetition rule" in str(ours))
    assert endings == {True, False}


def as_reference(n, action):
    return PASS if action == "skip" else action[1][1] * n + action[1][0]


@pytest.mark.parametrize("n, depth", [(2, 10), (3, 5)])
def test_go_perft_equals_the_reference(n, depth):
    game = framework.load(GO, n=n)
    reference = Go(n)
    assert perft(game.initial_state(), depth) == [reference.perft(reference.start(), d) for d in range(1, depth + 1)]
    if n == 2:          # superko decides these counts
        free = Go(n, superko=False)
        assert free.perft(free.start(), depth) != reference.perft(reference.start(), depth)


def test_go_move_limit_ends_the_game():
    game, reference = framework.load(GO, n=2, limit=6), Go(2, limit=6)
    counts = perft(game.initial_state(), 8)
    assert counts == [reference.perft(reference.start(), d) for d in range(1, 9)] and counts[6:] == [0, 0]


def test_go_golden_counts_are_the_reference_and_openspiels():
    (_, counts), = read_golden(golden_path(GO))
    reference, spiel = Go(5), pyspiel.load_game("go(board_size=5)")
    assert counts == [reference.perft(reference.start(), d) for d in range(1, len(counts) + 1)] == \
        [spiel_perft(spiel.new_initial_state(), d) for d in range(1, len(counts) + 1)]


@pytest.mark.parametrize("n", [3, 5])
def test_go_playouts_agree_with_the_reference(n):
    game, reference = framework.load(GO, n=n), Go(n)
    rng, winners = random.Random(n), set()
    for _ in range(25):
        ours, theirs = game.initial_state(), reference.start()
        while not ours.terminal_test():
            assert sorted(as_reference(n, a) for a in ours.actions()) == sorted(reference.moves(theirs))
            move = rng.choice(ours.actions())
            ours, theirs = ours.result(move), reference.result(theirs, as_reference(n, move))
        assert reference.terminal(theirs) and ours.returns() == reference.returns(theirs)
        winners.add(ours.returns())
    assert len(winners) == 2
