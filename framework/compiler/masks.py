"""Quantifiers over cells as mask operations: `exists c in D: P(c)`, `forall c in D: P(c)`
and `count c in D: P(c)`, where D is `cell` or a set of cells and P a condition built from
tests of the cell alone, become one bitboard expression `M` (the cells where P holds) and a
test of `D & M`, instead of a Python loop over the cells.  This is how a new user writes
board rules (`exists c in cell: board[c] == p and row(c) == home(p)`), and flood fills by
hand (`reach2(p, c): reach1(p, c) or (board[c] == p and exists d in neighbors(c, hex):
reach1(p, d))`), whose cost then grows with the size of the rule, not with the cells to the
power of its nesting.

P may be made of `and`, `or`, `not`, `board[c] == v` / `!=` (v a value or player that does
not depend on c), `row(c)` / `col(c)` compared by `==` with a whole number, `a if t else b`
with a test `t` known while compiling, and `exists d in neighbors(c, DIRS): Q(d)` for a
direction set that contains the opposite of each of its steps (the cells with a neighbour
in Q's mask: one `_step_<dirs>` of that mask).  Anything else leaves the quantifier a loop.
The parts of P that do not depend on c are limited to expressions that cannot fail at run
time (no indexing, division or call), so the mask, which evaluates every part once, raises
nothing the loop would not.
"""
from __future__ import annotations

import re

from framework import ast
from framework.graph import Graph
from framework.builtins.cell_arithmetic import row_cells
from framework.builtins.connectivity import _helpers
from framework.compiler.common import _static_int

_SAFE_OPS = {"+", "-", "*", "==", "!=", "<", "<=", ">", ">=", "and", "or"}


class MasksMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def mask_quantifier(self, node, env):
        """The mask form of the quantifier `node`, or None when it stays a loop."""
        if node.kind not in ("exists", "forall", "count") or self.c.spec.board is None:
            return None
        domain = node.domain
        if isinstance(domain, ast.Name) and domain.id == "cell" and domain.id not in env:
            cells = "FULL"
        elif self.types.get(id(domain)) == "cellset":
            cells = f"({self.expr(domain, env)})"
        else:
            return None
        saved, self.mask_parts = getattr(self, "mask_parts", None), {}
        try:
            mask = self.cells_where(node.body, node.var, env)
            parts, self.mask_parts = self.mask_parts, saved
        except BaseException:
            self.mask_parts = saved
            raise
        if mask is None:
            return None
        mask = _bind(mask, parts, self.walrus_ok)
        if node.kind == "exists":
            return f"({cells} & {mask} != 0)"
        if node.kind == "forall":
            return f"({cells} & ~{mask} == 0)"
        return f"({cells} & {mask}).bit_count()"

    def cells_where(self, node, var, env):
        """Bitboard expression of the cells c where condition `node` holds with `var` = c,
        or None when `node` is not of the forms listed in the module docstring."""
        if isinstance(node, ast.Binary) and node.op in ("and", "or"):
            left, right = self.cells_where(node.left, var, env), self.cells_where(node.right, var, env)
            if left is None or right is None:
                return None
            return self._share(f"({left} {'&' if node.op == 'and' else '|'} {right})")
        if isinstance(node, ast.Unary) and node.op == "not":
            inner = self.cells_where(node.operand, var, env)
            return None if inner is None else f"(FULL & ~{inner})"
        if isinstance(node, ast.Cond):
            known = self._known_test(node.test)
            if known is None:
                return None
            return self.cells_where(node.then if known else node.else_, var, env)
        if isinstance(node, ast.Quant):
            return self._neighbour_mask(node, var, env)
        if isinstance(node, ast.Binary) and node.op in ("==", "!="):
            for this, other in ((node.left, node.right), (node.right, node.left)):
                mask = self._cell_test(this, other, var, env)
                if mask is not None:
                    return mask if node.op == "==" else f"(FULL & ~{mask})"
            return None
        known = None if _mentions(node, var) else self._known_test(node)
        return None if known is None else "FULL" if known else "0"

    def _known_test(self, node):
        """True or False for a comparison of players known while compiling (`p == Red` in a
        definition called with Red), else None."""
        known = self.const_test(node)
        if known is None and isinstance(node, ast.Binary) and node.op in ("==", "!="):
            a, b = self.player_const(node.left), self.player_const(node.right)
            if a is not None and b is not None:
                known = (a == b) == (node.op == "==")
        return known

    def _cell_test(self, this, other, var, env):
        """Mask of `this == other` where `this` reads cell `var` and `other` does not."""
        if not _is_var(getattr(this, "index", None) if isinstance(this, ast.Index) else
                       this.args[0] if isinstance(this, ast.Call) and len(this.args) == 1 else None, var):
            return None
        if _mentions(other, var) or not _safe(other):
            return None
        if isinstance(this, ast.Index) and self.is_board_read(this):
            return f"({self.value_mask(other, env)})"
        if isinstance(this, ast.Call) and this.func in ("row", "col") and self.types.get(id(other)) == "int":
            code = self.expr(other, env)
            known = _static_int(other) if not code.isdigit() else int(code)
            if known is not None:       # a constant row or column: its mask, computed now
                t = self.tables
                return str(row_cells(known, t.width, t.height) if this.func == "row" else
                           t.column_masks[known] if 0 <= known < t.width else 0)
            if this.func == "row":
                return f"row_cells({code}, {self.c.width}, {self.c.height})"
            return f"column_cells({code}, COLUMN_MASKS)"
        return None

    def _neighbour_mask(self, node, var, env):
        """`exists d in neighbors(var, DIRS): Q(d)`: the cells with a DIRS neighbour in Q."""
        domain = node.domain
        if node.kind != "exists" or not (isinstance(domain, ast.Call) and domain.func == "neighbors"
                                         and _is_var(domain.args[0], var)):
            return None
        dirs = self.kinds[id(domain.args[1])][1]
        steps = self.c.directions[dirs]          # a graph's links go both ways
        if not isinstance(steps, Graph) and any((-dx, -dy) not in steps for dx, dy in steps):
            return None
        inner = self.cells_where(node.body, node.var, env)
        if inner is None:
            return None
        step, _ = _helpers(self, dirs)
        return self._share(f"{step}({inner})")

    def _share(self, code):
        """The name of a mask computed once per quantifier (`code` written as a step or a
        combination of masks that use one: a flood fill by hand repeats each level), or
        `code` itself when it is cheap."""
        if "_step_" not in code:
            return code
        name = self.mask_parts.get(code)
        if name is None:
            name = self.mask_parts[code] = self.fresh("m")
        return name


def _bind(mask, parts: dict, walrus_ok: bool) -> str:
    """`mask` with the shared parts it names computed first, in order (each refers only to
    parts before it): `((_m1 := ...), (_m2 := ..._m1...), mask)[-1]`, or, where `:=` is not
    allowed, each name replaced by its code."""
    if not parts:
        return mask
    if walrus_ok:
        return "(" + "".join(f"({name} := {code}), " for code, name in parts.items()) + f"{mask})[-1]"
    for code, name in reversed(parts.items()):
        mask = re.sub(rf"\b{name}\b", lambda _: code, mask)
    return mask


def _is_var(node, var) -> bool:
    return isinstance(node, ast.Name) and node.id == var


def _mentions(node, var) -> bool:
    """Whether the name `var` occurs in `node`."""
    if isinstance(node, ast.Name):
        return node.id == var
    if isinstance(node, (tuple, list)):
        return any(_mentions(n, var) for n in node)
    fields = getattr(node, "__dataclass_fields__", None)
    return bool(fields) and any(_mentions(getattr(node, f), var) for f in fields if f != "pos")


def _safe(node) -> bool:
    """An expression that cannot fail at run time: names, numbers and their arithmetic and
    comparisons (no indexing, division or call)."""
    if isinstance(node, (ast.Name, ast.Num)):
        return True
    if isinstance(node, ast.Binary):
        return node.op in _SAFE_OPS and _safe(node.left) and _safe(node.right)
    if isinstance(node, ast.Unary):
        return _safe(node.operand)
    if isinstance(node, ast.Cond):
        return _safe(node.test) and _safe(node.then) and _safe(node.else_)
    return False
