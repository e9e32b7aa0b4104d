"""Checker: resolves names, options and definitions, and type-checks every rule.

`check(spec, overrides)` returns a `Checked` program: options fixed to constants, board
size and ranges evaluated, helper definitions inlined, every expression's type recorded.
Every mistake becomes a `SpecError` pointing at the exact spot with a hint; independent
sections (each action, each rule) are all checked and their errors reported together.
The compiler only ever sees what the checker accepted.

The passes, one module each (`Checker` is their union):
- model: the checked program (`Checked`, `Var`, `CheckedAction`, ...), limits, shared helpers;
- declarations: players, options, board, definitions, state variables -> the global table;
- directions: the spec's own direction sets (`directions:`) beside the built-in ones;
- symbols: the symbol tables (global and one `Scope` per scope) and name resolution
  (options folded in, definitions expanded, every name bound once, bound variables unique);
- constants: constant folding;
- types and calls: the type of every expression, builtin calls, indexing, domains;
- effects: assignments, `if`/`for`/`let`/`continue`;
- moves: actions, chance draws, compound moves;
- rules: utilities and their bounds, constant sums, evaluation, display, symmetries;
- endings: `repetition` and `max_moves`, the rules that end a game from its history;
- budget: the product of nested domains (work per rule evaluation), on the checked output.
"""
from __future__ import annotations

from framework import ast
from framework.checker.budget import check_nested_work
from framework.checker.calls import CallsMixin
from framework.checker.constants import FoldingMixin, NotConstant
from framework.checker.declarations import DeclarationsMixin
from framework.checker.directions import declare_directions
from framework.checker.effects import EffectsMixin
from framework.checker.endings import check_end_rules
from framework.checker.model import (BUILTINS, DIRECTION_SETS, MAX_CELLS, MAX_DOMAIN, MAX_NAME, NUMERIC,
                                     RESERVED_NAMES, STATE_QUERIES, Checked, CheckedAction, CheckedChance, Var,
                                     check_name, describe, err)
from framework.checker.moves import PREFERENCES, MovesMixin, continues
from framework.checker.rules import RulesMixin
from framework.checker.symbols import BOUND_MARK, ResolverMixin, Scope, Symbol, bound_name
from framework.checker.types import TypesMixin
from framework.errors import SpecError, SpecErrors, all_errors
from framework.graph import LINKS

__all__ = ["check", "Checked", "Checker", "CheckedAction", "CheckedChance", "Var", "Scope", "Symbol",
           "BUILTINS", "STATE_QUERIES", "DIRECTION_SETS", "RESERVED_NAMES", "NUMERIC", "MAX_CELLS",
           "MAX_DOMAIN", "MAX_NAME", "BOUND_MARK", "PREFERENCES", "NotConstant", "bound_name",
           "check_name", "continues", "describe", "err"]


class Checker(DeclarationsMixin, ResolverMixin, FoldingMixin, TypesMixin, CallsMixin, EffectsMixin,
              MovesMixin, RulesMixin):
    def __init__(self, spec: ast.GameSpec, overrides: dict):
        self.spec = spec
        self.out = Checked(spec, {}, tuple(spec.players))
        self.overrides = overrides
        self.globals: dict = {}             # name -> Symbol: the global table
        self.defines: dict = {}             # name -> ast.Define (expanded by the resolver)
        self.directions: dict = DIRECTION_SETS  # the direction sets a name can mean
        self.bindings: dict = {}            # id(resolved Name) -> Symbol
        self.binders: dict = {}             # id(resolved Quant) -> the Symbol of its variable
        self.resolved: dict = {}            # id(node) -> node, every node resolve returned
        self.inlining: list = []            # the definitions being expanded (no recursion)
        self.quantifiers = 0                # numbers the quantifier variables (unique names)
        self.continues: list = []           # (checked `continue` effect, argument types)

    def run(self) -> Checked:
        spec, out = self.spec, self.out
        self._players()
        self._options()
        self._board()
        self.directions = out.directions = declare_directions(
            self, {LINKS: out.graph} if out.graph else DIRECTION_SETS)
        self._defines()
        self._variables()
        errors = []                  # the sections below are independent: check them all

        def recover(check, *args):
            try:
                return check(*args)
            except SpecError as e:
                errors.extend(all_errors(e))

        recover(self._actions)
        out.init = recover(self.effect_block, spec.init, Scope(), "init")
        if spec.turn is not None:
            out.turn = recover(self.expect, spec.turn, Scope(), "player", "turn rule", "turn")
        if spec.terminal is not None:
            out.terminal = recover(self.expect, spec.terminal, Scope(), "bool", "terminal test", "terminal")
        if spec.goal is not None:
            out.goal = recover(self.expect, spec.goal, Scope(), "bool", "goal", "terminal")
        recover(self._utility)
        recover(self._evaluation)
        if spec.max_length is not None:
            out.max_length = recover(lambda: int(self.constant(spec.max_length, "max_length", "int")))
        recover(self._display)
        recover(self._symmetries)
        recover(check_end_rules, self)
        if errors:
            raise errors[0] if len(errors) == 1 else SpecErrors(errors)
        return out


def check(spec: ast.GameSpec, overrides: dict | None = None) -> Checked:
    checker = Checker(spec, dict(overrides or {}))
    out = checker.run()
    check_nested_work(checker, out)          # framework.checker.budget: work before play
    return out
