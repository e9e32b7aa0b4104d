"""The fast path of the PDDL importer: a hand-written reader for well-formed files of the
subset `planners/formats/pddl.lark` accepts, so that `plyspec plan` neither imports Lark nor loads
its parser (together most of a small task's start-up).

One regular expression cuts the text into tokens (with Lark's line and column), a loop
nests them into lists, and a walk over the lists calls the importer's builder
(`planners.formats.pddl._Builder`) with the very children Lark's LALR parser would pass it, in the
same bottom-up, left-to-right order, so the result is the same `PlanningProblem` pieces.
Whatever the walk does not recognise (a syntax error, an unsupported construct, a name
that is also a PDDL keyword, a character outside the grammar, nesting deeper than
MAX_DEPTH) and any error the builder raises make `read_pddl` return None: the caller then
parses with Lark, which gives the positioned error or the odd-but-valid result exactly as
before.
"""
from __future__ import annotations

import re

MAX_DEPTH = 100

_TOKEN = re.compile(r"""(?P<WS>[ \t\f\r\n]+|;[^\n]*)|(?P<LPAR>\()|(?P<RPAR>\))
    |(?P<NUMBER>-?\d+(?:\.\d+)?)|(?P<MINUS>-)|(?P<EQUAL>=)
    |(?P<KEYWORD>:[a-zA-Z][a-zA-Z0-9_\-]*)|(?P<VARIABLE>\?[a-zA-Z][a-zA-Z0-9_\-]*)
    |(?P<NAME>[a-zA-Z][a-zA-Z0-9_\-]*)""", re.X)

# the grammar's own words: as a name they could lex differently in Lark, so Lark decides
RESERVED = {"define", "domain", "problem", "either", "and", "not", "increase", "or", "imply",
            "exists", "forall", "when", "decrease", "assign", "scale-up", "scale-down"}
SECTIONS = {":domain", ":requirements", ":types", ":constants", ":objects", ":predicates",
            ":functions", ":action", ":derived", ":parameters", ":precondition", ":effect",
            ":init", ":goal", ":metric"}


class Tok(str):
    """A token as the builder sees Lark's: the text, its type, line and column (1-based)."""

    def __new__(cls, text: str, type_: str, line: int, column: int):
        tok = super().__new__(cls, text)
        tok.type, tok.line, tok.column = type_, line, column
        return tok


class _Unusual(Exception):
    """Outside what the fast path reads: Lark parses the file instead."""


def _nested(text: str) -> list:
    """The top-level list of the text's tokens nested by parentheses."""
    stack, top, line, line_start, pos, end = [], [], 1, 0, 0, len(text)
    match = _TOKEN.match
    while pos < end:
        m = match(text, pos)
        if m is None:
            raise _Unusual
        kind = m.lastgroup
        if kind == "WS":
            breaks = m.group().count("\n")
            if breaks:
                line += breaks
                line_start = m.start() + m.group().rindex("\n") + 1
        elif kind == "LPAR":
            if len(stack) >= MAX_DEPTH:
                raise _Unusual
            stack.append(top)
            top = []
        elif kind == "RPAR":
            if not stack:
                raise _Unusual
            done, top = top, stack.pop()
            top.append(done)
        else:
            top.append(Tok(m.group(), kind, line, pos - line_start + 1))
        pos = m.end()
    if stack or len(top) != 1 or not isinstance(top[0], list):
        raise _Unusual
    return top[0]


def _token(item, *types) -> Tok:
    if not isinstance(item, Tok) or item.type not in types or item.lower() in RESERVED:
        raise _Unusual
    return item


def _head(item: list) -> str:
    """The lower-cased first word of a list ("" when it has none)."""
    return item[0].lower() if item and isinstance(item[0], Tok) else ""


def _keyword(tok: Tok) -> Tok:
    tok.type = tok.upper().lstrip(":").replace("-", "_")
    return tok


class _Walk:
    """Calls the builder's callbacks on the nested lists of one file."""

    def __init__(self, builder):
        self.b = builder

    def start(self, top: list):
        if _head(top) != "define" or len(top) < 2 or not isinstance(top[1], list) \
                or len(top[1]) != 2:
            raise _Unusual
        kind, name = _head(top[1]), _token(top[1][1], "NAME")
        if kind == "domain":
            items = [self.section(item, self.DOMAIN) for item in top[2:]]
            return self.b.start([self.b.domain([name, *items])])
        if kind != "problem" or len(top) < 3 or _head(top[2]) != ":domain" or len(top[2]) != 2:
            raise _Unusual
        ref = _token(top[2][1], "NAME")
        items = [self.section(item, self.PROBLEM) for item in top[3:]]
        return self.b.start([self.b.problem([name, ref, *items])])

    DOMAIN = {":requirements", ":types", ":constants", ":predicates", ":functions",
              ":action", ":derived"}
    PROBLEM = {":requirements", ":objects", ":init", ":goal", ":metric"}

    def section(self, item, allowed: set):
        if not isinstance(item, list) or _head(item) not in allowed or item[0].type != "KEYWORD":
            raise _Unusual
        name, rest, b = _head(item), item[1:], self.b
        if name == ":requirements":
            if any(not isinstance(t, Tok) or t.type != "KEYWORD" or t.lower() in SECTIONS
                   for t in rest):
                raise _Unusual
            return b.requirements(rest)
        if name in (":types", ":constants", ":objects"):
            return getattr(b, name[1:])([b.typed_names(self.typed(rest, "NAME"))])
        if name == ":predicates":
            return b.predicates([self.signature(s) for s in rest])
        if name == ":functions":
            return b.functions(self.functions(rest))
        if name == ":action":
            return b.action(self.action(rest))
        if name == ":derived":
            if len(rest) != 2:
                raise _Unusual
            return b.derived([self.signature(rest[0]), self.gd(rest[1])])
        if name == ":init":
            return b.init([self.init_element(e) for e in rest])
        if name == ":goal":
            if len(rest) != 1:
                raise _Unusual
            return b.goal([self.gd(rest[0])])
        if len(rest) != 2:                                      # :metric
            raise _Unusual
        return b.metric([_token(rest[0], "NAME"), self.function_term(rest[1])])

    # -- typed lists, signatures, actions ---------------------------------------------
    def typed(self, items: list, kind: str) -> list:
        """(ITEM+ "-" type)* ITEM* -> the items and type() results, in order."""
        out, pending, i = [], 0, 0
        while i < len(items):
            item = items[i]
            if isinstance(item, Tok) and item.type == "MINUS":
                if not pending or i + 1 == len(items):
                    raise _Unusual
                out.append(self.type(items[i + 1]))
                pending, i = 0, i + 2
                continue
            out.append(_token(item, kind))
            pending, i = pending + 1, i + 1
        return out

    def type(self, item):
        if isinstance(item, list):
            if _head(item) != "either":
                raise _Unusual
            return self.b.type([_keyword(item[0]), *(_token(t, "NAME") for t in item[1:])])
        return self.b.type([_token(item, "NAME")])

    def signature(self, item):
        if not isinstance(item, list) or not item:
            raise _Unusual
        name = _token(item[0], "NAME")
        return self.b.signature([name, self.b.typed_variables(self.typed(item[1:], "VARIABLE"))])

    def functions(self, items: list) -> list:
        out, i = [], 0
        while i < len(items):
            out.append(self.signature(items[i]))
            if i + 1 < len(items) and isinstance(items[i + 1], Tok) and items[i + 1].type == "MINUS":
                if i + 2 == len(items):
                    raise _Unusual
                out.append(_token(items[i + 2], "NAME"))
                i += 3
            else:
                i += 1
        return out

    def action(self, rest: list) -> list:
        if not rest:
            raise _Unusual
        children, i = [_token(rest[0], "NAME")], 1
        for marker in (":parameters", ":precondition", ":effect"):
            if i < len(rest) and isinstance(rest[i], Tok) and rest[i].lower() == marker:
                if i + 1 == len(rest) or rest[i].type != "KEYWORD":
                    raise _Unusual
                body = rest[i + 1]
                if marker == ":parameters":
                    if not isinstance(body, list):
                        raise _Unusual
                    value = self.b.typed_variables(self.typed(body, "VARIABLE"))
                else:
                    value = self.gd(body) if marker == ":precondition" else self.effect(body)
                children += [_keyword(rest[i]), value]
                i += 2
        if i != len(rest):
            raise _Unusual
        return children

    # -- formulas and effects ---------------------------------------------------------
    def terms(self, items: list) -> list:
        return [_token(t, "NAME", "VARIABLE") for t in items]

    def atom(self, item):
        if not isinstance(item, list) or not item:
            raise _Unusual
        return self.b.atom([_token(item[0], "NAME"), *self.terms(item[1:])])

    def function_term(self, item):
        if not isinstance(item, list) or not item:
            raise _Unusual
        return self.b.function_term([_token(item[0], "NAME"), *self.terms(item[1:])])

    def gd(self, item):
        if not isinstance(item, list) or not item or not isinstance(item[0], Tok):
            raise _Unusual
        head, word, rest, b = item[0], _head(item), item[1:], self.b
        if head.type == "EQUAL":
            if len(rest) != 2:
                raise _Unusual
            return b.equality(self.terms(rest))
        if word == "and":
            return b.conjunction([_keyword(head), *(self.gd(g) for g in rest)])
        if word == "or":
            return b.disjunction([_keyword(head), *(self.gd(g) for g in rest)])
        if word == "not" and len(rest) == 1:
            return b.negation([_keyword(head), self.gd(rest[0])])
        if word == "imply" and len(rest) == 2:
            return b.implication([_keyword(head), self.gd(rest[0]), self.gd(rest[1])])
        if word in ("exists", "forall") and len(rest) == 2 and isinstance(rest[0], list):
            params = b.typed_variables(self.typed(rest[0], "VARIABLE"))
            return b.quantified([_keyword(head), params, self.gd(rest[1])])
        return self.atom(item)

    def effect(self, item):
        if not isinstance(item, list) or not item or not isinstance(item[0], Tok):
            raise _Unusual
        head, word, rest, b = item[0], _head(item), item[1:], self.b
        if word == "and":
            return b.effect_and([_keyword(head), *(self.effect(e) for e in rest)])
        if word == "not" and len(rest) == 1:
            return b.effect_not([_keyword(head), self.atom(rest[0])])
        if word == "increase" and len(rest) == 2:
            value = rest[1]
            if isinstance(value, Tok):
                if value.type != "NUMBER":
                    raise _Unusual
            else:
                value = self.function_term(value)
            return b.increase([self.function_term(rest[0]), value])
        if word in ("exists", "forall") and len(rest) == 2 and isinstance(rest[0], list):
            params = b.typed_variables(self.typed(rest[0], "VARIABLE"))
            return b.forall_effect([_keyword(head), params, self.effect(rest[1])])
        if word == "when" and len(rest) == 2:
            return b.when([_keyword(head), self.gd(rest[0]), self.effect(rest[1])])
        return self.atom(item)

    def init_element(self, item):
        if isinstance(item, list) and item and isinstance(item[0], Tok) and item[0].type == "EQUAL":
            if len(item) != 3 or not isinstance(item[2], Tok) or item[2].type != "NUMBER":
                raise _Unusual
            return self.b.function_value([self.function_term(item[1]), item[2]])
        return self.atom(item)


def read_pddl(text: str, builder):
    """The builder's result for a well-formed PDDL file (line breaks normalised), or None
    when Lark must parse it (see the module docstring)."""
    try:
        return _Walk(builder).start(_nested(text))
    except Exception:       # _Unusual, or an error the builder raised: Lark reports it
        return None
