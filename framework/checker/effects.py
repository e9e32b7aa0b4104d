"""Checks of effects: assignments, `if`, `for`, `let` locals and `continue`.

An effect block is a scope of its own (a `let` puts its variable in it for the rest of the
block, a `for` opens one for its variable); an assignment's target is looked up in the
scopes and the global table: a state variable, a list element, a board cell, `turn` or a
local variable.  `continue step(args)` is recorded here and checked against the step by
the moves pass (framework.checker.moves) once every schema is known.
"""
from __future__ import annotations

from dataclasses import replace

from framework import ast
from framework.checker.model import DIRECTION_SETS, NUMERIC, RESERVED_NAMES, check_name, describe, err
from framework.checker.symbols import Scope, bound_name
from framework.errors import did_you_mean

LOCAL_WORDS = {"local": "a local variable", "quant": "a loop variable"}
GLOBAL_WORDS = {"var": "a state variable", "option": "an option", "player": "a player", "board": "the board",
                "value": "a cell value", "enum": "an enumeration value"}


class EffectsMixin:
    """Effects; a mixin of `Checker` (framework.checker)."""

    def effect_block(self, effects, scope, where) -> tuple:
        """Effects in order: a `let` puts its variable in scope for the rest of the block."""
        scope = scope.child()
        out = []
        for e in effects:
            checked = self.effects(e, scope, where)
            out.extend(checked) if isinstance(checked, list) else out.append(checked)
        return tuple(out)

    def effects(self, e, scope, where):
        if isinstance(e, ast.Assign):
            return self._assign(e, scope, where)
        if isinstance(e, ast.IfEffect):
            test = self.expect(e.test, scope, "bool", "condition", where=where)
            return replace(e, test=test, then=self.effect_block(e.then, scope, where),
                           else_=self.effect_block(e.else_, scope, where))
        if isinstance(e, ast.ForEffect):
            check_name(e.var, e.pos, "variable")
            domain, t = self.domain(e.domain, scope, "`for` domain", where)
            self.domain_size(domain, t)
            inner = scope.child()
            inner.declare(e.var, "quant", t)
            return replace(e, domain=domain, body=self.effect_block(e.body, inner, where))
        if isinstance(e, ast.LetEffect):
            return self._let(e, scope, where)
        if isinstance(e, ast.ContinueEffect):
            return self._continue(e, scope, where)
        if isinstance(e, ast.Call):
            return self._run_definition(e, scope, where)
        raise err(getattr(e, "pos", None), "unsupported effect")

    def _assign(self, e, scope, where):
        target = e.target
        local = scope.lookup(target.id) if isinstance(target, ast.Name) else None
        if local is not None and local.kind == "local":
            return self._assign_local(e, scope, where)
        if isinstance(target, ast.Name):
            if target.id == "turn":
                if e.op != "=":
                    raise err(e.pos, "`turn` can only be set with `=`")
                value = self.expect(e.value, scope, "player", "turn", where=where)
                self.out.kinds[id(target)] = ("turn", None)
                return replace(e, value=value)
            g = self.globals.get(target.id)
            if target.id == "mover":
                raise err(target.pos, "cannot assign to `mover`",
                          "set `turn = PLAYER` to choose who moves next")
            if local is not None or g is None or g.kind != "var":
                what = "a parameter" if local is not None else f"a {g.kind}" if g else "unknown"
                if g is None and local is None:
                    raise err(target.pos, f"unknown state variable `{target.id}`",
                              did_you_mean(target.id, [k for k, v in self.globals.items() if v.kind == "var"]
                                           + ["turn"]) or ("an effect definition sees its parameters and the "
                                                           "state, not the variables of the action that runs it"
                                                           if scope.in_definition else None))
                raise err(target.pos, f"cannot assign to `{target.id}`: it is {what}",
                          "only state variables, board cells and `turn` can be assigned")
            var = g.info
            if var.is_array:
                raise err(target.pos, f"`{var.name}` is a list; assign one element: {var.name}[i] = ...")
            target = self.bind(target, g)
            self.type(target, scope, where)
            want = var.type
        elif isinstance(target, ast.Index):
            base = target.base
            if isinstance(base, ast.Name) and base.id == "board":
                if not self.out.has_board:
                    raise err(base.pos, "this spec has no board")
                target = replace(target, base=self.resolve(base, scope), index=self.resolve(target.index, scope))
                self.type(target.base, scope, where)
                it = self.type(target.index, scope, where)
                if it not in ("cell", "cellset"):
                    raise err(target.index.pos, f"the board is indexed by a cell or a set of cells, not {describe(it)}")
                if e.op != "=":
                    raise err(e.pos, "board cells can only be set with `=`")
                value = self.expect(e.value, scope, "value", "a board cell", where=where)
                return replace(e, target=target, value=value)
            target = self.resolve(target, scope)
            shadowed = self.is_local(target.base) and getattr(self.globals.get(target.base.id), "kind", "") == "var"
            if shadowed:                         # a parameter or loop variable hides the state variable
                self._index(target, scope, where)             # raises: `x` cannot be indexed
            if not self._is_var(target.base):
                raise err(target.pos, "only state variables, board cells and `turn` can be assigned")
            var = self.binding(target.base).info
            want = self._index(target, scope, where)
        else:
            raise err(e.pos, "cannot assign to this")
        if e.op in ("+=", "-=") and want not in NUMERIC:
            raise err(e.pos, f"`{e.op}` needs a number variable")
        value = self.expect(e.value, scope, want if e.op == "=" else "int", f"value for `{var.name}`", where=where)
        if var.type == "int" and isinstance(value, ast.Num) and e.op == "=":
            self._in_range(var, value.value, value.pos)
        return replace(e, target=target, value=value)

    def _let(self, e: ast.LetEffect, scope, where):
        """`let x = E`: x is new here, typed by E, and in scope to the end of its block."""
        check_name(e.name, e.pos, "local variable")
        local = scope.lookup(e.name)
        if local is not None:
            raise err(e.pos, f"`{e.name}` is already {LOCAL_WORDS.get(local.kind, 'a parameter')} here",
                      "pick another name for the local variable")
        g = self.globals.get(e.name)
        if g is not None or e.name in self.defines or e.name in DIRECTION_SETS or e.name in RESERVED_NAMES:
            what = GLOBAL_WORDS.get(g.kind, f"a {g.kind}") if g else \
                "a definition" if e.name in self.defines else "a built-in name"
            raise err(e.pos, f"`let {e.name}`: `{e.name}` is already {what}",
                      "a local variable needs a name of its own")
        value = self.resolve(e.value, scope)
        t = self.type(value, scope, where)
        if t in (None, "none", "board", "dirs", "array"):
            raise err(value.pos, f"`let {e.name}` needs a value of a known kind (a number, a condition, "
                      f"a player, a cell, a set of cells or a cell value), not {describe(t)}")
        code = None
        if scope.in_definition:              # in an effect definition: a name of its own
            self.quantifiers += 1
            code = bound_name(e.name, self.quantifiers)
        scope.declare(e.name, "local", t, code=code)
        return replace(e, name=code or e.name, value=value)

    def _run_definition(self, e: ast.Call, scope, where) -> list:
        """`name(a, b)` runs an effect definition: each parameter becomes a local variable
        holding its argument's value (a `let` of a name of its own), then the definition's
        effects follow, checked in a scope that sees only the parameters and the globals."""
        d = self.defines.get(e.func)
        if d is None or d.effects is None:
            effect_defs = [n for n, x in self.defines.items() if x.effects is not None]
            if d is not None:
                raise err(e.pos, f"`{e.func}` is a definition of a value, not of effects",
                          "an effect is an assignment, `if`, `for`, `let`, `continue` or a call of an "
                          "effect definition (`name(p): {then: EFFECTS}`)")
            raise err(e.pos, f"unknown effect definition `{e.func}`", did_you_mean(e.func, effect_defs)
                      or "declare it under `define:` as `name(p): {then: EFFECTS}` (.game: "
                      "`define name(p) then EFFECTS`)")
        self.check_call_of(d, e)
        inner = Scope(barrier=True, caller=scope, definition=d.name)
        out = []
        for param, arg in zip(d.params, e.args):
            value = self.resolve(arg, scope)
            t = self.type(value, scope, where)
            if t in (None, "none", "board", "dirs", "array"):
                raise err(value.pos, f"`{d.name}`'s parameter `{param}` needs a value of a known kind (a number, "
                          f"a condition, a player, a cell, a set of cells or a cell value), not {describe(t)}")
            self.quantifiers += 1
            sym = inner.declare(param, "local", t, code=bound_name(param, self.quantifiers))
            out.append(ast.LetEffect(sym.code, value, arg.pos))
        self.inlining.append(d.name)
        try:
            out.extend(self.effect_block(d.effects, inner, where))
        finally:
            self.inlining.pop()
        return out

    def _assign_local(self, e: ast.Assign, scope, where):
        target = self.resolve(e.target, scope)
        t = self.binding(target).type
        self.type(target, scope, where)
        if e.op != "=" and t not in NUMERIC:
            raise err(e.pos, f"`{e.op}` needs a number, and `{e.target.id}` is {describe(t)}")
        want = t if e.op == "=" else "int"
        value = self.expect(e.value, scope, "num" if t == "num" else want, f"value for `{e.target.id}`",
                            where=where, allow_none=t == "cell")
        if t == "int" and self.out.types.get(id(value)) == "num":
            raise err(value.pos, f"`{e.target.id}` holds whole numbers (it started as one)",
                      "use `//` for whole-number division")
        return replace(e, target=target, value=value)

    def _continue(self, e: ast.ContinueEffect, scope, where):
        """`continue step(args)`: checked against the step once every schema is known."""
        if where != "action":
            raise err(e.pos, "`continue` only goes in the effects of an action or a step",
                      "a compound move goes on from one of its steps")
        args = tuple(self.resolve(a, scope) for a in e.args)
        types = [self.type(a, scope, where) for a in args]
        e = replace(e, args=args)
        self.continues.append((e, types))
        return e
