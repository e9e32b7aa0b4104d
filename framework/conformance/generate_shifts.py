"""Random specs of moves from one cell to a related cell (steps, jumps over a middle cell),
for the compiler-against-interpreter campaign (tests/test_generated_specs.py,
tests/test_shift_moves.py): the forms the compiler counts by shifting bitboards
(framework/compiler/shifts.py) and their near misses, on random boards.

A spec has men and kings of two players placed at random, a move `go(a, b)` whose
condition is the mover's piece on a (man, king or either), one or two relations between
a and b (neighbours in a direction set of its own or a shipped one, `row(b) == row(a) +
forward(mover)`, distances of rows or columns, a king's or a man's way, relations that are
not translations) and a test of b (empty, not the mover's, a conditional one, a state
flag), a jump `hop(a, b)` over an enemy in the middle cell, a `must_hop` existence rule
(over the middle cell, or the cell beyond a neighbour, `none` off the board) some draws make
compulsory, a move with no cells (so that a player can often move) and
maybe `can_move` in the terminal test (the existence form of the count).  Kings' and men's
ways chosen by `X if board[a] == V else Y` (in the move, the `must_hop` rule and a test after
a hop) draw the forms of framework/compiler/splits.py; `last`, the cell a piece last went
to, may restrict `go` to that piece (`a == last`: masks.py's one-cell mask).
"""
from __future__ import annotations

from hypothesis import strategies as st

STEPS = [(dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if (dx, dy) != (0, 0)]


@st.composite
def shift_spec_texts(draw) -> str:
    pick = lambda options: draw(st.sampled_from(options))
    w, h = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    cells = [(x, y) for x in range(w) for y in range(h)]
    placed = draw(st.lists(st.tuples(st.sampled_from(cells), st.sampled_from(["A", "B", "Ak", "Bk"])),
                           max_size=w * h))
    own = draw(st.lists(st.sampled_from(STEPS), min_size=1, max_size=4, unique=True))
    dirs = pick(["orthogonal", "diagonal", "queen", "mine"])
    piece = pick(["board[a] == mover", "board[a] == king(mover)", "own(a)"])
    relations = [f"b in neighbors(a, {dirs})", "row(b) == row(a) + forward(mover)", "col(b) == col(a)",
                 f"abs(col(b) - col(a)) <= {pick([0, 1, 2])}", "abs(row(b) - row(a)) == 2",
                 f"row(b) - row(a) == {pick([-2, -1, 1, 2])}", "col(b) == row(a)", "row(b) != row(a)"]
    related = " and ".join(draw(st.lists(st.sampled_from(relations), min_size=1, max_size=2, unique=True)))
    if draw(st.booleans()):             # a man's way or a king's: a test of a's own cell
        related += f" and ({pick(['board[a] == king(mover)', 'board[a] != mover'])} or (row(b) < row(a)) == (mover == A))"
    if draw(st.booleans()):             # a king's way or a man's, chosen (compiler/splits.py choice_mask)
        related += (f" and ({pick(['b in neighbors(a, queen)', 'abs(col(b) - col(a)) <= 2', 'flag'])}"
                    f" if board[a] == {pick(['king(mover)', 'mover', 'empty'])}"
                    f" else {pick(['row(b) == row(a) + forward(mover)', 'b in neighbors(a, diagonal) and enemy(b)', 'not flag'])})")
    target = pick(["board[b] == empty", "board[b] != mover", "not own(b)", "flag or board[b] == empty",
                   "(board[b] == empty if col(b) == col(a) else board[b] != mover)", "enemy(b)",
                   "board[b] == empty and board[beyond(a, b)] != mover"])
    go = f"{piece} and {related} and {target}"
    if draw(st.booleans()):             # only the piece that moved last may go on (a cell variable)
        go = f"{pick(['(last == none or last == a)', 'a != last'])} and {go}"
    if draw(st.booleans()):
        go += " and not must_hop"
    lines = [
        "game: Shifts",
        "players: [A, B]",
        f"board: {{width: {w}, height: {h}, cells: [empty, A, B, Ak, Bk]}}",
        f"directions: {{mine: {[list(s) for s in own]}}}",
        "state:",
        "  n: {type: '0..9', initial: 0}",
        f"  flag: {{type: bool, initial: {pick(['true', 'false'])}}}",
        "  last: {type: cell, initial: none}",
        "init: |",
    ] + [f"  board[({x}, {y})] = {v}" for (x, y), v in placed] + ["  n = 0"] + [
        "define:",
        "  king(p): Ak if p == A else Bk",
        "  own(c): board[c] == mover or board[c] == king(mover)",
        "  enemy(c): board[c] != empty and not own(c)",
        "  forward(p): 1 if p == A else -1",
        "  middle(a, b): cell((col(a) + col(b)) // 2, (row(a) + row(b)) // 2)",
        "  beyond(a, b): cell(2 * col(b) - col(a), 2 * row(b) - row(a))     # none off the board",
        f"  jumps(a, b): {pick(['abs(col(b) - col(a)) == 2 and abs(row(b) - row(a)) == 2', 'b in neighbors(a, mine)'])}",
        "  must_hop: " + pick(["'exists a in cell: own(a) and exists b in cell: jumps(a, b) and board[b] == empty"
                              " and enemy(middle(a, b))'",
                              "'exists a in cell: own(a) and exists b in neighbors(a, diagonal): enemy(b)"
                              " and board[beyond(a, b)] == empty'",
                              # a king's capture or a man's, chosen by a's value (compiler/splits.py)
                              "'exists a in cell: own(a) and exists b in cells(board, empty): (b in"
                              " neighbors(a, queen) and enemy(b) if board[a] == king(mover) else jumps(a, b)"
                              " and enemy(middle(a, b)))'"]),
        "actions:",
        "  go(a in cell, b in cell):",
        f"    if: '{go}'",
        "    then: 'board[b] = board[a]; board[a] = empty; n += 1; last = b'",
        "  hop(a in cell, b in cell):",
        "    if: 'own(a) and jumps(a, b) and board[b] == empty and enemy(middle(a, b))'",
        "    then: 'board[b] = board[a]; board[a] = empty; board[middle(a, b)] = empty; n += 1"
        + pick(["", "; if exists e in cells(board, empty): (e in neighbors(b, queen) if board[b] =="
                " king(mover) else jumps(b, e) and enemy(middle(b, e))) then flag = not flag"]) + "'",
        "  wait(i in 0..0):",
        f"    if: '{pick(['n < 9', 'n < 9 and flag', 'n < 9 and not must_hop'])}'",
        "    then: 'n += 1; flag = not flag; last = none'",
        f"terminal: {pick(['n >= 6', 'n >= 6 or not can_move(mover)', 'n >= 6 or not can_move(next(mover))'])}",
        "winner: 'A if count(board, A) > count(board, B) else none'",
    ]
    return "\n".join(lines) + "\n"
