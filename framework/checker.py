"""Checker: resolves names, options and definitions, and type-checks every rule.

`check(spec, overrides)` returns a `Checked` program: options fixed to constants, board
size and ranges evaluated, helper definitions inlined, every expression's type recorded.
Every mistake becomes a `SpecError` pointing at the exact spot with a hint.  The compiler
only ever sees what the checker accepted.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from framework import ast, builtins
from framework.errors import SpecError, SpecErrors, all_errors, did_you_mean
from framework.checker_directions import declare_directions
from framework.checker_moves import (assign_local, check_chance, check_compound_moves, check_continue,
                                     check_let)

MAX_CELLS = 4096            # grid size limit
MAX_NAME = 64
MAX_DOMAIN = 100_000        # largest parameter / quantifier domain
DIRECTION_SETS = {
    "orthogonal": ((1, 0), (-1, 0), (0, 1), (0, -1)),
    "diagonal": ((1, 1), (-1, -1), (1, -1), (-1, 1)),
    "queen": ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)),
    "knight": ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)),
}
DIRECTION_SETS["king"] = DIRECTION_SETS["queen"]
DIRECTION_SETS["hex"] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))   # six neighbours on a rhombus
NUMERIC = ("int", "num")
RESERVED_NAMES = ("mover", "me", "turn", "none", "true", "false", "cell", "player", "board")

# builtin functions: name -> (argument types, result type), "*" = numbers, None = variadic
# numbers; one module per family in framework.builtins holds each one's signature
BUILTINS = {b.name: b.signature for b in builtins.all()}
STATE_QUERIES = tuple(b.name for b in builtins.all() if b.state_query)


@dataclass
class Var:
    name: str
    type: str                # element type
    per_player: bool
    size: int | None         # list length (per-player: number of players)
    lo: float = -math.inf    # int bounds
    hi: float = math.inf
    initial: object = None   # checked initial expression (or tuple of them)
    enum: tuple = ()

    @property
    def is_array(self):
        return self.per_player or self.size is not None


@dataclass
class CheckedAction:
    name: str
    params: list             # [(name, domain_expr, type)]
    precondition: object
    effects: tuple
    chance: object           # CheckedChance or None
    noisy: object
    pos: ast.Pos
    step: bool = False       # a step of compound moves only (reached by `continue`)


@dataclass
class CheckedChance:
    variables: list          # [(name, domain, type)]: an outcome is one value of each
    each: tuple              # one probability per variable (multiplied), or ()
    joint: object            # the probability of a whole outcome, or None
    # neither `each` nor `joint`: every variable uniform over its domain

    @property
    def names(self):
        return [v[0] for v in self.variables]


@dataclass
class Checked:
    spec: ast.GameSpec
    options: dict
    players: tuple
    width: int = 0
    height: int = 0
    values: tuple = ()
    default_value: int = 0
    variables: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    init: tuple = ()
    turn: object = None
    terminal: object = None
    goal: object = None
    utility: object = None           # dict player index -> expr, or ("zero_sum", expr), or ("me", expr)
    winner: object = None
    features: list = field(default_factory=list)   # (name, weight, expr, per_player)
    max_length: int | None = None
    types: dict = field(default_factory=dict)      # id(expr node) -> type
    kinds: dict = field(default_factory=dict)      # id(Name node) -> resolution
    utility_bounds: tuple = (-math.inf, math.inf)
    zero_sum: bool = False
    constant_sum: float | None = None
    max_utility_sum: float = math.inf                # upper bound on the sum of the utilities
    display: dict = field(default_factory=dict)
    symmetries: tuple = ()
    enums: dict = field(default_factory=dict)      # value name -> (var type name, index)
    prefer: str | None = None                      # "longest": only the moves with the most steps
    directions: dict = field(default_factory=lambda: dict(DIRECTION_SETS))   # name -> (dx, dy) steps

    @property
    def has_board(self):
        return self.width > 0


def err(pos: ast.Pos, message: str, hint: str | None = None) -> SpecError:
    return SpecError.at(pos, message, hint)


def _check_name(name: str, pos, what: str):
    if name.startswith("__") or name.endswith("__"):
        raise err(pos, f"{what} `{name}` is not allowed: names may not start or end with `__`",
                  "pick a plain name")
    if len(name) > MAX_NAME:
        label = "name" if what == "name" else f"{what} name"
        raise err(pos, f"{label} is {len(name)} characters long (at most {MAX_NAME})",
                  "pick a shorter name")


class Checker:
    def __init__(self, spec: ast.GameSpec, overrides: dict):
        self.spec = spec
        self.out = Checked(spec, {}, tuple(spec.players))
        self.overrides = overrides
        self.globals: dict = {}        # name -> (kind, info)
        self.defines: dict = {}
        self.inlining: list = []
        self.expansions = 0                 # numbers each definition expansion (fresh bound names)
        self.continues: list = []           # (checked `continue` effect, argument types)

    # ------------------------------------------------------------------ entry
    def run(self) -> Checked:
        spec, out = self.spec, self.out
        self._players()
        self._options()
        self._board()
        out.directions = declare_directions(self, DIRECTION_SETS)
        self._defines()
        self._variables()
        errors = []                  # the sections below are independent: check them all

        def recover(check, *args):
            try:
                return check(*args)
            except SpecError as e:
                errors.extend(all_errors(e))

        recover(self._actions)
        out.init = recover(self.effect_block, spec.init, {}, "init")
        if spec.turn is not None:
            out.turn = recover(self.expect, spec.turn, {}, "player", "turn rule", "turn")
        if spec.terminal is not None:
            out.terminal = recover(self.expect, spec.terminal, {}, "bool", "terminal test", "terminal")
        if spec.goal is not None:
            out.goal = recover(self.expect, spec.goal, {}, "bool", "goal", "terminal")
        recover(self._utility)
        recover(self._evaluation)
        if spec.max_length is not None:
            out.max_length = recover(lambda: int(self.constant(spec.max_length, "max_length", "int")))
        recover(self._display)
        recover(self._symmetries)
        if errors:
            raise errors[0] if len(errors) == 1 else SpecErrors(errors)
        return out

    # ------------------------------------------------------------------ declarations
    def _declare(self, name, kind, info, pos, what):
        _check_name(name, pos, what)
        if name in self.globals or name in DIRECTION_SETS or name in RESERVED_NAMES:
            prev = self.globals.get(name)
            if prev and kind in ("player", "value") and prev[0] in ("player", "value") and prev[0] != kind:
                self.globals[name] = ("player", prev[1] if prev[0] == "player" else info)
                return
            raise err(pos, f"duplicate name `{name}`",
                      f"`{name}` is already {'a ' + prev[0] if prev else 'a built-in name'}; pick another")
        self.globals[name] = (kind, info)

    def _players(self):
        spec = self.spec
        pitems = spec.positions.get("players_items", ())
        if not spec.players:
            raise err(spec.positions.get("players"), "a game needs at least one player")
        for i, p in enumerate(spec.players):
            pos = pitems[i] if i < len(pitems) else spec.positions.get("players")
            if p in spec.players[:i]:
                raise err(pos, f"duplicate player `{p}`", "player names must differ")
            self._declare(p, "player", i, pos, "player")

    def _options(self):
        spec = self.spec
        declared = {o.name: o for o in spec.options}
        seen = set()
        for o in spec.options:
            if o.name in seen:
                raise err(o.pos, f"duplicate option `{o.name}`")
            seen.add(o.name)
            _check_name(o.name, o.pos, "option")
        for name, value in self.overrides.items():
            if name not in declared:
                raise SpecError(f"unknown option `{name}`", file=spec.file,
                                hint=did_you_mean(name, declared) or
                                ("options: " + ", ".join(declared) if declared else "this spec has no options"))
        for o in spec.options:
            value = self.overrides.get(o.name, o.default)
            value = self._option_value(o, value)
            self.out.options[o.name] = value
            self._declare(o.name, "option", value, o.pos, "option")

    def _option_value(self, o, value):
        default = o.default
        def bad(kind):
            return SpecError(f"option `{o.name}` must be {kind}, got {value!r}", file=self.spec.file,
                             line=o.pos.line, col=o.pos.col, source_line=o.pos.source_line,
                             hint=f"the default is {default!r}")
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise bad("true or false")
        elif isinstance(default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise bad("a whole number")
            if abs(value) > 10**9:
                raise bad("a whole number of reasonable size")
        elif isinstance(default, float):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise bad("a finite number")
            value = float(value)
        elif isinstance(default, tuple):
            if isinstance(value, list):
                value = tuple(value)
            if not isinstance(value, tuple) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                       for v in value):
                raise bad("a list of whole numbers")
            if not value or len(value) > 1000 or any(abs(v) > 10**6 for v in value):
                raise bad("a non-empty list of at most 1000 reasonable numbers")
        return value

    def _board(self):
        b = self.spec.board
        out = self.out
        if b is None:
            return
        w = self.constant(b.width, "board width", "int")
        h = self.constant(b.height, "board height", "int")
        for v, node in ((w, b.width), (h, b.height)):
            if v < 1:
                raise err(node.pos, f"board dimension must be at least 1, got {v}")
        if w * h > MAX_CELLS:
            raise err(b.width.pos, f"board of {w}x{h} = {w*h} cells is too large (at most {MAX_CELLS})",
                      "use a smaller board")
        out.width, out.height = w, h
        if len(set(b.values)) != len(b.values):
            dup = next(v for i, v in enumerate(b.values) if v in b.values[:i])
            raise err(b.pos, f"duplicate cell value `{dup}`")
        if len(b.values) < 2:
            raise err(b.pos, "a board needs at least two cell values", "e.g. cells: [empty, X, O]")
        if b.initial not in b.values:
            raise err(self.spec.positions.get("board_initial", b.pos),
                      f"initial cell value `{b.initial}` is not one of the cells",
                      did_you_mean(b.initial, b.values) or "cells: " + ", ".join(b.values))
        out.values = tuple(b.values)
        out.default_value = b.values.index(b.initial)
        for i, v in enumerate(b.values):
            self._declare(v, "value", i, b.pos, "cell value")
        self.globals["board"] = ("board", None)

    def _defines(self):
        for d in self.spec.defines:
            _check_name(d.name, d.pos, "definition")
            if d.name in self.defines or d.name in self.globals or d.name in BUILTINS:
                raise err(d.pos, f"duplicate name `{d.name}`", "definitions need their own names")
            if len(set(d.params)) != len(d.params):
                raise err(d.pos, f"definition `{d.name}` repeats a parameter name")
            for p in d.params:
                _check_name(p, d.pos, "parameter")
            self.defines[d.name] = d

    def _variables(self):
        out = self.out
        for v in self.spec.variables:
            t = v.type
            if t.kind in ("cell", "cellset") and not out.has_board:
                raise err(t.pos, f"type `{t.kind}` needs a board", "declare `board:` first")
            size = None
            if v.size is not None:
                size = self.constant(v.size, f"size of `{v.name}`", "int")
                if not 0 < size <= 10_000:
                    raise err(v.size.pos, f"size of `{v.name}` must be between 1 and 10000, got {size}")
            if v.per_player and size is not None:
                raise err(v.pos, f"`{v.name}` cannot have both `per: player` and `size`")
            var = Var(v.name, t.kind if t.kind != "enum" else f"enum:{v.name}", v.per_player,
                      len(out.players) if v.per_player else size)
            if t.kind == "int":
                var.lo = self.constant(t.lo, "lower bound", "int")
                var.hi = self.constant(t.hi, "upper bound", "int")
                if var.lo > var.hi:
                    raise err(t.pos, f"empty range {var.lo}..{var.hi} for `{v.name}`")
            if t.kind == "enum":
                var.enum = t.values
                for i, name in enumerate(t.values):
                    self._declare(name, "enum", (var.type, i), t.pos, "enumeration value")
            self._declare(v.name, "var", var, v.pos, "state variable")
            var.initial = self._initial(v, var)
            out.variables.append(var)

    def _initial(self, v, var):
        if v.initial is None:
            default = {"bool": ast.Name("false"), "player": ast.Num(0), "cell": ast.Name("none"),
                       "cellset": ast.Num(0)}.get(var.type.split(":")[0])
            if var.type == "int":
                default = ast.Num(max(var.lo, min(0, var.hi)) if var.lo <= 0 <= var.hi else var.lo)
            elif var.type.startswith("enum:"):
                default = ast.Num(0)
            if default is None:
                raise err(v.pos, f"state variable `{v.name}` needs an `initial` value")
            if isinstance(default, ast.Num):
                return ("const", default.value)
            return self.expect(default, {}, var.type, f"initial value of `{v.name}`")
        init = self.inline(v.initial, {})
        if var.is_array and isinstance(init, ast.ListExpr):
            if len(init.items) != var.size:
                raise err(v.initial.pos, f"`{v.name}` has {var.size} elements but {len(init.items)} initial values")
            return ("list", tuple(self._scalar_initial(item, var, v) for item in init.items))
        if var.is_array and self._is_list_constant(init):
            vals = self.constant(init, f"initial value of `{v.name}`", "list")
            if len(vals) != var.size:
                raise err(v.initial.pos, f"`{v.name}` has {var.size} elements but {len(vals)} initial values",
                          "make `size` match the initial list")
            for x in vals:
                self._in_range(var, x, v.initial.pos)
            return ("values", tuple(vals))
        return ("scalar", self._scalar_initial(init, var, v))

    def _is_list_constant(self, node):
        return isinstance(node, ast.ListExpr) or (
            isinstance(node, ast.Name) and isinstance(self.out.options.get(node.id), tuple))

    def _scalar_initial(self, node, var, v):
        checked = self.expect(node, {}, var.type, f"initial value of `{v.name}`")
        if var.type == "int" and self.is_constant(checked):
            self._in_range(var, self.constant(checked, "initial value", "int"), node.pos)
        return checked

    def _in_range(self, var, value, pos):
        if not var.lo <= value <= var.hi:
            raise err(pos, f"value {value} is out of range {var.lo}..{var.hi} of `{var.name}`",
                      "widen the type's range or change the value")

    def _actions(self):
        names = set()
        if not self.spec.actions:
            raise err(self.spec.positions.get("actions"), "a game needs at least one action")
        errors = []
        for a in self.spec.actions:
            try:
                self._action(a, names)
            except SpecError as e:              # the next action is checked all the same
                errors.append(e)
        if errors:
            raise errors[0] if len(errors) == 1 else SpecErrors(errors)
        check_compound_moves(self)

    def _action(self, a, names):
        out = self.out
        _check_name(a.name, a.pos, "action")
        if a.name in names:
            raise err(a.pos, f"duplicate action `{a.name}`", "actions need their own names")
        if a.name == "pass":
            raise err(a.pos, "`pass` is reserved for forced passes", "use `pass: true` instead")
        names.add(a.name)
        scope, params = {}, []
        for p in a.params:
            _check_name(p.name, p.pos, "parameter")
            if p.name in scope:
                raise err(p.pos, f"duplicate parameter `{p.name}` in action `{a.name}`")
            domain, t = self.domain(p.domain, scope, f"parameter `{p.name}`")
            if self.domain_size(domain, t) == 0:
                raise err(p.pos, f"parameter `{p.name}` of action `{a.name}` has an empty domain",
                          "check the range bounds and options")
            scope[p.name] = ("param", t)
            params.append((p.name, domain, t))
        pre = None
        if a.precondition is not None:
            pre = self.expect(a.precondition, scope, "bool", f"precondition of `{a.name}`", where="action")
        escope = dict(scope)
        chance = check_chance(self, a, escope) if a.chance is not None else None
        effects = self.effect_block(a.effects, escope, "action")
        noisy = self.expect(a.noisy, scope, "bool", "noisy", where="action") if a.noisy is not None else None
        out.actions.append(CheckedAction(a.name, params, pre, effects, chance, noisy, a.pos, a.step))

    def _utility(self):
        spec, out = self.spec, self.out
        n = len(out.players)
        if spec.utility is not None and spec.winner is not None:
            raise err(spec.positions.get("winner"), "give either `utility` or `winner`, not both")
        if spec.winner is not None:
            w = self.inline(spec.winner, {})
            out.winner = self.expect(w, {}, "player", "winner", where="utility", allow_none=True)
            out.utility_bounds = (-1, 1) if n == 2 else (0, 1)
            out.zero_sum = n == 2
            out.constant_sum = 0 if n == 2 else None
        elif isinstance(spec.utility, dict):
            keys = spec.positions.get("utility_keys", {})
            u = {}
            for name, expr in spec.utility.items():
                if name not in out.players:
                    raise err(keys.get(name, expr.pos), f"`{name}` is not a player",
                              did_you_mean(name, out.players) or "players: " + ", ".join(out.players))
                u[out.players.index(name)] = self.expect(expr, {}, "num", f"utility of {name}", where="utility")
            missing = [p for i, p in enumerate(out.players) if i not in u]
            if missing:
                raise err(spec.positions.get("utility"), f"no utility for player {missing[0]}",
                          "give a utility for every player")
            out.utility = ("each", u)
            out.utility_bounds = self._join_bounds([self.bounds(e) for e in u.values()])
        elif spec.utility is not None:
            uses_me = self.mentions(spec.utility, "me")
            if not uses_me and n != 2:
                raise err(spec.utility.pos, "a single utility without `me` is the first player's "
                          "payoff in a two-player zero-sum game",
                          "use `me` for the player whose payoff it is, or give one per player")
            e = self.expect(spec.utility, {}, "num", "utility", where="utility")
            out.utility = ("me" if uses_me else "zero_sum", e)
            lo, hi = self.bounds(e)
            out.utility_bounds = (min(lo, -hi), max(hi, -lo)) if not uses_me else (lo, hi)
            out.zero_sum = not uses_me
            out.constant_sum = 0 if not uses_me else None
        elif spec.goal is not None:
            out.utility_bounds = (0, 1)
        else:
            raise err(spec.positions.get("terminal", spec.pos), "missing `utility` or `winner`",
                      "add `winner: EXPRESSION` (a player or none) or `utility:`")
        if spec.utility_bounds is not None:
            lo, hi = spec.utility_bounds
            if lo > hi:
                raise err(spec.positions.get("utility_bounds"), "utility_bounds: low is above high")
            out.utility_bounds = (lo, hi)
        if spec.zero_sum is not None:
            out.zero_sum = spec.zero_sum
            out.constant_sum = 0 if spec.zero_sum else out.constant_sum
        if spec.constant_sum is not None:
            self._declared_constant_sum(spec.constant_sum, n)
        out.max_utility_sum = self._max_utility_sum(n)

    def _declared_constant_sum(self, total, n):
        """`constant_sum: S`: every terminal state's utilities add up to S."""
        out, pos = self.out, self.spec.positions.get("constant_sum")
        if isinstance(total, bool) or not isinstance(total, (int, float)) or not math.isfinite(total):
            raise err(pos, "constant_sum must be a number", "e.g. constant_sum: 1")
        if out.zero_sum and total != 0:
            raise err(pos, f"a zero-sum game's utilities sum to 0, not {total:g}",
                      "remove `zero_sum` or `constant_sum`")
        lo, hi = out.utility_bounds
        if not n * lo <= total <= n * hi:
            raise err(pos, f"{n} utilities within [{lo:g}, {hi:g}] cannot "
                      f"sum to {total:g}", "check `constant_sum` and `utility_bounds`")
        out.constant_sum = total

    def _max_utility_sum(self, n):
        """An upper bound on the sum of all players' utilities (for max-n shallow pruning):
        the constant sum when there is one; 1 for a `winner` game of 3+ players (one winner
        gets 1, or nobody); else the sum of each player's bound."""
        out = self.out
        if out.constant_sum is not None:
            return out.constant_sum
        if out.winner is not None and n > 2:
            return 1
        if isinstance(out.utility, tuple) and out.utility[0] == "each":
            return min(n * out.utility_bounds[1], sum(self.bounds(e)[1] for e in out.utility[1].values()))
        return n * out.utility_bounds[1]

    def _evaluation(self):
        for f in self.spec.evaluation:
            per_player = self.mentions(f.value, "me")
            e = self.expect(f.value, {}, "num", f"feature `{f.name}`", where="utility")
            if not isinstance(f.weight, (int, float)) or isinstance(f.weight, bool):
                raise err(f.pos, f"weight of feature `{f.name}` must be a number")
            self.out.features.append((f.name, f.weight, e, per_player))

    def _display(self):
        out = self.out
        keys = self.spec.positions.get("display_keys", {})
        for name, symbol in self.spec.display:
            if name not in out.values:
                raise err(keys.get(name, self.spec.positions.get("display")),
                          f"display names `{name}`, which is not a cell value",
                          did_you_mean(name, out.values) or "cell values: " + ", ".join(out.values))
            out.display[name] = symbol

    def _symmetries(self):
        known = ("rotate", "reflect", "all")
        for s in self.spec.symmetries:
            if s not in known:
                raise err(self.spec.positions.get("symmetries"), f"unknown symmetry `{s}`",
                          did_you_mean(s, known) or "symmetries: rotate, reflect, all")
        if self.spec.symmetries and not self.out.has_board:
            raise err(self.spec.positions.get("symmetries"), "symmetries need a board")
        self.out.symmetries = tuple(self.spec.symmetries)

    # ------------------------------------------------------------------ constants
    def is_constant(self, node) -> bool:
        try:
            self.fold(node)
            return True
        except _NotConstant:
            return False

    def constant(self, node, what, kind):
        node = self.inline(node, {})
        try:
            value = self.fold(node)
        except _NotConstant as nc:
            raise err(nc.pos or node.pos, f"{what} must be a constant",
                      "use numbers and options only") from None
        ok = {"int": lambda v: isinstance(v, int) and not isinstance(v, bool),
              "list": lambda v: isinstance(v, tuple),
              "num": lambda v: isinstance(v, (int, float))}[kind]
        if not ok(value):
            raise err(node.pos, f"{what} must be {'a whole number' if kind == 'int' else kind}, got {value!r}")
        return value

    def fold(self, node):
        """Value of a constant expression (numbers, options, arithmetic), else _NotConstant."""
        if isinstance(node, ast.Num):
            return node.value
        if isinstance(node, ast.Name):
            g = self.globals.get(node.id)
            if g and g[0] == "option":
                return g[1]
            if node.id in ("true", "false"):
                return node.id == "true"
            raise _NotConstant(node.pos)
        if isinstance(node, ast.ListExpr):
            return tuple(self.fold(i) for i in node.items)
        if isinstance(node, ast.Unary) and node.op == "-":
            return -self.fold(node.operand)
        if isinstance(node, ast.Binary) and node.op in ("+", "-", "*", "//", "%", "/"):
            a, b = self.fold(node.left), self.fold(node.right)
            if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
                raise _NotConstant(node.pos)
            if node.op in ("//", "%", "/") and b == 0:
                raise err(node.pos, "division by zero")
            if node.op == "*" and max(abs(a), abs(b)) > 10**9:
                raise err(node.pos, "constant too large")
            return {"+": a + b, "-": a - b, "*": a * b, "//": a // b if b else 0,
                    "%": a % b if b else 0, "/": a / b if b else 0}[node.op]
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
        raise _NotConstant(node.pos)

    # ------------------------------------------------------------------ inlining
    def inline(self, node, scope):
        """Replace option names by constants and helper calls by their bodies."""
        if isinstance(node, ast.Name):
            if node.id in scope:
                return node
            g = self.globals.get(node.id)
            if g and g[0] == "option":
                v = g[1]
                return ast.ListExpr(tuple(ast.Num(x, node.pos) for x in v), node.pos) if isinstance(v, tuple) \
                    else ast.Num(v, node.pos) if not isinstance(v, bool) else ast.Name("true" if v else "false", node.pos)
            if node.id in self.defines:
                return self._expand(self.defines[node.id], (), node)
            return node
        if isinstance(node, ast.Call):
            args = tuple(self.inline(a, scope) for a in node.args)
            if node.func in self.defines and node.func not in scope:
                return self._expand(self.defines[node.func], args, node)
            return replace(node, args=args)
        if isinstance(node, ast.Quant):
            inner = dict(scope)
            inner[node.var] = True
            return replace(node, domain=self.inline(node.domain, scope), body=self.inline(node.body, inner))
        if isinstance(node, (ast.Num,)):
            return node
        if isinstance(node, ast.Binary):
            folded = replace(node, left=self.inline(node.left, scope), right=self.inline(node.right, scope))
            if node.op in ("+", "-", "*", "//", "%") and isinstance(folded.left, ast.Num) \
                    and isinstance(folded.right, ast.Num) and folded.right.value != 0:
                return ast.Num(self.fold(folded), node.pos)
            return folded
        if isinstance(node, ast.Unary):
            return replace(node, operand=self.inline(node.operand, scope))
        if isinstance(node, ast.Cond):
            return replace(node, test=self.inline(node.test, scope), then=self.inline(node.then, scope),
                           else_=self.inline(node.else_, scope))
        if isinstance(node, ast.Index):
            return replace(node, base=self.inline(node.base, scope), index=self.inline(node.index, scope))
        if isinstance(node, (ast.TupleExpr, ast.ListExpr)):
            return replace(node, items=tuple(self.inline(i, scope) for i in node.items))
        if isinstance(node, ast.Range):
            return replace(node, lo=self.inline(node.lo, scope), hi=self.inline(node.hi, scope))
        return node

    def _expand(self, d: ast.Define, args, at):
        if len(args) != len(d.params):
            raise err(at.pos, f"`{d.name}` takes {len(d.params)} argument(s), got {len(args)}",
                      f"write {d.name}({', '.join(d.params)})" if d.params else f"write {d.name}")
        if d.name in self.inlining:
            raise err(at.pos, f"definition `{d.name}` uses itself",
                      "definitions cannot be recursive; use a quantifier instead")
        if len(self.inlining) > 50:
            raise err(at.pos, "definitions nested too deeply")
        self.inlining.append(d.name)
        try:
            self.expansions += 1
            body = _substitute(_rename_bound(d.body, self.expansions), dict(zip(d.params, args)))
            return self.inline(body, {})
        finally:
            self.inlining.pop()

    def mentions(self, node, name) -> bool:
        node = self.inline(node, {})
        return _mentions(node, name)

    # ------------------------------------------------------------------ typing
    def expect(self, node, scope, want, what, where="any", allow_none=False):
        node = self.inline(node, {k: True for k in scope})
        t = self.type(node, scope, where)
        if not self.compatible(t, want, allow_none):
            raise err(node.pos, f"{what} must be {_describe(want)}, not {_describe(t)}",
                      self._mismatch_hint(t, want))
        return node

    def _mismatch_hint(self, got, want):
        if want == "bool" and got in NUMERIC:
            return "compare it, e.g. `x > 0`"
        if want == "player" and got == "value":
            return "cell values that are not players cannot stand for a player"
        return None

    def compatible(self, got, want, allow_none=False):
        if got == want:
            return True
        if want == "num" and got == "int":
            return True
        if got == "none" and (want in ("cell",) or (want == "player" and allow_none)):
            return True
        if want == "value" and got == "player":
            return self._players_are_values()
        return False

    def _players_are_values(self):
        return bool(self.out.values) and all(p in self.out.values for p in self.out.players)

    def record(self, node, t):
        self.out.types[id(node)] = t
        return t

    def type(self, node, scope, where) -> str:
        return self.record(node, self._type(node, scope, where))

    def _type(self, node, scope, where):
        if isinstance(node, ast.Num):
            return "int" if isinstance(node.value, int) else "num"
        if isinstance(node, ast.Name):
            return self._name(node, scope, where)
        if isinstance(node, ast.TupleExpr):
            if not self.out.has_board:
                raise err(node.pos, "a cell (x, y) needs a board")
            if len(node.items) != 2:
                raise err(node.pos, f"a cell has two coordinates (column, row), not {len(node.items)}")
            for item in node.items:
                if self.type(item, scope, where) != "int":
                    raise err(item.pos, "cell coordinates must be whole numbers")
            if all(isinstance(i, ast.Num) for i in node.items):
                x, y = (i.value for i in node.items)
                if not (0 <= x < self.out.width and 0 <= y < self.out.height):
                    raise err(node.pos, f"cell ({x}, {y}) is off the {self.out.width}x{self.out.height} board",
                              f"columns 0..{self.out.width - 1}, rows 0..{self.out.height - 1}")
            return "cell"
        if isinstance(node, ast.ListExpr):
            for item in node.items:
                if self.type(item, scope, where) != "int":
                    raise err(item.pos, "list elements must be whole numbers")
            return "list"
        if isinstance(node, ast.Unary):
            t = self.type(node.operand, scope, where)
            if node.op == "not":
                if t != "bool":
                    raise err(node.pos, f"`not` needs a condition, not {_describe(t)}")
                return "bool"
            if t not in NUMERIC:
                raise err(node.pos, f"`-` needs a number, not {_describe(t)}")
            return t
        if isinstance(node, ast.Binary):
            return self._binary(node, scope, where)
        if isinstance(node, ast.Cond):
            tt = self.type(node.test, scope, where)
            if tt != "bool":
                raise err(node.test.pos, f"the condition after `if` must be a condition, not {_describe(tt)}")
            a, b = self.type(node.then, scope, where), self.type(node.else_, scope, where)
            joined = self._join(a, b)
            if joined is None:
                raise err(node.pos, f"the two branches differ: {_describe(a)} and {_describe(b)}",
                          "both sides of `if ... else` must have the same type")
            return joined
        if isinstance(node, ast.Index):
            return self._index(node, scope, where)
        if isinstance(node, ast.Quant):
            domain, t = self.domain(node.domain, scope, f"`{node.kind}` domain", where)
            self.domain_size(domain, t)
            inner = dict(scope)
            _check_name(node.var, node.pos, "variable")
            inner[node.var] = ("quant", t)
            bt = self.type(node.body, inner, where)
            if node.kind in ("exists", "forall", "count"):
                if bt != "bool":
                    raise err(node.body.pos, f"`{node.kind}` needs a condition after `:`, not {_describe(bt)}")
                return "int" if node.kind == "count" else "bool"
            if bt not in NUMERIC:
                raise err(node.body.pos, f"`{node.kind}` needs a number after `:`, not {_describe(bt)}")
            return bt
        if isinstance(node, ast.Call):
            return self._call(node, scope, where)
        if isinstance(node, ast.Range):
            raise err(node.pos, "a range `a..b` can only be a domain", "use it after `in`")
        raise err(getattr(node, "pos", None), "unsupported expression")

    def _join(self, a, b):
        if a == b:
            return a
        if {a, b} == {"int", "num"}:
            return "num"
        if "none" in (a, b):
            other = b if a == "none" else a
            return other if other in ("cell", "player") else None
        if {a, b} == {"player", "value"} and self._players_are_values():
            return "value"
        return None

    def _name(self, node, scope, where):
        name = node.id
        _check_name(name, node.pos, "name")
        if name in scope:
            kind, t = scope[name] if isinstance(scope[name], tuple) else ("param", None)
            self.out.kinds[id(node)] = (kind, name)
            return t
        if name in ("true", "false"):
            self.out.kinds[id(node)] = ("bool", name == "true")
            return "bool"
        if name == "none":
            self.out.kinds[id(node)] = ("none", None)
            return "none"
        if name == "mover":
            self.out.kinds[id(node)] = ("mover", None)
            return "player"
        if name == "me":
            if where != "utility":
                raise err(node.pos, "`me` is only known in utilities and evaluation features",
                          "use `mover` for the player to move")
            self.out.kinds[id(node)] = ("me", None)
            return "player"
        if name in self.out.directions:
            self.out.kinds[id(node)] = ("dirs", name)
            return "dirs"
        g = self.globals.get(name)
        if g is None:
            if name in BUILTINS or name in self.defines:
                raise err(node.pos, f"`{name}` is a function", f"call it: {name}(...)")
            if name in ("cell", "player"):
                raise err(node.pos, f"`{name}` is a type", f"use it as a domain: `x in {name}`")
            known = set(self.globals) | set(scope) | set(self.out.directions) | {"mover", "none", "true", "false"}
            raise err(node.pos, f"unknown name `{name}`", did_you_mean(name, known))
        kind, info = g
        self.out.kinds[id(node)] = (kind, info)
        if kind == "var":
            if info.is_array:
                return "list" if info.type == "int" and not info.per_player else "array"
            return info.type
        return {"player": "player", "value": "value", "enum": info[0] if kind == "enum" else None,
                "board": "board", "option": "int"}[kind]

    def _binary(self, node, scope, where):
        op = node.op
        if op in ("and", "or"):
            for side in (node.left, node.right):
                t = self.type(side, scope, where)
                if t != "bool":
                    raise err(side.pos, f"`{op}` needs conditions on both sides, not {_describe(t)}")
            return "bool"
        a = self.type(node.left, scope, where)
        b = self.type(node.right, scope, where)
        if op in ("in", "notin"):
            if b != "cellset":
                raise err(node.right.pos, f"`in` needs a set of cells on the right, not {_describe(b)}")
            if a != "cell":
                raise err(node.left.pos, f"only cells can be `in` a set of cells, not {_describe(a)}")
            return "bool"
        if op in ("==", "!="):
            if self._join(a, b) is None:
                raise err(node.pos, f"cannot compare {_describe(a)} with {_describe(b)}",
                          self._compare_hint(node, a, b))
            return "bool"
        if op in ("<", "<=", ">", ">="):
            if a not in NUMERIC or b not in NUMERIC:
                bad = node.left if a not in NUMERIC else node.right
                raise err(bad.pos, f"`{op}` compares numbers, not {_describe(a if bad is node.left else b)}")
            return "bool"
        if op in ("|", "&") or (op == "-" and a == "cellset"):
            if a != "cellset" or b != "cellset":
                raise err(node.pos, f"`{op}` combines sets of cells, not {_describe(a)} and {_describe(b)}",
                          "use `and` / `or` for conditions" if "bool" in (a, b) else None)
            return "cellset"
        if a not in NUMERIC or b not in NUMERIC:
            bad, bt = (node.left, a) if a not in NUMERIC else (node.right, b)
            raise err(bad.pos, f"`{op}` needs numbers, not {_describe(bt)}",
                      "use col(c) and row(c) for a cell's coordinates" if bt == "cell" else None)
        if op == "/":
            return "num"
        return "num" if "num" in (a, b) else "int"

    def _compare_hint(self, node, a, b):
        if "value" in (a, b) and "player" in (a, b):
            return "name the players among the board's cell values to compare them"
        if "value" in (a, b):
            return "cell values are: " + ", ".join(self.out.values)
        return None

    def _index(self, node, scope, where):
        base = node.base
        if isinstance(base, ast.Name) and base.id == "board" and "board" not in scope:
            if not self.out.has_board:
                raise err(base.pos, "this spec has no board")
            self.type(base, scope, where)
            t = self.type(node.index, scope, where)
            if t != "cell":
                raise err(node.index.pos, f"the board is indexed by a cell, not {_describe(t)}",
                          "write board[c] with c a cell or (column, row)")
            return "value"
        bt = self.type(base, scope, where)
        is_var = isinstance(base, ast.Name) and self.globals.get(base.id, ("",))[0] == "var"
        if bt == "list" and not is_var:
            if self.type(node.index, scope, where) != "int":
                raise err(node.index.pos, "a list is indexed by a whole number")
            return "int"
        if not is_var or bt not in ("array", "list"):
            raise err(node.pos, f"{_describe(bt)} cannot be indexed",
                      "only the board, lists and per-player variables take [ ]")
        var = self.globals[base.id][1]
        it = self.type(node.index, scope, where)
        want = "player" if var.per_player else "int"
        if it != want:
            raise err(node.index.pos, f"`{var.name}` is indexed by {_describe(want)}, not {_describe(it)}")
        if want == "int" and isinstance(node.index, ast.Num) and not 0 <= node.index.value < var.size:
            raise err(node.index.pos, f"index {node.index.value} is out of range 0..{var.size - 1} of `{var.name}`")
        return var.type

    def _call(self, node, scope, where):
        name = node.func
        if name not in BUILTINS:
            raise err(node.pos, f"unknown function `{name}`",
                      did_you_mean(name, list(BUILTINS) + list(self.defines)))
        if name in STATE_QUERIES and where in ("action", "turn", "effects"):
            raise err(node.pos, f"`{name}` cannot be used in actions or the turn rule",
                      "it is for terminal tests, utilities and evaluation")
        args = node.args
        types = [self.type(a, scope, where) for a in args]
        if name in ("min", "max"):
            if len(args) == 1 and types[0] == "list":
                return "int"
            if len(args) < 2:
                raise err(node.pos, f"`{name}` needs at least two numbers (or one list)")
            for a, t in zip(args, types):
                if t not in NUMERIC:
                    raise err(a.pos, f"`{name}` takes numbers, not {_describe(t)}")
            return "num" if "num" in types else "int"
        if name == "count" and len(args) == 1 and types[0] == "cellset":
            raise err(node.pos, "count of a set is written `size(S)`", "write size(...)")
        sig, result = BUILTINS[name]
        if not self.out.has_board and ({"board", "cell"} & set(sig) or result in ("cell", "cellset")):
            raise err(node.pos, f"`{name}` needs a board", "declare `board:` first")
        if len(args) != len(sig):
            raise err(node.pos, f"`{name}` takes {len(sig)} argument(s), got {len(args)}",
                      f"{name}({', '.join(sig)})")
        if name in ("next", "opponent") and name == "opponent" and len(self.out.players) != 2:
            raise err(node.pos, "`opponent` needs a two-player game", "use next(p)")
        for a, t, want in zip(args, types, sig):
            if want == "*":
                if t not in NUMERIC:
                    raise err(a.pos, f"`{name}` takes a number, not {_describe(t)}")
                continue
            if not self.compatible(t, want):
                raise err(a.pos, f"argument of `{name}` must be {_describe(want)}, not {_describe(t)}",
                          f"{name}({', '.join(sig)})")
        if name == "line" and isinstance(args[1], ast.Num) and args[1].value < 1:
            raise err(args[1].pos, "a line needs at least one cell")
        return types[0] if result == "*" else result

    def domain(self, node, scope, what, where="action"):
        """(checked domain expression, element type)."""
        node = self.inline(node, {k: True for k in scope})
        if isinstance(node, ast.Name) and node.id not in scope:
            if node.id == "cell":
                if not self.out.has_board:
                    raise err(node.pos, "`cell` needs a board", "declare `board:` first")
                return node, "cell"
            if node.id == "player":
                return node, "player"
            g = self.globals.get(node.id)
            if g and g[0] == "var" and g[1].type.startswith("enum:"):
                return node, g[1].type
        if isinstance(node, ast.Range):
            for side in (node.lo, node.hi):
                t = self.type(side, scope, where)
                if t != "int":
                    raise err(side.pos, f"range bounds must be whole numbers, not {_describe(t)}")
            return node, "int"
        t = self.type(node, scope, where)
        if t == "cellset":
            return node, "cell"
        raise err(node.pos, f"{what} must be `cell`, `player`, an enumeration, a range a..b "
                  f"or a set of cells, not {_describe(t)}")

    def domain_size(self, domain, t):
        if isinstance(domain, ast.Range):
            try:
                lo, hi = self.fold(domain.lo), self.fold(domain.hi)
            except _NotConstant:
                return None
            if hi - lo + 1 > MAX_DOMAIN:
                raise err(domain.pos, f"domain {lo}..{hi} is too large (at most {MAX_DOMAIN} values)")
            return max(0, hi - lo + 1)
        return None

    # ------------------------------------------------------------------ effects
    def effect_block(self, effects, scope, where) -> tuple:
        """Effects in order: a `let` puts its variable in scope for the rest of the block."""
        scope = dict(scope)
        return tuple(self.effects(e, scope, where) for e in effects)

    def effects(self, e, scope, where):
        if isinstance(e, ast.Assign):
            return self._assign(e, scope, where)
        if isinstance(e, ast.IfEffect):
            test = self.expect(e.test, scope, "bool", "condition", where=where)
            return replace(e, test=test, then=self.effect_block(e.then, scope, where),
                           else_=self.effect_block(e.else_, scope, where))
        if isinstance(e, ast.ForEffect):
            _check_name(e.var, e.pos, "variable")
            domain, t = self.domain(e.domain, scope, "`for` domain", where)
            self.domain_size(domain, t)
            inner = dict(scope)
            inner[e.var] = ("quant", t)
            return replace(e, domain=domain, body=self.effect_block(e.body, inner, where))
        if isinstance(e, ast.LetEffect):
            return check_let(self, e, scope, where)
        if isinstance(e, ast.ContinueEffect):
            return check_continue(self, e, scope, where)
        raise err(getattr(e, "pos", None), "unsupported effect")

    def _assign(self, e, scope, where):
        target = e.target
        if isinstance(target, ast.Name) and isinstance(scope.get(target.id), tuple) and scope[target.id][0] == "local":
            return assign_local(self, e, scope, where)
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
            if target.id in scope or g is None or g[0] != "var":
                what = "a parameter" if target.id in scope else f"a {g[0]}" if g else "unknown"
                if g is None and target.id not in scope:
                    raise err(target.pos, f"unknown state variable `{target.id}`",
                              did_you_mean(target.id, [k for k, v in self.globals.items() if v[0] == "var"] + ["turn"]))
                raise err(target.pos, f"cannot assign to `{target.id}`: it is {what}",
                          "only state variables, board cells and `turn` can be assigned")
            var = g[1]
            if var.is_array:
                raise err(target.pos, f"`{var.name}` is a list; assign one element: {var.name}[i] = ...")
            self.type(target, scope, where)
            want = var.type
        elif isinstance(target, ast.Index):
            base = target.base
            if isinstance(base, ast.Name) and base.id == "board":
                if not self.out.has_board:
                    raise err(base.pos, "this spec has no board")
                self.type(base, scope, where)
                target = replace(target, index=self.inline(target.index, {k: True for k in scope}))
                it = self.type(target.index, scope, where)
                if it not in ("cell", "cellset"):
                    raise err(target.index.pos, f"the board is indexed by a cell or a set of cells, not {_describe(it)}")
                if e.op != "=":
                    raise err(e.pos, "board cells can only be set with `=`")
                value = self.expect(e.value, scope, "value", "a board cell", where=where)
                return replace(e, target=target, value=value)
            target = self.inline(target, {k: True for k in scope})
            if not (isinstance(target.base, ast.Name) and self.globals.get(target.base.id, ("",))[0] == "var"):
                raise err(target.pos, "only state variables, board cells and `turn` can be assigned")
            var = self.globals[target.base.id][1]
            want = self._index(target, scope, where)
        else:
            raise err(e.pos, "cannot assign to this")
        if e.op in ("+=", "-=") and want not in NUMERIC:
            raise err(e.pos, f"`{e.op}` needs a number variable")
        value = self.expect(e.value, scope, want if e.op == "=" else "int", f"value for `{var.name}`", where=where)
        if var.type == "int" and isinstance(value, ast.Num) and e.op == "=":
            self._in_range(var, value.value, value.pos)
        return replace(e, target=target, value=value)

    # ------------------------------------------------------------------ bounds
    def bounds(self, node):
        """Interval of values an expression can take (for utility bounds)."""
        t = self.out.types.get(id(node))
        if isinstance(node, ast.Num):
            return (node.value, node.value)
        if isinstance(node, ast.Cond):
            return self._join_bounds([self.bounds(node.then), self.bounds(node.else_)])
        if isinstance(node, ast.Unary) and node.op == "-":
            lo, hi = self.bounds(node.operand)
            return (-hi, -lo)
        if isinstance(node, ast.Binary) and node.op in ("+", "-", "*"):
            a, b = self.bounds(node.left), self.bounds(node.right)
            if node.op == "+":
                return (a[0] + b[0], a[1] + b[1])
            if node.op == "-":
                return (a[0] - b[1], a[1] - b[0])
            prods = [x * y for x in a for y in b if not (math.isinf(x) or math.isinf(y))]
            if len(prods) == 4:
                return (min(prods), max(prods))
        if isinstance(node, ast.Call) and node.func in ("count", "size", "moves") and self.out.has_board:
            return (0, self.out.width * self.out.height) if node.func != "moves" else (0, math.inf)
        if isinstance(node, ast.Name):
            kind = self.out.kinds.get(id(node))
            if kind and kind[0] == "var":
                return (kind[1].lo, kind[1].hi)
        if isinstance(node, ast.Index):
            b = node.base
            if isinstance(b, ast.Name) and b.id in self.globals and self.globals[b.id][0] == "var":
                var = self.globals[b.id][1]
                return (var.lo, var.hi)
        if t == "bool":
            return (0, 1)
        return (-math.inf, math.inf)

    @staticmethod
    def _join_bounds(bs):
        return (min(b[0] for b in bs), max(b[1] for b in bs))


class _NotConstant(Exception):
    def __init__(self, pos=None):
        self.pos = pos


BOUND_MARK = "\u00b7"   # a middle dot: valid inside Python names, never in a spec's NAME


def _rename_bound(node, expansion: int):
    """`node` with every variable it binds renamed to `var·N` (N numbers this expansion of
    a definition), so that substituting the caller's arguments can never be captured by a
    quantifier of the definition: hygiene by construction.  No spec name contains `·`."""
    if isinstance(node, ast.Quant):
        fresh = f"{node.var}{BOUND_MARK}{expansion}"
        body = _substitute(node.body, {node.var: ast.Name(fresh, node.pos)})
        return replace(node, var=fresh, domain=_rename_bound(node.domain, expansion),
                       body=_rename_bound(body, expansion))
    if not hasattr(node, "__dataclass_fields__"):
        return node
    changes = {}
    for name in node.__dataclass_fields__:
        if name == "pos":
            continue
        child = getattr(node, name)
        if isinstance(child, tuple):
            new = tuple(_rename_bound(c, expansion) for c in child)
        else:
            new = _rename_bound(child, expansion)
        if new is not child:
            changes[name] = new
    return replace(node, **changes) if changes else node


def _substitute(node, mapping):
    """Replace free Name nodes by expressions (helper parameters by arguments)."""
    if isinstance(node, ast.Name):
        return mapping.get(node.id, node)
    if isinstance(node, ast.Quant):
        inner = {k: v for k, v in mapping.items() if k != node.var}
        return replace(node, domain=_substitute(node.domain, mapping), body=_substitute(node.body, inner))
    if isinstance(node, ast.Call):
        return replace(node, args=tuple(_substitute(a, mapping) for a in node.args))
    if isinstance(node, ast.Binary):
        return replace(node, left=_substitute(node.left, mapping), right=_substitute(node.right, mapping))
    if isinstance(node, ast.Unary):
        return replace(node, operand=_substitute(node.operand, mapping))
    if isinstance(node, ast.Cond):
        return replace(node, test=_substitute(node.test, mapping), then=_substitute(node.then, mapping),
                       else_=_substitute(node.else_, mapping))
    if isinstance(node, ast.Index):
        return replace(node, base=_substitute(node.base, mapping), index=_substitute(node.index, mapping))
    if isinstance(node, (ast.TupleExpr, ast.ListExpr)):
        return replace(node, items=tuple(_substitute(i, mapping) for i in node.items))
    if isinstance(node, ast.Range):
        return replace(node, lo=_substitute(node.lo, mapping), hi=_substitute(node.hi, mapping))
    return node


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


def _describe(t) -> str:
    return {"bool": "a condition", "int": "a whole number", "num": "a number", "player": "a player",
            "cell": "a cell", "cellset": "a set of cells", "value": "a cell value", "board": "the board",
            "dirs": "a direction set", "none": "`none`", "list": "a list", "array": "a list variable",
            None: "something else"}.get(t, "an enumeration value" if str(t).startswith("enum:") else str(t))


def check(spec: ast.GameSpec, overrides: dict | None = None) -> Checked:
    return Checker(spec, dict(overrides or {})).run()
