"""Chess (game_specs/chess.yaml, written with `legal_after`, its threefold repetition with
`repetition: {..., over: [...]}`) against published perft counts.

The counts are those of the Chess Programming Wiki's "Perft Results" page
(https://www.chessprogramming.org/Perft_Results): the initial position and the standard
test positions 2 ("Kiwipete", by Peter McKenzie) to 6, each loaded from its FEN through the
spec's options (`fen_options` below).  The default suite counts a few plies of each; the
deeper counts run under the `slow` marker.  The compiled game is also compared with the
reference interpreter, and `plyspec solve` finds a mate in two.
"""
import pytest

import framework
from framework.cli import main
from framework.conformance.differential import find_difference
from framework.conformance.golden import golden_path, options_key, read_golden
from framework.interpreter import interpret
from framework.perft import perft
from tests.conftest import SPECS

CHESS = SPECS / "chess.yaml"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# FEN -> the published counts per ply (chessprogramming.org, Perft Results)
POSITIONS = {
    "initial": (START, [20, 400, 8_902, 197_281, 4_865_609]),
    "kiwipete": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                 [48, 2_039, 97_862, 4_085_603]),
    "position 3": ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2_812, 43_238, 674_624]),
    "position 4": ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                   [6, 264, 9_467, 422_333]),
    "position 4 mirrored": ("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
                            [6, 264, 9_467, 422_333]),
    "position 5": ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1_486, 62_379, 2_103_487]),
    "position 6": ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
                   [46, 2_079, 89_890, 3_894_594]),
}
DEFAULT_PLIES = {"initial": 3, "kiwipete": 2, "position 3": 4, "position 4": 3, "position 4 mirrored": 2,
                 "position 5": 2, "position 6": 2}
PIECES = "PNBRQKpnbrqk"          # option codes 1..12, in the order of the spec's cell values


def fen_options(fen: str) -> dict:
    """The spec's options for a position in Forsyth-Edwards Notation."""
    placement, side, castling, ep, halfmove = fen.split()[:5]
    squares = []
    for rank in placement.split("/"):          # from rank 8 (row 0) down to rank 1 (row 7)
        for ch in rank:
            squares += [0] * int(ch) if ch.isdigit() else [PIECES.index(ch) + 1]
    assert len(squares) == 64, fen
    return {"position": squares, "to_move": "wb".index(side),
            "castling": [int(c in castling) for c in "KQkq"],
            "ep_file": -1 if ep == "-" else "abcdefgh".index(ep[0]), "halfmove": int(halfmove)}


def start(fen):
    return framework.load(CHESS, **fen_options(fen)).initial_state()


def test_the_fen_of_the_initial_position_gives_the_spec_defaults():
    assert start(START) == framework.load(CHESS).initial_state()


@pytest.mark.parametrize("name", POSITIONS)
def test_perft_of_the_standard_positions(name):
    fen, counts = POSITIONS[name]
    plies = DEFAULT_PLIES[name]
    assert perft(start(fen), plies) == counts[:plies]


@pytest.mark.slow
@pytest.mark.parametrize("name", POSITIONS)
def test_perft_of_the_standard_positions_to_the_last_published_ply(name):
    """CPU seconds measured 2026-11-28 (one run each, a loaded 2-core machine): initial 5
    plies 61.7, Kiwipete 4: 60.5, position 3 5: 8.4, 4: 7.5, 4 mirrored: 7.1, 5: 27.6,
    6: 64.8."""
    fen, counts = POSITIONS[name]
    assert perft(start(fen), len(counts)) == counts


def test_the_golden_file_holds_the_published_counts():
    """game_specs/golden/chess.perft.json was written by the engine, one entry per position
    (`plyspec perft chess.yaml -d N --set position=... --write-golden`, the FEN's options
    under `--set`, the initial position as `default`); it holds exactly the published
    counts, so `plyspec test chess` (perft_matches_golden) checks the engine against them."""
    golden = {options_key(options): counts for options, counts in read_golden(golden_path(CHESS))}
    published = {options_key({} if fen == START else fen_options(fen)): counts for fen, counts in POSITIONS.values()}
    assert golden == published


def test_the_interpreter_plays_the_same_game():
    fen, counts = POSITIONS["position 3"]           # few pieces: the interpreter is slow
    options = fen_options(fen)
    interpreted = interpret(CHESS, **options)
    assert perft(interpreted.initial_state(), 2) == counts[:2]
    compiled = framework.load(CHESS, **options)
    assert find_difference(compiled, interpreted, bfs_states=20, playouts=2, plies=20) is None


def play(state, *moves):
    game = framework.load(CHESS)
    for text in moves:
        state = state.result(game.parse_action(state, text))
    return state


def test_checkmate_stalemate_and_the_fifty_move_rule():
    game = framework.load(CHESS)
    fools_mate = play(game.initial_state(), "double_step(5,6,5,4)", "double_step(4,1,4,3)",
                      "double_step(6,6,6,4)", "diagonal_move(3,0,7,4)")
    assert fools_mate.terminal_test() and fools_mate.returns() == (-1, 1)
    stalemate = start("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")          # Black to move, not in check, no move
    assert stalemate.terminal_test() and stalemate.returns() == (0, 0)
    clock = start("7k/8/6K1/8/8/8/8/R7 w - - 99 80")             # the 100th ply without capture or pawn move
    drawn = play(clock, "orthogonal_move(0,7,0,6)")
    assert drawn.terminal_test() and drawn.returns() == (0, 0)
    mate = play(clock, "orthogonal_move(0,7,0,0)")                # mate on that ply: mate stands
    assert mate.terminal_test() and mate.returns() == (1, -1)


def test_threefold_repetition_is_a_draw_whatever_the_clock():
    shuffle = ["knight_move(6,7,5,5)", "knight_move(6,0,5,2)", "knight_move(5,5,6,7)", "knight_move(5,2,6,0)"]
    game = framework.load(CHESS)
    twice = play(game.initial_state(), *shuffle)          # the start, a second time (the clock at 4)
    assert not twice.terminal_test()
    thrice = play(twice, *shuffle[:3])
    assert not thrice.terminal_test()
    thrice = play(thrice, shuffle[3])                      # the third time
    assert thrice.terminal_test() and thrice.returns() == (0, 0)


def test_castling_en_passant_and_promotion_are_moves():
    kiwipete = start(POSITIONS["kiwipete"][0])
    game = framework.load(CHESS)
    texts = {game.action_text(a) for a in kiwipete.actions()}
    assert {"castle_short", "castle_long"} <= texts
    passant = start("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
    assert "en_passant(4,3,3,2)" in {game.action_text(a) for a in passant.actions()}
    promotion = start("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    texts = {game.action_text(a) for a in promotion.actions()}
    assert {f"promote(0,1,0,0,{piece})" for piece in (1, 2, 3, 4)} <= texts


def test_solve_finds_a_mate_in_two(capsys):
    """Paul Morphy's problem (White Kc8, Ra1, Pb6; Black Ka8, Bb8, Pa7, Pb7; White to
    play and mate in two): 1. Ra6! and 2. b7# or 2. Rxa7#.  No mate in one exists."""
    options = fen_options("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1")
    sets = [f"--set={name}={value}".replace(" ", "") for name, value in options.items()]
    assert main(["solve", str(CHESS), "--depth", "3", "--json", *sets]) == 0
    found = capsys.readouterr().out
    assert '"value": 1' in found and "orthogonal_move(0,7,0,2)" in found
    assert main(["solve", str(CHESS), "--depth", "1", "--json", *sets]) == 0
    assert '"value": 0' in capsys.readouterr().out
