"""The `.game` front-end: a whole game spec in our own grammar (`game_format.lark`).

`load_game_spec(text, file)` parses a `.game` text into the same `framework.ast.GameSpec`
the YAML front-end builds, with every node positioned in the file.  The grammar is the
expression language of `expressions.lark` plus one rule per section; a section starts at
the beginning of a line and indented lines continue it.  Inside a section a line break
separates effects where an effect may end and is white space everywhere else: the
parser is fed token by token and a line break is passed on only where the parser can
take it.  Syntax errors and duplicate sections become `SpecError`s with position, caret
and hint; semantic checks live in the checker.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from dataclasses import replace
from typing import NamedTuple

from lark import Lark, Token, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedToken, VisitError
from lark.parsers.lalr_parser_state import ParseConf, ParserState

from framework.frontend.lark_cache import cached_lark
from framework import ast
from framework.errors import SpecError, did_you_mean, normalise_line_breaks
from framework.frontend.expressions import (GRAMMAR_FILE as EXPRESSIONS_GRAMMAR, _ToAst, number_value,
                                           text_origin, expected_hint, terminal_spelling, COMPARE_HINT,
                                           text_before, unfinished_keyword, unparenthesised_domain)

GRAMMAR_FILE = Path(__file__).with_name("game_format.lark")

# `.game` section keyword -> the YAML section it stands for (the keys of spec.positions)
SECTIONS = {
    "game": "game", "players": "players", "option": "options", "board": "board", "directions": "directions",
    "state": "state", "define": "define", "action": "actions", "step": "steps", "init": "init",
    "turn": "turn", "pass": "pass", "terminal": "terminal", "goal": "goal",
    "utility": "utility", "winner": "winner", "utility_bounds": "utility_bounds",
    "zero_sum": "zero_sum", "constant_sum": "constant_sum", "evaluation": "evaluation",
    "display": "display", "symmetries": "symmetries", "max_length": "max_length",
    "prefer": "prefer",
}
# words of the expression language that are never names (where a name is expected the
# contextual lexer would otherwise read them as one, and report a confusing error later)
RESERVED = {"in", "if", "else", "or", "and", "not", "then", "for", "do", "let", "continue"}
# sections that hold one expression
_EXPRESSION_SECTIONS = {"turn", "terminal", "goal", "winner", "max_length"}
# sections that may be given many times, one item each (or several options)
REPEATED = {"option", "directions", "state", "define", "action", "step", "evaluation"}



class _Section(NamedTuple):
    keyword: str
    pos: ast.Pos
    value: object
    item_positions: dict | None = None      # extra spec.positions entries (players_items, ...)


class _Clause(NamedTuple):
    keyword: str                            # if | chance | noisy | then
    pos: ast.Pos
    value: object


class _LineBreaks:
    """Post-lexer stub: makes the contextual lexer produce line breaks in every state."""
    always_accept = ("_END", "_NEWLINE")

    def process(self, stream):
        return stream


@lru_cache(maxsize=None)
def _parser() -> Lark:
    grammar = EXPRESSIONS_GRAMMAR.read_text() + "\n" + GRAMMAR_FILE.read_text()
    return cached_lark(grammar, start="start", parser="lalr", propagate_positions=True,
                maybe_placeholders=False, postlex=_LineBreaks())


@lru_cache(maxsize=None)
def _terminal_spelling() -> dict:
    """Terminal name -> `text` for the terminals that are one fixed text (and the end)."""
    return {**terminal_spelling(_parser()), "$END": "the end of the spec"}


def _error(pos: ast.Pos, message: str, hint: str | None = None) -> SpecError:
    return SpecError.at(pos, message, hint)


class _GameToAst(_ToAst):
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
        return self._keyword(meta, "game", name)

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
        return ast.Option(str(name), value, self._tok(name))

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
            clauses.get("noisy"), pos=self._tok(name)))

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


# ---------------------------------------------------------------------------- parsing
def _feed(text: str, file: str | None):
    """Parse `text` token by token, passing a line break on only where it can be taken."""
    interactive = _parser().parse_interactive(text)
    state = interactive.parser_state
    previous = None
    try:
        for token in interactive.lexer_thread.lex(state):
            if not _takes(state.state_stack, token) or (token.type == "NAME" and token in RESERVED):
                if token.type == "_NEWLINE":
                    continue
                raise _unexpected(token, text, file, previous, _acceptable(state.state_stack))
            interactive.feed_token(token)
            previous = token
    except UnexpectedCharacters as err:
        line = text.split("\n")[err.line - 1]
        raise _error(text_origin(text, file)(err.line, err.column),
                     f"unexpected character {line[err.column - 1]!r}",
                     _expected_hint(_acceptable(state.state_stack))) from None
    except UnexpectedToken as err:      # the lexer found a token where none of its kind fits
        raise _unexpected(err.token, text, file, previous, _acceptable(state.state_stack)) from None
    end = Token.new_borrow_pos("$END", "", previous) if previous else Token("$END", "", 0, 1, 1)
    if not _takes(state.state_stack, end):
        raise _unexpected(end, text, file, previous, _acceptable(state.state_stack))
    return interactive.feed_eof(previous)


def _takes(state_stack: list, token: Token) -> bool:
    """Whether the parser in `state_stack` can take `token`: run it on a copy of the
    stack alone, building nothing (copying the parse so far, values included, would cost
    time and space in proportion to the whole spec on every token)."""
    conf = _probe_conf()
    probe = ParserState(conf, None, list(state_stack), [None] * len(state_stack))
    try:
        probe.feed_token(token, token.type == "$END")
    except UnexpectedToken:
        return False
    return True


@lru_cache(maxsize=None)
def _probe_conf() -> ParseConf:
    """The parser's tables without its tree-building callbacks."""
    return ParseConf(_parser().parse_interactive("").parser_state.parse_conf.parse_table, {}, "start")


def _acceptable(state_stack: list) -> set:
    """The terminals the parser can take next.  Probed one by one: the parse table's list
    for a state also holds tokens that fit only in other contexts (LALR merges states)."""
    candidates = _probe_conf().states[state_stack[-1]]
    return {name for name in candidates if name.isupper() or name == "$END"
            if _takes(state_stack, Token(name, ""))}


def _expected_hint(expected: set) -> str | None:
    return expected_hint(expected, _terminal_spelling())


def _unexpected(token: Token, text: str, file: str | None, previous: Token | None,
                expected: set) -> SpecError:
    lines = text.split("\n")
    origin = text_origin(text, file)
    hint = _expected_hint(expected)
    if token.type == "$END":
        last = len(text.rstrip().split("\n"))
        pos = origin(last, len(lines[last - 1]) + 1)
        if previous is None:
            return _error(pos, "the spec is empty", "start with `game NAME` and `players A, B`")
        return _error(pos, "the spec ends too early", hint)
    if token.type == "_END":
        before = text_before(text, token.line, token.column)
        if unfinished_keyword(before):
            return _error(origin(token.line, token.column), *unfinished_keyword(before))
        return _error(origin(token.line, token.column), "the line ends too early",
                      (hint + "; " if hint else "") + "indent a line that continues a section")
    if token.type == "NAME" and re.search(r"^\s*chance\b.*\bin\b[^,]*$", text_before(text, token.line, token.column)
                                         .split("\n")[-1]) and re.match(r"\s+in\b", lines[token.line - 1][token.end_column - 1:]):
        return _error(origin(token.line, token.column, token.end_column), "outcome variables are separated by commas",
                      "write `chance a in 1..6, b in 1..6`")
    pos = origin(token.line, token.column, token.end_column)
    if previous is None or previous.type == "_END":
        if token.type != "NAME" or token in RESERVED:
            return _error(pos, f"a section cannot start with `{token}`",
                          "indent a line that continues a section")
        return _error(pos, f"unknown section `{token}`", did_you_mean(str(token), SECTIONS)
                      or "sections: " + ", ".join(SECTIONS))
    domain = unparenthesised_domain(token, text_before(text, token.line, token.column))
    if domain:
        return _error(pos, *domain)
    if unfinished_keyword(text_before(text, token.line, token.column)):
        return _error(pos, *unfinished_keyword(text_before(text, token.line, token.column)))
    return _error(pos, f"unexpected `{token}`", COMPARE_HINT if str(token) == "=" and "CMP" in expected else hint)


# ---------------------------------------------------------------------------- the spec
def load_game_spec(text: str, file: str | None = None) -> ast.GameSpec:
    """Parse a `.game` text into a `GameSpec`; any mistake raises `SpecError`."""
    text = normalise_line_breaks(text)
    tree = _feed(text, file)
    origin = text_origin(text, file)
    try:
        sections = _GameToAst(origin).transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, SpecError):
            raise err.orig_exc from None
        meta = err.obj.meta
        raise _error(origin(meta.line, meta.column), f"cannot read this {err.rule}: {err.orig_exc}") from None
    except RecursionError:
        raise _error(origin(1, 1), "the spec is nested too deeply",
                     "split deep expressions into helper definitions") from None
    return _build_spec(sections, file)


def _build_spec(sections: list, file: str | None) -> ast.GameSpec:
    first: dict[str, _Section] = {}
    for section in sections:
        if section.keyword in first and section.keyword not in REPEATED:
            raise _error(section.pos, f"duplicate section `{section.keyword}`",
                         f"first given at line {first[section.keyword].pos.line}")
        first.setdefault(section.keyword, section)
    _require_sections(first, sections[0].pos)

    spec = ast.GameSpec(name=first["game"].value, players=first["players"].value, file=file,
                        pos=sections[0].pos)
    spec.positions = {SECTIONS[keyword]: section.pos for keyword, section in first.items()}
    for section in first.values():
        spec.positions.update(section.item_positions or {})

    def items(keyword, what):
        found = [item for s in sections if s.keyword == keyword
                 for item in (s.value if keyword == "option" else (s.value,))]
        return _unique(found, what)
    spec.options = items("option", "option")
    spec.directions = items("directions", "direction set")
    spec.variables = items("state", "state variable")
    spec.defines = items("define", "definition")
    spec.actions = _unique([a for s in sections if s.keyword in ("action", "step") for a in (s.value,)],
                           "action")
    spec.evaluation = items("evaluation", "feature")

    for keyword, section in first.items():
        if keyword not in REPEATED and keyword not in ("game", "players"):
            setattr(spec, "pass_rule" if keyword == "pass" else keyword, section.value)
    return spec


def _require_sections(first: dict, pos: ast.Pos):
    for keyword, example in (("game", "game \"NAME\""), ("players", "players A, B"),
                             ("action", "action NAME(PARAM in DOMAIN)")):
        if keyword not in first:
            raise _error(pos, f"missing section `{keyword}`", f"add a line `{example}`")
    if "terminal" not in first and "goal" not in first:
        raise _error(pos, "missing section `terminal` (when the game ends)",
                     "add `terminal EXPRESSION` (or `goal EXPRESSION` for a puzzle)")


def _unique(items: list, what: str) -> tuple:
    seen = {}
    for item in items:
        if item.name in seen:
            raise _error(item.pos, f"duplicate {'step' if getattr(item, 'step', False) else what} `{item.name}`",
                         f"first given at line {seen[item.name].pos.line}")
        seen[item.name] = item
    return tuple(items)
