"""Parse the expression and effect language (`expressions.lark`) into AST nodes.

`parse_expression(text, origin)` and `parse_effects(text, origin)` turn one piece of spec
text into AST nodes whose positions are in the *spec file*: `origin` maps a (line, column)
inside the piece to a `Pos` in the file the piece came from.  Syntax errors become
`SpecError`s with position, caret and a hint about what was expected.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Callable

from lark import Lark, Transformer, v_args, Token
from lark.lexer import PatternStr
from lark.parsers.lalr_analysis import Shift
from lark.exceptions import (UnexpectedInput, UnexpectedCharacters, UnexpectedToken, UnexpectedEOF,
                             VisitError)

from framework.frontend.lark_cache import cached_lark
from framework import ast
from framework.errors import SpecError, shorten

GRAMMAR_FILE = Path(__file__).with_name("expressions.lark")

# Maps (line, column) inside a piece of text (1-based) to a position in the spec file.
Origin = Callable[[int, int], ast.Pos]


def text_origin(text: str, file: str | None = None, line0: int = 1, col0: int = 1) -> Origin:
    """Origin for text that starts at (line0, col0) of `file` and is verbatim there."""
    lines = text.split("\n")

    def origin(line: int, col: int, end_col: int | None = None) -> ast.Pos:
        src = lines[line - 1] if 0 < line <= len(lines) else None
        c = col + (col0 - 1 if line == 1 else 0)
        if line == 1 and src is not None:
            src = " " * (col0 - 1) + src
        return ast.Pos(file, line0 + line - 1, c, None if end_col is None else end_col + (c - col), src)
    return origin


@lru_cache(maxsize=None)
def _parser(start: str) -> Lark:
    grammar = GRAMMAR_FILE.read_text()
    if start in ("expr", "domain"):
        grammar += "\n%ignore _NEWLINE\n"
    return cached_lark(grammar, start=start, parser="lalr", propagate_positions=True,
                maybe_placeholders=False,
                       # effects are lexed whole before parsing (see _parse_effects)
                       lexer="basic" if start == "effects" else "contextual")


_BINARY = {"or_": "or", "and_": "and", "union": "|", "intersect": "&", "add": "+",
           "sub": "-", "mul": "*", "div": "/", "floordiv": "//", "mod": "%",
           "in_": "in", "notin": "notin"}


class _ToAst(Transformer):
    """Lark tree -> framework.ast nodes, positions mapped through `origin`."""

    def __init__(self, origin: Origin):
        super().__init__()
        self.origin = origin

    def _pos(self, meta) -> ast.Pos:
        if getattr(meta, "empty", True):
            return ast.NOPOS
        end = meta.end_column if meta.end_line == meta.line else None
        return self.origin(meta.line, meta.column, end)

    def _tok(self, tok: Token) -> ast.Pos:
        return self.origin(tok.line, tok.column, tok.end_column)

    def __default__(self, data, children, meta):
        if data in _BINARY:
            left, right = children
            return ast.Binary(_BINARY[data], left, right, self._pos(meta))
        raise AssertionError(f"unhandled grammar rule {data}")

    @v_args(meta=True)
    def number(self, meta, children):
        (tok,) = children
        return ast.Num(number_value(tok, self._tok(tok)), self._tok(tok))

    @v_args(meta=True)
    def name(self, meta, children):
        (tok,) = children
        return ast.Name(str(tok), self._tok(tok))

    @v_args(meta=True)
    def call(self, meta, children):
        func, *args = children
        return ast.Call(str(func), tuple(args), self._tok(func))

    @v_args(meta=True)
    def index(self, meta, children):
        base, idx = children
        return ast.Index(base, idx, self._pos(meta))

    @v_args(meta=True)
    def tuple(self, meta, children):
        return ast.TupleExpr(tuple(children), self._pos(meta))

    @v_args(meta=True)
    def list(self, meta, children):
        return ast.ListExpr(tuple(children), self._pos(meta))

    @v_args(meta=True)
    def neg(self, meta, children):
        (operand,) = children
        if isinstance(operand, ast.Num):
            return ast.Num(-operand.value, self._pos(meta))
        return ast.Unary("-", operand, self._pos(meta))

    @v_args(meta=True)
    def not_(self, meta, children):
        return ast.Unary("not", children[0], self._pos(meta))

    @v_args(meta=True)
    def compare(self, meta, children):
        left, op, right = children
        return ast.Binary(str(op), left, right, self._tok(op))

    @v_args(meta=True)
    def cond(self, meta, children):
        then, test, else_ = children
        pos = self._pos(meta)
        ranges = [isinstance(branch, ast.Range) for branch in (then, else_)]
        if all(ranges):            # a domain chosen by a condition: the range of chosen bounds
            return ast.Range(ast.Cond(test, then.lo, else_.lo, pos), ast.Cond(test, then.hi, else_.hi, pos), pos)
        if any(ranges):
            other = else_ if ranges[0] else then
            raise SpecError.at(other.pos, "the other branch of this `if` is a range, so this one must be a "
                               "range too", "write a..b in both branches (a domain chosen by a condition)")
        return ast.Cond(test, then, else_, pos)

    @v_args(meta=True)
    def range(self, meta, children):
        lo, hi = children
        return ast.Range(lo, hi, self._pos(meta))

    @v_args(meta=True)
    def quant(self, meta, children):
        kind, var, domain, body = children
        return ast.Quant(str(kind), str(var), domain, body, self._tok(kind))

    # ---- effects
    def effects(self, children):
        out = []
        for child in children:
            out.extend(child if isinstance(child, list) else [child])
        return out

    def block(self, children):
        return children[0]

    def empty_block(self, children):
        return []

    @v_args(meta=True)
    def assign(self, meta, children):
        target, op, value = children
        return ast.Assign(target, str(op), value, self._tok(op))

    @v_args(meta=True)
    def let_effect(self, meta, children):
        name, op, value = children
        if str(op) != "=":
            raise SpecError.at(self._tok(op), f"`let {name}` gives a new variable its first value, "
                               f"so it takes `=`, not `{op}`", f"write `let {name} = ...`")
        return ast.LetEffect(str(name), value, self._tok(name))

    @v_args(meta=True)
    def continue_effect(self, meta, children):
        name, *args = children
        return ast.ContinueEffect(str(name), tuple(args), self._tok(name))

    @v_args(meta=True)
    def if_effect(self, meta, children):
        test, then, *rest = children
        as_tuple = lambda e: tuple(e) if isinstance(e, list) else (e,)
        return ast.IfEffect(test, as_tuple(then), as_tuple(rest[0]) if rest else (), self._pos(meta))

    @v_args(meta=True)
    def for_effect(self, meta, children):
        var, domain, body = children
        return ast.ForEffect(str(var), domain, tuple(body) if isinstance(body, list) else (body,),
                             self._pos(meta))


MAX_NUMBER_DIGITS = 100


def number_value(text: str, pos: ast.Pos):
    """The int or float a NUMBER token spells; a SpecError for numbers too long to be
    meant (Python refuses ints over 4,300 digits; long floats become inf)."""
    if len(text) > MAX_NUMBER_DIGITS:
        raise SpecError.at(pos, f"cannot read this number: {shorten(text)} has {len(text):,} digits "
                                f"(at most {MAX_NUMBER_DIGITS})", "use an option or a smaller number")
    return float(text) if "." in text else int(text)


_TERMINAL_WORDS = {"NAME": "a name", "NUMBER": "a number", "STRING": "a quoted string",
                   "QUANT": "a quantifier", "CMP": "a comparison", "ASSIGN": "`=`, `+=` or `-=`",
                   "_END": "the end of the line", "_NEWLINE": "a new line", "$END": "the end"}
# what a hint says instead of listing the tokens that start an expression or continue one
_EXPRESSION_START = {"QUANT", "NAME", "NUMBER", "`(`", "`[`", "`-`", "`not`"}
_OPERATORS = {"CMP", "`+`", "`-`", "`*`", "`/`", "`//`", "`%`", "`|`", "`&`", "`in`", "`not`",
              "`and`", "`or`", "`if`", "`[`"}


def terminal_spelling(parser: Lark) -> dict:
    """Terminal name -> `text` for the terminals of `parser` that are one fixed text."""
    return {t.name: f"`{t.pattern.value}`" for t in parser.terminals if isinstance(t.pattern, PatternStr)}


def expected_hint(expected, spelling: dict) -> str | None:
    """`expected a, b or c` in the user's words: what the terminals spell, never their
    grammar names, an expression or an operator rather than the tokens that start one."""
    if "_END" in expected:
        expected = set(expected) - {"$END"}
    spelled = {spelling.get(t, t) for t in expected if not t.startswith("__")} - {"_NEWLINE"}
    summary = []
    if "QUANT" in spelled:
        spelled -= _EXPRESSION_START
        summary.append("an expression")
    if len(spelled & _OPERATORS) > 3:
        spelled -= _OPERATORS
        summary.append("an operator")
    names = sorted(_TERMINAL_WORDS.get(t, t) for t in spelled) + summary
    if not names:
        return None
    return "expected " + (", ".join(names[:-1]) + " or " if len(names) > 1 else "") + names[-1]


# a quantifier or `for` whose domain has reached a `|` or `&` (the token that failed)
_OPEN_DOMAIN = re.compile(r"(?:\b(?:exists|forall|count|sum|min|max)|(?<![A-Za-z0-9_])for)\s+"
                          r"[A-Za-z_][A-Za-z0-9_]*\s+in\s+[^:]*$")


def unparenthesised_domain(token, before: str) -> tuple[str, str] | None:
    """(message, hint) when `token` is a `|` or `&` met inside a quantifier's or a `for`'s
    domain (`forall c in A | B: ...`), which the grammar reads only in parentheses."""
    if str(token) not in ("|", "&") or not _OPEN_DOMAIN.search(before):
        return None
    kind = "union" if str(token) == "|" else "intersection"
    return (f"a set {kind} as a domain needs parentheses",
            f"write the domain in parentheses: `in (A {token} B)`")


COMPARE_HINT = "to compare, write `==` (a single `=` assigns, in effects)"   # `=` met where `==` fits
_UNFINISHED = {
    "continue": ("`continue` needs the step the move goes on with",
                 "write `continue STEP(arguments)`, e.g. `continue jump(d)`"),
    "let": ("`let` needs a name and a value", "write `let x = EXPRESSION`"),
}


def unfinished_keyword(before: str) -> tuple[str, str] | None:
    """(message, hint) when the text so far ends with `continue` or `let` (and no more)."""
    word = re.search(r"(?<![A-Za-z0-9_])(continue|let)\s*$", before)
    return _UNFINISHED[word.group(1)] if word else None


def _syntax_error(err: UnexpectedInput, text: str, origin: Origin, what: str, start: str) -> SpecError:
    line = getattr(err, "line", None) or 1
    col = getattr(err, "column", None) or 1
    hint = expected_hint(getattr(err, "expected", None) or getattr(err, "allowed", None) or (),
                         terminal_spelling(_parser(start)))
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        lines = text.rstrip().split("\n")
        line, col = len(lines), len(lines[-1]) + 1
        message = f"{what} ends too early"
    elif isinstance(err, UnexpectedCharacters):
        message = f"unexpected character {text.split(chr(10))[line - 1][col - 1]!r} in {what}"
    elif unparenthesised_domain(err.token, text_before(text, line, col)):
        message, hint = unparenthesised_domain(err.token, text_before(text, line, col))
    else:
        message = f"unexpected `{err.token}` in {what}"
        if str(err.token) == "=" and "CMP" in (getattr(err, "expected", None) or ()):
            hint = COMPARE_HINT
    if not isinstance(err, UnexpectedCharacters):
        message, hint = unfinished_keyword(text_before(text, line, col)) or (message, hint)
    pos = origin(line, col)
    return SpecError(message, file=pos.file, line=pos.line, col=pos.col,
                     source_line=pos.source_line, hint=hint)


def text_before(text: str, line: int, col: int) -> str:
    """The text before (line, col), 1-based."""
    lines = text.split("\n")
    return "\n".join(lines[:line - 1] + [lines[line - 1][:col - 1]])


def parse_expression(text: str, origin: Origin, what: str = "expression"):
    return _parse(str(text), origin, "expr", what)


def parse_domain(text: str, origin: Origin, what: str = "parameter domain"):
    return _parse(str(text), origin, "domain", what)


def parse_effects(text: str, origin: Origin, what: str = "effects") -> tuple:
    return tuple(_parse(str(text), origin, "effects", what))


def _parse(text: str, origin: Origin, start: str, what: str):
    if not text.strip():
        pos = origin(1, 1)
        raise SpecError(f"empty {what}", file=pos.file, line=pos.line, col=pos.col,
                        source_line=pos.source_line, hint=f"write the {what} here")
    try:
        tree = _parse_effects(text) if start == "effects" else _parser(start).parse(text)
        return _ToAst(origin).transform(tree)
    except UnexpectedInput as err:
        raise _syntax_error(err, text, origin, what, start) from None
    except VisitError as err:           # a SpecError raised while building a node
        if isinstance(err.orig_exc, SpecError):
            raise err.orig_exc from None
        if isinstance(err.orig_exc, RecursionError):
            raise _too_deep(origin, what) from None
        raise
    except RecursionError:
        raise _too_deep(origin, what) from None


def _parse_effects(text: str):
    """Effects token by token, with line breaks read as `.game` reads them: a line break
    separates two effects where one may end, and is plain white space where it cannot (after
    `then`, `else`, `do`, inside an expression) or before a line that continues the one
    above (one starting with `else`, `and`, `or`, `not`, `in`, an operator or a bracket)."""
    parser = _parser("effects")
    interactive = parser.parse_interactive("")
    pending = last = None
    for token in parser.lex(text):
        if token.type == "_NEWLINE":
            pending = pending or token
            continue
        if pending is not None and not _continues(token) and _takes(interactive, pending):
            interactive.feed_token(pending)
        pending = None
        interactive.feed_token(token)
        last = token
    if pending is not None and _takes(interactive, pending):
        interactive.feed_token(pending)
    return interactive.feed_eof(last)


def _continues(token: Token) -> bool:
    return token in ("else", "and", "or", "not", "in") or not (token[:1].isalpha() or token[:1] in "_{}")


def _takes(interactive, token: Token) -> bool:
    """Whether the parser would take `token` now: its LALR actions are run on a copy of the
    state stack alone (copying the parser would deep-copy every tree built so far)."""
    states = interactive.parser_state.parse_conf.states
    stack = list(interactive.parser_state.state_stack)
    while True:
        action, rule = states[stack[-1]].get(token.type, (None, None))
        if action is None:
            return False
        if action is Shift:
            return True
        del stack[len(stack) - len(rule.expansion):]          # a reduction, then its goto
        stack.append(states[stack[-1]][rule.origin.name][1])


def _too_deep(origin: Origin, what: str) -> SpecError:
    pos = origin(1, 1)
    return SpecError(f"{what} is nested too deeply", file=pos.file, line=pos.line, col=pos.col,
                     source_line=pos.source_line, hint="split it into helper definitions")
