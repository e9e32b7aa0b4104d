"""The `.game` front-end's tree transformer: each section of the grammar (header, state and
helpers, actions and steps, the rest of the sections, constants) -> `framework.ast` values
with their positions, as `_Section`s that game_format.py assembles into a `GameSpec`.
"""
from __future__ import annotations

import json
from dataclasses import replace
from typing import NamedTuple

from lark import Token, v_args

from framework import ast
from framework.errors import SpecError
from framework.frontend import check_display_text
from framework.frontend.expressions import _ToAst, number_value
from framework.frontend.graph_board import GraphSections

# sections that hold one expression
_EXPRESSION_SECTIONS = {"turn", "terminal", "goal", "winner", "max_length"}


class _Section(NamedTuple):
    keyword: str
    pos: ast.Pos
    value: object
    item_positions: dict | None = None      # extra spec.positions entries (players_items, ...)


class _Over(tuple):
    """The names of a repetition rule's `over` clause (told apart from its count)."""
    __slots__ = ()


class _Clause(NamedTuple):
    keyword: str                            # if | chance | noisy | legal_after | then
    pos: ast.Pos
    value: object



def _error(pos: ast.Pos, message: str, hint: str | None = None) -> SpecError:
    return SpecError.at(pos, message, hint)



class _GameToAst(GraphSections, _ToAst):
    """Lark tree of a `.game` file -> a list of `_Section`s holding AST nodes."""

    def _keyword_pos(self, meta, keyword: str) -> ast.Pos:
        return self.origin(meta.line, meta.column, meta.column + len(keyword))

    def _keyword(self, meta, keyword: str, value, item_positions=None) -> _Section:
        return _Section(keyword, self._keyword_pos(meta, keyword), value, item_positions)

    def start(self, children):
        return children

    def __default__(self, data, children, meta):
        if data in _EXPRESSION_SECTIONS:
            return self._keyword(meta, data, children[0])
        return super().__default__(data, children, meta)

    # ---- header
    @v_args(meta=True)
    def game(self, meta, children):
        (tok,) = children
        name = _string(tok, self._tok(tok)) if tok.type == "STRING" else str(tok)
        return self._keyword(meta, "game", check_display_text(name, self._tok(tok), "the game's name"))

    @v_args(meta=True)
    def players(self, meta, children):
        return self._keyword(meta, "players", tuple(str(t) for t in children),
                             {"players_items": tuple(self._tok(t) for t in children)})

    @v_args(meta=True)
    def option(self, meta, children):
        return self._keyword(meta, "option", tuple(children))

    @v_args(meta=True)
    def directions(self, meta, children):
        name, *steps = children
        return self._keyword(meta, "directions", ast.Directions(str(name), tuple(steps), self._tok(name)))

    def direction_step(self, children):
        return tuple(children)

    def option_item(self, children):
        name, value = children
        return ast.Option(str(name), _constant_value(value), self._tok(name))

    @v_args(meta=True)
    def board(self, meta, children):
        width, height, *values = children
        initial = values.pop() if isinstance(values[-1], tuple) else None
        board = ast.Board("board", width, height, tuple(str(v) for v in values),
                          initial[0] if initial else str(values[0]), self._keyword_pos(meta, "board"))
        return self._keyword(meta, "board", board,
                             {"board_initial": initial[1] if initial else self._tok(values[0])})

    def board_initial(self, children):
        (tok,) = children
        return str(tok), self._tok(tok)

    # ---- state and helpers
    @v_args(meta=True)
    def state(self, meta, children):
        name, vtype, *parts = children
        clauses = dict(parts)
        variable = ast.Variable(str(name), vtype, clauses.get("initial"), "per_player" in clauses,
                                clauses.get("size"), self._tok(name))
        return self._keyword(meta, "state", variable)

    @v_args(meta=True)
    def simple_type(self, meta, children):
        return ast.TypeRef(str(children[0]), pos=self._pos(meta))

    @v_args(meta=True)
    def int_type(self, meta, children):
        (bounds,) = children
        return ast.TypeRef("int", bounds.lo, bounds.hi, pos=self._pos(meta))

    @v_args(meta=True)
    def enum_type(self, meta, children):
        return ast.TypeRef("enum", values=tuple(str(t) for t in children), pos=self._pos(meta))

    def per_player(self, children):
        return "per_player", True

    def size(self, children):
        return "size", children[0]

    def initial(self, children):
        return "initial", children[0]

    @v_args(meta=True)
    def define(self, meta, children):
        name, *rest = children
        params = rest[0] if len(rest) == 2 else ()
        return self._keyword(meta, "define", ast.Define(str(name), params, rest[-1], self._tok(name)))

    @v_args(meta=True)
    def define_effects(self, meta, children):
        name, *rest = children
        params = rest[0] if len(rest) == 2 else ()
        return self._keyword(meta, "define", ast.Define(str(name), params, None, self._tok(name),
                                                        tuple(rest[-1])))

    def define_params(self, children):
        return tuple(str(t) for t in children)

    # ---- actions
    @v_args(meta=True)
    def step(self, meta, children):
        section = self.action(meta, children, "step")
        return section._replace(value=replace(section.value, step=True))

    @v_args(meta=True)
    def action(self, meta, children, keyword="action"):
        name, *parts = children
        params = () if not parts or isinstance(parts[0], _Clause) else parts.pop(0)
        clauses = {}
        for clause in parts:
            if clause.keyword in clauses:
                raise _error(clause.pos, f"{keyword} `{name}` has two `{clause.keyword}` clauses",
                             f"give `{clause.keyword}` once per action")
            clauses[clause.keyword] = clause.value
        return self._keyword(meta, keyword, ast.Action(
            str(name), params, clauses.get("if"), clauses.get("then", ()), clauses.get("chance"),
            clauses.get("noisy"), legal_after=clauses.get("legal_after"), pos=self._tok(name)))

    def action_params(self, children):
        return tuple(children)

    def param(self, children):
        name, domain = children
        return ast.Param(str(name), domain, self._tok(name))

    @v_args(meta=True)
    def precondition(self, meta, children):
        return _Clause("if", self._pos(meta), children[0])

    @v_args(meta=True)
    def chance(self, meta, children):
        variables = tuple(c for c in children if isinstance(c, ast.ChanceVar))
        probability = tuple(c for c in children if not isinstance(c, ast.ChanceVar))
        return _Clause("chance", self._pos(meta), ast.ChanceSpec(variables, probability, variables[0].pos))

    def chance_var(self, children):
        var, domain = children
        return ast.ChanceVar(str(var), domain, self._tok(var))

    @v_args(meta=True)
    def noisy(self, meta, children):
        return _Clause("noisy", self._pos(meta), children[0])

    @v_args(meta=True)
    def legal_after(self, meta, children):
        return _Clause("legal_after", self._pos(meta), children[0])

    @v_args(meta=True)
    def then(self, meta, children):
        return _Clause("then", self._pos(meta), tuple(children[0]))

    # ---- the rest of the sections
    @v_args(meta=True)
    def init(self, meta, children):
        return self._keyword(meta, "init", tuple(children[0]))

    @v_args(meta=True)
    def pass_rule(self, meta, children):
        return self._keyword(meta, "pass", children[0] if children else True)

    @v_args(meta=True)
    def prefer(self, meta, children):
        return self._keyword(meta, "prefer", str(children[0]))

    @v_args(meta=True)
    def utility_expr(self, meta, children):
        return self._keyword(meta, "utility", children[0])

    @v_args(meta=True)
    def utility_map(self, meta, children):
        values, keys = {}, {}
        for name, pos, value in children:
            if name in values:
                raise _error(pos, f"duplicate player `{name}` in utility",
                             f"first given at line {keys[name].line}")
            values[name], keys[name] = value, pos
        return self._keyword(meta, "utility", values, {"utility_keys": keys})

    def utility_item(self, children):
        name, value = children
        return str(name), self._tok(name), value

    @v_args(meta=True)
    def utility_bounds(self, meta, children):
        return self._keyword(meta, "utility_bounds", tuple(children))

    @v_args(meta=True)
    def zero_sum(self, meta, children):
        return self._keyword(meta, "zero_sum", children[0] if children else True)

    @v_args(meta=True)
    def constant_sum(self, meta, children):
        return self._keyword(meta, "constant_sum", children[0])

    @v_args(meta=True)
    def evaluation(self, meta, children):
        name, *rest = children
        weight = rest[0][1] if len(rest) == 2 else 1
        return self._keyword(meta, "evaluation", ast.Feature(str(name), weight, rest[-1], self._tok(name)))

    def weight(self, children):
        return "weight", children[0]

    @v_args(meta=True)
    def display(self, meta, children):
        symbols, keys = [], {}
        for name, pos, symbol in children:
            if name in keys:
                raise _error(pos, f"duplicate cell value `{name}` in display",
                             f"first given at line {keys[name].line}")
            symbols.append((name, symbol))
            keys[name] = pos
        return self._keyword(meta, "display", tuple(symbols), {"display_keys": keys})

    def display_item(self, children):
        name, symbol = children
        return str(name), self._tok(name), _string(symbol, self._tok(symbol))

    @v_args(meta=True)
    def symmetries(self, meta, children):
        return self._keyword(meta, "symmetries", tuple(str(t) for t in children))

    @v_args(meta=True)
    def repetition(self, meta, children):
        pos = self._keyword_pos(meta, "repetition")
        over = children.pop() if children and isinstance(children[-1], _Over) else ()
        first, *count = children
        result, outcome = first if isinstance(first, tuple) else (str(first), None)
        return self._keyword(meta, "repetition", ast.EndRule(result, count[0] if count else None, pos, tuple(over), outcome))

    @v_args(meta=True)
    def max_moves(self, meta, children):
        limit, *result = children
        pos = self._keyword_pos(meta, "max_moves")
        result, outcome = (result[0] if isinstance(result[0], tuple) else (str(result[0]), None)) if result \
            else ("draw", None)
        return self._keyword(meta, "max_moves", ast.EndRule(result, limit, pos, outcome=outcome))

    def scored_winner(self, children):
        return "winner", children[0]

    def scored_utility(self, children):
        return "utility", children[0]

    def over(self, children):
        return _Over(ast.Name(str(tok), self._tok(tok)) for tok in children)

    # ---- constants
    def positive(self, children):
        return number_value(children[0], self._tok(children[0]))

    def negative(self, children):
        return -number_value(children[0], self._tok(children[0]))

    def constant_list(self, children):
        return tuple(children)

    def true(self, children):
        return True

    def false(self, children):
        return False

    def boolean(self, children):
        return children[0]


def _string(tok: Token, pos: ast.Pos) -> str:
    try:
        return json.loads(tok)
    except ValueError:
        raise _error(pos, f"cannot read the string {tok}",
                     'write "text", with \\" for a quote and \\\\ for a backslash') from None


def _constant_value(node):
    """An option's default as the value it spells (a number, true, false, a list of numbers),
    or the expression itself when it is one over earlier options (the checker computes it)."""
    if isinstance(node, ast.Num):
        return node.value
    if isinstance(node, ast.Name) and node.id in ("true", "false"):
        return node.id == "true"
    if isinstance(node, ast.ListExpr) and all(isinstance(i, ast.Num) for i in node.items):
        return tuple(i.value for i in node.items)
    return node
