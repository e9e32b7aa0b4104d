"""Conditions over two cells a and b = a + d, for a fixed step d, as the bitboard of the b's
where they hold (framework/compiler/shifts.py shifts a's cells onto them): a jump's test of
the cell between (`board[cell((col(a) + col(b)) // 2, ...)] == V`, `over(a, b) in SET`), a
man's way (`row(b) < row(a)`), tests of a's and b's values.  Each cell read is a, b or a
`cell(x, y)` of their rows and columns, at a fixed offset from b for each group of a's
(computed while compiling): its value mask shifted by that offset.  Rows and columns of the
two cells become constant masks.  Only tests that cannot fail are accepted.
"""
from __future__ import annotations

from framework import ast
from framework.compiler.masks import _geometric, _name_nodes, _plain, _safe


class _Unsupported(Exception):
    """A part that is not of the forms the module docstring lists: the loops stay."""


class PairsMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    relaxed = None      # onward.py's bounds of the cells after a step, while it over-approximates

    def pair(self, node, a, b, env, step):
        """The cells b (a bitboard of b's) where condition `node` over the cells a and
        b = a + step holds, for a on the board: "ALL", "0" or an expression to AND with
        a's cells shifted by `step`.  Forms: `and`/`or`/`not`; a test of neither cell that
        cannot fail; rows and columns of a and b (a constant); `board[X] == V` / `!=` and
        `X in SET` with X a, b or a `cell(x, y)` of their rows and columns (`none` off the
        board: never V, never in SET), V a constant value, SET cells of values.  Else
        _Unsupported."""
        if isinstance(node, ast.Binary) and node.op in ("and", "or"):
            left = self.pair(node.left, a, b, env, step)
            if left == ("0" if node.op == "and" else "ALL"):    # the right is not read there
                return left
            right = self.pair(node.right, a, b, env, step)
            return _and(left, right) if node.op == "and" else _or(left, right)
        if isinstance(node, ast.Unary) and node.op == "not":
            return _not(self._flipped(lambda: self.pair(node.operand, a, b, env, step)))
        names = {n.id for n in _name_nodes(node)}
        if not names & {a, b}:
            known = self._known_test(node)
            if known is not None:
                return "ALL" if known else "0"
            if self._safe_test(node, env):
                if self.relaxed:            # onward.py: unknown after the step
                    return "0" if self.relaxed.lower else "ALL"
                return f"(FULL if {self.expr(node, env)} else 0)"
            raise _Unsupported
        if _plain(node):
            return self._at_step(self._geometry(node, a, b, env), step, lambda f, x, y: bool(f(x, y)))
        if isinstance(node, ast.Binary) and node.op in ("==", "!="):
            for this, value in ((node.left, node.right), (node.right, node.left)):
                if self.is_board_read(this) and not {n.id for n in _name_nodes(value)} & {a, b} \
                        and self.const_value(value) is not None:
                    read = lambda: self._read(this.index, self.value_mask(value, env), a, b, env, step)
                    return read() if node.op == "==" else _not(self._flipped(read))
        if isinstance(node, ast.Binary) and node.op == "in" and self.types.get(id(node.right)) == "cellset" \
                and not {n.id for n in _name_nodes(node.right)} & {a, b} and self.set_code(node.right):
            return self._read(node.left, f"({self.expr(node.right, env)})", a, b, env, step)
        raise _Unsupported

    def set_code(self, node) -> bool:
        """A set of cells that cannot fail: the cells of a value known while compiling
        (or of a safe expression), and their unions and intersections."""
        if isinstance(node, ast.Binary) and node.op in ("|", "&"):
            return self.set_code(node.left) and self.set_code(node.right)
        return isinstance(node, ast.Call) and node.func == "cells" and len(node.args) == 2 \
            and (self.const_value(node.args[1]) is not None or _safe(node.args[1]))

    def _read(self, cell, mask, a, b, env, step):
        """The b's whose cell `cell` (a, b or cell(x, y) of them) is in `mask` (its bound
        while onward.py bounds the cells after a step: `self.relaxed`)."""
        if self.relaxed:
            mask = self.relaxed.bound(mask)
        out = "0"
        for off, where in self.cell_offsets(cell, a, b, env, step).items():
            if off is None:
                continue
            moved = mask if not off else f"({mask} {'>>' if off > 0 else '<<'} {abs(off)})"
            out = _or(out, moved if where == self.step_ends(step)[1] else f"({moved} & {where})")
        return out

    def _flipped(self, part):
        """part() whose complement is taken: while bounding, its lower bound."""
        if self.relaxed:
            self.relaxed.lower = not self.relaxed.lower
        try:
            return part()
        finally:
            if self.relaxed:
                self.relaxed.lower = not self.relaxed.lower

    def cell_offsets(self, cell, a, b, env, step):
        """{offset of `cell` (a, b or cell(x, y) of their rows and columns) from b, or None
        off the board: the mask of the b's (b = a + step) where it is so}."""
        t = self.tables
        k = step[0] * t.stride + step[1]
        if isinstance(cell, ast.Name) and cell.id in (a, b):
            return {(-k if cell.id == a else 0): self.step_ends(step)[1]}
        if not (isinstance(cell, ast.Call) and cell.func == "cell" and len(cell.args) == 2 and all(map(_plain, cell.args))):
            raise _Unsupported
        x, y = (self._geometry(arg, a, b, env) for arg in cell.args)
        offsets = {}
        for q in t.cells:
            c = t.cell(t.col[q] + step[1], t.row[q] + step[0])
            if c >= 0:
                at = t.cell(x(q, c), y(q, c))
                off = None if at < 0 else at - c
                offsets[off] = offsets.get(off, 0) | 1 << c
        return offsets

    def _geometry(self, node, a, b, env):
        """A function (a, b) -> the value of `node`, which reads only the rows and columns
        of the two cells, whole numbers and arithmetic; else _Unsupported."""
        code = self.expr(node, {**env, a: "_q", b: "_c"})
        known = self.__dict__.setdefault("geometry", {})
        if code not in known:
            t = self.tables
            # code is written by the compiler and checked by _geometric: only ROW, COL, abs,
            # the two cells, whole numbers and arithmetic (as the module's own _REL tables)
            known[code] = eval(f"lambda _q, _c: {code}", {"__builtins__": {}, "ROW": t.row, "COL": t.col,
                                                          "abs": abs}) if _geometric(code, {"_c", "_q"}) else None
        if known[code] is None:
            raise _Unsupported
        return known[code]

    def _at_step(self, f, step, test):
        """The b's (b = a + step, both on the board) where test(f, a, b) holds."""
        t = self.tables
        found = 0
        for q in t.cells:
            c = t.cell(t.col[q] + step[1], t.row[q] + step[0])
            if c >= 0 and test(f, q, c):
                found |= 1 << c
        return "0" if not found else "ALL" if found == self.step_ends(step)[1] else str(found)

    def step_ends(self, step):
        """(the cells a whose a + step is on the board, the cells a + step)."""
        known = self.__dict__.setdefault("ends_by_step", {})
        if step not in known:
            t = self.tables
            pairs = [(q, t.cell(t.col[q] + step[1], t.row[q] + step[0])) for q in t.cells]
            known[step] = (sum(1 << q for q, c in pairs if c >= 0), sum(1 << c for q, c in pairs if c >= 0))
        return known[step]


def _and(x, y):
    if "0" in (x, y):
        return "0"
    return y if x == "ALL" else x if y == "ALL" else f"({x} & {y})"


def _or(x, y):
    if "ALL" in (x, y):
        return "ALL"
    return y if x == "0" else x if y == "0" else f"({x} | {y})"


def _not(x):
    return {"ALL": "0", "0": "ALL"}.get(x) or f"~{x}"
