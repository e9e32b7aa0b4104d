"""The compiler's specialised code (per-mover effects, terminal tests that skip what a move
cannot change, table-driven action lists, shift-based ray tests) against independent
plain references, on board sizes other than the defaults."""
import random

import pytest

import framework
from framework.loader import load_text
from framework.runtime import IllegalAction
from framework.perft import perft
from tests.conftest import SPECS

LINE_STEPS = ((1, 0), (0, 1), (1, 1), (1, -1))
QUEEN = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))


def load(name, **options):
    return framework.load(SPECS / name, **options)


def reference_perft(root, depth, terminal, moves, play):
    """Nodes at each ply below `root` (terminals are leaves), by plain recursion."""
    counts = [0] * depth

    def walk(state, d):
        if d == depth or terminal(state):
            return
        for move in moves(state):
            counts[d] += 1
            walk(play(state, move), d + 1)
    walk(root, 0)
    return counts


def has_line(cells, player, width, height, k):
    for (x, y), v in cells.items():
        if v != player:
            continue
        for dx, dy in LINE_STEPS:
            if all(cells.get((x + dx * i, y + dy * i)) == player for i in range(k)):
                return True
    return False


def mnk_reference(m, n, k, depth):
    """Tic-tac-toe on m x n, k in a row: state = (dict cell -> player, player to move)."""
    def terminal(s):
        cells, _ = s
        return has_line(cells, 0, m, n, k) or has_line(cells, 1, m, n, k) or len(cells) == m * n

    def moves(s):
        return [(x, y) for y in range(n) for x in range(m) if (x, y) not in s[0]]

    def play(s, c):
        return {**s[0], c: s[1]}, 1 - s[1]
    return reference_perft(({}, 0), depth, terminal, moves, play)


def connect_reference(w, h, k, depth):
    """Connect-k on w x h; row 0 is the top, pieces fall to the highest free row number."""
    def terminal(s):
        cells, _ = s
        return has_line(cells, 0, w, h, k) or has_line(cells, 1, w, h, k) or len(cells) == w * h

    def moves(s):
        return [x for x in range(w) if (x, 0) not in s[0]]

    def play(s, x):
        y = max(r for r in range(h) if (x, r) not in s[0])
        return {**s[0], (x, y): s[1]}, 1 - s[1]
    return reference_perft(({}, 0), depth, terminal, moves, play)


def othello_rules(size):
    """(start, terminal, moves, play) of Othello with a forced pass as a ply and a game
    over when neither side can move: state = (dict cell -> player, player to move)."""
    def flips(cells, c, p):
        out = []
        for dx, dy in QUEEN:
            run, (x, y) = [], c
            while True:
                x, y = x + dx, y + dy
                if not (0 <= x < size and 0 <= y < size) or (x, y) not in cells:
                    break
                if cells[(x, y)] == p:
                    out += run
                    break
                run.append((x, y))
        return out

    def legal(cells, p):
        return [(x, y) for y in range(size) for x in range(size)
                if (x, y) not in cells and flips(cells, (x, y), p)]

    def terminal(s):
        return not legal(s[0], 0) and not legal(s[0], 1)

    def moves(s):
        return legal(s[0], s[1]) or ["pass"]

    def play(s, c):
        cells, p = s
        if c == "pass":
            return cells, 1 - p
        new = dict(cells)
        for f in flips(cells, c, p) + [c]:
            new[f] = p
        return new, 1 - p
    h = size // 2
    start = {(h - 1, h - 1): 1, (h, h): 1, (h, h - 1): 0, (h - 1, h): 0}
    return (start, 0), terminal, moves, play


def othello_reference(size, depth):
    start, terminal, moves, play = othello_rules(size)
    return reference_perft(start, depth, terminal, moves, play)


def isolation_reference(size, depth):
    """Queen-move Isolation: first moves anywhere open, then slides through open cells;
    over when either player has no move.  state = (closed cells, tokens, player to move)."""
    def targets(s, p):
        closed, tokens, _ = s
        open_cells = {(x, y) for x in range(size) for y in range(size)} - closed
        if tokens[p] is None:
            return open_cells
        out = set()
        for dx, dy in QUEEN:
            x, y = tokens[p]
            while (x + dx, y + dy) in open_cells:
                x, y = x + dx, y + dy
                out.add((x, y))
        return out

    def terminal(s):
        return not targets(s, 0) or not targets(s, 1)

    def play(s, to):
        closed, tokens, p = s
        return closed | {to}, tokens[:p] + (to,) + tokens[p + 1:], 1 - p
    return reference_perft((frozenset(), (None, None), 0), depth, terminal,
                           lambda s: sorted(targets(s, s[2])), play)


@pytest.mark.parametrize("size,depth", [(3, 9), (4, 5), (5, 3)])
def test_isolation_perft_matches_reference(size, depth):
    s = load("isolation.yaml", size=size).initial_state()
    assert perft(s, depth) == isolation_reference(size, depth)


@pytest.mark.parametrize("m,n,k,depth", [(4, 3, 3, 5), (3, 4, 3, 5), (4, 4, 3, 4), (3, 3, 2, 5), (5, 2, 4, 5)])
def test_mnk_perft_matches_reference(m, n, k, depth):
    text = (SPECS / "tictactoe.yaml").read_text().replace("symmetries: all", "")   # rectangles too
    s = load_text(text, m=m, n=n, k=k).initial_state()
    assert perft(s, depth) == mnk_reference(m, n, k, depth)


@pytest.mark.parametrize("w,h,k,depth", [(5, 4, 4, 7), (4, 4, 3, 8), (6, 5, 4, 5), (3, 3, 3, 9)])
def test_connect_four_perft_matches_reference(w, h, k, depth):
    s = load("connect_four.yaml", width=w, height=h, k=k).initial_state()
    assert perft(s, depth) == connect_reference(w, h, k, depth)


@pytest.mark.parametrize("size,depth", [(4, 9), (6, 5)])
def test_othello_perft_matches_reference(size, depth):
    s = load("othello.yaml", size=size).initial_state()
    assert perft(s, depth) == othello_reference(size, depth)


def test_othello_move_counts_match_the_legal_actions():
    game = load("othello.yaml", size=6)
    moves = game.state_class._namespace["_moves"]
    can_move = game.state_class._namespace["_can_move"]
    rng = random.Random(7)
    for _ in range(20):
        s = game.initial_state()
        while not s.terminal_test():
            acts = s.actions()
            n = 0 if acts == ["pass"] else len(acts)
            assert moves(s[0], s[1], s[2]) == n and can_move(s[0], s[1], s[2]) == (n > 0)
            s = s.result(rng.choice(acts))


@pytest.mark.parametrize("size", [8, 6])
def test_othello_boards_match_the_reference_move_by_move(size):
    """Flips (shifts of the placed disc) and move lists (shifts of whole boards) against
    plain ray walks, through whole random games."""
    game = load("othello.yaml", size=size)
    cell_of = game.state_class._namespace["CELL_OF"]
    start, terminal, moves, play = othello_rules(size)
    rng = random.Random(size)
    for _ in range(10):
        s, ref = game.initial_state(), start
        while True:
            board = {c: p for c in cell_of for p in (0, 1) if s[p] >> cell_of[c] & 1}
            assert board == ref[0] and s.player() == ref[1]
            assert s.terminal_test() == terminal(ref)
            if s.terminal_test():
                break
            assert sorted(s.actions(), key=str) == sorted(moves(ref), key=str)
            move = rng.choice(s.actions())
            s, ref = s.result(move), play(ref, move)


SPEC_FILES = sorted(p.name for p in SPECS.iterdir() if p.suffix in (".yaml", ".game"))


@pytest.mark.parametrize("name", SPEC_FILES)
def test_terminal_flag_equals_a_recomputation_in_random_playouts(name):
    """result() tests only what a move can change; the flag must equal the whole test."""
    game = load(name)
    ns = game.state_class._namespace
    ruled = game.spec.repetition is not None or game.spec.max_moves is not None
    position = (lambda s: s[0]) if ruled else (lambda s: s)      # (framework.history wraps it)
    nfields = len(position(game.initial_state())) - 1 - game.chance
    rng = random.Random(name)
    for _ in range(30):
        s = game.initial_state()
        for _ in range(200):
            if s.is_chance():
                outcomes, weights = zip(*s.chance_outcomes())
                s = s.result(rng.choices(outcomes, weights)[0])
            elif s.terminal_test():
                break
            else:
                s = s.result(rng.choice(s.actions()))
            if not s.is_chance():
                p = position(s)
                assert p.terminal_test() is ns["_terminal"](*p[:nfields]), (name, s)


def test_result_of_a_terminal_state_recomputes_the_terminal_test():
    game = load("tictactoe.yaml")
    s = game.initial_state()
    for c in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]:   # X completes the top row
        s = s.result(c)
    assert s.terminal_test() and s.utility(0) == 1
    after = s._result((2, 2))           # the generated, unchecked result: O plays on regardless,
    assert after.terminal_test() is True  # and X's line is still there
    with pytest.raises(IllegalAction):  # the public result refuses a move after the end
        s.result((2, 2))


def test_three_players_take_turns_in_the_specialised_code():
    s = load("tictactoe3.yaml").initial_state()
    seen = []
    for c in [(0, 0), (1, 0), (2, 0), (0, 1)]:
        seen.append(s.player())
        s = s.result(c)
    assert seen == [0, 1, 2, 0] and s.player() == 1


def test_reading_the_board_off_its_edge_equals_no_value():
    """`board[cell(...)]` off the board is `none`: it equals no cell value or player, in
    the generic read (a quantified player) as in the bit test (a constant one)."""
    text = """game: Edge
players: [X, O]
board: {width: 3, height: 1, cells: [empty, X, O]}
actions:
  place(c in cell):
    if: board[c] == empty
    then: board[c] = mover
    noisy: "exists p in player: board[cell(col(c) + 1, 0)] == p"
terminal: full(board)
winner: X if board[cell(3, 0)] == X or board[cell(-1, 0)] == empty else none
"""
    game = framework.load_text(text, file="edge.yaml")
    state = game.initial_state().result((1, 0))
    assert {a: game.is_noisy(state, a) for a in state.actions()} == {(0, 0): True, (2, 0): False}
    for a in ((0, 0), (2, 0)):
        state = state.result(a)
    assert state.terminal_test() and state.returns() == (0, 0)


def test_wide_boards_do_not_build_exponential_tables():
    """Tables indexed by a row's bits are built only for rows of at most 12 columns; a
    65-column Connect Four (from a fuzzed spec) loads at once and counts right."""
    game = framework.load(SPECS / "connect_four.yaml", width=65)
    assert perft(game.initial_state(), 2) == [65, 65 * 65]
    assert "range(4096)" not in game.python_source and "range(1 << 65)" not in game.python_source
