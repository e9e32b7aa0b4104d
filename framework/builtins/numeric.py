"""Numeric: `abs`, `len`, `sum`, `min` and `max`, lowered to Python's own functions."""
from __future__ import annotations

from framework.builtins.base import Builtin


def _lower_python(compiler, node, env):
    return f"{node.func}({', '.join(compiler.expr(x, env) for x in node.args)})"


BUILTINS = (
    Builtin("abs", ("*",), "*", "absolute value", _lower_python),
    Builtin("len", ("list",), "int", "the length of a list", _lower_python),
    Builtin("sum", ("list",), "int", "the sum of a list", _lower_python),
    Builtin("min", None, None, "the smallest of the numbers", _lower_python),
    Builtin("max", None, None, "the largest of the numbers", _lower_python),
)
