"""Specs of OpenSpiel games written from their public rules in the styles a new user
writes (benchmarks/specs/: Breakthrough 6x6, Kalah, Ultimate tic-tac-toe, Y, checkers with
OpenSpiel's one-jump plies, Clobber 5x6, Dots and Boxes 2x2, Pentago, Amazons 6x6, Havannah,
Go 5x5 under OpenSpiel's rules): their perft counts equal the counts OpenSpiel's C++ games give
(written here, so the test runs without pyspiel) and, where pyspiel is installed, the
counts pyspiel gives now, computed in the test.  Where the counts alone cannot see the rules
(every line of Dots and Boxes and every cell of Pentago stays playable until the end; no
Havannah win is possible before ply 5, no ring before ply 11; Go's ko and superko draw), random
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
    ("havannah.yaml", {}, "havannah", {"board_size": 3}, [19, 342, 5814, 93024]),
    ("go_openspiel.yaml", {}, "go", {"board_size": 5}, [26, 651, 15650]),
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


def _havannah_cell(action, side=3):
    """pyspiel's havannah action (y * (2s - 1) + x, neighbours (1, 1) and (-1, -1)) as the
    cell here (the grid mirrored left to right: neighbours (1, -1) and (-1, 1), the `hex` steps)."""
    width = 2 * side - 1
    return (width - 1 - action % width, action // width)


def _our_board(state):
    return tuple("".join(line.split()) for line in str(state).splitlines()[:6])


@pytest.mark.parametrize("spec,spiel", [("dots_and_boxes.yaml", "dots_and_boxes"), ("pentago.yaml", "pentago"),
                                        ("havannah.yaml", "havannah")])
def test_playouts_in_lockstep_with_pyspiel(spec, spiel):
    """Random playouts: each position has the same moves (Dots and Boxes: the same lines;
    Pentago: the same boards after each move, counted with their multiplicity), the same
    player to move, and the same end and returns (extra turns, boxes owned, fives made by the
    turn of a quadrant, draws; Havannah's rings, bridges, forks and full boards)."""
    import collections
    import random
    pyspiel = pytest.importorskip("pyspiel", reason="pyspiel (open_spiel) is not installed")
    game = framework.load(SPECS / spec)
    sgame = pyspiel.load_game(spiel, {"board_size": 3} if spiel == "havannah" else {})
    rng, ends = random.Random(7), set()
    for _ in range({"dots_and_boxes": 40, "pentago": 3, "havannah": 60}[spiel]):
        ours, theirs = game.initial_state(), sgame.new_initial_state()
        while not theirs.is_terminal():
            assert not ours.terminal_test()
            assert game.player_index(ours.player()) == theirs.current_player()
            if spiel != "pentago":
                moves = {(_dots_move(theirs.action_to_string(a)) if spiel == "dots_and_boxes"
                          else _havannah_cell(a)): a for a in theirs.legal_actions()}
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


def _go_move(action, size=5):
    """pyspiel's go action (row * size + column, row 0 at the bottom; size * size: pass) as
    the move here (the grid mirrored top to bottom, which Go's rules cannot tell)."""
    return "skip" if action == size * size else ("play", (action % size, action // size))


# pyspiel's actions: White captures at 20 the stone Black played at 21, in Black's eye
GO_KO = [21, 6, 25, 22, 1, 16, 15, 20]
# ... and a line whose last move recreates an earlier board (a cycle longer than a ko)
GO_SUPERKO = [15, 20, 8, 9, 1, 22, 25, 13, 24, 0, 3, 11, 14, 12, 6, 16, 18, 19, 25, 4, 14, 9]


def test_go_under_openspiels_rules_forbids_the_ko_and_draws_a_longer_cycle():
    """OpenSpiel's go: the simple ko point may not be retaken at once (a move elsewhere clears
    it), and a move recreating an earlier board ends the game drawn (lines found by random
    play beside pyspiel; the lockstep test below replays them against pyspiel itself)."""
    game = framework.load(SPECS / "go_openspiel.yaml")
    state = game.initial_state()
    for action in GO_KO:
        state = state.result(_go_move(action))
    assert ("play", (1, 4)) not in state.actions() and len(state.actions()) == 19
    assert ("play", (1, 4)) in state.result(("play", (4, 0))).result(("play", (4, 1))).actions()
    state = game.initial_state()
    for action in GO_SUPERKO:
        assert not state.terminal_test()
        state = state.result(_go_move(action))
    assert state.terminal_test() and [state.utility(p) for p in game.player_names] == [0, 0]


def test_go_playouts_in_lockstep_with_pyspiel():
    """The ko and superko lines, then random playouts: the same moves at every position, the
    same end and returns."""
    import random
    pyspiel = pytest.importorskip("pyspiel", reason="pyspiel (open_spiel) is not installed")
    game = framework.load(SPECS / "go_openspiel.yaml")
    sgame = pyspiel.load_game("go", {"board_size": 5})
    rng, ends = random.Random(7), set()
    for n in range(60):
        ours, theirs = game.initial_state(), sgame.new_initial_state()
        line = GO_KO if n == 0 else GO_SUPERKO if n == 1 else ()
        while not theirs.is_terminal():
            assert not ours.terminal_test()
            assert game.player_index(ours.player()) == theirs.current_player()
            moves = {_go_move(a): a for a in theirs.legal_actions()}
            assert set(moves) == set(ours.actions())
            move = _go_move(line[len(theirs.history())]) if len(theirs.history()) < len(line) \
                else rng.choice(sorted(moves, key=str))
            ours, theirs = ours.result(move), theirs.child(moves[move])
        assert ours.terminal_test()
        returns = [ours.utility(p) for p in game.player_names]
        assert returns == list(theirs.returns())
        ends.add(tuple(returns))
    assert ends == {(1, -1), (-1, 1), (0, 0)}
