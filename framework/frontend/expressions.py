"""Parse the expression and effect language (`expressions.lark`) into AST nodes.

`parse_expression(text, origin)` and `parse_effects(text, origin)` turn one piece of spec
text into AST nodes whose positions are in the *spec file*: `origin` maps a (line, column)
inside the piece to a `Pos` in the file the piece came from.  Syntax errors become
`SpecError`s with position, caret and a hint about what was expected.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Callable

from lark import Lark, Transformer, v_args, Token
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
                maybe_placeholders=False)


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
        return ast.Cond(test, then, else_, self._pos(meta))

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


_TOKEN_WORDS = {"MINUS": "`-`", "QUANT": "a quantifier", "CMP": "a comparison", "ASSIGN": "`=`",
                "DOTDOT": "`..`", "IN": "`in`", "IF": "`if`", "ELSE": "`else`", "THEN": "`then`",
                "DO": "`do`", "RPAR": "`)`", "LPAR": "`(`", "RSQB": "`]`", "LSQB": "`[`", "COMMA": "`,`",
                "NAME": "a name", "NUMBER": "a number", "COLON": "`:`", "$END": "the end",
                "_NEWLINE": "a new line", "SEMICOLON": "`;`", "RBRACE": "`}`", "LBRACE": "`{`"}


def _syntax_error(err: UnexpectedInput, text: str, origin: Origin, what: str) -> SpecError:
    line = getattr(err, "line", None) or 1
    col = getattr(err, "column", None) or 1
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        lines = text.rstrip().split("\n")
        line, col = len(lines), len(lines[-1]) + 1
        message = f"{what} ends too early"
    elif isinstance(err, UnexpectedCharacters):
        message = f"unexpected character {text.split(chr(10))[line - 1][col - 1]!r} in {what}"
    else:
        message = f"unexpected `{err.token}` in {what}"
    expected = sorted(getattr(err, "expected", None) or getattr(err, "allowed", None) or [])
    words = [_TOKEN_WORDS.get(t, f"`{t.lower()}`" if t.isalpha() else t) for t in expected
             if not t.startswith("__") and t != "_NEWLINE"]
    hint = ("expected " + ", ".join(dict.fromkeys(words))[:200]) if words else None
    pos = origin(line, col)
    return SpecError(message, file=pos.file, line=pos.line, col=pos.col,
                     source_line=pos.source_line, hint=hint)


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
        tree = _parser(start).parse(text)
        return _ToAst(origin).transform(tree)
    except UnexpectedInput as err:
        raise _syntax_error(err, text, origin, what) from None
    except VisitError as err:           # a SpecError raised while building a node
        if isinstance(err.orig_exc, SpecError):
            raise err.orig_exc from None
        if isinstance(err.orig_exc, RecursionError):
            raise _too_deep(origin, what) from None
        raise
    except RecursionError:
        raise _too_deep(origin, what) from None


def _too_deep(origin: Origin, what: str) -> SpecError:
    pos = origin(1, 1)
    return SpecError(f"{what} is nested too deeply", file=pos.file, line=pos.line, col=pos.col,
                     source_line=pos.source_line, hint="split it into helper definitions")
