"""Independent plain-Python Amazons, written from the rules, to check the spec against.

A move is one turn: an amazon of the mover moves like a chess queen (any distance over
empty cells), then shoots an arrow like a queen from where it landed (through or into the
cell it left); the arrow's cell is blocked for good.  The player who cannot move loses.
Cells are (col, row), (0, 0) top-left; White moves first from the bottom row.
"""
from __future__ import annotations

QUEEN = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


def initial(n: int = 5) -> tuple:
    """(cells, mover): cells maps (col, row) -> 'W', 'B' or 'x' (an arrow); White moves."""
    cells = {(1, 0): "B", (n - 2, 0): "B", (1, n - 1): "W", (n - 2, n - 1): "W"}
    return cells, 0


def _reach(cells: dict, n: int, start: tuple) -> list:
    out = []
    for dx, dy in QUEEN:
        x, y = start[0] + dx, start[1] + dy
        while 0 <= x < n and 0 <= y < n and (x, y) not in cells:
            out.append((x, y))
            x, y = x + dx, y + dy
    return out


def moves(cells: dict, mover: int, n: int) -> list:
    """[(from, to, arrow)] for the player to move (0 White, 1 Black)."""
    piece = "WB"[mover]
    out = []
    for start in [c for c, v in cells.items() if v == piece]:
        for to in _reach(cells, n, start):
            after = dict(cells)
            del after[start]
            after[to] = piece
            out.extend((start, to, arrow) for arrow in _reach(after, n, to))
    return out


def play(cells: dict, mover: int, move: tuple) -> tuple:
    start, to, arrow = move
    after = dict(cells)
    after[to] = after.pop(start)
    after[arrow] = "x"
    return after, 1 - mover


def perft(cells: dict, mover: int, n: int, depth: int) -> int:
    legal = moves(cells, mover, n)
    if depth == 0 or not legal:
        return 1
    if depth == 1:
        return len(legal)
    return sum(perft(*play(cells, mover, m), n, depth - 1) for m in legal)
