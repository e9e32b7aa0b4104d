"""PDDL import: parse a domain file and a problem file with our Lark grammar
(`pddl.lark`) into one `PlanningProblem`.

Supported: STRIPS, :typing (type hierarchies; `(either a b)` for parameters), :negative-preconditions,
:equality, :action-costs (`(increase (total-cost) N)` or a static cost function) and ADL:
`or`, `imply`, `forall`, `exists`, negated compound conditions, `when` and `forall`
effects, `:derived` predicates (built by `planners.formats.pddl_adl`).  PDDL is case-insensitive,
so every keyword and name is lower-cased.  Anything else (numeric fluents, durative
actions, preferences, ...) is refused with a SpecError that names the feature and points
at it.
"""
from __future__ import annotations

import math
import threading
from pathlib import Path

from framework.errors import SpecError, normalise_line_breaks
from framework.files import MAX_PDDL_BYTES, read_text
from planners.formats.pddl_adl import AdlBuilder, flat_conditions
from planners.formats.pddl_reader import read_pddl
from planners.lifted.ast import (ROOT_TYPE, either_type, ActionDef, Atom, FunctionDef, FunctionTerm,
                          FunctionValue, ObjectDef, Param, PlanningProblem, Pos,
                          PredicateDef, Term, TypeDef)

SUPPORTED_REQUIREMENTS = {":strips", ":typing", ":negative-preconditions", ":equality",
                          ":action-costs", ":adl", ":conditional-effects",
                          ":disjunctive-preconditions", ":existential-preconditions",
                          ":universal-preconditions", ":quantified-preconditions",
                          ":derived-predicates"}

UNSUPPORTED_REQUIREMENTS = {
    ":fluents": "numeric fluents (only total-cost via :action-costs is supported)",
    ":numeric-fluents": "numeric fluents (only total-cost via :action-costs is supported)",
    ":object-fluents": "object fluents",
    ":durative-actions": "durative actions",
    ":duration-inequalities": "duration inequalities",
    ":continuous-effects": "continuous effects",
    ":timed-initial-literals": "timed initial literals",
    ":preferences": "preferences",
    ":constraints": "state-trajectory constraints",
}

UNSUPPORTED_OPERATORS = {
    "or": "a disjunction in an effect (`or` belongs in conditions)",
    "imply": "an implication in an effect (`imply` belongs in conditions)",
    "when": "`when` inside a condition (conditional effects belong in :effect)",
}

UNSUPPORTED_SECTIONS = {
    ":durative-action": "durative actions (:durative-actions)",
    ":constraints": "state-trajectory constraints (:constraints)",
}

SUPPORTED_HINT = ("plyspec imports STRIPS and ADL (:typing, :negative-preconditions, "
                  ":equality, quantified and disjunctive conditions, conditional effects, "
                  ":derived-predicates) with :action-costs; no numeric fluents or time")

TOKEN_TEXT = {"LPAR": "`(`", "RPAR": "`)`", "NAME": "a name", "VARIABLE": "a ?variable",
              "NUMBER": "a number", "KEYWORD": "a :keyword", "MINUS": "`-`", "EQUAL": "`=`"}



class _Builder(AdlBuilder):
    """Turns parsed rules into planning AST pieces as the parser reduces them (Lark's
    inline transformer, or the fast reader `planners.formats.pddl_reader` calling the same methods:
    no parse tree is built); refuses unsupported constructs."""

    def __init__(self):
        super().__init__()
        self.file = "<pddl>"
        self.lines: list[str] = []

    def pos(self, token) -> Pos:
        line = token.line
        source = self.lines[line - 1] if 0 < line <= len(self.lines) else None
        return Pos(self.file, line, token.column, source, token.column + len(token))

    def term(self, token) -> Term:
        if token.type == "VARIABLE":
            return Term(token[1:].lower(), self.pos(token), variable=True)
        return Term(token.lower(), self.pos(token))

    def refuse(self, token, what: str) -> SpecError:
        return self.pos(token).error(f"unsupported PDDL feature: {what}", SUPPORTED_HINT)

    # -- typed lists ------------------------------------------------------------------
    def type(self, children):
        if children[0].type == "EITHER":
            if len(children) < 2:
                raise self.pos(children[0]).error("an `either` type needs at least one member")
            return ("type", either_type(token.lower() for token in children[1:]),
                    children[0])
        return ("type", children[0].lower(), None)

    def _declared(self, children, what: str):
        """Typed names of objects or types: an `either` type is refused there (it only
        makes sense for parameters; an object of two types is outside the subset)."""
        for child in children:
            if isinstance(child, tuple) and child[2] is not None:
                raise self.refuse(child[2], f"`either` as the type of {what}")
        return self._typed(children, lambda token, type_: (token.lower(), type_, self.pos(token)))

    def _typed(self, children, make):
        out, pending = [], []
        for child in children:
            if isinstance(child, tuple):
                out.extend(make(token, child[1]) for token in pending)
                pending = []
            else:
                pending.append(child)
        out.extend(make(token, ROOT_TYPE) for token in pending)
        return out

    def typed_names(self, children):
        return children

    def typed_variables(self, children):
        return self._typed(children, lambda token, type_: Param(token[1:].lower(), type_,
                                                                self.pos(token)))

    # -- domain -----------------------------------------------------------------------
    def requirements(self, children):
        for token in children:
            name = token.lower()
            if name not in SUPPORTED_REQUIREMENTS:
                what = UNSUPPORTED_REQUIREMENTS.get(name, "unknown requirement")
                raise self.pos(token).error(f"unsupported PDDL requirement `{name}`: {what}",
                                            SUPPORTED_HINT)
        return ("requirements", None)

    def types(self, children):
        return ("types", [TypeDef(name, parent, pos) for name, parent, pos
                          in self._declared(children[0], "a type")])

    def constants(self, children):
        return ("objects", [ObjectDef(name, type_, pos) for name, type_, pos
                            in self._declared(children[0], "an object")])

    objects = constants

    def signature(self, children):
        name, params = children
        return (name.lower(), tuple(params), self.pos(name))

    def predicates(self, children):
        return ("predicates", [PredicateDef(*sig) for sig in children])

    def functions(self, children):
        defs = []
        for child in children:
            if isinstance(child, str):                      # a token: the type
                if child.lower() != "number":
                    raise self.refuse(child, f"functions of type `{child.lower()}`")
            else:
                defs.append(FunctionDef(*child))
        return ("functions", defs)

    def action(self, children):
        name, params, condition, effect = children[0], (), None, []
        for marker, value in zip(children[1::2], children[2::2]):
            kind = marker.lower()
            if kind == ":parameters":
                params = tuple(value)
            elif kind == ":precondition":
                condition = self._formula(value)
            else:
                effect = value
        adds, deletes, cost, effects = self.split_effects(effect)
        flat = [] if condition is None else flat_conditions(condition)
        return ("action", ActionDef(name.lower(), params, flat or [], adds, deletes, cost,
                                    self.pos(name), None if flat is not None else condition,
                                    effects))

    # -- formulas ---------------------------------------------------------------------
    def atom(self, children):
        name = children[0]
        return Atom(name.lower(), tuple(self.term(t) for t in children[1:]), self.pos(name))

    def function_term(self, children):
        name = children[0]
        return FunctionTerm(name.lower(), tuple(self.term(t) for t in children[1:]), self.pos(name))

    def increase(self, children):
        target, value = children
        if target.function != "total-cost" or target.args:
            raise target.pos.error(f"unsupported PDDL feature: numeric fluent `{target.function}`"
                                   " (only (increase (total-cost) ...) is supported)", SUPPORTED_HINT)
        if isinstance(value, str):                          # a NUMBER token
            return ("cost", self.number(value))
        return ("cost", value)

    def number(self, token):
        value = float(token)
        if not math.isfinite(value):
            raise self.pos(token).error(f"the number {str(token)[:20]}... is too large")
        return value

    def unsupported_head(self, children):
        token = children[0]
        what = UNSUPPORTED_OPERATORS.get(token.lower(), f"numeric fluents (`{token}`)")
        raise self.refuse(token, what)

    unsupported_effect_head = unsupported_head

    def section_head(self, children):
        token = children[0]
        name = token.lower()
        what = UNSUPPORTED_SECTIONS.get(name)
        if what is None:
            raise self.pos(token).error(f"unknown PDDL section `{name}`", SUPPORTED_HINT)
        raise self.refuse(token, what)

    # -- problem ----------------------------------------------------------------------
    def init(self, children):
        return ("init", children)

    def function_value(self, children):
        term, number = children
        return FunctionValue(term, self.number(number))

    def goal(self, children):
        return ("goal", self._formula(children[0]))

    def metric(self, children):
        direction, term = children
        if direction.lower() != "minimize" or term.function != "total-cost":
            raise self.refuse(direction, "a metric other than (minimize (total-cost))")
        return ("metric", None)

    def domain(self, children):
        return ("domain", children[0], children[1:])

    def problem(self, children):
        return ("problem", children[0], children[1], children[2:])

    def start(self, children):
        return children[0]


def _syntax_error(err, file: str, lines: list[str]) -> SpecError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken
    line = getattr(err, "line", None)
    col = getattr(err, "column", None)
    if isinstance(err, UnexpectedEOF) or line is None or line < 1:
        line, col = len(lines), len(lines[-1]) + 1 if lines else 1
    source = lines[line - 1] if 0 < line <= len(lines) else None
    expected = sorted(TOKEN_TEXT.get(name, name.lower().lstrip("_")) for name in
                      (getattr(err, "expected", None) or getattr(err, "allowed", None) or ()))
    hint = f"expected {', '.join(expected[:6])}" if expected else None
    if isinstance(err, UnexpectedToken) and err.token.type == "$END":
        line, col = len(lines), len(lines[-1]) + 1 if lines else 1
        source = lines[-1] if lines else None
        message = "unexpected end of PDDL file (a `)` is missing?)"
    elif isinstance(err, UnexpectedToken):
        message = f"unexpected `{err.token}` in PDDL"
    elif isinstance(err, UnexpectedCharacters):
        message = f"unexpected character `{source[col - 1] if source else '?'}` in PDDL"
    else:
        message = "unexpected end of PDDL file (a `)` is missing?)"
    return SpecError(message, file=file, line=line, col=col, source_line=source, hint=hint)


_BUILDER = _Builder()
_PARSER: list = []              # the Lark parser, built (or loaded from the cache) when first needed
_PARSER_LOCK = threading.Lock()


def _lark_parser():
    if not _PARSER:
        from framework.frontend.lark_cache import cached_lark
        _PARSER.append(cached_lark(Path(__file__).with_name("pddl.lark").read_text(),
                                   parser="lalr", maybe_placeholders=False, transformer=_BUILDER))
    return _PARSER[0]


def parse_pddl(text: str, file: str = "<pddl>"):
    """Parses one PDDL file; returns ("domain", name_token, items) or
    ("problem", name_token, domain_token, items).  A well-formed file is read by
    `planners.formats.pddl_reader`; anything else by the Lark grammar, which reports errors."""
    text = normalise_line_breaks(text)
    lines = text.split("\n")
    builder = _Builder()
    builder.file, builder.lines = file, lines
    fast = read_pddl(text, builder)
    if fast is not None:
        return fast
    return parse_with_lark(text, file, lines)


def parse_with_lark(text: str, file: str, lines: list[str]):
    """`parse_pddl` by the Lark grammar alone."""
    from lark.exceptions import UnexpectedInput
    with _PARSER_LOCK:
        parser = _lark_parser()
        _BUILDER.file, _BUILDER.lines = file, lines
        try:
            return parser.parse(text)
        except UnexpectedInput as err:
            raise _syntax_error(err, file, lines) from None


def load_pddl(domain_path, problem_path) -> PlanningProblem:
    """Reads a PDDL domain and problem file into one checked `PlanningProblem`."""
    from planners.lifted.check import check

    parsed, texts = [], []
    for path, expected in ((domain_path, "domain"), (problem_path, "problem")):
        texts.append(read_text(path, limit=MAX_PDDL_BYTES, what="PDDL file"))
        result = parse_pddl(texts[-1], str(path))
        if result[0] != expected:
            raise SpecError(f"{path} is a PDDL {result[0]} file, expected a {expected} file",
                            file=str(path), line=1, col=1,
                            hint="usage: plyspec plan DOMAIN.pddl PROBLEM.pddl")
        parsed.append(result)
    (_, domain_name, domain_items), (_, problem_name, domain_ref, problem_items) = parsed
    builder = _Builder()
    builder.file, builder.lines = str(problem_path), normalise_line_breaks(texts[1]).split("\n")
    if domain_ref.lower() != domain_name.lower():
        raise builder.pos(domain_ref).error(
            f"problem is for domain `{domain_ref.lower()}`, the domain file defines "
            f"`{domain_name.lower()}`")
    problem = PlanningProblem(problem_name.lower(), domain_name.lower(), builder.pos(problem_name))
    for kind, value in [*domain_items, *problem_items]:
        if kind == "types":
            problem.types.extend(value)
        elif kind == "objects":
            problem.objects.extend(value)
        elif kind == "predicates":
            problem.predicates.extend(value)
        elif kind == "functions":
            problem.functions.extend(value)
        elif kind == "action":
            problem.actions.append(value)
        elif kind == "init":
            problem.init.extend(v for v in value if isinstance(v, Atom))
            problem.function_values.extend(v for v in value if isinstance(v, FunctionValue))
        elif kind == "goal":
            flat = flat_conditions(value)
            problem.goal.extend(flat or [])
            problem.goal_formula = value if flat is None else None
        elif kind == "derived":
            problem.derived.append(value)
    check(problem)
    return problem
