"""Lines: `line(board, k, v)`, k cells in a row holding v (lowered to shift-and on a bitboard)."""
from __future__ import annotations

from framework.builtins.base import Builtin


def line(mask: int, k: int, shifts) -> bool:
    """Run-time helper for a k that is not a constant: True when `mask` has k cells in a row
    along one of the shifts."""
    for s in shifts:
        m = mask
        for step in range(1, k):
            m &= mask >> (s * step)
            if not m:
                break
        if m:
            return True
    return False


def _lower_line(compiler, node, env):
    a = node.args
    return compiler.line(compiler.value_mask(a[2], env), a[1], env)


BUILTINS = (
    Builtin("line", ("board", "int", "value"), "bool",
            "true when some line of k cells in a row (any direction) holds value v",
            _lower_line, runtime={"line": line}),
)
