"""Loops over one action parameter: a parameter's loop header from its conditions (cell
masks, a row's bits as a table, constant bounds narrowed by comparisons of the parameter
with constants once the mover is known: Kalah's `mine(mover, i)` is `range(0, 6)` for
South), and a last int parameter over at most MAX_UNROLLED constant values written out
value by value (a sum of tests to count, an `or` chain for "any", an append per value),
each value's conditions tested in the loop's order, so an error comes where the loop's
would.
"""
from __future__ import annotations

import re

from framework import ast
from framework.compiler.common import TABLE_BITS, _static_int, _is_name, _names

MAX_UNROLLED = 16      # values of a last int parameter whose loop is written out value by value
_CALLED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
_PURE = frozenset({"bool", "abs", "sum", "any", "all", "len", "bit_count"})   # calls that cannot raise here


class ParamLoopsMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def param_loop(self, pname, domain, ptype, conds, env):
        """((loop header, mask of the values or None, their tuple from a mask or None, the
        loop's (lo, hi) when both are constants or None), conditions left to test) for one
        parameter of an action."""
        var = f"p_{pname}"
        masks, rest = [], []
        for cond in conds:
            m, left = self.loop_mask(cond, pname, env) if ptype == "cell" else (None, [])
            rest += left                        # what a mask leaves of `X if T else Y` (splits.py)
            (masks if m else rest).append(m or cond)
        if masks:
            dom = self.domain(domain, env)
            mask = " & ".join(masks) + ("" if dom == "ALL_CELLS" else f" & {self.expr(domain, env)}"
                                        if not dom.startswith("range") else "")
            return (f"for {var} in bits({mask}):", mask, self.cells_table, None), rest
        if ptype == "int" and isinstance(domain, ast.Range):
            for cond in rest:
                row = self.row_mask(cond, pname, env)
                if row:
                    mask, table = row
                    return (f"for {var} in {table}[{mask}]:", mask, table, None), [c for c in rest if c is not cond]
            lo, hi = _static_int(domain.lo), _static_int(domain.hi)
            if lo is not None and hi is not None:      # constant bounds: `p < 6`, `p >= 6` narrow them
                kept = []
                for cond in rest:
                    limit = _constant_limit(self.folded(cond), pname)
                    if limit is None:
                        kept.append(cond)
                    else:
                        lo, hi = max(lo, limit[0]), min(hi, limit[1])
                if len(kept) < len(rest):
                    return (f"for {var} in range({lo}, {max(lo, hi + 1)}):", None, None, (lo, hi)), kept
                return (f"for {var} in range({lo}, {hi + 1}):", None, None, (lo, hi)), rest
            upper = [self.bound(c, pname, env) for c in rest]
            if any(upper):
                hi = "min(" + ", ".join([self.expr(domain.hi, env)] + [u for u in upper if u]) + ")"
                rest = [c for c, u in zip(rest, upper) if not u]
                return (f"for {var} in range({self.expr(domain.lo, env)}, {hi} + 1):", None, None, None), rest
        return (f"for {var} in {self.domain(domain, env)}:", None, None, None), rest

    def row_mask(self, cond, pname, env):
        """For `board[(p, R)] == V` with p an int parameter over constant bounds inside the
        board and R a constant row: (the bits of row R from column lo on where V is, a
        table from those bits to the tuple of values of p).  Only for ranges of at most
        TABLE_BITS values: the table has 2^(range size) entries."""
        if not (isinstance(cond, ast.Binary) and cond.op == "==" and pname in self.param_ranges):
            return None
        lo, hi = self.param_ranges[pname]
        if hi - lo + 1 > TABLE_BITS:
            return None
        for a, b in ((cond.left, cond.right), (cond.right, cond.left)):
            if self.is_board_read(a) and isinstance(a.index, ast.TupleExpr) and len(a.index.items) == 2 \
                    and _is_name(a.index.items[0], pname) and isinstance(a.index.items[1], ast.Num) \
                    and 0 <= a.index.items[1].value < self.c.height and 0 <= lo <= hi < self.c.width \
                    and self.const_value(b) is not None:
                count = hi - lo + 1
                table = f"_FROM{lo}_{count}"
                if table not in self.helpers:
                    self.helpers[table] = (f"# {table}[m]: {lo} + the index of each set bit of m ({count} bits)\n"
                                           f"{table} = tuple(tuple(i + {lo} for i in bits(m)) for m in range({1 << count}))\n")
                first = self.tables.cell(lo, a.index.items[1].value)
                values = self.value_mask(b, env)
                if values == f"(FULL & ~{self.occupied()})":     # the row's cells are all in FULL
                    values = f"~{self.occupied()}"
                shifted = f"{values} >> {first}" if first else values
                return f"{shifted} & {(1 << count) - 1}", table
        return None

    def distance_mask(self, cond, pname, env):
        """For `abs(col(p) - col(q)) == K` (or rows; either order) with q a parameter bound
        before p and K a constant: a table of the cells at that distance from each cell."""
        if not (isinstance(cond, ast.Binary) and cond.op == "==" and self.tables is not None):
            return None
        for call, k in ((cond.left, cond.right), (cond.right, cond.left)):
            if not (isinstance(k, ast.Num) and isinstance(k.value, int) and isinstance(call, ast.Call)
                    and call.func == "abs" and isinstance(call.args[0], ast.Binary) and call.args[0].op == "-"):
                continue
            a, b = call.args[0].left, call.args[0].right
            if not (isinstance(a, ast.Call) and isinstance(b, ast.Call) and a.func == b.func
                    and a.func in ("col", "row") and len(a.args) == len(b.args) == 1):
                continue
            for mine, other in ((a.args[0], b.args[0]), (b.args[0], a.args[0])):
                if _is_name(mine, pname) and isinstance(other, ast.Name) and other.id in env:
                    part = "COL" if a.func == "col" else "ROW"
                    table = f"_{part}S_AT_{k.value}"
                    self.helpers.setdefault(table, f"# {table}[c]: the cells whose {a.func} is {k.value} away from c's\n"
                                            f"{table} = tuple(sum(1 << j for j in ALL_CELLS if abs({part}[j] - {part}[i]) == "
                                            f"{k.value}) for i in range(len({part})))\n")
                    return f"{table}[{env[other.id]}]"
        return None

    def bound(self, cond, pname, env):
        """Upper bound on int parameter `pname` from `p <= E` / `p < E` (E free of p)."""
        if isinstance(cond, ast.Binary) and cond.op in ("<=", "<") and _is_name(cond.left, pname) \
                and pname not in _names(cond.right):
            return self.expr(cond.right, env) + (" - 1" if cond.op == "<" else "")
        if isinstance(cond, ast.Binary) and cond.op in (">=", ">") and _is_name(cond.right, pname) \
                and pname not in _names(cond.left):
            return self.expr(cond.left, env) + (" - 1" if cond.op == ">" else "")
        return None

    def unrolled_values(self, out, mode, ai, a, env, pname, lo_hi, conds):
        """The last parameter's loop over at most MAX_UNROLLED constant values written out,
        one test per value in the loop's order, each value's conditions joined by `and` as
        the loop's nested tests are (so an error comes where the loop's would): a sum of
        tests to count, a chain of `or` for "any", an append per value."""
        tests, hoisted = [], []
        if lo_hi[1] > lo_hi[0]:
            for c in conds:
                self.invariants(c, pname, env, hoisted)
        for node, code in hoisted:            # each computed once, before the tests
            self.subst[id(node)] = self.fresh("h")
            out(f"{self.subst[id(node)]} = {code}")
        try:
            for value in range(lo_hi[0], lo_hi[1] + 1):
                env[pname] = str(value) if value >= 0 else f"({value})"
                test = " and ".join(self.expr(c, env) for c in conds)
                tests.append((test, self.encode_action(ai, a, env)))
        finally:
            for node, _ in hoisted:
                del self.subst[id(node)]
            env[pname] = f"p_{pname}"
        if not tests:
            out("pass")
        elif mode == "count":
            out("n += " + (" + ".join(f"(1 if {t} else 0)" for t, _ in tests) if conds else str(len(tests))))
        elif mode == "any":
            out(f"if {' or '.join(t for t, _ in tests) if conds else bool(tests)}:")
            out("    return True")
        else:
            for test, move in tests:
                out(f"if {test}: acts.append({move})" if conds else f"acts.append({move})")

    def invariants(self, node, pname, env, found):
        """Append (node, code) to `found` for the largest parts of a condition that do not
        name `pname`, hold a quantifier or a builtin call, and whose code cannot raise (it
        calls no run-time helper: every list item it reads bare was proved in range):
        computing them once before the values' tests, even where a test would not reach
        them, is then unobservable.  Quantifiers' bodies are not entered (their variables
        are bound there)."""
        if isinstance(node, (ast.Name, ast.Num)):
            return
        if pname not in _names(node) and any(isinstance(n, (ast.Quant, ast.Call)) for n in _walk(node)):
            code = self.expr(node, env)
            if set(_CALLED.findall(code)) <= _PURE and f"p_{pname}" not in code:
                found.append((node, code))
                return
        if isinstance(node, ast.Quant):
            return
        for f in node.__dataclass_fields__:
            for child in (lambda v: v if isinstance(v, tuple) else (v,))(getattr(node, f)):
                if hasattr(child, "__dataclass_fields__"):
                    self.invariants(child, pname, env, found)


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        for f in getattr(n, "__dataclass_fields__", ()):
            v = getattr(n, f)
            stack.extend(c for c in (v if isinstance(v, tuple) else (v,)) if hasattr(c, "__dataclass_fields__"))


def _constant_limit(cond, pname):
    """(lo, hi) that the comparison `cond` of int parameter `pname` with a constant allows
    (`p < 6`: (-inf, 5); `6 <= p`: (6, inf); `p == 3`: (3, 3)), else None."""
    flip = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}
    if not (isinstance(cond, ast.Binary) and cond.op in flip):
        return None
    op, value = cond.op, _static_int(cond.right)
    if not _is_name(cond.left, pname):
        op, value = flip[op], _static_int(cond.left)
        if not _is_name(cond.right, pname):
            return None
    if value is None:
        return None
    inf = float("inf")
    return {"<": (-inf, value - 1), "<=": (-inf, value), ">": (value + 1, inf), ">=": (value, inf),
            "==": (value, value)}[op]
