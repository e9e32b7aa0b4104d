"""Quantifiers over cells as mask operations: `exists c in D: P(c)`, `forall c in D: P(c)`
and `count c in D: P(c)`, where D is `cell` or a set of cells and P a condition built from
tests of the cell alone, become one bitboard expression `M` (the cells where P holds) and a
test of `D & M`, instead of a Python loop over the cells.  This is how a new user writes
board rules (`exists c in cell: board[c] == p and row(c) == home(p)`), and flood fills by
hand (`reach2(p, c): reach1(p, c) or (board[c] == p and exists d in neighbors(c, hex):
reach1(p, d))`), whose cost then grows with the size of the rule, not with the cells to the
power of its nesting.

P may be made of `and`, `or`, `not`, `board[c] == v` / `!=` (v a value or player that does
not depend on c), `c in S` / `not in` (S a set of cells that does not depend on c and cannot
fail: `region(...)`, a define's cells), `row(c)` / `col(c)` compared by `==` with a whole number, `a if t else b`
with a test `t` known while compiling, and `exists d in neighbors(c, DIRS): Q(d)` for a
direction set that contains the opposite of each of its steps (the cells with a neighbour
in Q's mask: one `_step_<dirs>` of that mask), and relations of c's row and column to those
of one or two other cell variables (relations.py: a table per cell, or per pair of cells
made at its first use, as `inside(c, d, e)`, e strictly between c and d).  Anything else
leaves the quantifier a loop.
The parts of P that do not depend on c are limited to expressions that cannot fail at run
time (no indexing, division or call), so the mask, which evaluates every part once, raises
nothing the loop would not.
"""
from __future__ import annotations

import ast as pyast
import re

from framework import ast
from framework.graph import Graph
from framework.builtins.cell_arithmetic import row_cells
from framework.builtins.connectivity import _helpers
from framework.compiler.bitopt import simplify
from framework.compiler.common import may_raise, _static_int, _operands

_GEOMETRIC_NODES = (pyast.Expression, pyast.BoolOp, pyast.And, pyast.Or, pyast.BinOp, pyast.Add, pyast.Sub,
                    pyast.Mult, pyast.FloorDiv, pyast.Mod, pyast.UnaryOp, pyast.USub, pyast.UAdd, pyast.Not,
                    pyast.Compare, pyast.Eq, pyast.NotEq, pyast.Lt, pyast.LtE, pyast.Gt, pyast.GtE, pyast.IfExp,
                    pyast.Load, pyast.Name, pyast.Subscript, pyast.Call, pyast.Constant)
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
        mask = self.mask_of(node.body, node.var, env)
        if mask is None:
            return None
        if self.tables is not None:     # constants folded (a branch known while compiling: a `k` written out)
            mask = _simplified(mask, {"FULL": self.tables.full})
        if node.kind == "exists":
            return f"({cells} & {mask} != 0)"
        if node.kind == "forall":
            return f"({cells} & ~{mask} == 0)"
        return f"({cells} & {mask}).bit_count()"

    def quantifier_cells(self, node, env):
        """For `exists`/`count` over cells whose body is `A and B and ...` with only some
        parts masks: (the iterable of the cells where those parts hold, the other parts), to
        test only those cells; else None.  The parts left keep their order and run only on
        cells where the masked ones hold, as the loop's `and` would."""
        if node.kind not in ("exists", "count") or self.c.spec.board is None:
            return None
        if isinstance(node.domain, ast.Name) and node.domain.id == "cell" and node.domain.id not in env:
            cells = "FULL"
        elif self.types.get(id(node.domain)) == "cellset":
            cells = f"({self.expr(node.domain, env)})"
        else:
            return None
        masks, rest, saved = [], [], self.walrus_ok
        self.walrus_ok = False                  # the mask is a comprehension's iterable
        try:
            for part in self.joined_parts(_operands("and", node.body), node.var, env):
                mask = self.mask_of(part, node.var, env) if not rest else None
                (masks if mask else rest).append(mask or part)
        finally:
            self.walrus_ok = saved
        if not masks or not rest:
            return None
        return f"bits({cells} & {' & '.join(masks)})", rest

    def exists_split(self, node, env):
        """`exists c in D: A or B` over cells whose leading parts A are masks and whose other
        parts B cannot fail: `D & mask(A) != 0 or exists c in D: B` (Go's `breathes`: an empty
        neighbour, else a friendly group with another liberty), else None.  The same value;
        B runs for fewer cells, and as it cannot fail no error is lost."""
        if node.kind != "exists" or self.c.spec.board is None or self.types.get(id(node.domain)) != "cellset":
            return None
        parts, masks = _operands("or", node.body), []
        for part in parts:
            mask = self.mask_of(part, node.var, env)
            if mask is None:
                break
            masks.append(mask)
        rest = parts[len(masks):]
        if not masks or not rest or any(may_raise(p, self.types, frozenset({node.var})) for p in rest):
            return None
        var = self.fresh("q")
        inner = {**env, node.var: var}
        body = " or ".join(f"({self.expr(p, inner)})" for p in rest)
        cells = self.expr(node.domain, env)
        test, rest = f"({cells}) & ({' | '.join(masks)}) != 0", f"any({body} for {var} in {self.domain(node.domain, env)})"
        code = f"({test} or {rest})"
        self.split_tests[code] = (test, rest, self.outer_mask(node, masks, env))   # splits.cheap_first/split_loop
        return code

    def mask_of(self, node, var, env):
        """`cells_where` with its shared parts bound: one expression, or None."""
        saved, self.mask_parts = getattr(self, "mask_parts", None), {}
        try:
            mask = self.cells_where(node, var, env, ())
            parts, self.mask_parts = self.mask_parts, saved
        except BaseException:
            self.mask_parts = saved
            raise
        return None if mask is None else _bind(mask, parts, self.walrus_ok)

    def cells_where(self, node, var, env, outer):
        """Bitboard expression of the cells c where condition `node` holds with `var` = c,
        or None when `node` is not of the forms listed in the module docstring.  `outer`:
        the variables of the enclosing quantifiers written as masks too (no value here)."""
        if any(_mentions(node, v) for v in outer):
            return None
        if isinstance(node, ast.Binary) and node.op in ("and", "or"):
            whole = self.three_cells(node, var, env, outer)
            if whole is not None:
                return whole
            left, right = self.cells_where(node.left, var, env, outer), self.cells_where(node.right, var, env, outer)
            if left is None or right is None:
                return None
            return self._share(f"({left} {'&' if node.op == 'and' else '|'} {right})")
        if isinstance(node, ast.Unary) and node.op == "not":
            inner = self.cells_where(node.operand, var, env, outer)
            return None if inner is None else f"(FULL & ~{inner})"
        if not _mentions(node, var):            # the same for every cell: all of them or none
            known = self._known_test(node)
            if known is not None:
                return "FULL" if known else "0"
            return f"(FULL if {self.expr(node, env)} else 0)" if self._safe_test(node, env) else None
        if isinstance(node, ast.Cond):
            known = self._known_test(node.test)
            if known is not None:
                return self.cells_where(node.then if known else node.else_, var, env, outer)
            test, then, else_ = (self.cells_where(n, var, env, outer) for n in (node.test, node.then, node.else_))
            if None in (test, then, else_):
                return None
            return f"({test} & {then} | (FULL & ~{test}) & {else_})"
        if isinstance(node, ast.Quant):
            return self._neighbour_mask(node, var, env, outer)
        if isinstance(node, ast.Binary) and node.op == "in" and _is_var(node.left, var) \
                and isinstance(node.right, ast.Call) and node.right.func == "neighbors" \
                and self._cell_var(node.right.args[0], env):
            return f"({self.expr(node.right, env)})"
        if isinstance(node, ast.Binary) and node.op in ("in", "notin") and _is_var(node.left, var) \
                and self.types.get(id(node.right)) == "cellset" and not _mentions(node.right, var) \
                and not may_raise(node.right, self.types, frozenset(self.c.players)):    # c in S: S itself
            mask = f"({self.expr(node.right, env)})"
            return mask if node.op == "in" else f"(FULL & ~{mask})"
        if isinstance(node, ast.Binary) and node.op in ("==", "!="):
            for this, other in ((node.left, node.right), (node.right, node.left)):
                if _is_var(this, var) and not _mentions(other, var) and _safe(other) \
                        and self.types.get(id(other)) == "cell":      # c == jumper: one cell, or none
                    code = self.expr(other, env)
                    mask = f"(1 << {code} if {code} >= 0 else 0)"
                    return mask if node.op == "==" else f"(FULL & ~{mask})"
                mask = self._cell_test(this, other, var, env)
                if mask is not None:
                    return mask if node.op == "==" else f"(FULL & ~{mask})"
        return self.relation(node, var, env)

    def _cell_var(self, node, env) -> bool:
        """Whether `node` names a cell parameter or a quantifier's cell (never `none`)."""
        return isinstance(node, ast.Name) and node.id in env and self.types.get(id(node)) == "cell" \
            and self.kinds.get(id(node), ("",))[0] in ("param", "quant")

    def _safe_test(self, node, env) -> bool:
        """A test that cannot fail at run time: `_safe`, or a cell variable's value on the
        board compared with one, or `and`/`or`/`not` of those."""
        if isinstance(node, ast.Binary) and node.op in ("and", "or"):
            return self._safe_test(node.left, env) and self._safe_test(node.right, env)
        if isinstance(node, ast.Unary) and node.op == "not":
            return self._safe_test(node.operand, env)
        if isinstance(node, ast.Binary) and node.op in ("==", "!="):
            for this, other in ((node.left, node.right), (node.right, node.left)):
                if self.is_board_read(this) and self._cell_var(this.index, env) and _safe(other):
                    return True
        return _safe(node)

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
        if _mentions(other, var) or not (_safe(other) or self.const_value(other) is not None):
            return None         # (a constant value or player, as `next(mover)` where the mover is known)
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

    def _neighbour_mask(self, node, var, env, outer):
        """`exists d in neighbors(var, DIRS): Q(d)`: the cells with a DIRS neighbour in Q."""
        domain = node.domain
        if node.kind != "exists" or not (isinstance(domain, ast.Call) and domain.func == "neighbors"
                                         and _is_var(domain.args[0], var)):
            return None
        dirs = self.kinds[id(domain.args[1])][1]
        steps = self.c.directions[dirs]          # a graph's links go both ways
        if not isinstance(steps, Graph) and any((-dx, -dy) not in steps for dx, dy in steps):
            return None
        inner = self.cells_where(node.body, node.var, env, (*outer, var))
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


def _simplified(code: str, known: dict) -> str:
    """`code` with its pure mask parts written with fewer operations (bitopt.simplify), a
    conditional whose test compares whole numbers (`FULL if 0 == 2 else 0`) chosen first."""
    return f"({pyast.unparse(simplify(_Chosen().visit(pyast.parse(code, mode='eval').body), known))})"


class _Chosen(pyast.NodeTransformer):
    """`A if T else B` with T a comparison of whole numbers: the branch it picks."""

    def visit_IfExp(self, node):
        self.generic_visit(node)
        test = node.test
        if isinstance(test, pyast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (pyast.Eq, pyast.NotEq)) \
                and all(isinstance(x, pyast.Constant) and type(x.value) is int for x in (test.left, *test.comparators)):
            same = test.left.value == test.comparators[0].value
            return node.body if same == isinstance(test.ops[0], pyast.Eq) else node.orelse
        return node


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


def _geometric(code: str, cells: set) -> bool:
    """Whether generated Python `code` reads only the rows and columns of the cells named
    `cells`, whole numbers and arithmetic that cannot fail (division only by a non-zero
    constant): its value is then the same whenever the cells are."""
    try:
        tree = pyast.parse(code, mode="eval")
    except SyntaxError:
        return False
    for n in pyast.walk(tree):
        if isinstance(n, pyast.Name):
            if n.id not in cells | {"ROW", "COL", "abs"}:
                return False
        elif isinstance(n, pyast.Subscript):
            if not (isinstance(n.value, pyast.Name) and n.value.id in ("ROW", "COL")
                    and isinstance(n.slice, pyast.Name) and n.slice.id in cells):
                return False
        elif isinstance(n, pyast.Call):
            if not (isinstance(n.func, pyast.Name) and n.func.id == "abs" and len(n.args) == 1 and not n.keywords):
                return False
        elif isinstance(n, pyast.BinOp) and isinstance(n.op, (pyast.FloorDiv, pyast.Mod)):
            if not (isinstance(n.right, pyast.Constant) and type(n.right.value) is int and n.right.value):
                return False
        elif isinstance(n, pyast.Constant):
            if type(n.value) not in (int, bool):
                return False
        elif not isinstance(n, _GEOMETRIC_NODES):
            return False
    return True


def _plain(node) -> bool:
    """Whether `node` is made of numbers, names, arithmetic, comparisons, conditionals and
    row/col/abs calls only (what a relation between cells may be)."""
    if isinstance(node, (ast.Num, ast.Name)):
        return True
    if isinstance(node, ast.Binary):
        return _plain(node.left) and _plain(node.right)
    if isinstance(node, ast.Unary):
        return _plain(node.operand)
    if isinstance(node, ast.Cond):
        return _plain(node.test) and _plain(node.then) and _plain(node.else_)
    return isinstance(node, ast.Call) and node.func in ("row", "col", "abs") and all(_plain(a) for a in node.args)


def _name_nodes(node):
    """The Name nodes in `node`."""
    if isinstance(node, ast.Name):
        yield node
    elif isinstance(node, (tuple, list)):
        for n in node:
            yield from _name_nodes(n)
    else:
        for f in getattr(node, "__dataclass_fields__", ()):
            if f != "pos":
                yield from _name_nodes(getattr(node, f))


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
