"""The meaning of expressions, read straight off the checked AST (`Evaluator`; its calls are
in `calls.py`, its effects in `effects.py`, its values and `Snapshot` in `values.py`).

A state here is a plain `Snapshot`: the board as a tuple of cell-value indices (row-major),
the state variables by name, the player to move.  A cell is a (column, row) tuple or None, a
set of cells a frozenset, a player and a cell value their indices.  Every rule is computed
the obvious way, with no tables, bit tricks or specialisation: this is the reference the
compiled games are tested against (`compiled_agrees_with_interpreter`).
"""
from __future__ import annotations

from framework import ast, runtime
from framework.interpreter.calls import CallsMixin
from framework.interpreter.effects import EffectsMixin
from framework.interpreter.values import DIRECTIONS, CellValue, PlayerId, RuleError, Snapshot


class Evaluator(CallsMixin, EffectsMixin):
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
        self.declared = {v.name: v.pos for v in self.spec.variables}     # where errors about them point
        self.defines = {d.name: d for d in self.spec.defines}
        self.board_name = self.spec.board.name if self.spec.board is not None else None
        self.legal_count = legal_count          # (snapshot, player, at_most) -> number of legal actions
        self.depth = 0
        self.memo = {}                          # (definition, snapshot, arguments) -> value (remembered)
        self.looping = _looping(self.spec.defines)
        self.board_cells = tuple((x, y) for y in range(self.h) for x in range(self.w))   # board order
        self.methods = {}                       # node type -> its e_ method
        graph = checked.graph                   # framework.graph: point and line names
        self.graph_names = {} if graph is None else {
            **{name: frozenset((i, 0) for i in pts) for name, pts in graph.lines},
            **{name: (i, 0) for i, name in enumerate(graph.points)}}

    # ----------------------------------------------------------------- cells and board
    def cells(self):
        return list(self.board_cells)

    def on_board(self, c) -> bool:
        return c is not None and 0 <= c[0] < self.w and 0 <= c[1] < self.h

    def read(self, s: Snapshot, c) -> CellValue:
        if c is not None and 0 <= c[0] < self.w and 0 <= c[1] < self.h:     # on_board, inline: the hot path
            return CellValue(s.board[c[1] * self.w + c[0]])
        return CellValue(-1)

    def as_value(self, value):
        """A player used where a cell value is expected stands for the value of its name."""
        if isinstance(value, PlayerId):
            return CellValue(self.player_value.get(value, -1))
        return value

    # ----------------------------------------------------------------- expressions
    def eval(self, node, s: Snapshot, env: dict):
        method = self.methods.get(type(node))
        if method is None:
            method = self.methods[type(node)] = getattr(self, "e_" + type(node).__name__)
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
        if name in self.graph_names:           # a graph board's point (a cell) or line (a set of cells)
            return self.graph_names[name]
        if name == self.board_name:
            return s.board
        if name in self.defines:           # a definition without parameters: a function of the state
            return self.remembered(self.defines[name], (), node, s)
        raise RuleError.at(node.pos, f"the interpreter cannot read `{name}`")

    def remembered(self, define, args, node, s):
        """call(), remembered by (definition, state, arguments and their types) for a
        definition without parameters or one that loops (`_looping`): a definition is a pure
        function of the state and its arguments, so the remembered value is what the call
        returns (a call that raises remembers nothing).  4,096 values at most."""
        key = (define.name, s, tuple(args), tuple(map(type, args)))
        if key not in self.memo:
            if len(self.memo) >= 4096:
                self.memo.clear()
            self.memo[key] = self.call(define, args, node, s)
        return self.memo[key]

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
        """A cell `(x, y)`; off the board it is `none`."""
        cell = tuple(self.eval(i, s, env) for i in node.items)
        return cell if self.on_board(cell) else None

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
        if op in ("/", "//", "%"):
            return runtime.divide(a, b, op, node.pos)
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b}[op]()

    def is_board(self, node) -> bool:
        board = self.c.spec.board
        return isinstance(node, ast.Name) and board is not None and node.id == board.name

    def e_Index(self, node, s, env):
        index = self.eval(node.index, s, env)
        if self.is_board(node.base):                              # board[c]
            return self.read(s, index)
        base = self.eval(node.base, s, env)
        if not isinstance(index, int) or not 0 <= index < len(base):
            runtime.bad_index(base, index, node.base.id if isinstance(node.base, ast.Name) else "the list", node.pos)
        return base[index]

    def domain(self, node, s, env) -> list:
        """The values a parameter, quantifier or `for` ranges over, in board order."""
        if isinstance(node, ast.Range):
            lo, hi = self.eval(node.lo, s, env), self.eval(node.hi, s, env)
            return list(runtime.span(lo, hi, node.pos))
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
        return runtime.extreme(node.kind, values, node.pos)


def _looping(defines) -> set:
    """The names of the value definitions whose body loops: a quantifier, or a call of a
    definition that loops."""
    bodies = {d.name: d.body for d in defines if d.effects is None}
    looping, grew = set(), True
    while grew:
        grew = False
        for name, body in bodies.items():
            if name not in looping and _loops(body, looping):
                looping.add(name)
                grew = True
    return looping


def _loops(node, looping: set) -> bool:
    if isinstance(node, ast.Quant) or isinstance(node, ast.Call) and node.func in looping:
        return True
    for name in getattr(node, "__dataclass_fields__", ()):
        value = getattr(node, name)
        if name != "pos" and any(_loops(child, looping) for child in (value if isinstance(value, tuple) else (value,))):
            return True
    return False
