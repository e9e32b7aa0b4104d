"""The declarations pass: players, options, the board, definitions and state variables.

Fills the global symbol table (framework.checker.symbols) once, in the order a spec reads:
players, options (with `--set` overrides, checked against their defaults), the board (size,
cell values, initial value), definitions (kept for the resolver to expand), state variables
(types, ranges, sizes, enumeration values) and their initial values.
"""
from __future__ import annotations

import math

from framework import ast
from framework.checker.model import BUILTINS, MAX_CELLS, Var, check_name, err
from framework.checker.constants import NotConstant
from framework.checker.graph import declare_graph
from framework.graph import LINKS
from framework.checker.symbols import Scope, Symbol
from framework.errors import SpecError, did_you_mean
from framework.frontend.expression_printer import expression_text


class DeclarationsMixin:
    """The declarations; a mixin of `Checker` (framework.checker)."""

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
            check_name(o.name, o.pos, "option")
        for name, value in self.overrides.items():
            if name not in declared:
                listed = ", ".join(f"{o.name}={_option_text(o.default)}" for o in declared.values())
                near = did_you_mean(name, declared)
                raise SpecError(f"unknown option `{name}`", file=spec.file,
                                hint=(f"{near} " if near else "") +
                                (f"options (with their defaults): {listed}" if declared else "this spec has no options"))
        for i, o in enumerate(spec.options):
            default = self._option_default(o, spec.options[i + 1:])
            value = self._option_value(o, self.overrides.get(o.name, default), default)
            self.out.options[o.name] = value
            self._declare(o.name, "option", value, o.pos, "option")

    def _option_default(self, o, later):
        """An option's default: its constant, or the value of its expression over the options
        declared before it (with their `--set` values)."""
        if isinstance(o.default, (bool, int, float, tuple)):
            return o.default
        node = self.resolve(o.default, Scope())
        for name in (n for n in later if self.mentions(node, n.name)):
            raise err(self._name_pos(node, name.name) or node.pos, f"option `{o.name}` uses option "
                      f"`{name.name}`, which is declared after it",
                      "an option's default may use the options declared before it; move it down")
        try:
            value = self.fold(node)
        except NotConstant as nc:
            raise err(nc.pos or node.pos, f"the default of option `{o.name}` must be a constant",
                      "use numbers and the options declared before it") from None
        if isinstance(value, tuple) and not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise err(node.pos, f"the default of option `{o.name}` must be a number, true, false "
                      "or a list of whole numbers")
        return value

    @staticmethod
    def _name_pos(node, name):
        """The position of the first `Name` spelled `name` in `node`."""
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.Name) and n.id == name:
                return n.pos
            stack.extend(c for f in getattr(n, "__dataclass_fields__", {}) if f != "pos"
                         for c in (getattr(n, f) if isinstance(getattr(n, f), tuple) else (getattr(n, f),)))
        return None

    def _option_value(self, o, value, default):
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
        if b.points:                      # a graph board: n points laid out as n x 1 (framework.graph)
            out.graph = declare_graph(self, b)
            out.width, out.height = len(out.graph.points), 1
        else:
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
        self.globals["board"] = Symbol("board", "board")

    def _defines(self):
        for d in self.spec.defines:
            check_name(d.name, d.pos, "definition")
            if d.name in BUILTINS:
                raise err(d.pos, f"`{d.name}` is a built-in function", "a definition needs a name of its own: "
                          f"pick another, such as `my_{d.name}`")
            if d.name in self.defines or d.name in self.globals or (self.out.graph and d.name == LINKS):
                raise err(d.pos, f"duplicate name `{d.name}`", "definitions need their own names")
            if len(set(d.params)) != len(d.params):
                raise err(d.pos, f"definition `{d.name}` repeats a parameter name")
            for p in d.params:
                check_name(p, d.pos, "parameter")
            at = ast.first_effect(d.effects or (), lambda e: isinstance(e, ast.ContinueEffect))
            if at is not None:
                raise err(at.pos, f"`continue` cannot go in effect definition `{d.name}`",
                          "write the `continue` in the action or step that runs it")
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
                    out.enums[name] = (var.type, i)
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
            return ("scalar", self.expect(default, Scope(), var.type, f"initial value of `{v.name}`"))
        init = self.resolve(v.initial, Scope())
        if var.is_array and isinstance(init, ast.ListExpr):
            if len(init.items) != var.size:
                raise err(v.initial.pos, f"`{v.name}` has {var.size} elements but {len(init.items)} initial values")
            return ("list", tuple(self._scalar_initial(item, var, v) for item in init.items))
        return ("scalar", self._scalar_initial(init, var, v))

    def _scalar_initial(self, node, var, v):
        checked = self.expect(node, Scope(), var.type, f"initial value of `{v.name}`")
        if var.type == "int" and self.is_constant(checked):
            self._in_range(var, self.constant(checked, "initial value", "int"), node.pos)
        return checked

    def _in_range(self, var, value, pos):
        if not var.lo <= value <= var.hi:
            raise err(pos, f"value {value} is out of range {var.lo}..{var.hi} of `{var.name}`",
                      "widen the type's range or change the value")


def _option_text(value) -> str:
    """An option's default as it is written after --set (lists without spaces); one computed
    from earlier options as its expression."""
    if not isinstance(value, (bool, int, float, tuple)):
        return expression_text(value)
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return "[" + ",".join(_option_text(v) for v in value) + "]"
    return str(value)
