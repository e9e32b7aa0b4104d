"""Quantifiers over small integer ranges that read one board cell as one mask test.

`forall k in 0..2: board[cell(3 * (b % 3) + k, 3 * (b // 3) + k)] == p` (and `exists`,
`!=`, nested quantifiers of one kind: `forall x in 0..2: forall y in 0..2: board[...] !=
empty`) is how a new user writes a win or fullness test of a sub-board: the quantified
values pick cells by arithmetic.  Where the cell is `cell(X, Y)` of arithmetic over the
quantifiers' values and integer names of a known small range (int_ranges.py: a state
variable, a parameter, a definition's argument checked against the range of its callers,
constants), the cells the quantifier visits depend only on those names, so a table made
when the module loads holds, per value of the names, the mask of the cells visited
(`_QM<k>`), and the quantifier is one bit test of it: `not (M & lacking)` for `forall`,
`M & holding != 0` for `exists`, instead of a test per value.

A cell off the board reads as no value (`board[none] == v` is false, `!= v` true), as the
loop's `cell(...) >= 0 and ...` test says: the table then also holds the bit just above the
board (OFF), which the test's mask holds exactly when such a cell makes the quantifier's
test true.  The coordinates cannot fail (int_ranges: no indexing, no division but by a
non-zero constant), so one mask test raises nothing the loop would not.  A definition's
argument outside the range the table covers takes the code the quantifier had before.
"""
from __future__ import annotations

import re

from framework import ast
from framework.compiler.common import _static_int
from framework.compiler.masks import _geometric, _name_nodes

MAX_TABLE = 4096                    # entries of one table (the product of the names' ranges)
MAX_VALUES = 64                     # quantified values of one table entry
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_ACTION = re.compile(r"action\[(\d+)\]\Z")     # a parameter in the kernel's code
_NUMBER = re.compile(r"\(?-?\d+\)?\Z")     # a constant (an unrolled quantifier's value is parenthesised)


class RangeMasksMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def range_mask(self, node, env):
        """The mask test of the quantifier `node` (see the module docstring), or None."""
        if node.kind not in ("exists", "forall") or self.tables is None or self.c.graph is not None \
                or self.range_mask_off:
            return None
        bound, body = [], node
        while isinstance(body, ast.Quant) and body.kind == node.kind and isinstance(body.domain, ast.Range):
            lo, hi = _static_int(body.domain.lo), _static_int(body.domain.hi)
            if lo is None or hi is None or hi < lo or body.var in env or body.var in (b[0] for b in bound):
                return None
            bound.append((body.var, lo, hi))
            body = body.body
        read = self._one_cell_test(body)
        if read is None:
            return None
        (x_node, y_node), value, equal = read
        values = 1
        for _, lo, hi in bound:
            values *= hi - lo + 1
        if values > MAX_VALUES:
            return None
        qnames = [f"_qv{i}" for i in range(len(bound))]
        inner = {**env, **{var: q for (var, _, _), q in zip(bound, qnames)}}
        found = self._cell_names(x_node, y_node, inner, qnames)
        if found is None:
            return None
        x, y, names, ranges, trusted, codes = found
        table = self._range_table(x, y, bound, names, ranges)
        mask = f"{table}[{_index(names, ranges, codes)}]"
        off = 1 << self.board_bits()
        if value == self.c.default_value:
            hold, lack = f"~({self.occupied()} | {off})", f"({self.occupied()} | {off})"
        else:
            hold, lack = f"b_{self.c.values[value]}", f"~b_{self.c.values[value]}"
        if not equal:
            hold, lack = lack, hold
        test = f"({mask} & {hold} != 0)" if node.kind == "exists" else f"(not {mask} & {lack})"
        guard = " and ".join(f"{ranges[n][0]} <= {n} <= {ranges[n][1]}" for n in names if n not in trusted)
        if not guard:
            return test
        if self.arg_guards is not None:                 # the outlined function tests it once (outline.py)
            self.arg_guards[guard] = None
            return test
        saved = self.outlining, self.range_mask_off
        self.outlining, self.range_mask_off = False, True      # the code for a value outside the table, inline
        try:
            before = self.expr(node, env)
        finally:
            self.outlining, self.range_mask_off = saved
        return f"({test} if {guard} else {before})"

    def _cell_names(self, x_node, y_node, env, bound):
        """(x code, y code, the other names sorted, their ranges, those always in range, the
        code each name stands for) for the cell at (x_node, y_node) over the names `bound`
        (codes) and other integer names of a known small range; None when the coordinates
        are not such arithmetic.  A parameter the kernel reads from its action (`action[1]`)
        is named `_a1` in the codes returned (they make the tables)."""
        ranges, trusted, codes = {}, set(), {}
        x, y = self.expr(x_node, env), self.expr(y_node, env)
        for n in _name_nodes((x_node, y_node)):
            code = self.expr(n, env)
            if _NUMBER.match(code) or code in bound:
                continue
            raw = _ACTION.match(code)
            name = f"_a{raw.group(1)}" if raw else code
            found = self._int_range(n) if _IDENT.match(name) else None
            if found is None or found[1] < found[0]:
                return None
            if raw:
                x, y = x.replace(code, name), y.replace(code, name)
            codes[name] = code
            if not (self.subst and id(n) in self.subst):
                trusted.add(name)           # a state variable or a parameter: always in its range
            old = ranges.get(name, found)
            ranges[name] = (min(found[0], old[0]), max(found[1], old[1]))
        size = 1
        for lo, hi in ranges.values():
            size *= hi - lo + 1
        if size > MAX_TABLE or not all(_geometric(code, set(ranges) | set(bound)) and "[" not in code for code in (x, y)):
            return None
        return x, y, sorted(ranges), ranges, trusted, codes

    def _one_cell_test(self, node):
        """((x, y) of the cell, the value's index, `==`?) when `node` is `board[cell(x, y)]
        == V` or `!=` with V a constant value or player; else None."""
        if not (isinstance(node, ast.Binary) and node.op in ("==", "!=")):
            return None
        for a, b in ((node.left, node.right), (node.right, node.left)):
            if self.is_board_read(a) and self.const_value(b) is not None:
                index = a.index
                if isinstance(index, ast.Call) and index.func == "cell" and len(index.args) == 2:
                    return tuple(index.args), self.const_value(b), node.op == "=="
        return None

    def _range_table(self, x, y, bound, names, ranges):
        """The name of the module-level table of the visited cells' masks, made once."""
        key = ("range mask", x, y, tuple(bound), tuple((n, ranges[n]) for n in names))
        table = self.relations.get(key)
        if table is None:
            table = self.relations[key] = f"_QM{len(self.relations)}"
            cells = " ".join(f"for _qv{i} in range({lo}, {hi + 1})" for i, (_, lo, hi) in enumerate(bound))
            loops = " ".join(f"for {n} in range({ranges[n][0]}, {ranges[n][1] + 1})" for n in names)
            self.helpers[table] = f"# {table}: the cells cell({x}, {y}) {cells} visits (bit {self.board_bits()}: " \
                                  f"one is off the board), per {', '.join(names) or 'nothing'}\n" \
                                  f"{table} = {_per_value(f'cells_mask((CELL({x}, {y}) {cells}), {self.board_bits()})', loops)}\n"
        return table


def _index(names, ranges, codes) -> str:
    """The index into a table over `names` (the last varies fastest) of their values (the
    code of each in `codes`)."""
    index, stride = [], 1
    for n in reversed(names):
        lo, hi = ranges[n]
        term = f"({codes[n]} {'-' if lo > 0 else '+'} {abs(lo)})" if lo else codes[n]
        index.append(term if stride == 1 else f"{term} * {stride}")
        stride *= hi - lo + 1
    return " + ".join(reversed(index)) or "0"


class GridMovesMixin:
    """Part of `Compiler` (framework.compiler): an action over integer parameters whose one
    condition on them is `board[cell(X, Y)] == V` (`place(x in 0..2, y in 0..2)` in the
    small board a state variable names).  Which cells its parameters name depends only on
    the other names of X and Y, so a table made when the module loads holds per value of
    those names the mask of the cells on the board (`_GM<k>`) and the (cell, action) pairs
    in the parameters' loop order (`_GL<k>`; a cell off the board is no move, as
    `board[none] == V` is false): the moves are counted by one bit count and listed by one
    pass over the pairs.  Where two values name one cell the mask holds the bit above the
    board and the moves are counted from the pairs."""

    def grid_moves(self, out, mode, ai, a, where, env):
        """Write the moves of schema `a` in `mode` as above, back at depth `base`, and return
        True, or write nothing and return False (`where`: the conditions, the loop each sits
        in, the depth)."""
        conds, depths, base = where
        if self.tables is None or self.c.graph is not None or a.chance is not None or a.legal_after is not None \
                or self.c.prefer == "longest" or not a.params or self.is_compound(a):
            return False
        ranges = []
        for pname, domain, ptype in a.params:
            lo, hi = (_static_int(domain.lo), _static_int(domain.hi)) if isinstance(domain, ast.Range) else (None, None)
            if ptype != "int" or lo is None or hi is None or hi < lo:
                return False
            ranges.append((pname, lo, hi))
        inside = [c for c, d in zip(conds, depths) if d > 0]
        read = self._one_cell_test(inside[0]) if len(inside) == 1 else None
        combos = 1
        for _, lo, hi in ranges:
            combos *= hi - lo + 1
        if read is None or not read[2] or combos > MAX_VALUES:
            return False
        (x_node, y_node), value, _ = read
        params = [f"p_{p}" for p, _, _ in ranges]
        found = self._cell_names(x_node, y_node, {**env, **{p: v for (p, _, _), v in zip(ranges, params)}}, params)
        if found is None or found[4] != set(found[2]):
            return False
        x, y, names, nranges, _, codes = found
        loops = " ".join(f"for {v} in range({lo}, {hi + 1})" for v, (_, lo, hi) in zip(params, ranges))
        keys = " ".join(f"for {n} in range({nranges[n][0]}, {nranges[n][1] + 1})" for n in names)
        action = self.encode_action(ai, a, {p: v for (p, _, _), v in zip(ranges, params)})
        key = ("grid moves", x, y, action, loops, tuple((n, nranges[n]) for n in names))
        k = self.relations.get(key)
        if k is None:
            k = self.relations[key] = len(self.relations)
            pairs = f"tuple((_c, {action}) {loops} for _c in (CELL({x}, {y}),) if _c >= 0)"
            self.helpers[f"_GL{k}"] = (f"# _GL{k}, _GM{k}: the moves {action} {loops} at cell({x}, {y}), per "
                                      f"{', '.join(names) or 'nothing'}: (cell, move) on the board; those cells' mask\n"
                                      f"_GL{k} = {_per_value(pairs, keys)}\n"
                                      f"_GM{k} = tuple(moves_mask(_m, {self.board_bits()}) for _m in _GL{k})\n")
        at = f"[{_index(names, nranges, codes)}]"
        occupied = value == self.c.default_value
        holds = f"~{self.occupied()}" if occupied else f"b_{self.c.values[value]}"
        if mode == "any":
            out(f"if _GM{k}{at} & {f'FULL & {holds}' if occupied else holds}:")
            out("    return True")
        elif mode == "count":
            m = self.fresh("gm")
            out(f"{m} = _GM{k}{at}")
            out(f"n += ({m} & {holds}).bit_count() if {m} >> {self.board_bits()} == 0 else "
                f"sum(1 for _c, _ in _GL{k}{at} if {holds} >> _c & 1)")
        else:
            h = self.fresh("h")
            out(f"{h} = {holds}")
            out(f"acts += [_a for _c, _a in _GL{k}{at} if {h} >> _c & 1]")
        out.depth = base
        return True


def _per_value(entry: str, loops: str) -> str:
    """The code of a table of `entry` for each value of the `loops` (one entry: none)."""
    return f"tuple({entry} {loops})" if loops else f"({entry},)"
