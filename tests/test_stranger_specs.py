"""Specs of OpenSpiel games written from their public rules in the styles a new user
writes (benchmarks/specs/: Breakthrough 6x6, Kalah, Ultimate tic-tac-toe, Y, checkers with
OpenSpiel's one-jump plies): their perft counts equal the counts OpenSpiel's C++ games give
(written here, so the test runs without pyspiel) and, where pyspiel is installed, the
counts pyspiel gives now, computed in the test.  They are the games
benchmarks/bench_pyspiel.py times against pyspiel; not shipped, so the suite does not sweep
them."""
from __future__ import annotations

import pytest

import framework
from framework.perft import perft
from tests.conftest import ROOT

SPECS = ROOT / "benchmarks" / "specs"

# (spec, options, pyspiel game, its parameters, counts per ply from pyspiel)
CASES = [
    ("breakthrough.yaml", {}, "breakthrough", {"rows": 6, "columns": 6}, [16, 256, 4308]),
    ("kalah.yaml", {}, "mancala", {}, [6, 35, 185, 942, 4690, 23233]),
    ("ultimate_tictactoe.yaml", {}, "ultimate_tic_tac_toe", {}, [9, 81, 720, 6336]),
    ("y.yaml", {"n": 3}, "y", {"board_size": 3}, [6, 30, 120, 360, 720, 360]),
    ("y.yaml", {}, "y", {"board_size": 4}, [10, 90, 720]),
    ("checkers.yaml", {}, "checkers", {}, [7, 49, 302, 1469]),
]


def spiel_perft(state, depth) -> list:
    """Counts per ply 1..depth below a pyspiel state (`child()`, the last ply counted)."""
    counts = [0] * depth
    if state.is_terminal():
        return counts
    actions = state.legal_actions()
    counts[0] = len(actions)
    if depth > 1:
        for action in actions:
            for i, n in enumerate(spiel_perft(state.child(action), depth - 1)):
                counts[i + 1] += n
    return counts


@pytest.mark.parametrize("spec,options,spiel,params,counts", CASES,
                         ids=[f"{c[0]}{c[1] or ''}" for c in CASES])
def test_perft_equals_openspiel(spec, options, spiel, params, counts):
    game = framework.load(SPECS / spec, **options)
    assert perft(game.initial_state(), len(counts)) == counts


@pytest.mark.parametrize("spec,options,spiel,params,counts", CASES,
                         ids=[f"{c[0]}{c[1] or ''}" for c in CASES])
def test_written_counts_are_pyspiels(spec, options, spiel, params, counts):
    pyspiel = pytest.importorskip("pyspiel", reason="pyspiel (open_spiel) is not installed")
    state = pyspiel.load_game(spiel, params).new_initial_state()
    assert spiel_perft(state, len(counts)) == counts
