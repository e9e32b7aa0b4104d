"""Neighbours and directions: `neighbors(c, dirs)`, the on-board cells one step away (a
precomputed mask per cell and direction set)."""
from __future__ import annotations

from framework.builtins.base import Builtin


def _lower_neighbors(compiler, node, env):
    a = node.args
    return f"NEIGHBORS_{compiler.kinds[id(a[1])][1]}[{compiler.expr(a[0], env)}]"


BUILTINS = (
    Builtin("neighbors", ("cell", "dirs"), "cellset",
            "the cells one step from c in the given directions, on the board", _lower_neighbors),
)
