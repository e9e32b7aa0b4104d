"""Constant folding: the value of an expression made of numbers, options and arithmetic.

`fold(node)` computes it (or raises `NotConstant`), `constant(node, what, kind)` demands
one (a board size, a range bound, an initial list) with an error saying what must be
constant, `is_constant(node)` asks.  The resolver folds `number op number` as it goes.
"""
from __future__ import annotations

import math

from framework import ast
from framework.checker.model import err
from framework.checker.symbols import Scope


class NotConstant(Exception):
    def __init__(self, pos=None):
        self.pos = pos


class FoldingMixin:
    """Folding; a mixin of `Checker` (framework.checker)."""

    def is_constant(self, node) -> bool:
        try:
            self.fold(node)
            return True
        except NotConstant:
            return False

    def constant(self, node, what, kind):
        node = self.resolve(node, Scope())
        try:
            value = self.fold(node)
        except NotConstant as nc:
            raise err(nc.pos or node.pos, f"{what} must be a constant",
                      "use numbers and options only") from None
        ok = {"int": lambda v: isinstance(v, int) and not isinstance(v, bool),
              "list": lambda v: isinstance(v, tuple),
              "num": lambda v: isinstance(v, (int, float))}[kind]
        if not ok(value):
            raise err(node.pos, f"{what} must be {'a whole number' if kind == 'int' else kind}, got {value!r}")
        return value

    def fold(self, node):
        """Value of a resolved constant expression (options are numbers by now), else NotConstant."""
        if isinstance(node, ast.Num):
            return node.value
        if isinstance(node, ast.Name):
            sym = self.binding(node)
            if sym is not None and sym.kind == "bool":
                return sym.info
            raise NotConstant(node.pos)
        if isinstance(node, ast.ListExpr):
            return tuple(self.fold(i) for i in node.items)
        if isinstance(node, ast.Unary) and node.op == "-":
            return -self.fold(node.operand)
        if isinstance(node, ast.Binary) and node.op in ("+", "-", "*", "//", "%", "/"):
            a, b = self.fold(node.left), self.fold(node.right)
            if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
                raise NotConstant(node.pos)
            if node.op in ("//", "%", "/") and b == 0:
                raise err(node.pos, "division by zero")
            if node.op == "*" and max(abs(a), abs(b)) > 10**9:
                raise err(node.pos, "constant too large")
            value = {"+": a + b, "-": a - b, "*": a * b, "//": a // b if b else 0,
                     "%": a % b if b else 0, "/": a / b if b else 0}[node.op]
            if isinstance(value, float) and not math.isfinite(value):   # never `inf` in code
                raise err(node.pos, "this constant is too large for a number (it overflows)",
                          "use smaller numbers or options")
            return value
        if isinstance(node, ast.Call) and node.func in ("min", "max", "len", "sum", "abs") and node.args:
            vals = [self.fold(a) for a in node.args]
            if node.func == "len" and len(vals) == 1 and isinstance(vals[0], tuple):
                return len(vals[0])
            if node.func == "sum" and len(vals) == 1 and isinstance(vals[0], tuple):
                return sum(vals[0])
            if node.func == "abs" and len(vals) == 1 and isinstance(vals[0], (int, float)):
                return abs(vals[0])
            if node.func in ("min", "max"):
                flat = list(vals[0]) if len(vals) == 1 and isinstance(vals[0], tuple) else vals
                if flat and all(isinstance(v, (int, float)) for v in flat):
                    return min(flat) if node.func == "min" else max(flat)
        if isinstance(node, ast.Index):
            base, idx = self.fold(node.base), self.fold(node.index)
            if isinstance(base, tuple) and isinstance(idx, int) and 0 <= idx < len(base):
                return base[idx]
        raise NotConstant(node.pos)
