"""Rays: `slide(board, c, dirs, v)` and `between(board, c, dirs, v, w)` (sliding pieces, captures
by enclosure), lowered to bit shifts for one-step direction sets and to walks along
precomputed rays for the others."""
from __future__ import annotations

from framework.builtins.base import Builtin
from framework.graph import Graph


def shifts(steps) -> bool:
    """Whether a direction set's steps move at most one column, so that a step is a shift by
    a fixed bit distance (the spare column of every row then stops a shift from wrapping into
    the next row): orthogonal, diagonal, queen, king, hex, and such sets of the spec's own
(a graph board's `links` are a table, framework.graph)."""
    return not isinstance(steps, Graph) and all(abs(dx) <= 1 for dx, _ in steps)


def slide(rays, through: int) -> int:
    """Cells reachable along each ray while the cells belong to `through`."""
    reach = 0
    for ray in rays:
        for j in ray:
            if through >> j & 1:
                reach |= 1 << j
            else:
                break
    return reach


def between(rays, inner: int, outer: int) -> int:
    """Cells of `inner` lying in an unbroken run that an `outer` cell closes (Othello flips)."""
    caught = 0
    for ray in rays:
        run = 0
        for j in ray:
            if inner >> j & 1:
                run |= 1 << j
            else:
                if run and outer >> j & 1:
                    caught |= run
                break
    return caught


def _lower_ray(compiler, node, env):
    a = node.args
    dirs = compiler.kinds[id(a[2])][1]
    masks = [compiler.value_mask(m, env) for m in a[3:]]
    cell = compiler.expr(a[1], env)
    if shifts(compiler.c.directions[dirs]):
        return compiler.ray_walk("reach" if node.func == "slide" else "runs", dirs, cell, *masks)
    return f"{node.func}(RAYS_{dirs}[{cell}], {', '.join(masks)})"


BUILTINS = (
    Builtin("slide", ("board", "cell", "dirs", "value"), "cellset",
            "the cells reached from c stepping in each direction until a cell is not v",
            _lower_ray, runtime={"slide": slide}),
    Builtin("between", ("board", "cell", "dirs", "value", "value"), "cellset",
            "the runs of v-cells from c that end at a w-cell, in each direction (captures)",
            _lower_ray, runtime={"between": between}),
)
