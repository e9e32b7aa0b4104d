"""Quantifiers over a small constant range written out term by term: `forall i in 0..11:
not mine(p, i) or house[i] == 0` becomes `(v_house[0] == 0 and ... and v_house[5] == 0)`
instead of a generator run on every call.  Each term is the body's code with the variable
replaced by its value; `fold` then folds what is known while compiling (comparisons and
arithmetic of numbers, `not`, `and`/`or` and conditionals with a known operand), so that the
terms a condition rules out disappear.  The terms keep their order and the chain stops
where the loop would (`or` at the first true term, `and` at the first false one), so the
same errors are raised in the same order.
"""
from __future__ import annotations

import ast as pyast
import operator

MAX_TERMS = 12              # values of a range written out
MAX_CHARS = 3000            # code of all the terms together (nested quantifiers multiply)

_ARITH = {pyast.Add: operator.add, pyast.Sub: operator.sub, pyast.Mult: operator.mul,
          pyast.FloorDiv: operator.floordiv, pyast.Mod: operator.mod}
_COMPARE = {pyast.Eq: operator.eq, pyast.NotEq: operator.ne, pyast.Lt: operator.lt,
            pyast.LtE: operator.le, pyast.Gt: operator.gt, pyast.GtE: operator.ge}


def combine(kind: str, terms: list) -> str | None:
    """The written-out quantifier of `kind` over the terms' codes (each already folded),
    or None when too long."""
    if sum(len(t) for t in terms) > MAX_CHARS:
        return None
    parsed = [pyast.parse(t, mode="eval").body for t in terms]
    if kind in ("exists", "forall"):
        stop = kind == "exists"                 # the value that ends the chain
        kept = []
        for t, p in zip(terms, parsed):
            if isinstance(p, pyast.Constant):
                if bool(p.value) == stop:
                    kept.append((repr(stop), pyast.Constant(stop)))
                    break
                continue
            kept.append((t, p))
        if not kept:
            return repr(not stop)
        chain = f" {'or' if stop else 'and'} ".join(f"({t})" for t, _ in kept)
        return f"({chain})" if all(_is_bool(p) for _, p in kept) else f"(not not ({chain}))"
    const, kept = 0, []
    for t, p in zip(terms, parsed):
        if isinstance(p, pyast.Constant) and type(p.value) in (int, bool):
            const += (1 if p.value else 0) if kind == "count" else p.value
        else:
            kept.append(f"(1 if {t} else 0)" if kind == "count" else f"({t})")
    return "(" + " + ".join(kept + ([str(const)] if const or not kept else [])) + ")"


def _is_bool(node) -> bool:
    return isinstance(node, pyast.Compare) or (isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Not)) \
        or (isinstance(node, pyast.Constant) and isinstance(node.value, bool))


def fold(code: str) -> str:
    """`code` with what is known while compiling folded (see the module docstring)."""
    tree = pyast.parse(code, mode="eval")
    return pyast.unparse(_Folder().visit(tree))


class _Folder(pyast.NodeTransformer):
    def visit_BinOp(self, node):
        self.generic_visit(node)
        op = _ARITH.get(type(node.op))
        if op and _num(node.left) and _num(node.right) \
                and not (isinstance(node.op, (pyast.FloorDiv, pyast.Mod)) and node.right.value == 0):
            return pyast.Constant(op(node.left.value, node.right.value))
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.operand, pyast.Constant):
            if isinstance(node.op, pyast.Not):
                return pyast.Constant(not node.operand.value)
            if isinstance(node.op, pyast.USub) and _num(node.operand):
                return pyast.Constant(-node.operand.value)
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) == 1 and _num(node.left) and _num(node.comparators[0]):
            return pyast.Constant(_COMPARE[type(node.ops[0])](node.left.value, node.comparators[0].value))
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        if isinstance(node.test, pyast.Constant):
            return node.body if node.test.value else node.orelse
        return node

    def visit_BoolOp(self, node):
        """Known operands before the first unknown one: a true one is dropped from `and`
        (a false one is its value), and the other way round for `or`."""
        self.generic_visit(node)
        stop = isinstance(node.op, pyast.Or)
        values = list(node.values)
        while values and isinstance(values[0], pyast.Constant):
            if bool(values[0].value) == stop or len(values) == 1:
                return values[0]
            values.pop(0)
        return values[0] if len(values) == 1 else pyast.BoolOp(node.op, values)

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, pyast.Name) and node.func.id == "bool" and len(node.args) == 1 \
                and isinstance(node.args[0], pyast.Constant):
            return pyast.Constant(bool(node.args[0].value))
        return node


def _num(node) -> bool:
    return isinstance(node, pyast.Constant) and type(node.value) in (int, bool)
