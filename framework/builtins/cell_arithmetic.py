"""Cell arithmetic: `cell(x, y)`, `col(c)` and `row(c)` (per-cell tables of the board), and the
cells of a column or a row as a set, `column_cells(x)` and `row_cells(y)` (Hex's sides)."""
from __future__ import annotations

from framework.builtins.base import Builtin
from framework.runtime import no_cell


def _lower_part(table: str, func: str):
    """`col(c)` / `row(c)`: a table lookup, through `cell_part` (an error for `none`) when
    the cell may be `none`."""
    def lower(compiler, node, env):
        cell = compiler.expr(node.args[0], env)
        if compiler.cell_guarded(node.args[0]):
            return f"cell_part({table}, {cell}, {func!r}, POSITIONS[{compiler.position(node)}])"
        return f"{table}[{cell}]"
    return lower


def _interpret_part(k: int, func: str):
    def meaning(ev, node, args, s):
        return args[0][k] if args[0] is not None else no_cell(func, node.pos)
    return meaning


def column_cells(x: int, column_masks) -> int:
    """Run-time helper: the bitboard of column x (empty off the board)."""
    return column_masks[x] if 0 <= x < len(column_masks) else 0


def row_cells(y: int, width: int, height: int) -> int:
    """Run-time helper: the bitboard of row y (empty off the board); rows are width + 1 bits apart."""
    return ((1 << width) - 1) << (y * (width + 1)) if 0 <= y < height else 0


def _lower_row_cells(compiler, node, env):
    from framework.compiler.common import _static_int
    y = _static_int(node.args[0])
    if y is not None:                   # a constant row: its mask, written once
        return str(row_cells(y, compiler.c.width, compiler.c.height))
    return f"row_cells({compiler.expr(node.args[0], env)}, {compiler.c.width}, {compiler.c.height})"


def _lower_column_cells(compiler, node, env):
    from framework.compiler.common import _static_int
    x = _static_int(node.args[0])
    if x is not None and compiler.tables is not None:        # a constant column: its mask
        return str(column_cells(x, compiler.tables.column_masks))
    return f"column_cells({compiler.expr(node.args[0], env)}, COLUMN_MASKS)"


BUILTINS = (
    Builtin("col", ("cell",), "int", "the column of a cell (an error for `none`)",
            _lower_part("COL", "col"), interpret=_interpret_part(0, "col")),
    Builtin("row", ("cell",), "int", "the row of a cell (an error for `none`)",
            _lower_part("ROW", "row"), interpret=_interpret_part(1, "row")),
    Builtin("cell", ("int", "int"), "cell", "the cell at (column, row)",
            lambda compiler, node, env: compiler.cell_at(node, env) or compiler.int_cell(*node.args, env) or
            f"CELL({compiler.expr(node.args[0], env)}, {compiler.expr(node.args[1], env)})"),
    Builtin("column_cells", ("int",), "cellset", "the cells of column x (a side of the board: x = 0 is the left)",
            _lower_column_cells, runtime={"column_cells": column_cells},
            interpret=lambda ev, node, args, s: frozenset(c for c in ev.cells() if c[0] == args[0])),
    Builtin("row_cells", ("int",), "cellset", "the cells of row y (a side of the board: y = 0 is the top)",
            _lower_row_cells, runtime={"row_cells": row_cells},
            interpret=lambda ev, node, args, s: frozenset(c for c in ev.cells() if c[1] == args[0])),
)
