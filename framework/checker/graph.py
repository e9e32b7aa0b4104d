"""The checker's part of graph boards (framework.graph): `declare_graph` reads the points,
links and lines of `board:` into a `Graph`, declares each point (a cell constant) and each
line (a set-of-cells constant) as a global name, and refuses what cannot be meant (a point
given twice, a link or a line through an unknown point, a point linked to itself, a line
whose consecutive points are not linked), each error at the name it is about."""
from __future__ import annotations

from framework.checker.model import MAX_CELLS, err
from framework.errors import did_you_mean
from framework.graph import GRID_ONLY, LINKS, Graph

MAX_LINE = 64            # points of one line


def declare_graph(checker, b) -> Graph:
    names = [p for row in b.points for p in row]
    if not names:
        raise err(b.pos, "a graph board needs at least one point", "e.g. points: [a, b, c]")
    if len(names) > MAX_CELLS:
        raise err(names[MAX_CELLS].pos, f"a graph board of {len(names)} points is too large (at most {MAX_CELLS})")
    index = {}
    for p in names:
        if p.id == LINKS:
            raise err(p.pos, f"a point cannot be called `{LINKS}`", f"`{LINKS}` is the board's direction set")
        if p.id in index:
            raise err(p.pos, f"duplicate point `{p.id}`", "each point is listed once")
        index[p.id] = len(index)

    def at(p):
        if p.id not in index:
            raise err(p.pos, f"unknown point `{p.id}`", did_you_mean(p.id, index) or "points are listed under `points`")
        return index[p.id]

    adjacency = [set() for _ in names]
    for path in b.links:
        if len(path.items) < 2:
            raise err(path.pos, "a link joins two or more points", "e.g. [a, b] (or a path [a, b, c])")
        for p, q in zip(path.items, path.items[1:]):
            i, j = at(p), at(q)
            if i == j:
                raise err(q.pos, f"point `{q.id}` is linked to itself", "remove the repeat")
            adjacency[i].add(j)
            adjacency[j].add(i)
    lines = []
    for line in b.lines:
        if line.name in (l_name for l_name, _ in lines):
            raise err(line.pos, f"duplicate line `{line.name}`", "each line needs its own name")
        if not 2 <= len(line.points) <= MAX_LINE:
            raise err(line.pos, f"line `{line.name}` needs 2 to {MAX_LINE} points, has {len(line.points)}")
        pts = tuple(at(p) for p in line.points)
        for p, q, i, j in zip(line.points, line.points[1:], pts, pts[1:]):
            if j not in adjacency[i]:
                raise err(q.pos, f"line `{line.name}`: `{p.id}` and `{q.id}` are not linked",
                          "the points of a line follow links; add the link or fix the line")
        if len(set(pts)) != len(pts):
            raise err(line.pos, f"line `{line.name}` passes a point twice")
        lines.append((line.name, pts))
    for p in names:
        checker._declare(p.id, "point", index[p.id], p.pos, "point")
    for k, line in enumerate(b.lines):
        checker._declare(line.name, "line", k, line.pos, "line")
    rows = tuple(tuple(index[p.id] for p in row) for row in b.points)
    return Graph(tuple(p.id for p in names), rows, tuple(tuple(sorted(a)) for a in adjacency), tuple(lines))


def graph_only_error(out, node):
    """Refuse a call that needs the other kind of board: a builtin of rows, columns or rays
    (`GRID_ONLY`) on a graph board, `in_line` on a grid."""
    if out.graph is not None and node.func in GRID_ONLY:
        raise err(node.pos, f"`{node.func}` needs a grid board: a graph board has no rows, columns or rays",
                  "name points, use neighbors(c, links), in_line(board, c, v) or the lines' names")
    if out.graph is None and node.func == "in_line":
        raise err(node.pos, "`in_line` needs a graph board with `lines`",
                  "on a grid, line(board, k, v) finds k in a row")
