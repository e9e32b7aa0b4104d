"""The `.game` front-end: a whole game spec in our own grammar (`game_format.lark`).

`load_game_spec(text, file)` parses a `.game` text into the same `framework.ast.GameSpec`
the YAML front-end builds, with every node positioned in the file.  The grammar is the
expression language of `expressions.lark` plus one rule per section; a section starts at
the beginning of a line and indented lines continue it.  Inside a section a line break
separates effects where an effect may end and is white space everywhere else: the
parser is fed token by token and a line break is passed on only where the parser can
take it.  Syntax errors and duplicate sections become `SpecError`s with position, caret
and hint; semantic checks live in the checker.  This module owns the parsing (feeding,
syntax errors) and the assembly of the spec; the tree transformer is game_sections.py's.
"""
from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedToken, VisitError
from lark.parsers.lalr_parser_state import ParseConf, ParserState

from framework.frontend.game_sections import _GameToAst, _Section, _error
from framework.frontend.lark_cache import cached_lark
from framework import ast
from framework.errors import SpecError, did_you_mean, normalise_line_breaks
from framework.frontend.expressions import (GRAMMAR_FILE as EXPRESSIONS_GRAMMAR,
                                           text_origin, expected_hint, terminal_spelling, COMPARE_HINT,
                                           text_before, unfinished_keyword, unparenthesised_domain)

GRAMMAR_FILE = Path(__file__).with_name("game_format.lark")

# `.game` section keyword -> the YAML section it stands for (the keys of spec.positions)
SECTIONS = {
    "game": "game", "players": "players", "option": "options", "board": "board", "links": "links",
    "lines": "lines", "directions": "directions",
    "state": "state", "define": "define", "action": "actions", "step": "steps", "init": "init",
    "turn": "turn", "pass": "pass", "terminal": "terminal", "goal": "goal",
    "utility": "utility", "winner": "winner", "utility_bounds": "utility_bounds",
    "zero_sum": "zero_sum", "constant_sum": "constant_sum", "evaluation": "evaluation",
    "display": "display", "symmetries": "symmetries", "max_length": "max_length",
    "prefer": "prefer", "repetition": "repetition", "max_moves": "max_moves",
}
# words of the expression language that are never names (where a name is expected the
# contextual lexer would otherwise read them as one, and report a confusing error later)
RESERVED = {"in", "if", "else", "or", "and", "not", "then", "for", "do", "let", "continue"}
# sections that may be given many times, one item each (or several options)
REPEATED = {"option", "directions", "state", "define", "action", "step", "evaluation"}


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
        if keyword not in REPEATED and keyword not in ("game", "players", "links", "lines"):
            setattr(spec, "pass_rule" if keyword == "pass" else keyword, section.value)
    for keyword in ("links", "lines"):            # a graph board's: they go into `board`
        if keyword in first:
            if spec.board is None or not spec.board.points:
                raise _error(first[keyword].pos, f"`{keyword}` needs a graph board",
                             "declare its points: board points a b c of empty, X, O")
            spec.board = replace(spec.board, **{keyword: first[keyword].value})
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
