"""Name resolution: the symbol tables and the one walk that binds every name.

The global table (players, options, cell values, enumeration values, state variables, the
board) is filled once by the declarations pass through `_declare`; the built-in names
(`true`, `false`, `none`, `mover`, `me`) have a table of their own (`BUILT_IN`), the
direction sets one per check (`Checker.directions`); definitions are kept by name.  Each
local scope is a `Scope`: an action's parameters, its chance variables, a block's `let`
locals, a `for` variable, a quantifier's variable, a definition's parameters (bound to
the caller's arguments).  `resolve(node, scope)` walks an expression once and
returns it with options replaced by their values, definitions expanded and every `Name`
bound to its `Symbol` (`binding(node)`); the later passes (types, effects, rules, folding)
read those bindings and never look a name up by its spelling again.  Resolving a tree
that is already resolved returns it unchanged.

Hygiene by construction: a quantifier's variable (the only binder inside an expression,
so inside a definition) gets a name of its own, `var·N`, when it is declared, and the
names it binds are renamed with it; an argument substituted into a definition can never
be captured by the definition's quantifiers.  No spec name contains `·`.
"""
from __future__ import annotations

from framework.records import dataclass, replace   # the dataclasses module's, made cheaply
from framework import ast
from framework.checker.model import (BUILTINS, DIRECTION_SETS, RESERVED_NAMES, check_name, err)
from framework.errors import did_you_mean

BOUND_MARK = "\u00b7"   # a middle dot: valid inside Python names, never in a spec's NAME
LOCAL_KINDS = ("param", "quant", "local")
SPECIAL = {"true": ("bool", True), "false": ("bool", False), "none": ("none", None),
           "mover": ("mover", None), "me": ("me", None)}


def bound_name(name: str, n: int) -> str:
    """The unique name of the n-th quantifier variable declared while checking a spec."""
    return f"{name}{BOUND_MARK}{n}"


@dataclass(eq=False)
class Symbol:
    name: str                  # as the spec writes it
    kind: str                  # player option value enum var board | param quant local arg |
    #                            bool none mover me dirs | unknown (an error when it is typed)
    info: object = None        # player/value index, option value, (enum type, index), Var,
    #                            a definition argument's tree, the scope an unknown name was met in
    type: str | None = None    # a bound variable's type, set when its domain or value is typed
    code: str | None = None    # a bound variable's name in the checked AST

    @property
    def local(self) -> bool:
        return self.kind in LOCAL_KINDS


class Scope:
    """The names one scope binds, and the scope around it.  A definition's body is resolved
    in a scope of its own behind a barrier: its parameters and quantifiers, then the
    globals; never the variables of the place it is used in (the caller's scope is kept,
    as `caller`, only to name such a variable in the error)."""

    def __init__(self, parent: "Scope | None" = None, barrier: bool = False,
                 caller: "Scope | None" = None, definition: str | None = None):
        self.parent, self.barrier, self.table = parent, barrier, {}
        self.caller, self.definition = caller, definition
        self.in_definition = barrier or (parent is not None and parent.in_definition)

    def child(self) -> "Scope":
        return Scope(self)

    def declare(self, name, kind, type=None, code=None, info=None) -> Symbol:
        sym = Symbol(name, kind, info, type, code or name)
        self.table[name] = sym
        return sym

    def visible(self):
        """The scopes whose names are seen from here, innermost first (up to a barrier)."""
        scope = self
        while scope is not None:
            yield scope
            if scope.barrier:
                return
            scope = scope.parent

    def lookup(self, name) -> Symbol | None:
        for scope in self.visible():
            if name in scope.table:
                return scope.table[name]
        return None

    def __contains__(self, name) -> bool:
        sym = self.lookup(name)
        return sym is not None and sym.kind != "arg"

    def names(self) -> set:
        return {n for scope in self.visible() for n, s in scope.table.items() if s.kind != "arg"}

    def using_definition(self, name) -> str | None:
        """The definition this scope is inside of, when `name` is a variable of a place that
        uses it (directly or through other definitions): the name it cannot see."""
        barrier = next((s for s in self.visible() if s.barrier), None)
        if barrier is None or barrier.caller is None:
            return None
        if barrier.caller.lookup(name) is not None or barrier.caller.using_definition(name):
            return barrier.definition
        return None


# the built-in names' table: the constants, `mover` and `me`
BUILT_IN = {name: Symbol(name, kind, info) for name, (kind, info) in SPECIAL.items()}


class ResolverMixin:
    """The global table and `resolve`; a mixin of `Checker` (framework.checker)."""

    def _declare(self, name, kind, info, pos, what):
        check_name(name, pos, what)
        if name in self.globals or name in DIRECTION_SETS or name in RESERVED_NAMES or name in self.directions:
            prev = self.globals.get(name)
            if prev and kind in ("player", "value") and prev.kind in ("player", "value") and prev.kind != kind:
                self.globals[name] = Symbol(name, "player", prev.info if prev.kind == "player" else info)
                return
            raise err(pos, f"duplicate name `{name}`",
                      f"`{name}` is already {_article(prev.kind) if prev else 'a built-in name'}; pick another")
        self.globals[name] = Symbol(name, kind, info)

    def binding(self, node) -> Symbol | None:
        """The symbol a resolved `Name` is bound to."""
        return self.bindings.get(id(node))

    def is_local(self, node) -> bool:
        sym = self.binding(node)
        return sym is not None and sym.local

    def resolve(self, node, scope: Scope):
        if self.resolved.get(id(node)) is node:
            return node
        new = self._resolve(node, scope)
        self.resolved[id(new)] = new
        return new

    def _resolve(self, node, scope):
        if isinstance(node, ast.Name):
            return self._resolve_name(node, scope)
        if isinstance(node, ast.Call):
            args = tuple(self.resolve(a, scope) for a in node.args)
            shadowed = not scope.in_definition and node.func in scope    # a local hides a definition
            if node.func in self.defines and not shadowed:
                return self._expand(self.defines[node.func], args, node, scope)
            return replace(node, args=args)
        if isinstance(node, ast.Quant):
            domain = self.resolve(node.domain, scope)
            inner = scope.child()
            self.quantifiers += 1
            sym = inner.declare(node.var, "quant", code=bound_name(node.var, self.quantifiers))
            new = replace(node, var=sym.code, domain=domain, body=self.resolve(node.body, inner))
            self.binders[id(new)] = sym
            return new
        if isinstance(node, ast.Binary):
            folded = replace(node, left=self.resolve(node.left, scope), right=self.resolve(node.right, scope))
            if node.op in ("+", "-", "*", "//", "%") and isinstance(folded.left, ast.Num) \
                    and isinstance(folded.right, ast.Num) and folded.right.value != 0:
                return ast.Num(self.fold(folded), node.pos)
            return folded
        if isinstance(node, ast.Unary):
            return replace(node, operand=self.resolve(node.operand, scope))
        if isinstance(node, ast.Cond):
            return replace(node, test=self.resolve(node.test, scope), then=self.resolve(node.then, scope),
                           else_=self.resolve(node.else_, scope))
        if isinstance(node, ast.Index):
            return replace(node, base=self.resolve(node.base, scope), index=self.resolve(node.index, scope))
        if isinstance(node, (ast.TupleExpr, ast.ListExpr)):
            return replace(node, items=tuple(self.resolve(i, scope) for i in node.items))
        if isinstance(node, ast.Range):
            return replace(node, lo=self.resolve(node.lo, scope), hi=self.resolve(node.hi, scope))
        return node

    def _resolve_name(self, node, scope):
        sym = scope.lookup(node.id)
        if sym is None:
            g = self.globals.get(node.id)
            if g and g.kind == "option":
                v = g.info
                return ast.ListExpr(tuple(ast.Num(x, node.pos) for x in v), node.pos) if isinstance(v, tuple) \
                    else ast.Num(v, node.pos) if not isinstance(v, bool) else self._constant_name(v, node.pos)
            if node.id in self.defines:
                return self._expand(self.defines[node.id], (), node, scope)
            sym = self._global(node.id, scope)
            if sym.kind == "unknown" and scope.using_definition(node.id):
                raise self.unknown_name(node, sym)
        if sym.kind == "arg":
            return sym.info
        return self.bind(node, sym)

    def bind(self, node: ast.Name, sym: Symbol) -> ast.Name:
        """A copy of `node` bound to `sym` (renamed to a bound variable's unique name)."""
        new = replace(node, id=sym.code) if sym.local else replace(node)
        self.bindings[id(new)] = sym
        self.resolved[id(new)] = new
        return new

    def _constant_name(self, value: bool, pos):
        node = ast.Name("true" if value else "false", pos)
        self.bindings[id(node)] = BUILT_IN[node.id]
        return node

    def _global(self, name, scope) -> Symbol:
        if name in BUILT_IN:
            return BUILT_IN[name]
        if name in self.directions:
            return Symbol(name, "dirs", name)
        return self.globals.get(name) or Symbol(name, "unknown", scope)

    def unknown_name(self, node, sym) -> Exception:
        """The error for a name that is bound to nothing (raised when it is typed)."""
        name = node.id
        if name in BUILTINS or name in self.defines:
            return err(node.pos, f"`{name}` is a function", f"call it: {name}(...)")
        if name in ("cell", "player"):
            return err(node.pos, f"`{name}` is a type", f"use it as a domain: `x in {name}`")
        if name in DIRECTION_SETS and self.out.graph is not None:
            return err(node.pos, f"`{name}` is a direction set of grids; a graph board has only `links`",
                       "its points' neighbours are its links: neighbors(c, links)")
        definition = sym.info.using_definition(name)
        if definition:
            d = self.defines[definition]
            return err(node.pos, f"definition `{definition}` cannot see `{name}`, a variable of where "
                       f"it is used", f"pass it as a parameter: `{definition}({', '.join(d.params + (name,))})` "
                       "(a definition sees only its parameters, the state, options and constants)")
        known = set(self.globals) | sym.info.names() | set(self.directions) | {"mover", "none", "true", "false"}
        return err(node.pos, f"unknown name `{name}`", did_you_mean(name, known))

    def check_call_of(self, d: ast.Define, at):
        """A use of definition `d` at `at` (a `Call` or a `Name`): as many arguments as it has
        parameters, no recursion, not nested too deeply."""
        args = at.args if isinstance(at, ast.Call) else ()
        if len(args) != len(d.params):
            raise err(at.pos, f"`{d.name}` takes {len(d.params)} argument(s), got {len(args)}",
                      f"write {d.name}({', '.join(d.params)})" if d.params else f"write {d.name}")
        if d.name in self.inlining:
            raise err(at.pos, f"definition `{d.name}` uses itself",
                      "definitions cannot be recursive; use a quantifier (or a `for`) instead")
        if len(self.inlining) > 50:
            raise err(at.pos, "definitions nested too deeply")

    def _expand(self, d: ast.Define, args, at, scope):
        if d.effects is not None:
            raise err(at.pos, f"`{d.name}` is an effect definition, not a value",
                      f"run it as an effect: `{d.name}({', '.join(d.params)})` on a line of its own")
        self.check_call_of(d, at)
        self.inlining.append(d.name)
        try:
            inner = Scope(barrier=True, caller=scope, definition=d.name)
            for param, arg in zip(d.params, args):
                inner.declare(param, "arg", info=arg)
            body = self.resolve(d.body, inner)
            if not isinstance(body, (ast.Name, ast.Num)) and all(body is not a for a in args):
                self.out.expansions[id(body)] = (body, d.name, tuple(args))   # compiler/outline.py
            return body
        finally:
            self.inlining.pop()

    def mentions(self, node, name) -> bool:
        return _mentions(self.resolve(node, Scope()), name)


def _mentions(node, name) -> bool:
    if isinstance(node, ast.Name):
        return node.id == name
    if isinstance(node, ast.Quant) and node.var == name:
        return _mentions(node.domain, name)
    for value in getattr(node, "__dataclass_fields__", {}):
        if value == "pos":
            continue
        child = getattr(node, value)
        children = child if isinstance(child, tuple) else (child,)
        if any(_mentions(c, name) for c in children if hasattr(c, "__dataclass_fields__")):
            return True
    return False


def _article(kind: str) -> str:
    """`kind` with its indefinite article: "an option", "a state variable"."""
    return ("an " if kind[:1] in "aeiou" else "a ") + kind
