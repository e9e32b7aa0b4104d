"""`region(A, DIRS, S)`: the cells of a set S joined to A (a set of cells or one cell) by
chains of DIRS steps inside S.  A ring test (Havannah's: some cell that is not the mover's is
cut off from the edge by the mover's stones) needs no recolouring; the compiled game, the
interpreter and a plain breadth-first search written here agree on every position of random
games."""
import random

import pytest

from framework import load_text
from framework.errors import SpecError
from framework.interpreter import interpret_text

N = 5
RINGS = f"""
game: Rings
players: [X, O]
board: {{width: {N}, height: {N}, cells: [empty, X, O]}}
state:
  open: {{type: 0..{N * N}, per: player}}
define:
  edge: "row_cells(0) | row_cells({N - 1}) | column_cells(0) | column_cells({N - 1})"
  not_mine(p): "cells(board, empty) | cells(board, next(p))"
  ring(p): "size(region(edge, orthogonal, not_mine(p))) < size(not_mine(p))"
actions:
  place(c in cells(board, empty)):
    then: |
      board[c] = mover
      open[mover] = size(region(edge, orthogonal, not_mine(mover)))
      open[next(mover)] = size(region(c, queen, cells(board, mover)))
terminal: ring(X) or ring(O) or full(board)
winner: "X if ring(X) else O if ring(O) else none"
"""


def _reachable(board, seeds, inside, steps):
    """The cells for which `inside` holds joined to a seed by `steps` (a plain search)."""
    todo = [c for c in seeds if inside(board, c)]
    seen = set(todo)
    while todo:
        x, y = todo.pop()
        for dx, dy in steps:
            n = (x + dx, y + dy)
            if 0 <= n[0] < N and 0 <= n[1] < N and n not in seen and inside(board, n):
                seen.add(n)
                todo.append(n)
    return seen


ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
QUEEN = ORTHOGONAL + [(1, 1), (1, -1), (-1, 1), (-1, -1)]
EDGE = [(x, y) for x in range(N) for y in range(N) if x in (0, N - 1) or y in (0, N - 1)]


def _expected(board, mover, placed):
    """`open` after `mover` placed on `placed` of `board` (a dict cell -> 'X' / 'O' / None)."""
    other = "O" if mover == "X" else "X"
    open_mine = len(_reachable(board, EDGE, lambda b, c: b[c] != mover, ORTHOGONAL))
    group = len(_reachable(board, [placed], lambda b, c: b[c] == mover, QUEEN))
    return {mover: open_mine, other: group}


def test_region_agrees_with_a_plain_search_on_random_games():
    compiled, interpreted = load_text(RINGS), interpret_text(RINGS)
    rng = random.Random(7)
    rings = 0
    for _ in range(20):
        state, istate = compiled.initial_state(), interpreted.initial_state()
        board = {(x, y): None for x in range(N) for y in range(N)}
        while not state.terminal_test():
            assert not istate.terminal_test()
            texts = [compiled.action_text(a) for a in state.actions()]
            assert texts == istate.actions()
            text = rng.choice(texts)
            mover = "XO"[state.player()]
            placed = tuple(int(v) for v in text[len("place("):-1].split(","))
            board[placed] = mover
            state = state.result(compiled.parse_action(state, text))
            istate = istate.result(text)
            expected = _expected(board, mover, placed)
            assert istate.s.get("open") == (expected["X"], expected["O"])
            assert f"open: X={expected['X']}, O={expected['O']}" in str(state)
        assert istate.terminal_test() and state.returns() == istate.returns()
        rings += state.returns()[0] != 0
    assert 3 <= rings <= 17           # both endings occur: a ring, and a full board without one


def test_region_from_none_is_empty_and_misuse_is_named():
    spec = RINGS.replace("region(c, queen, cells(board, mover))", "region(cell(9, 9), queen, cells(board, empty))")
    state = load_text(spec).initial_state()
    istate = interpret_text(spec).initial_state()
    assert "open: X=24, O=0" in str(state.result(state.actions()[12]))
    assert istate.result(istate.actions()[12]).s.get("open") == (24, 0)
    bad = RINGS.replace("region(c, queen, cells(board, mover))", "region(c, queen, mover)")
    with pytest.raises(SpecError) as caught:
        load_text(bad)
    assert caught.value.message == "argument of `region` must be a set of cells, not a player"
    assert (caught.value.line, caught.value.col) == (16, 49) and caught.value.hint


# Y on the `hex` directions with a shape (docs/spec_language.md): a triangle of side n is the
# half x + y <= n - 1 of the n x n rhombus, the other cells `void`; its three sides are row 0,
# column 0 and the cells with x + y == n - 1.
Y = """
game: Y
players: [Red, Blue]
options: {n: 5}
board: {width: n, height: n, cells: [empty, Red, Blue, void]}
init: "for c in cell do if col(c) + row(c) > n - 1 then board[c] = void"
define:
  touches_all(c): "size(group(board, c, hex) & row_cells(0)) > 0 and size(group(board, c, hex) & column_cells(0)) > 0
                   and exists d in group(board, c, hex): col(d) + row(d) == n - 1"
  wins(p): "exists c in cells(board, p): touches_all(c)"
actions:
  place(c in cells(board, empty)):
    then: board[c] = mover
terminal: wins(Red) or wins(Blue) or size(cells(board, empty)) == 0
winner: "Red if wins(Red) else Blue if wins(Blue) else none"
display: {empty: ".", Red: R, Blue: B, void: " "}
"""


@pytest.mark.parametrize("n", [3, 4, 5])
def test_y_on_the_hex_directions_never_ends_in_a_draw(n):
    """A filled Y board has exactly one winner (the game has no draws): every random game
    ends with a win for the player who made the last move; the interpreter agrees."""
    compiled, interpreted = load_text(Y, n=n), interpret_text(Y, n=n)
    assert len(compiled.initial_state().actions()) == n * (n + 1) // 2
    rng = random.Random(n)
    for _ in range(10):
        state, istate = compiled.initial_state(), interpreted.initial_state()
        while not state.terminal_test():
            text = rng.choice([compiled.action_text(a) for a in state.actions()])
            last = state.player()
            state, istate = state.result(compiled.parse_action(state, text)), istate.result(text)
        assert istate.terminal_test()
        assert state.returns() == istate.returns() == ((1, -1) if last == 0 else (-1, 1))


HAVANNAH_RING = """
game: Havannah rings
players: [White, Black]
options: {s: 3}
board: {width: 2 * s - 1, height: 2 * s - 1, cells: [empty, White, Black, void]}
init: "for c in cell do if col(c) + row(c) < s - 1 or col(c) + row(c) > 3 * (s - 1) then board[c] = void"
define:
  rim: "cells(board, void) | row_cells(0) | row_cells(2 * s - 2) | column_cells(0) | column_cells(2 * s - 2)"
  open(p): "cells(board, void) | cells(board, empty) | cells(board, next(p))"
  ring(p): "size(region(rim, hex, open(p))) < size(open(p))"
actions:
  place(c in cells(board, empty)):
    then: board[c] = mover
terminal: ring(White) or ring(Black) or size(cells(board, empty)) == 0
winner: "White if ring(White) else Black if ring(Black) else none"
"""


def test_a_havannah_ring_is_found_by_region_on_the_hexagon():
    """The hexagon of side 3 (19 cells); White's six stones around the centre (2, 2) make a
    ring, five of them do not (Black answers in a corner each time)."""
    ring = [(3, 2), (1, 2), (2, 3), (2, 1), (3, 1), (1, 3)]
    corners = [(2, 0), (4, 0), (0, 2), (4, 2), (0, 4)]
    for game in (load_text(HAVANNAH_RING), interpret_text(HAVANNAH_RING)):
        def play(state, cell):
            text = f"place({cell[0]},{cell[1]})"
            return state.result(text if hasattr(state, "s") else game.parse_action(state, text))
        state = game.initial_state()
        assert len(state.actions()) == 19
        for i, cell in enumerate(ring):
            assert not state.terminal_test()
            state = play(state, cell)
            if i < 5:
                state = play(state, corners[i])
        assert state.terminal_test() and tuple(state.returns()) == (1, -1)
