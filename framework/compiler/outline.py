"""Compact code: a large definition is written once, as a function, and called.

The checker inlines a definition at each of its calls and records each inlined body with
its argument nodes (`Checked.expansions`: every argument node stands for its parameter
wherever it occurs in the body).  Where the compiler meets such a body of at least
OUTLINE_NODES nodes, it writes the body once as a module-level function

    _def<k>(the fields it reads, d_0, d_1, ...)    # d_i: the i-th argument's value

with each argument compiled as its parameter, and a call in its place.  Bodies that compile
to the same text share one function: the body of a call whose arguments the compiler folds
(a constant player, the mover in code written for one mover) is its own function.  A body
stays inline when an argument's code could raise a run-time error (a function call
evaluates its arguments first, where the inlined body might not have evaluated them at all)
or when the body's code would read a local of its caller by another way than its arguments.
"""
from __future__ import annotations

import ast as pyast
import re

from framework import ast

OUTLINE_NODES = 24                  # the smallest inlined body written as a function
_CALLER_LOCAL = "\0"                # what the caller's locals are called while a body is written
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class OutlineMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def outline(self, node, env):
        """The call of the function written for the inlined definition body `node`, or None
        when it is written inline."""
        entry = self.c.expansions.get(id(node))
        if entry is None or entry[0] is not node or _size(node, self.node_sizes) < OUTLINE_NODES:
            return None
        args = entry[2]
        made = self.outline_bodies.get((id(node), self.mover_const), False)
        if made is False:           # the body, written once per node (and player to move)
            made = self.outline_bodies[id(node), self.mover_const] = self._outline_body(node, args, env)
        if made is None:
            return None
        params, body, used = made
        values = [self.expr(args[i], env) for i in used]
        if any("POSITIONS[" in v for v in values):
            return None
        name = self.outlined.get((params, body))
        if name is None:
            name = self.outlined[params, body] = f"_def{len(self.outlined)}"
            self.outlined_at[name] = next((d.pos for d in self.c.spec.defines if d.name == entry[1]), None)
            self.outlined_source.append((name, params, body))
        callers = [f if f != "mover" else self.mover_code for f in params[:len(params) - len(used)]]
        return f"{name}({', '.join(callers + values)})"

    def outlined_lines(self, text: str) -> list:
        """The source of the functions the module's `text` calls (some were written for
        code that was then discarded, e.g. a probe of per-mover code).  A function calls
        only functions written before it, so one pass from the last keeps the callees."""
        called, lines = set(_IDENT.findall(text)), []
        for name, params, body in reversed(self.outlined_source):
            if name in called:
                called.update(_IDENT.findall(body))
                lines[:0] = [f"def {name}({', '.join(params)}):"] + _statements(body) + [""]
        return lines

    def _outline_body(self, node, args, env):
        """(parameters, the body's code, the indexes of the arguments it reads), or None when
        the body would read a local of its caller."""
        saved = self.subst, self.tmp, self.mover_code, self.walrus_ok
        self.subst = {id(a): f"d_{i}" for i, a in enumerate(args)}
        self.tmp, self.mover_code, self.walrus_ok = 0, "mover", True
        try:
            body = getattr(self, "x_" + type(node).__name__)(node, dict.fromkeys(env, _CALLER_LOCAL))
        finally:
            self.subst, self.tmp, self.mover_code, self.walrus_ok = saved
        if _CALLER_LOCAL in body:
            return None
        names = set(_IDENT.findall(body))
        used = [i for i in range(len(args)) if f"d_{i}" in names]
        return tuple(f for f in self.fields if f in names) + tuple(f"d_{i}" for i in used), body, used


def _statements(body: str) -> list:
    """The lines of a function returning the expression `body`: `return body`, or when
    `body` is `any(E for x in D if C ...)` / `all(...)` (nested in the same kind, as
    `exists ... exists ...` is written), plain loops that return at the first witness, which
    Python runs several times faster than a generator per quantifier."""
    tree = pyast.parse(body, mode="eval").body
    kind = _quantifier(tree)
    if kind is None:
        return [f"    return {body}"]
    lines, depth = [], 1
    while _quantifier(tree) == kind:
        for comp in tree.args[0].generators:
            lines.append("    " * depth + f"for {pyast.unparse(comp.target)} in {pyast.unparse(comp.iter)}:")
            depth += 1
            for cond in comp.ifs:
                lines.append("    " * depth + f"if {pyast.unparse(cond)}:")
                depth += 1
        tree = tree.args[0].elt
    test = pyast.unparse(tree)
    lines += ["    " * depth + (f"if {test}:" if kind == "any" else f"if not ({test}):"),
              "    " * (depth + 1) + f"return {kind == 'any'}", f"    return {kind != 'any'}"]
    return lines


def _quantifier(node):
    """'any' / 'all' for a call of it on one generator expression (no async), else None."""
    if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id in ("any", "all") \
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], pyast.GeneratorExp) \
            and not any(comp.is_async for comp in node.args[0].generators):
        return node.func.id
    return None


def _size(node, sizes: dict) -> int:
    """The number of AST nodes of an expression (remembered by node)."""
    known = sizes.get(id(node))
    if known is not None and known[0] is node:
        return known[1]
    total = 1
    for name in getattr(node, "__dataclass_fields__", ()):
        if name == "pos":
            continue
        child = getattr(node, name)
        for c in child if isinstance(child, tuple) else (child,):
            if isinstance(c, (ast.Num, ast.Name)) or hasattr(c, "__dataclass_fields__"):
                total += _size(c, sizes)
    sizes[id(node)] = (node, total)
    return total
