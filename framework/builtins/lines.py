"""Lines: `line(board, k, v)`, k cells in a row holding v (lowered to shift-and on a bitboard);
on a graph board (framework.graph) k consecutive points of a declared line, and
`in_line(board, c, v)`, a whole declared line through point c (a mill), both lowered to
tables of line masks."""
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


def full_line(mask: int, lines) -> bool:
    """Run-time helper: whether every cell of one of the masks `lines` is in `mask`."""
    for m in lines:
        if mask & m == m:
            return True
    return False


def _masks(points) -> str:
    return "(" + "".join(f"{sum(1 << i for i in pts)}, " for pts in points) + ")"


def _lower_line(compiler, node, env):
    a = node.args
    graph = compiler.c.graph
    if graph is None:
        return compiler.line(compiler.value_mask(a[2], env), a[1], env)
    longest = max((len(p) for _, p in graph.lines), default=0)
    table = "_LINE_RUNS"
    if table not in compiler.helpers:      # [k]: the masks of k consecutive points of a line
        compiler.helpers[table] = (f"{table} = ({''.join(_masks(graph.windows(k)) + ', ' for k in range(longest + 1))})\n")
    k = compiler.expr(a[1], env)
    return f"full_line({compiler.value_mask(a[2], env)}, {table}[max({k}, 0)] if {k} <= {longest} else ())"


def _lower_in_line(compiler, node, env):
    graph = compiler.c.graph
    table = "_LINES_AT"
    if table not in compiler.helpers:      # [point]: the masks of the lines through it ([-1]: none)
        compiler.helpers[table] = (f"{table} = ({''.join(_masks(graph.through(i)) + ', ' for i in range(len(graph.points)))}())\n")
    return f"full_line({compiler.value_mask(node.args[2], env)}, {table}[{compiler.expr(node.args[1], env)}])"


def _interpret_line(ev, node, args, s):
    if ev.c.graph is None:
        return ev.line(s, args[1], ev.as_value(args[2]))
    value = ev.as_value(args[2])
    return any(all(ev.read(s, (i, 0)) == value for i in run) for run in ev.c.graph.windows(max(args[1], 0)))


def _interpret_in_line(ev, node, args, s):
    _, c, v = args
    value = ev.as_value(v)
    return c is not None and any(all(ev.read(s, (i, 0)) == value for i in pts) for pts in ev.c.graph.through(c[0]))


BUILTINS = (
    Builtin("line", ("board", "int", "value"), "bool",
            "true when some line of k cells in a row (any direction) holds value v",
            _lower_line, runtime={"line": line, "full_line": full_line}, interpret=_interpret_line),
    Builtin("in_line", ("board", "cell", "value"), "bool",
            "on a graph board: true when every point of some declared line through point c holds v (a mill)",
            _lower_in_line, runtime={"full_line": full_line}, interpret=_interpret_in_line),
)
