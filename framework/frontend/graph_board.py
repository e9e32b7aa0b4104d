"""Graph boards (framework.graph) in the front-ends: the YAML keys `points`, `links` and
`lines` of `board:` read into `ast.Board` fields (`read_graph`), each name keeping its
position so the checker can point at an unknown or repeated point, and a graph board
written back as YAML (`graph_yaml`) and as `.game` lines (`graph_game`; the `.game` grammar
reads `board points a b c / d e of ...`, `links a - b - c`, `lines top = a b c` into the
same fields: `GraphSections`, a part of its transformer).

    board:
      cells: [empty, White, Black]
      points: [[a7, d7, g7], [b6, d6, f6], ...]   # rows as drawn (or one flat list)
      links: [[a7, d7, g7], [a7, a4, a1], ...]    # paths: consecutive points are linked
      lines: {top: [a7, d7, g7], ...}             # named lines (mills)
"""
from __future__ import annotations

from lark import v_args
from yaml.nodes import SequenceNode

from framework import ast

GRAPH_KEYS = ("points", "links", "lines")


def read_graph(R, items: dict) -> dict:
    """The graph fields of `ast.Board` from the board's YAML keys (`items`: key -> (key node,
    value node)); {} for a grid board."""
    if "points" not in items:
        for key in ("links", "lines"):
            if key in items:
                raise R.error(items[key][0], f"`{key}` needs a graph board",
                              "declare its points: board: {points: [a, b, c], links: [[a, b], [b, c]], cells: [...]}")
        return {}
    for key in ("width", "height"):
        if key in items:
            raise R.error(items[key][0], f"a graph board has no `{key}`",
                          "a board is either a grid (width, height) or a graph (points, links)")

    def point(node):
        return ast.Name(R.name(node, "point"), R.pos(node))

    rows = R.sequence(items["points"][1], "points")
    if rows and all(isinstance(r, SequenceNode) for r in rows):
        points = tuple(tuple(point(p) for p in R.sequence(r, "a row of points")) for r in rows)
    else:
        points = (tuple(point(p) for p in rows),)
    links = tuple(ast.TupleExpr(tuple(point(p) for p in R.sequence(path, "a link")), R.pos(path))
                  for path in (R.sequence(items["links"][1], "links") if "links" in items else ()))
    lines = tuple(ast.GraphLine(R.name(kn, "line"), tuple(point(p) for p in R.sequence(v, f"line `{k}`")), R.pos(kn))
                  for k, kn, v in (R.mapping(items["lines"][1], "lines") if "lines" in items else ()))
    return {"points": points, "links": links, "lines": lines}


def graph_yaml(board, flow_list, flow_map) -> dict:
    """The YAML keys of a graph board (YAML's flow-style list and mapping classes given)."""
    rows = flow_list(flow_list(p.id for p in row) for row in board.points)
    out = {"points": rows if len(rows) > 1 else rows[0]}
    if board.links:
        out["links"] = flow_list(flow_list(p.id for p in path.items) for path in board.links)
    if board.lines:
        out["lines"] = flow_map({line.name: flow_list(p.id for p in line.points) for line in board.lines})
    return out


def graph_game(board, values: str, initial: str, name) -> list:
    """The `.game` lines of a graph board: `board points ...`, `links ...`, `lines ...`
    (`name(text, what)` checks that a name can be written as `.game`)."""
    def point(p):
        return name(p.id, "point")
    out = ["board points " + " / ".join(" ".join(map(point, row)) for row in board.points)
           + f" of {values}{initial}"]
    if board.links:
        out.append("links " + ", ".join(" - ".join(map(point, path.items)) for path in board.links))
    if board.lines:
        out.append("lines " + ", ".join(f"{name(line.name, 'line')} = " + " ".join(map(point, line.points))
                                        for line in board.lines))
    return out


class GraphSections:
    """The `.game` sections of a graph board, for the `.game` transformer
    (framework.frontend.game_sections): `board points ...`, `links ...`, `lines ...`."""

    @v_args(meta=True)
    def graph_board(self, meta, children):
        rows = [c for c in children if isinstance(c, tuple) and c and isinstance(c[0], ast.Name)]
        initial = children[-1] if isinstance(children[-1], tuple) and isinstance(children[-1][0], str) else None
        values = [c for c in children if not isinstance(c, tuple)]
        board = ast.Board("board", None, None, tuple(str(v) for v in values),
                          initial[0] if initial else str(values[0]), self._keyword_pos(meta, "board"),
                          points=tuple(rows))
        return self._keyword(meta, "board", board,
                             {"board_initial": initial[1] if initial else self._tok(values[0])})

    def point_row(self, children):
        return tuple(ast.Name(str(t), self._tok(t)) for t in children)

    @v_args(meta=True)
    def links(self, meta, children):
        return self._keyword(meta, "links", tuple(children))

    @v_args(meta=True)
    def link_path(self, meta, children):
        return ast.TupleExpr(tuple(ast.Name(str(t), self._tok(t)) for t in children), self._tok(children[0]))

    @v_args(meta=True)
    def lines(self, meta, children):
        return self._keyword(meta, "lines", tuple(children))

    def graph_line(self, children):
        name, *points = children
        return ast.GraphLine(str(name), tuple(ast.Name(str(t), self._tok(t)) for t in points), self._tok(name))
