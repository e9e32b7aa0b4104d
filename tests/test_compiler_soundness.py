"""Two ways a compiler can silently lie, pinned: helper inlining that captures a caller's
name (hygiene), and a conditional store that mixes a player with a cell value.  Each count
is computed here independently of the compiler."""
import itertools

from framework import load_text
from framework.perft import perft

CAPTURE = """
game: Capture
players: [A, B]
define:
  small(x): "exists t in 0..1: t == x"
state:
  done: {type: bool, initial: false}
actions:
  go(t in 0..3):
    if: small(t) and not done
    then: done = true
terminal: done
winner: none
"""


def test_a_helpers_bound_variable_never_captures_the_callers_argument():
    game = load_text(CAPTURE)
    assert sorted(game.action_text(a) for a in game.initial_state().actions()) == ["go(0)", "go(1)"]


NESTED = """
game: Nested
players: [A, B]
board: {width: 3, height: 2, cells: [empty, A, B]}
define:
  touches(c, p): "exists t in neighbors(c, orthogonal): board[t] == p"
  ok(t, p): "touches(t, p) or not exists c in cell: board[c] == p"
actions:
  put(t in cell):
    if: board[t] == empty and ok(t, mover)
    then: board[t] = mover
terminal: "not exists t in cell: board[t] == empty and ok(t, mover)"
winner: none
"""


def _nested_perft(depth):
    """The same rule by hand: a player's first stone goes anywhere, later ones next to an own stone."""
    cells = [(x, y) for y in range(2) for x in range(3)]
    counts = [0] * depth

    def moves(board, p):
        own = [c for c in cells if board[c] == p]
        return [c for c in cells if board[c] is None and
                (not own or any(board.get((c[0] + dx, c[1] + dy)) == p
                                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))))]

    def walk(board, p, d):
        if d == depth or not moves(board, p):
            return
        for c in moves(board, p):
            counts[d] += 1
            board[c] = p
            walk(board, 1 - p, d + 1)
            board[c] = None
    walk({c: None for c in cells}, 0, 0)
    return counts


def test_nested_helpers_sharing_bound_names_with_the_caller():
    game = load_text(NESTED)
    assert perft(game.initial_state(), 6) == _nested_perft(6)


CONDITIONAL_STORE = """
game: Conditional store
players: [A, B]
board: {width: 2, height: 1, cells: [empty, A, B, Z]}
actions:
  put(c in cell):
    if: board[c] == empty
    then: board[c] = mover if col(c) == 0 else Z
terminal: full(board)
winner: none
"""


def test_a_conditional_store_of_a_player_or_a_cell_value():
    game = load_text(CONDITIONAL_STORE)
    # by hand: every order of the two cells is a game; cell 0 gets its mover, cell 1 gets Z
    games = list(itertools.permutations([0, 1]))
    assert perft(game.initial_state(), 3) == [2, 2, 0] == [len(games), len(games), 0]
    state = game.initial_state()
    state = state.result(game.parse_action(state, "put(1,0)"))
    state = state.result(game.parse_action(state, "put(0,0)"))
    assert state.terminal_test() and str(state).split() == ["B", "Z"] or "Z" in str(state)


def test_a_quantifier_may_follow_not_and_or_without_parentheses():
    from framework.frontend.expressions import parse_expression
    from framework.frontend.printer import expression_text
    parse = lambda text: parse_expression(text, lambda line, col, end=None: None, "rule")  # noqa: E731
    assert parse("not exists c in cell: c == c") == parse("not (exists c in cell: c == c)")
    assert parse("a or b and exists c in cell: c == c") == parse("a or (b and (exists c in cell: c == c))")
    assert expression_text(parse("not forall c in cell: c == c")) == "not (forall c in cell: c == c)"


REWRITTEN_IN_A_BRANCH = """
game: Rewritten
players: [A, B]
board: {width: 2, height: 1, cells: [empty, A, B, Z]}
state:
  n: {type: '0..9', initial: 0}
actions:
  put(c in cell):
    if: board[c] == empty and n < 3
    then: "if col(c) == 0 then { board[c] = Z } else { board[c] = mover }; board[c] = empty; n += 1"
terminal: n >= 3
winner: none
"""


def test_a_cell_written_inside_an_if_is_no_longer_known_empty():
    # found by the generated-spec campaign: the second store was compiled as if the cell
    # were still empty; every move leaves the board empty, so both cells stay playable
    game = load_text(REWRITTEN_IN_A_BRANCH)
    assert perft(game.initial_state(), 3) == [2, 4, 8]
