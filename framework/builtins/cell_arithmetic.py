"""Cell arithmetic: `cell(x, y)`, `col(c)` and `row(c)` (per-cell tables of the board)."""
from __future__ import annotations

from framework.builtins.base import Builtin

BUILTINS = (
    Builtin("col", ("cell",), "int", "the column of a cell",
            lambda compiler, node, env: f"COL[{compiler.expr(node.args[0], env)}]"),
    Builtin("row", ("cell",), "int", "the row of a cell",
            lambda compiler, node, env: f"ROW[{compiler.expr(node.args[0], env)}]"),
    Builtin("cell", ("int", "int"), "cell", "the cell at (column, row)",
            lambda compiler, node, env: f"CELL({compiler.expr(node.args[0], env)}, {compiler.expr(node.args[1], env)})"),
)
