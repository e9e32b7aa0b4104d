"""Quantifier and domain lowering: `exists`/`forall`/`count`/`sum`/`min`/`max` over a
domain -> a Python generator expression, and each domain (cells, players, an enum, a range,
a set of cells) -> its Python iterable.
"""
from __future__ import annotations

import ast as pyast

from framework import ast
from framework.builtins.connectivity import _helpers, _value_masks
from framework.compiler import unroll
from framework.compiler.common import _operands, _static_int
from framework.runtime import MAX_SPAN


class QuantifiersMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def x_Quant(self, node, env):
        masked = self.mask_quantifier(node, env)        # over cells: bit operations (masks.py)
        if masked is None:
            masked = self.shift_exists(node, env)       # over pairs of cells: shifts (shifts.py)
        if masked is not None:
            return masked
        chosen = self.cond_split(node, env)             # `X if T else Y`: T tested once (splits.py)
        if chosen is not None:
            return self.expr(chosen, env)
        grouped = self.over_groups(node, env)           # each group once, not each of its cells
        if grouped is not None:
            return grouped
        ranged = self.range_mask(node, env)             # one cell per value of a range: a mask (range_masks.py)
        if ranged is not None:
            return ranged
        unrolled = self.unrolled(node, env)             # a small constant range: term by term
        if unrolled is not None:
            return unrolled
        split = self.exists_split(node, env)            # `A or B`: A's cells as a mask first
        if split is not None:
            return split
        narrowed = self.quantifier_cells(node, env)     # only the cells some masks allow
        var = self.fresh("q")
        inner = dict(env)
        inner[node.var] = var
        dom, parts = narrowed or (self.domain(node.domain, env), [node.body])
        saved = self.param_ranges.get(node.var)
        if isinstance(node.domain, ast.Range):          # the body knows the variable's range
            lo, hi = _static_int(node.domain.lo), _static_int(node.domain.hi)
            if lo is not None and hi is not None:
                self.param_ranges[node.var] = (lo, hi)
        try:
            body = " and ".join(self.expr(p, inner) for p in parts)
            body = f"({body})" if len(parts) > 1 else body
        finally:
            if saved is None:
                self.param_ranges.pop(node.var, None)
            else:
                self.param_ranges[node.var] = saved
        if node.kind == "exists":
            return f"any({body} for {var} in {dom})"
        if node.kind == "forall":
            return f"all({body} for {var} in {dom})"
        if node.kind == "count":
            return f"sum(1 for {var} in {dom} if {body})"
        if node.kind == "sum":
            return f"sum({body} for {var} in {dom})"
        return f"extreme({node.kind!r}, ({body} for {var} in {dom}), POSITIONS[{self.position(node)}])"

    def over_groups(self, node, env):
        """`exists c in D: P(group(board, c, DIRS))` (or forall) whose body reads c only as
        that group: the same for every cell of a group, so each group of D's cells is tested
        once (connectivity.groups), in the order of its first cell; else None."""
        if node.kind not in ("exists", "forall") or self.c.spec.board is None:
            return None
        if isinstance(node.domain, ast.Name) and node.domain.id == "cell" and node.domain.id not in env:
            cells = "FULL"
        elif self.types.get(id(node.domain)) == "cellset":
            cells = self.expr(node.domain, env)
        else:
            return None
        calls = [n for n in _nodes(node.body) if isinstance(n, ast.Call) and n.func == "group"
                 and isinstance(n.args[1], ast.Name) and n.args[1].id == node.var]
        uses = [n for n in _nodes(node.body) if isinstance(n, ast.Name) and n.id == node.var]
        if not calls or len(uses) != len(calls) or len({self.kinds[id(n.args[2])][1] for n in calls}) != 1:
            return None
        var = self.fresh("g")
        _, flood = _helpers(self, self.kinds[id(calls[0].args[2])][1])
        saved = dict(self.subst), self.outlining      # written inline: an outlined definition
        self.subst.update({id(n): var for n in calls})   # would be called with the cell, unbound here
        self.outlining = False
        try:
            body = self.expr(node.body, env)
            meets = [self.expr(c, env) for c in _operands("and", node.body)]
        finally:
            self.subst, self.outlining = saved
        sets = [_met_set(code, var) for code in meets]
        if node.kind == "exists" and isinstance(node.domain, ast.Call) and node.domain.func == "cells" \
                and None not in sets:            # every test `g & S != 0`: floods through the stones
            return f"(groups_meeting({flood}, {cells}, ({''.join(s + ', ' for s in sets)})) != 0)"
        test = "any" if node.kind == "exists" else "all"
        return f"{test}({body} for {var} in groups({cells}, {_value_masks(self)}, {flood}))"

    def unrolled(self, node, env):
        """exists/forall/count/sum over a constant range of at most unroll.MAX_TERMS values,
        written out term by term (framework/compiler/unroll.py), or None."""
        if node.kind not in ("exists", "forall", "count", "sum") or not isinstance(node.domain, ast.Range):
            return None
        lo, hi = _static_int(node.domain.lo), _static_int(node.domain.hi)
        if lo is None or hi is None or not 0 < hi - lo + 1 <= unroll.MAX_TERMS:
            return None
        saved, terms = self.param_ranges.get(node.var), []
        try:
            for value in range(lo, hi + 1):
                self.param_ranges[node.var] = (value, value)
                terms.append(unroll.fold(self.expr(node.body, {**env, node.var: f"({value})"})))
                if sum(map(len, terms)) > unroll.MAX_CHARS:
                    return None
        finally:
            if saved is None:
                self.param_ranges.pop(node.var, None)
            else:
                self.param_ranges[node.var] = saved
        return unroll.combine(node.kind, terms)

    def domain(self, node, env):
        """The Python iterable of a quantifier's or loop's domain.  It may become a
        comprehension's iterable, where Python forbids `:=`: `line` calls its helper there."""
        saved, self.walrus_ok = self.walrus_ok, False
        try:
            return self._domain(node, env)
        finally:
            self.walrus_ok = saved

    def _domain(self, node, env):
        if isinstance(node, ast.Name) and node.id not in env:
            if node.id == "cell":
                return "ALL_CELLS"
            if node.id == "player":
                return f"range({self.n})"
            kind = self.kinds.get(id(node))
            var = self.vars.get(node.id)
            if var is not None and var.type.startswith("enum:") and (kind is None or kind[0] != "var"):
                return f"range({len(var.enum)})"
        if isinstance(node, ast.Range):
            lo, hi = self.expr(node.lo, env), self.expr(node.hi, env)
            if _static_int(node.lo) is not None and _static_int(node.hi) is not None:
                return f"range({lo}, {hi} + 1)"          # the checker bounded its size
            least, most = self.interval(node.lo, env), self.interval(node.hi, env)
            if least is not None and most is not None and most[1] - least[0] < MAX_SPAN:
                return f"range({lo}, {hi} + 1)"          # its ends' ranges bound its size
            return f"span({lo}, {hi}, POSITIONS[{self.position(node)}])"
        return f"bits({self.expr(node, env)})"


def _nodes(node):
    """Every node of the expression `node`."""
    yield node
    for f in getattr(node, "__dataclass_fields__", ()):
        child = getattr(node, f)
        for c in child if isinstance(child, (tuple, list)) else (child,):
            if hasattr(c, "__dataclass_fields__") and f != "pos":
                yield from _nodes(c)


def _met_set(code: str, var: str):
    """S when `code` is the test `var & S != 0` (the group meets S) with S not reading var."""
    try:
        tree = pyast.parse(code.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(tree, pyast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], pyast.NotEq)
            and isinstance(tree.comparators[0], pyast.Constant) and tree.comparators[0].value == 0
            and isinstance(tree.left, pyast.BinOp) and isinstance(tree.left.op, pyast.BitAnd)):
        return None
    for this, other in ((tree.left.left, tree.left.right), (tree.left.right, tree.left.left)):
        if isinstance(this, pyast.Name) and this.id == var \
                and not any(isinstance(n, pyast.Name) and n.id == var for n in pyast.walk(other)):
            return f"({pyast.unparse(other)})"
    return None
