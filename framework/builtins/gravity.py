"""Gravity: `drop(board, x)`, the lowest empty cell of a column (Connect Four)."""
from __future__ import annotations

from framework.builtins.base import Builtin


def _lower_drop(compiler, node, env):
    # the lowest empty cell of the column: its highest empty bit (-1 when full); a column
    # that may be off the board goes through `drop_cell` (-1 there)
    column = compiler.expr(node.args[1], env)
    if not compiler.in_bounds(node.args[1], compiler.c.width):
        return f"drop_cell(COLUMN_MASKS, {column}, {compiler.occupied()})"
    return f"((COLUMN_MASKS[{column}] & ~{compiler.occupied()}).bit_length() - 1)"


BUILTINS = (
    Builtin("drop", ("board", "int"), "cell",
            "the lowest cell of column x whose value is the initial one (gravity), or no cell", _lower_drop),
)
