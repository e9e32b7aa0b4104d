"""Graph boards: a board declared as named points, undirected links between them and named
lines of points (`board: {points, links, lines, cells}`; Nine Men's Morris's 24 points and
16 mills).  This module holds what the checker makes of such a board (`Graph`), shared by
the checker (framework.checker.graph), the run-time tables and the compiler, the reference
interpreter and the display.

A graph board of n points is laid out as an n x 1 grid: point i is the cell (i, 0), so
states, bitboards, cell parameters and actions are those of a grid.  What differs: the one
direction set is `links` (a point's neighbours are the points linked to it), `line(board,
k, v)` runs along the declared lines, `in_line(board, c, v)` asks for a whole line through a
point, point and line names are constants (a cell, a set of cells), and the builtins of
rows and columns mean nothing there (the checker refuses them: `GRID_ONLY`).
"""
from __future__ import annotations

from framework.records import dataclass

LINKS = "links"          # the direction set of a graph board
# builtins that speak of columns, rows or straight rays: refused on a graph board
GRID_ONLY = ("row", "col", "cell", "column_cells", "row_cells", "drop", "slide", "between")


@dataclass(frozen=True)
class Graph:
    points: tuple            # point names, in board order (point i is the cell (i, 0))
    rows: tuple              # tuples of point indices: the rows the board is drawn in
    adjacency: tuple         # per point: the indices of the points linked to it, ascending
    lines: tuple             # (name, tuple of point indices) per declared line

    def through(self, i: int) -> tuple:
        """The point indices of every line through point i."""
        return tuple(pts for _, pts in self.lines if i in pts)

    def windows(self, k: int) -> tuple:
        """Every run of k consecutive points of a declared line (k >= 1), as index tuples."""
        return tuple(dict.fromkeys(pts[i:i + k] for _, pts in self.lines for i in range(len(pts) - k + 1)))


def step_cells(cell, dirs) -> list:
    """The cells one step from `cell` (a (column, row) pair) in direction set `dirs`: the
    linked points on a graph board, else cell + (dx, dy) for each step (maybe off the board)."""
    if isinstance(dirs, Graph):
        return [(j, 0) for j in dirs.adjacency[cell[0]]]
    return [(cell[0] + dx, cell[1] + dy) for dx, dy in dirs]


def point_text(graph, cell, grid: str = "{},{}") -> str:
    """A cell as the display writes it: its point's name on a graph board, else `grid`
    filled with (column, row)."""
    return graph.points[cell[0]] if graph is not None else grid.format(*cell)


def drawn_rows(graph, rows: list, symbols: list) -> list:
    """The board as text (`rows`: the cells' value indices, row by row): one line per grid
    row of symbols, or per drawn row of a graph board with `name:symbol` for each point."""
    width = max(len(s) for s in symbols) if symbols else 1
    if graph is None:
        return [" ".join(symbols[v].ljust(width) for v in row).rstrip() for row in rows]
    return ["  ".join(f"{graph.points[i]}:{symbols[rows[0][i]].ljust(width)}" for i in row).rstrip()
            for row in graph.rows]
