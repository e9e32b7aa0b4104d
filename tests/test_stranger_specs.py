"""Specs of OpenSpiel games written from their public rules in the styles a new user
writes (benchmarks/specs/: Breakthrough 6x6, Kalah, Ultimate tic-tac-toe, Y, checkers with
OpenSpiel's one-jump plies, Clobber 5x6, Dots and Boxes 2x2, Pentago, Amazons 6x6): their perft counts equal the counts OpenSpiel's C++ games give
(written here, so the test runs without pyspiel) and, where pyspiel is installed, the
counts pyspiel gives now, computed in the test.  Where the counts alone cannot see the rules
(every line of Dots and Boxes and every cell of Pentago stays playable until the end), random
playouts are played in lockstep with pyspiel: the same moves, the same player to move, the same
end and returns.  They are the games
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
    ("clobber.yaml", {}, "clobber", {"rows": 5, "columns": 6}, [49, 2116, 80063]),
    ("dots_and_boxes.yaml", {}, "dots_and_boxes", {}, [12, 132, 1320, 11880]),
    ("pentago.yaml", {}, "pentago", {}, [288, 80640]),
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


def test_amazons_whole_moves_are_three_pyspiel_plies():
    """A compound move here (amazon, destination, arrow) is three plies of pyspiel's amazons:
    the leaves of perft(2) are pyspiel's leaves at ply 6 (238,532, pyspiel's count)."""
    game = framework.load(SPECS / "amazons6.yaml")
    assert perft(game.initial_state(), 2) == [544, 238532]


def test_amazons_leaves_are_pyspiels():
    pyspiel = pytest.importorskip("pyspiel", reason="pyspiel (open_spiel) is not installed")
    state = pyspiel.load_game("amazons", {"board_size": 6}).new_initial_state()
    assert [spiel_perft(state, 6)[i] for i in (2, 5)] == [544, 238532]


def _dots_move(text):
    """pyspiel's dots_and_boxes action text 'P1(h,r,c)' as the cell of its line here."""
    kind, r, c = text[3:-1].split(",")
    r, c = int(r), int(c)
    return (2 * c + 1, 2 * r) if kind == "h" else (2 * c, 2 * r + 1)


def _pentago_board(state):
    """pyspiel's pentago board as six rows of 'O', '@' and '.' (its text has coordinates)."""
    return tuple(line[4:15:2] for line in str(state).splitlines()[2:8])


def _our_board(state):
    return tuple("".join(line.split()) for line in str(state).splitlines()[:6])


@pytest.mark.parametrize("spec,spiel", [("dots_and_boxes.yaml", "dots_and_boxes"), ("pentago.yaml", "pentago")])
def test_playouts_in_lockstep_with_pyspiel(spec, spiel):
    """Random playouts: each position has the same moves (Dots and Boxes: the same lines;
    Pentago: the same boards after each move, counted with their multiplicity), the same
    player to move, and the same end and returns (extra turns, boxes owned, fives made by the
    turn of a quadrant, draws)."""
    import collections
    import random
    pyspiel = pytest.importorskip("pyspiel", reason="pyspiel (open_spiel) is not installed")
    game, sgame = framework.load(SPECS / spec), pyspiel.load_game(spiel)
    rng, ends = random.Random(7), set()
    for _ in range(40 if spiel == "dots_and_boxes" else 3):
        ours, theirs = game.initial_state(), sgame.new_initial_state()
        while not theirs.is_terminal():
            assert not ours.terminal_test()
            assert game.player_index(ours.player()) == theirs.current_player()
            if spiel == "dots_and_boxes":
                moves = {_dots_move(theirs.action_to_string(a)): a for a in theirs.legal_actions()}
                assert set(moves) == set(ours.actions())
                move = rng.choice(sorted(moves))
                ours, theirs = ours.result(move), theirs.child(moves[move])
                continue
            mine = collections.defaultdict(list)
            for a in ours.actions():
                mine[_our_board(ours.result(a))].append(a)
            spiels = collections.Counter(_pentago_board(theirs.child(a)) for a in theirs.legal_actions())
            assert {board: len(v) for board, v in mine.items()} == dict(spiels)
            theirs = theirs.child(rng.choice(theirs.legal_actions()))
            ours = ours.result(mine[_pentago_board(theirs)][0])
        assert ours.terminal_test()
        returns = [ours.utility(p) for p in game.player_names]
        assert returns == list(theirs.returns())
        ends.add(tuple(returns))
    assert len(ends) >= 2            # the playouts reached more than one kind of end
