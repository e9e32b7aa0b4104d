"""Counting and sets: `count(board, v)`, `cells(board, v)`, `size(S)` and `full(board)`, lowered
to the bitboard of a value and its bit count."""
from __future__ import annotations

from framework.builtins.base import Builtin


def _lower_full(compiler, node, env):
    return f"({compiler.occupied()} == FULL)" if compiler.c.default_value is not None else "True"


BUILTINS = (
    Builtin("full", ("board",), "bool", "true when no cell of the board holds its initial value", _lower_full),
    Builtin("count", ("board", "value"), "int", "how many cells hold value v",
            lambda compiler, node, env: f"{compiler.value_mask(node.args[1], env)}.bit_count()"),
    Builtin("cells", ("board", "value"), "cellset", "the set of cells holding value v",
            lambda compiler, node, env: compiler.value_mask(node.args[1], env)),
    Builtin("size", ("cellset",), "int", "the number of cells in a set",
            lambda compiler, node, env: f"{compiler.expr(node.args[0], env)}.bit_count()"),
)
