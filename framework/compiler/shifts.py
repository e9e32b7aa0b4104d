"""Moves between two cells counted by shifting bitboards, with no loop per piece.

legal.py writes a schema over cells a, b whose tests are masks as `for a in bits(A):
n += M(a).bit_count()`, M(a) the cells b: a bitwise combination of masks free of a, of
per-cell tables `T[a]` (`_REL<k>`, relations.py `relation`; `NEIGHBORS_<dirs>`;
`_COLS_AT_<k>`/`_ROWS_AT_<k>`) and of tests of a's own bit (`FULL if (X >> a & 1) else
0`: a man or a king).  When each table is a union of fixed translations D (checked on the
table: for every a, `T[a] == {a + d for d in D on the board}`), whether b = a + d is in M(a)
is the same formula with each table read as all or nothing.  So the count is the sum, over
the translations d and the cases of a's bit tests, of `popcount(((A_case & SRC_d) <<
shift(d)) & F_d)`, SRC_d the cells whose a + d is on the board (no wrap at any distance);
`can_move` tests the same masks for non-zero (`shift_moves`).  A second loop
`for b in bits(M(a)): if R(a, b): BODY` (a jump: R tests the cell between, `pair`) becomes
one loop over the shifted candidates that binds a and b, under which BODY (a compound
move's count, or the move appended to the list: the pairs are then sorted by a, then b,
the loops' own order) is written; `exists a in D: ... exists b in DOM: Q(a, b)` (a compulsory
capture's test) becomes `any shifted mask != 0` (`shift_exists`).  Counts and existence do
not depend on the order of the moves (a walk that fails may then fail at another jump
first).

Masks free of a are computed once, in the loop's order, only when A has a cell, as the loop
computes them at its first cell; `pair` accepts only tests that cannot fail (`none` off
the board read as the compiled code reads it).  Anything else keeps the loops.
"""
from __future__ import annotations

import ast as pyast

from framework import ast
from framework.compiler import bitopt
from framework.compiler.common import _operands
from framework.compiler.masks import _geometric, _mentions as _reads
from framework.compiler.pairs import _Unsupported, _and, _not, _or
from framework.graph import Graph

MAX_CASES = 3           # tests of a's own bit in a mask: 2 ** MAX_CASES cases at most
MAX_TERMS = 16          # shifted masks tested or walked in place of a loop over pieces
_OPS = {pyast.BitAnd: "&", pyast.BitOr: "|", pyast.BitXor: "^"}


class ShiftsMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def shift_moves(self, out, mode, loops, env, schema, whole, base, plain=False, walked=False):
        """For a schema of two cell parameters a, b whose loops legal.py writes as
        `for a in bits(A): n += (B).bit_count()` (mode "count") or `... if B: return True`
        (mode "any"): write their shifted form, back at depth `base`, and return "counted".
        For `for a in bits(A): for b in bits(B): if R(a, b): BODY` (a jump: R tests the
        cell between, `pair`), in those modes and "list": write a loop over the shifted
        candidates that binds a and b (sorted by a, then b, when listing: the loops' order)
        and return "loops" (legal.py writes BODY under it), or when that BODY is `plain` (`n +=
        1`, `return True`: no walk, no test after the move) count or test the candidates
        themselves and return "counted"; when it is the schema's count walk (`walked`), the
        loop runs only when some jump may go on (onward.py).  Else write nothing, return None."""
        if (mode == "list" and whole) or self.tables is None or not loops or loops[0][1] or not loops[0][2] \
                or len(loops) != (1 if whole else 2) or [p[2] for p in schema.params] != ["cell", "cell"]:
            return None
        var, a_mask, b = env[schema.params[0][0]], loops[0][2], schema.params[1][0]
        b_mask = whole[0] if whole else loops[1][2]
        if not b_mask:
            return None
        try:
            tree = pyast.parse(b_mask, mode="eval").body
            hoisted, atoms = [], []
            shape = self._shape(tree, var, hoisted, atoms)
            if len(atoms) > MAX_CASES or _fold(shape, None, {}) != "0":   # off the board: no b
                return None
            a = self.fresh("A")
            terms = self._terms(a, shape, atoms, [] if whole else loops[1][1], schema.params[0][0], b, env)
        except (_Unsupported, SyntaxError):
            return None
        if whole is None and len(terms) > MAX_TERMS:
            return None
        bindings, masks = bitopt.tightened([m for _, m, _ in terms], self.tables.full, lambda: self.fresh("s"))
        hoisted += bindings             # what the masks repeat, once
        terms = [(k, m, step) for (k, _, step), m in zip(terms, masks)]
        out(f"{a} = {a_mask}")
        out(f"if {a}:")
        out.indent()
        for name, code in hoisted:
            out(f"{name} = {code}")
        pairs = ''.join(f'({k}, {m}), ' for k, m, _ in terms)
        if mode == "list":              # the loops' order: by a, then b
            out(f"for {var}, p_{b} in sorted([(_b - _k, _b) for _k, _m in ({pairs}) if _m for _b in bits(_m)]):")
            out.depth += 1
            return "loops"
        if whole is None and not (plain and mode != "list"):   # the masks first: most have no candidate
            names = [self.fresh("j") for _ in terms]
            for name, (_, m, _) in zip(names, terms):
                out(f"{name} = {m}")
            out(f"if {' or '.join(names) or 'False'}:")
            out.indent()
            onward = walked and mode == "count" and self.onward_test(
                schema, [(k, n, step) for n, (k, _, step) in zip(names, terms)], env)
            if onward:                  # no jump goes on: each is one move
                for line in onward[0]:
                    out(line)
                out(f"if not ({onward[1]}):")
                out(f"    n += {' + '.join(f'{n}.bit_count()' for n in names)}")
                out("else:")
                out.indent()
            out(f"for _k, _m in ({''.join(f'({k}, {n}), ' for n, (k, _, _) in zip(names, terms))}):")
            out("    if _m:")
            out(f"        for p_{b} in bits(_m):")
            out(f"            {var} = p_{b} - _k")
            out.depth += 3
            return "loops"
        moved = [m for _, m, _ in terms]
        if mode == "count":
            out(f"n += {' + '.join(f'{m}.bit_count()' for m in moved) or 0}")
        elif moved:
            out(f"if {' or '.join(moved)}:")
            out("    return True")
        else:
            out("pass")
        out.depth = base
        return "counted"

    def _terms(self, name, shape, atoms, rest, a, b, env):
        """[(shift, the cells b = a + shift of the moves, the step)] over a's cases and the
        translations; `name` holds A, `rest` are conditions tested by `pair`."""
        t = self.tables
        cases = {}                  # (step, cells) -> the cases of a's bit tests that have them
        for case in range(1 << len(atoms)):
            truth = {x: bool(case >> i & 1) for i, x in enumerate(atoms)}
            for step in _all_steps(t):
                cells, (src, _) = _fold(shape, step, truth), self.step_ends(step)
                for cond in rest:
                    if cells != "0" and src:
                        cells = _and(cells, self.pair(cond, a, b, env, step))
                if cells != "0" and src:
                    cases.setdefault((step, cells), []).append(truth)
        terms = []
        for (step, cells), truths in cases.items():
            k = step[0] * t.stride + step[1]
            source = name if len(truths) == 1 << len(atoms) else " | ".join(
                name + "".join(f" & {x}" if truth[x] else f" & ~{x}" for x in atoms) for truth in truths)
            terms.append((k, _moved(cells, k, f"({source}) & {self.step_ends(step)[0]}"), step))
        return terms

    def shift_exists(self, node, env):
        """`exists a in D: P(a) and ... and exists b in DOM: Q(a, b)` with DOM `cell`, cells
        of values (`b in DOM` one more test) or `neighbors(a, DIRS)` of fixed translations and every test a `pair` form (compulsory
        capture: some piece can jump): whether some shifted mask of D's cells is not empty;
        else None."""
        if node.kind != "exists" or self.tables is None or self.c.spec.board is None:
            return None
        if isinstance(node.domain, ast.Name) and node.domain.id == "cell" and node.domain.id not in env:
            domain = "FULL"
        elif self.types.get(id(node.domain)) == "cellset" and self.set_code(node.domain):
            domain = f"({self.expr(node.domain, env)})"
        else:
            return None
        parts = _operands("and", node.body)
        inner = parts[-1]
        if not (isinstance(inner, ast.Quant) and inner.kind == "exists"):
            return None
        dom, tests = inner.domain, [inner.body]
        if isinstance(dom, ast.Name) and dom.id == "cell" and dom.id not in env:
            steps = list(_all_steps(self.tables))
        elif self.types.get(id(dom)) == "cellset" and self.set_code(dom) and not _reads(dom, node.var):
            steps = list(_all_steps(self.tables))       # b in DOM: one more test of b (pairs.py)
            tests = [ast.Binary("in", ast.Name(inner.var), dom)] + tests
        elif isinstance(dom, ast.Call) and dom.func == "neighbors" and isinstance(dom.args[0], ast.Name) \
                and dom.args[0].id == node.var and not isinstance(self.c.directions[self.kinds[id(dom.args[1])][1]], Graph):
            steps = self.translations(f"NEIGHBORS_{self.kinds[id(dom.args[1])][1]}")
        else:
            return None
        terms, t = [], self.tables
        inner_env = {**env, node.var: "_q", inner.var: "_c"}
        for step in steps or ():
            try:
                cells = "ALL"
                for part in parts[:-1] + tests:
                    if cells != "0":
                        cells = _and(cells, self.pair(part, node.var, inner.var, inner_env, step))
            except _Unsupported:
                return None
            src, _ = self.step_ends(step)
            if cells != "0" and src:
                terms.append(_moved(cells, step[0] * t.stride + step[1], f"{domain} & {src}"))
        if steps is None or len(terms) > MAX_TERMS:
            return None
        return "False" if not terms else f"(({' or '.join(terms)}) != 0)"

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
        return "?" if step is None else _not(inner)
    left, right = _fold(shape[1], step, truth), _fold(shape[2], step, truth)
    if step is None and "?" in (left, right):
        return "0" if kind == "&" and "0" in (left, right) else "?"
    if kind == "&":
        return _and(left, right)
    if kind == "|":
        return _or(left, right)
    if "0" in (left, right):
        return right if left == "0" else left
    if "ALL" in (left, right):
        return _not(right if left == "ALL" else left)
    return f"({left} ^ {right})"


def _moved(cells, k, source):
    """`source` (cells a) shifted by k onto their b's, with those b's where `cells` holds."""
    moved = f"(({source}) {'<<' if k >= 0 else '>>'} {abs(k)})"
    return moved if cells == "ALL" else f"({moved} & {cells})"


def _all_steps(t):
    return ((dr, dc) for dr in range(1 - t.height, t.height) for dc in range(1 - t.width, t.width))


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
