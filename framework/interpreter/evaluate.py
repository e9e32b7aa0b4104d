"""The meaning of expressions and effects, read straight off the checked AST.

A state here is a plain `Snapshot`: the board as a tuple of cell-value indices (row-major),
the state variables by name, the player to move.  A cell is a (column, row) tuple or None, a
set of cells a frozenset, a player and a cell value their indices.  Every rule is computed
the obvious way, with no tables, bit tricks or specialisation: this is the reference the
compiled games are tested against (`compiled_agrees_with_interpreter`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from framework import ast, builtins
from framework.errors import SpecError

DIRECTIONS = {
    "orthogonal": ((1, 0), (-1, 0), (0, 1), (0, -1)),
    "diagonal": ((1, 1), (-1, -1), (1, -1), (-1, 1)),
    "knight": ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)),
}
DIRECTIONS["queen"] = DIRECTIONS["king"] = DIRECTIONS["orthogonal"] + DIRECTIONS["diagonal"]
DIRECTIONS["hex"] = DIRECTIONS["orthogonal"] + ((1, -1), (-1, 1))      # a rhombus of hexagons
LINE_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
_UNSET = object()


class PlayerId(int):
    """A player (its index), tagged so that it can stand for the cell value of its name."""


class CellValue(int):
    """A cell value (its index in the board's list of values)."""


class RuleError(SpecError):
    """A rule that cannot be evaluated (an index off a list, a division by zero, a value out
    of its declared range): the interpreter's run-time error."""


@dataclass(frozen=True)
class Snapshot:
    board: tuple            # cell-value index per cell, row-major; () without a board
    vars: tuple             # (name, value) pairs in declaration order
    mover: int

    def get(self, name):
        for key, value in self.vars:
            if key == name:
                return value
        raise KeyError(name)

    def with_var(self, name, value) -> "Snapshot":
        return replace(self, vars=tuple((k, value if k == name else v) for k, v in self.vars))


class Evaluator:
    """Evaluates the rules of one game as written: names are looked up when they are read
    (the parameters and bound variables in scope, then the spec's declarations), and a
    definition is called like a function, its body evaluated with only its parameters in
    scope; nothing is inlined, so nothing can be captured.  The checked spec
    (`framework.checker.Checked`) gives only the static facts: players, values, sizes,
    options, the variables' types and initial values."""

    def __init__(self, checked, legal_count):
        self.c = checked
        self.spec = checked.spec
        self.n = len(checked.players)
        self.w, self.h = checked.width, checked.height
        self.player_value = {i: checked.values.index(p) for i, p in enumerate(checked.players)
                             if p in checked.values}
        self.vars = {v.name: v for v in checked.variables}
        self.defines = {d.name: d for d in self.spec.defines}
        self.board_name = self.spec.board.name if self.spec.board is not None else None
        self.legal_count = legal_count          # (snapshot, player, at_most) -> number of legal actions
        self.depth = 0
        self.memo = {}                          # (definition without parameters, snapshot) -> value

    # ----------------------------------------------------------------- cells and board
    def cells(self):
        return [(x, y) for y in range(self.h) for x in range(self.w)]

    def on_board(self, c) -> bool:
        return c is not None and 0 <= c[0] < self.w and 0 <= c[1] < self.h

    def read(self, s: Snapshot, c) -> CellValue:
        return CellValue(s.board[c[1] * self.w + c[0]] if self.on_board(c) else -1)

    def as_value(self, value):
        """A player used where a cell value is expected stands for the value of its name."""
        if isinstance(value, PlayerId):
            return CellValue(self.player_value.get(value, -1))
        return value

    # ----------------------------------------------------------------- expressions
    def eval(self, node, s: Snapshot, env: dict):
        method = getattr(self, "e_" + type(node).__name__)
        return method(node, s, env)

    def e_Num(self, node, s, env):
        return node.value

    def e_Name(self, node, s, env):
        name = node.id
        if name in env:
            return env[name]
        if name in ("true", "false"):
            return name == "true"
        if name == "none":
            return None
        if name == "mover":
            return PlayerId(s.mover)
        if name in DIRECTIONS:
            return DIRECTIONS[name]
        if name in self.c.directions:          # the spec's own direction sets, as written
            return self.c.directions[name]
        if name in self.c.options:
            value = self.c.options[name]
            return tuple(value) if isinstance(value, list) else value
        if name in self.c.players:
            return PlayerId(self.c.players.index(name))
        if name in self.c.values:
            return CellValue(self.c.values.index(name))
        if name in self.c.enums:
            return self.c.enums[name][1]
        if name in self.vars:
            return s.get(name)
        if name == self.board_name:
            return s.board
        if name in self.defines:           # a definition without parameters: a function of the state
            key = (name, s)
            if key not in self.memo:
                if len(self.memo) >= 4096:
                    self.memo.clear()
                self.memo[key] = self.call(self.defines[name], [], node, s)
            return self.memo[key]
        raise RuleError.at(node.pos, f"the interpreter cannot read `{name}`")

    def call(self, define, args, node, s):
        """A definition called with argument values: its body sees its parameters only."""
        if self.depth > 200:
            raise RuleError.at(node.pos, f"`{define.name}` calls itself")
        self.depth += 1
        try:
            return self.eval(define.body, s, dict(zip(define.params, args)))
        finally:
            self.depth -= 1

    def e_TupleExpr(self, node, s, env):
        return tuple(self.eval(i, s, env) for i in node.items)

    def e_ListExpr(self, node, s, env):
        return tuple(self.eval(i, s, env) for i in node.items)

    def e_Unary(self, node, s, env):
        v = self.eval(node.operand, s, env)
        return (not v) if node.op == "not" else -v

    def e_Cond(self, node, s, env):
        return self.eval(node.then if self.eval(node.test, s, env) else node.else_, s, env)

    def e_Binary(self, node, s, env):
        op = node.op
        if op == "and":
            return bool(self.eval(node.left, s, env)) and bool(self.eval(node.right, s, env))
        if op == "or":
            return bool(self.eval(node.left, s, env)) or bool(self.eval(node.right, s, env))
        a, b = self.eval(node.left, s, env), self.eval(node.right, s, env)
        if op in ("==", "!=", "<", "<=", ">", ">="):
            if isinstance(a, CellValue) or isinstance(b, CellValue):
                a, b = self.as_value(a), self.as_value(b)
            if op == "==":
                return a == b
            if op == "!=":
                return a != b
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        if op == "in":
            return a in b
        if op == "notin":
            return a not in b
        if op in ("|", "&") or (op == "-" and isinstance(a, frozenset)):
            return a | b if op == "|" else a & b if op == "&" else a - b
        if op in ("/", "//", "%") and b == 0:
            raise RuleError.at(node.pos, "division by zero in a rule")
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b,
                "//": lambda: a // b, "%": lambda: a % b}[op]()

    def is_board(self, node) -> bool:
        board = self.c.spec.board
        return isinstance(node, ast.Name) and board is not None and node.id == board.name

    def e_Index(self, node, s, env):
        index = self.eval(node.index, s, env)
        if self.is_board(node.base):                              # board[c]
            return self.read(s, index)
        base = self.eval(node.base, s, env)
        if not isinstance(index, int) or not 0 <= index < len(base):
            raise RuleError.at(node.pos, f"index {index} is outside 0..{len(base) - 1}")
        return base[index]

    def domain(self, node, s, env) -> list:
        """The values a parameter, quantifier or `for` ranges over, in board order."""
        if isinstance(node, ast.Range):
            lo, hi = self.eval(node.lo, s, env), self.eval(node.hi, s, env)
            return list(range(lo, hi + 1))
        if isinstance(node, ast.Name) and node.id == "cell" and "cell" not in env:
            return self.cells()
        if isinstance(node, ast.Name) and node.id == "player" and "player" not in env:
            return [PlayerId(i) for i in range(self.n)]
        enum = self._enum_values(node.id) if isinstance(node, ast.Name) and node.id not in env else []
        if enum:
            return list(range(len(enum)))
        value = self.eval(node, s, env)
        if isinstance(value, frozenset):
            return sorted(value, key=lambda c: (c[1], c[0]))
        return list(value)

    def _enum_values(self, name):
        """The values of the enumeration type of variable `name` ([] if it is none)."""
        return [v for v, (t, _) in self.c.enums.items() if t == f"enum:{name}"]

    def e_Quant(self, node, s, env):
        values = []
        for x in self.domain(node.domain, s, env):
            inner = {**env, node.var: x}
            v = self.eval(node.body, s, inner)
            if node.kind == "exists" and v:
                return True
            if node.kind == "forall" and not v:
                return False
            values.append(v)
        if node.kind in ("exists", "forall"):
            return node.kind == "forall"
        if node.kind == "count":
            return sum(1 for v in values if v)
        if node.kind == "sum":
            return sum(values)
        if not values:
            raise RuleError.at(node.pos, f"`{node.kind}` over an empty domain")
        return min(values) if node.kind == "min" else max(values)

    # ----------------------------------------------------------------- builtins
    def e_Call(self, node, s, env):
        f = node.func
        args = [self.eval(a, s, env) for a in node.args]
        if f in self.defines and f not in env:
            return self.call(self.defines[f], args, node, s)
        known = builtins.get(f)
        if known is not None and known.interpret is not None:     # the meaning its family gives
            return known.interpret(self, node, args, s)
        if f == "line":
            return self.line(s, args[1], self.as_value(args[2]))
        if f == "full":
            return all(v != self.c.default_value for v in s.board)
        if f == "count":
            value = self.as_value(args[1])
            return sum(1 for v in s.board if v == value)
        if f == "cells":
            value = self.as_value(args[1])
            return frozenset(c for c in self.cells() if self.read(s, c) == value)
        if f == "neighbors":
            c, dirs = args
            if c is None:
                return frozenset()
            return frozenset(n for n in ((c[0] + dx, c[1] + dy) for dx, dy in dirs) if self.on_board(n))
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
        if f == "col":
            return args[0][0]
        if f == "row":
            return args[0][1]
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

    # ----------------------------------------------------------------- effects
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
                    raise RuleError.at(t.pos, f"board[{c}] is not a cell of the board")
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
            raise RuleError.at(t.pos, f"index {index} is outside 0..{len(items) - 1} of `{name}`")
        items[index] = self._combine(e, items[index], value)
        self._check(var, items[index], e)
        return s.with_var(name, tuple(items))

    @staticmethod
    def _combine(e, old, value):
        return value if e.op == "=" else old + value if e.op == "+=" else old - value

    @staticmethod
    def _check(var, value, e):
        if var.type == "int" and not (var.lo <= value <= var.hi):
            raise RuleError.at(e.pos, f"`{var.name}` = {value} is outside {var.lo}..{var.hi}")
        if isinstance(value, float) and not math.isfinite(value):
            raise RuleError.at(e.pos, f"`{var.name}` is not a finite number")
