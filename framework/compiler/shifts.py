"""Moves between two cells counted by shifting bitboards, with no loop per piece.

A move schema over two cells `a`, `b` whose conditions are masks compiles to
`for a in bits(A): n += M(a).bit_count()` (legal.py), where M(a), the cells b, is a bitwise
combination (`&`, `|`, `^`, `~`) of masks that do not depend on a, of per-cell tables
indexed by a (`_REL<k>[a]` of a relation between the two cells, masks.py `relation`;
`NEIGHBORS_<dirs>[a]`; `_COLS_AT_<k>[a]` / `_ROWS_AT_<k>[a]`) and of tests of a's own bit
in a mask (`FULL if (X >> a & 1) else 0`, a man or a king).  When each table is a union of
fixed translations (checked on the table itself, for every cell a:
`T[a] == {a + d for d in D if a + d is on the board}`), the bit of b = a + d in M(a) is the
same formula with each table read as all or nothing by whether d is in its D.  So the count
is, over the translations d and the cases of a's own bit tests,
`popcount(((A_case & SRC_d) << shift(d)) & F_d)`, where SRC_d are the cells whose `a + d`
is on the board (no wrap, whatever the distance) and F_d the folded formula; the `any` mode
(`can_move`) tests the same shifted masks for non-zero.  Counting and existence do not
depend on the order of the moves; lists of moves keep the loops.

The masks that do not depend on a are computed once, in the loop's order, and only when A
has a cell, as the loop computes them at its first cell: whatever may raise raises as
there.  Anything else in M(a) keeps the loop.
"""
from __future__ import annotations

import ast as pyast

from framework.compiler.masks import _geometric

MAX_CASES = 3           # tests of a's own bit in a mask: 2 ** MAX_CASES cases at most
_OPS = {pyast.BitAnd: "&", pyast.BitOr: "|", pyast.BitXor: "^"}


class _Unsupported(Exception):
    """M(a) has a part that is not of the forms in the module docstring."""


class ShiftsMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def shift_moves(self, out, mode, loops, env, schema, whole, base) -> bool:
        """For a schema of two parameters a, b whose loops legal.py writes as
        `for a in bits(A): n += (B).bit_count()` (mode "count") or `... if B: return True`
        (mode "any"): write their shifted form, back at depth `base`, and return True; or
        write nothing and return False."""
        if not whole or mode == "list" or len(loops) != 1 or loops[0][1] or not loops[0][2] \
                or self.tables is None:
            return False
        var, a_mask, b_mask = env[schema.params[0][0]], loops[0][2], whole[0]
        try:
            tree = pyast.parse(b_mask, mode="eval").body
            hoisted, atoms = [], []
            shape = self._shape(tree, var, hoisted, atoms)
        except (_Unsupported, SyntaxError):
            return False
        if len(atoms) > MAX_CASES or _fold(shape, None, {}) != "0":   # off the board: no b
            return False
        t = self.tables
        a = self.fresh("A")
        terms = []
        for case in range(1 << len(atoms)):
            truth = {x: bool(case >> i & 1) for i, x in enumerate(atoms)}
            source = a + "".join(f" & {x}" if truth[x] else f" & ~{x}" for x in atoms)
            for dr in range(1 - t.height, t.height):
                for dc in range(1 - t.width, t.width):
                    cells = _fold(shape, (dr, dc), truth)
                    src = sum(1 << i for i in t.cells if t.cell(t.col[i] + dc, t.row[i] + dr) >= 0)
                    if cells == "0" or not src:
                        continue
                    k = dr * t.stride + dc
                    moved = f"(({source} & {src}) {'<<' if k >= 0 else '>>'} {abs(k)})"
                    terms.append(moved if cells == "ALL" else f"({moved} & {cells})")
        out(f"{a} = {a_mask}")
        out(f"if {a}:")
        out.indent()
        for name, code in hoisted:
            out(f"{name} = {code}")
        if mode == "count":
            out(f"n += {' + '.join(f'{t}.bit_count()' for t in terms) or '0'}")
        elif terms:
            out(f"if {' or '.join(terms)}:")
            out("    return True")
        out.depth = base
        return True

    def _shape(self, node, var, hoisted, atoms):
        """`node` as nested tuples: ("leaf", code), ("table", translations),
        ("if", atom test, then, else), (op, left, right), ("~", operand)."""
        if not _mentions(node, var):
            code = pyast.unparse(node)
            if isinstance(node, pyast.Name) and node.id == "FULL":
                return ("ALL",)
            if isinstance(node, pyast.Constant) and node.value == 0:
                return ("0",)
            if not isinstance(node, (pyast.Name, pyast.Constant)):
                name = self.fresh("s")
                hoisted.append((name, code))
                code = name
            return ("leaf", code)
        if isinstance(node, pyast.Subscript) and isinstance(node.value, pyast.Name) \
                and isinstance(node.slice, pyast.Name) and node.slice.id == var:
            found = self.translations(node.value.id)
            if found is None:
                raise _Unsupported
            return ("table", found)
        if isinstance(node, pyast.BinOp) and type(node.op) in _OPS:
            return (_OPS[type(node.op)], self._shape(node.left, var, hoisted, atoms),
                    self._shape(node.right, var, hoisted, atoms))
        if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Invert):
            return ("~", self._shape(node.operand, var, hoisted, atoms))
        if isinstance(node, pyast.IfExp) and not _mentions(node.body, var) and not _mentions(node.orelse, var):
            test = self._atom_test(node.test, var, hoisted, atoms)
            return ("if", test, self._shape(node.body, var, hoisted, atoms), self._shape(node.orelse, var, hoisted, atoms))
        raise _Unsupported

    def _atom_test(self, node, var, hoisted, atoms):
        """A test of a's bit: ("bit", mask code), ("and"/"or", tests), ("not", test)."""
        if isinstance(node, pyast.BoolOp):
            return ("and" if isinstance(node.op, pyast.And) else "or",
                    tuple(self._atom_test(v, var, hoisted, atoms) for v in node.values))
        if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Not):
            return ("not", self._atom_test(node.operand, var, hoisted, atoms))
        if isinstance(node, pyast.BinOp) and isinstance(node.op, pyast.BitAnd) \
                and isinstance(node.right, pyast.Constant) and node.right.value == 1 \
                and isinstance(node.left, pyast.BinOp) and isinstance(node.left.op, pyast.RShift) \
                and isinstance(node.left.right, pyast.Name) and node.left.right.id == var \
                and not _mentions(node.left.left, var):
            leaf = self._shape(node.left.left, var, hoisted, atoms)
            code = {"ALL": "FULL", "0": "0"}.get(leaf[0]) or leaf[1]
            if code not in atoms and code not in ("FULL", "0"):
                atoms.append(code)
            return ("bit", code)
        raise _Unsupported

    def translations(self, table):
        """The set of (row, column) steps D of a per-cell table (`T[a]` = the cells a + d,
        d in D, on the board), or None when the table is not of that form."""
        known = self.__dict__.setdefault("translation_sets", {})
        if table not in known:
            known[table] = _translations(self.tables, self._table_masks(table))
        return known[table]

    def _table_masks(self, table):
        """The masks of a table the generated module defines, per cell index, or None."""
        t = self.tables
        if table.startswith("NEIGHBORS_") and table[10:] in t.neighbors:
            return t.neighbors[table[10:]]
        for part, values in (("_COLS_AT_", t.col), ("_ROWS_AT_", t.row)):
            if table.startswith(part) and table[len(part):].isdigit() and table in self.helpers:
                k = int(table[len(part):])
                return [sum(1 << j for j in t.cells if abs(values[j] - values[i]) == k) for i in range(len(values))]
        code = next((key[0] for key, name in self.relations.items() if name == table and key[1] is True), None)
        if code is None or not _geometric(code, {"_c", "_q"}):
            return None
        # code is the generated module's own table formula, checked by _geometric: only
        # ROW, COL, abs, the two cells, whole numbers and arithmetic
        rel = eval(f"lambda _c, _q: {code}", {"__builtins__": {}, "ROW": t.row, "COL": t.col, "abs": abs})
        return [sum(1 << c for c in t.cells if rel(c, q)) for q in range(len(t.row))]


def _translations(t, masks):
    if masks is None:
        return None
    steps = set()
    for a in t.cells:
        m = masks[a]
        while m:
            low = m & -m
            b = low.bit_length() - 1
            m ^= low
            steps.add((t.row[b] - t.row[a], t.col[b] - t.col[a]))
    for a in t.cells:
        cells = (t.cell(t.col[a] + dc, t.row[a] + dr) for dr, dc in steps)
        if masks[a] != sum(1 << b for b in cells if b >= 0):
            return None
    return frozenset(steps)


def _fold(shape, step, truth):
    """The code of the cells b = a + step where M(a) holds, given a's bit tests' `truth`:
    "0" (none), "ALL" (every cell) or an expression; off the board (`step` None) every
    table and FULL are 0 and other masks unknown."""
    kind = shape[0]
    if kind in ("ALL", "0"):
        return "0" if step is None else kind
    if kind == "leaf":
        return shape[1]
    if kind == "table":
        return "ALL" if step is not None and step in shape[1] else "0"
    if kind == "if":
        if step is None:                         # either branch: both must be none
            then, else_ = _fold(shape[2], None, truth), _fold(shape[3], None, truth)
            return "0" if then == else_ == "0" else "?"
        return _fold(shape[2] if _test(shape[1], truth) else shape[3], step, truth)
    if kind == "~":
        inner = _fold(shape[1], step, truth)
        if step is None:
            return "?"
        return {"ALL": "0", "0": "ALL"}.get(inner) or f"~{inner}"
    left, right = _fold(shape[1], step, truth), _fold(shape[2], step, truth)
    if kind == "&":
        if "0" in (left, right):
            return "0"
        return right if left == "ALL" else left if right == "ALL" else f"({left} & {right})"
    if kind == "|":
        if "ALL" in (left, right):
            return "ALL"
        return right if left == "0" else left if right == "0" else f"({left} | {right})"
    if left == "0" or right == "0":
        return right if left == "0" else left
    if "ALL" in (left, right):
        other = right if left == "ALL" else left
        return {"ALL": "0"}.get(other) or f"~{other}"
    return f"({left} ^ {right})"


def _test(test, truth):
    kind = test[0]
    if kind == "bit":
        return truth[test[1]] if test[1] in truth else test[1] == "FULL"
    if kind == "not":
        return not _test(test[1], truth)
    values = (_test(t, truth) for t in test[1])
    return all(values) if kind == "and" else any(values)


def _mentions(node, var) -> bool:
    return any(isinstance(n, pyast.Name) and n.id == var for n in pyast.walk(node))
