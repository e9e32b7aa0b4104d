"""The interpreter's builtin calls: a definition called like a function, a builtin whose
family gives its meaning (`framework.builtins`), and the older builtins evaluated here by
their plain definitions (lines, slides, flanking runs, drops, counting, players)."""
from __future__ import annotations

from framework import builtins
from framework.graph import step_cells
from framework.interpreter.values import LINE_DIRECTIONS, PlayerId, RuleError


class CallsMixin:
    """`Evaluator`'s calls (`e_Call`) and the board walks behind `line`, `slide`, `between`."""

    def e_Call(self, node, s, env):
        f = node.func
        args = [self.eval(a, s, env) for a in node.args]
        if f in self.defines and f not in env:
            if f in self.looping:
                return self.remembered(self.defines[f], args, node, s)
            return self.call(self.defines[f], args, node, s)
        known = builtins.get(f)
        if known is not None and known.interpret is not None:     # the meaning its family gives
            return known.interpret(self, node, args, s)
        if f == "full":
            return all(v != self.c.default_value for v in s.board)
        if f == "count":
            value = self.as_value(args[1])
            return sum(1 for v in s.board if v == value)
        if f == "cells":
            value = self.as_value(args[1])
            return frozenset(c for c, v in zip(self.board_cells, s.board) if v == value)
        if f == "neighbors":
            c, dirs = args
            if c is None:
                return frozenset()
            return frozenset(n for n in step_cells(c, dirs) if self.on_board(n))
        if f == "slide":
            _, c, dirs, v = args
            return self.slide(s, c, dirs, self.as_value(v))
        if f == "between":
            _, c, dirs, v, w = args
            return self.between(s, c, dirs, self.as_value(v), self.as_value(w))
        if f == "drop":
            x = args[1]
            for y in range(self.h - 1, -1, -1):
                if 0 <= x < self.w and self.read(s, (x, y)) == self.c.default_value:
                    return (x, y)
            return None
        if f == "size":
            return len(args[0])
        if f == "cell":
            return (args[0], args[1]) if self.on_board((args[0], args[1])) else None
        if f == "moves":
            return self.legal_count(s, args[0])
        if f == "can_move":
            return self.legal_count(s, args[0], 1) > 0
        if f == "next":
            return PlayerId((args[0] + 1) % self.n)
        if f == "prev":
            return PlayerId((args[0] - 1) % self.n)
        if f == "opponent":
            return PlayerId(1 - args[0])
        if f == "abs":
            return abs(args[0])
        if f == "len":
            return len(args[0])
        if f == "sum":
            return sum(args[0])
        if f in ("min", "max"):
            values = args[0] if len(args) == 1 and isinstance(args[0], tuple) else args
            return min(values) if f == "min" else max(values)
        raise RuleError.at(node.pos, f"the interpreter does not know `{f}`")

    def line(self, s, k, value) -> bool:
        for c in self.cells():
            for dx, dy in LINE_DIRECTIONS:
                if all(self.read(s, (c[0] + i * dx, c[1] + i * dy)) == value for i in range(k)):
                    return True
        return False

    def slide(self, s, c, dirs, value) -> frozenset:
        out = set()
        if c is None:
            return frozenset()
        for dx, dy in dirs:
            x, y = c[0] + dx, c[1] + dy
            while self.on_board((x, y)) and self.read(s, (x, y)) == value:
                out.add((x, y))
                x, y = x + dx, y + dy
        return frozenset(out)

    def between(self, s, c, dirs, value, closing) -> frozenset:
        out = set()
        if c is None:
            return frozenset()
        for dx, dy in dirs:
            run = []
            x, y = c[0] + dx, c[1] + dy
            while self.on_board((x, y)) and self.read(s, (x, y)) == value:
                run.append((x, y))
                x, y = x + dx, y + dy
            if run and self.on_board((x, y)) and self.read(s, (x, y)) == closing:
                out.update(run)
        return frozenset(out)
