"""The interpreter's effects: a move's effects run in order on a `Snapshot`, with blocks,
conditionals, loops, `let` locals, `continue`, effect definitions run by name, and assignments
checked against the declared ranges."""
from __future__ import annotations

import math
from dataclasses import replace

from framework import ast, runtime
from framework.interpreter.values import _UNSET, RuleError, Snapshot


class EffectsMixin:
    """`Evaluator`'s effects: `run` applies a list of effects to a snapshot."""

    def run(self, effects, s: Snapshot, env: dict, turn: list) -> Snapshot:
        """`s` after `effects` in order (each sees the earlier ones); `turn[0]` receives an
        assignment to `turn`, `turn[1]` a `continue` as (step name, argument values).
        Local variables (`let`) live in a private copy of `env`."""
        return self.block(effects, s, dict(env), turn)

    def block(self, effects, s, env, turn):
        """A block of effects: its `let` variables leave `env` when it ends."""
        declared = []
        for e in effects:
            s = self.effect(e, s, env, turn, declared)
        for name in declared:
            del env[name]
        return s

    def effect(self, e, s, env, turn, declared):
        if isinstance(e, tuple):
            return self.block(e, s, env, turn)
        if isinstance(e, ast.IfEffect):
            return self.block(e.then if self.eval(e.test, s, env) else e.else_, s, env, turn)
        if isinstance(e, ast.ForEffect):
            saved = env.get(e.var, _UNSET)
            for x in self.domain(e.domain, s, env):
                env[e.var] = x
                s = self.block(e.body, s, env, turn)
            if saved is _UNSET:
                env.pop(e.var, None)
            else:
                env[e.var] = saved
            return s
        if isinstance(e, ast.LetEffect):
            env[e.name] = self.eval(e.value, s, env)
            declared.append(e.name)
            return s
        if isinstance(e, ast.ContinueEffect):
            turn[1] = (e.step, tuple(self.eval(a, s, env) for a in e.args))
            return s
        if isinstance(e, ast.Call):          # an effect definition: its effects see its parameters only
            define = self.defines[e.func]
            args = [self.eval(a, s, env) for a in e.args]
            return self.block(define.effects, s, dict(zip(define.params, args)), turn)
        if isinstance(e.target, ast.Name) and e.target.id in env:         # a local variable
            env[e.target.id] = self._combine(e, env[e.target.id], self.eval(e.value, s, env))
            return s
        return self.assign(e, s, env, turn)

    def assign(self, e: ast.Assign, s, env, turn):
        t = e.target
        value = self.eval(e.value, s, env)
        if isinstance(t, ast.Name) and t.id == "turn" and t.id not in self.vars:
            turn[0] = value
            return s
        if isinstance(t, ast.Index) and self.is_board(t.base):
            where = self.eval(t.index, s, env)
            value = self.as_value(value)
            cells = where if isinstance(where, frozenset) else (where,)
            board = list(s.board)
            for c in cells:
                if not self.on_board(c):
                    runtime.off_board(t.pos)
                board[c[1] * self.w + c[0]] = value
            return replace(s, board=tuple(board))
        name = t.id if isinstance(t, ast.Name) else t.base.id
        var = self.vars[name]
        if isinstance(t, ast.Name):
            new = self._combine(e, s.get(name), value)
            self._check(var, new, e)
            return s.with_var(name, new)
        items = list(s.get(name))
        index = self.eval(t.index, s, env)
        if not isinstance(index, int) or not 0 <= index < len(items):
            runtime.bad_index(items, index, name, t.pos)
        items[index] = self._combine(e, items[index], value)
        self._check(var, items[index], e)
        return s.with_var(name, tuple(items))

    @staticmethod
    def _combine(e, old, value):
        return value if e.op == "=" else old + value if e.op == "+=" else old - value

    def _check(self, var, value, e):
        if var.type == "int" and not (var.lo <= value <= var.hi):
            runtime.out_of_range((var.name, self.declared[var.name]), value, var.lo, var.hi)
        if isinstance(value, float) and not math.isfinite(value):
            raise RuleError.at(e.pos, f"`{var.name}` is not a finite number")
