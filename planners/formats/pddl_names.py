"""Where each name of one PDDL file is declared and used, for the language server's
hover, definition, references and outline.

A small pass over the file's s-expressions, separate from the importer (`pddl.py`), so
that it reads any PDDL the importer parses, and the parts of ADL it refuses too
(quantifiers, conditional effects, derived predicates).  `pddl_names(text)` returns a
`PddlNames`: the declarations (types, constants and objects, predicates, functions,
actions and their parameters), the uses (a predicate or function at the head of a
formula, an object or a ?variable as its argument, a type after `-`) and the line of
each section.  Names are lower-cased, as the importer reads them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_TOKEN = re.compile(r";[^\n]*|\(|\)|[^\s()]+")
CONNECTIVES = {"and", "or", "not", "imply", "when"}
QUANTIFIERS = {"exists", "forall"}
NUMERIC = {"increase", "decrease", "assign", "scale-up", "scale-down", "<", ">", "<=", ">=",
           "+", "-", "*", "/"}


@dataclass(frozen=True)
class Token:
    text: str
    line: int                 # 1-based
    col: int


@dataclass(frozen=True)
class Name:
    kind: str                 # type | object | predicate | function | action | parameter | variable
    name: str
    line: int
    col: int
    end_col: int
    detail: str = ""          # a declaration's text, e.g. `(at ?b - ball ?r - room)`
    scope: str | None = None  # the action (or predicate) a parameter belongs to


@dataclass
class PddlNames:
    kind: str = ""                                       # domain | problem
    name: str = ""
    domain: str = ""                                     # a problem's :domain
    declared: list = field(default_factory=list)
    used: list = field(default_factory=list)
    sections: dict = field(default_factory=dict)        # `:action move` or `:init` -> line


def _tree(text: str) -> list:
    """The s-expressions of `text`: a list holds its opening Token first, then its items;
    unbalanced parentheses are closed at the end (the importer reports them)."""
    root, stack, line, start = [None], [], 1, 0
    top = root
    for m in _TOKEN.finditer(text):
        line += text.count("\n", start, m.start())
        start = m.start()
        word = m.group()
        token = Token(word, line, m.start() - text.rfind("\n", 0, m.start()))
        if word.startswith(";"):
            continue
        if word == "(":
            stack.append(top)
            top = [token]
            stack[-1].append(top)
        elif word == ")":
            if stack:
                top = stack.pop()
        else:
            top.append(token)
    return root[1:]


def _text(item) -> str:
    if isinstance(item, Token):
        return item.text.lower()
    return "(" + " ".join(_text(x) for x in item[1:]) + ")"


def _head(item) -> str:
    return item[1].text.lower() if isinstance(item, list) and len(item) > 1 and \
        isinstance(item[1], Token) else ""


class _Reader:
    def __init__(self):
        self.out = PddlNames()
        self.parents = []          # the types named as parents in :types (PDDL declares them so)

    def name(self, kind: str, token, used: bool, detail: str = "", scope=None):
        """Records `token` as a use or a declaration; returns the entry, or None."""
        if not isinstance(token, Token) or (kind == "type" and token.text.lower() == "object"):
            return None                # the root type is declared nowhere
        entry = Name(kind, token.text.lower().lstrip("?"), token.line, token.col,
                     token.col + len(token.text), detail, scope)
        (self.out.used if used else self.out.declared).append(entry)
        return entry

    def typed(self, items, kind: str | None, scope=None, detail=""):
        """A typed list `a b - t c`: the names (declared as `kind`, or used as variables
        when kind is None) and the types after `-` (used)."""
        pending = []
        for i, item in enumerate(items):
            after_minus = i > 0 and isinstance(items[i - 1], Token) and items[i - 1].text == "-"
            if after_minus:
                for t in (item[2:] if isinstance(item, list) else [item]):   # (either a b)
                    use = self.name("type", t, used=True)
                    if kind == "type" and use is not None:
                        self.parents.append(use)
                for token in pending:
                    typed = f"{token.text.lower()} - {_text(item)}"
                    self.declare(kind, token, typed if not detail else detail, scope)
                pending = []
            elif isinstance(item, Token) and item.text != "-":
                pending.append(item)
        for token in pending:
            self.declare(kind, token, f"{token.text.lower()} - object" if not detail else detail, scope)

    def declare(self, kind, token, detail, scope):
        if kind is None:
            self.name("variable", token, used=True, scope=scope)
        else:
            self.name(kind, token, used=False, detail=detail, scope=scope)

    def signature(self, item, kind: str):
        """`(name ?x - t ...)` of a predicate or function: declared with its text."""
        if isinstance(item, list) and len(item) > 1:
            self.name(kind, item[1], used=False, detail=_text(item))
            self.typed(item[2:], "parameter", scope=_head(item))

    def formula(self, item, scope):
        if isinstance(item, Token):
            self.name("variable" if item.text.startswith("?") else "object", item, True, scope=scope)
            return
        head = _head(item)
        if head in QUANTIFIERS and len(item) > 2 and isinstance(item[2], list):
            self.typed(item[2][1:], None, scope)
            rest = item[3:]
        elif head in CONNECTIVES or head in NUMERIC or head == "=":
            rest = item[2:]
        else:
            self.name("predicate", item[1] if len(item) > 1 else None, True, scope=scope)
            rest = item[2:]
        for part in rest:
            if not (isinstance(part, Token) and re.fullmatch(r"-?[\d.]+", part.text)):
                self.formula(part, scope)

    def section(self, item):
        head = _head(item)
        line = item[0].line
        if head == ":action" and len(item) > 2:
            self.action(item)
            return
        self.out.sections[head] = line
        if head == ":types":
            self.typed(item[2:], "type")
        elif head in (":constants", ":objects"):
            self.typed(item[2:], "object")
        elif head in (":predicates", ":functions"):
            for sig in item[2:]:
                self.signature(sig, "predicate" if head == ":predicates" else "function")
        elif head == ":derived" and len(item) > 3:
            if isinstance(item[2], list) and len(item[2]) > 1:     # (pred ?x - type ...)
                self.name("predicate", item[2][1], True)
                self.typed(item[2][2:], None, None)
            self.formula(item[3], None)
        elif head in (":init", ":goal"):
            for part in item[2:]:
                self.formula(part, None)

    def action(self, item):
        name = item[2]
        scope = name.text.lower()
        self.out.sections[f":action {scope}"] = item[0].line
        parts = item[3:]
        params = next((parts[i + 1] for i, p in enumerate(parts[:-1])
                       if isinstance(p, Token) and p.text.lower() == ":parameters"), None)
        signature = f"(:action {scope} :parameters {_text(params) if isinstance(params, list) else '()'})"
        self.name("action", name, used=False, detail=signature)
        if isinstance(params, list):
            self.typed(params[1:], "parameter", scope=scope)
        for i, part in enumerate(parts[:-1]):
            if isinstance(part, Token) and part.text.lower() in (":precondition", ":effect"):
                self.formula(parts[i + 1], scope)


def pddl_names(text: str) -> PddlNames:
    """The declarations, uses and sections of one PDDL file (a domain or a problem)."""
    reader = _Reader()
    for top in _tree(text):
        if _head(top) != "define" or len(top) < 3 or not isinstance(top[2], list):
            continue
        kind = _head(top[2])
        reader.out.kind = kind
        reader.out.name = _text(top[2][2]) if len(top[2]) > 2 else ""
        for item in top[3:]:
            if not isinstance(item, list):
                continue
            if _head(item) == ":domain" and len(item) > 2:
                reader.out.domain = _text(item[2])
            else:
                reader.section(item)
    declared = {d.name for d in reader.out.declared if d.kind == "type"}
    for use in reader.parents:
        if use.name not in declared:
            declared.add(use.name)
            reader.out.declared.append(Name("type", use.name, use.line, use.col, use.end_col,
                                            f"{use.name} - object (declared as a parent type)"))
    return reader.out
