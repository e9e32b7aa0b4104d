"""The YAML planning-spec front-end: a `.yaml` file declaring types, objects, predicates,
derived predicates, actions (parameters, preconditions, add and delete effects, cost,
conditional and universal effects), the initial state and the goal becomes a checked
`PlanningProblem`; conditions may be ADL formulas (`or`, `not (...)`, `if ... then`,
`forall(x - t) ...`, `exists(...) ...`), built by `planners.formats.yaml_adl` into the same tree
the PDDL reader builds.

    problem: Monkey and bananas
    objects: {place: [A, B, C], level: [Low, High]}
    predicates: [At(x - place), BoxAt(x - place), BananasAt(x - place), Height(h - level),
                 HasBananas]
    actions:
      Move(x - place, y - place):
        pre: [At(x), Height(Low), x != y]
        add: [At(y)]
        del: [At(x)]
    init: [At(A), BoxAt(C), BananasAt(B), Height(Low)]
    goal: [HasBananas]

The file is read with PyYAML's safe composer, so every key and string keeps its line and
column; the strings themselves are parsed with `planning_spec.lark`.  `options` declare
integer parameters with defaults (overridable with `load(path, disks=4)` / `--set`), used
through generators such as `"On(d{i}, d{i+1}) for i in 1..disks-1"`.
"""
from __future__ import annotations

import math
import re
from pathlib import Path

import yaml
from lark import Token
from lark.exceptions import UnexpectedInput, VisitError

from framework.errors import did_you_mean, shorten
from framework.loader import read_text
from planners.lifted.ast import (ROOT_TYPE, ActionDef, Atom, ObjectDef, PlanningProblem, Pos,
                          PredicateDef, Term, TypeDef)
from planners.lifted.check import check
from planners.formats.yaml_adl import AdlItems, split_flat
from planners.formats.yaml_items import ITEMS, PARSER, Source

TOP_KEYS = ("problem", "domain", "options", "types", "objects", "predicates", "derived",
            "actions", "init", "goal")
ACTION_KEYS = ("pre", "add", "del", "cost", "when")
MAX_GENERATED = 100_000          # items one `for` generator may stand for
MAX_GENERATED_TOTAL = 200_000    # items all the generators of a spec may stand for
MAX_OPTION = 10 ** 9             # the largest option value (a count of objects, disks...)
HINTS = {"signature_item": "write e.g. Move(x - place, y - place) or HasBananas",
         "condition_item": "write e.g. At(x), not At(x), x != y, At(x) or At(y), "
                           "forall(b - block) Clear(b), On(d{i}, d{i+1}) for i in 1..n-1",
         "name_item": "write e.g. A or d{i} for i in 1..disks",
         "param_item": "write e.g. c - crate"}
QUANTIFIER_HINT = ("a forall / exists inside and, or or not goes in parentheses: "
                   "At(x) and (forall(b - block) Clear(b))")


class _Builder(AdlItems):
    def __init__(self, source: Source, root, options: dict):
        self.src = source
        self.root = root
        self.given_options = options
        self.generated = 0                     # items the `for` clauses stood for so far
        self.options: dict[str, int] = {}
        self.uses: dict[tuple, None] = {}      # (kind, name, Pos) of types and options, in order

    def use(self, kind: str, name: str, pos: Pos):
        if name != ROOT_TYPE:                  # the root type is declared nowhere
            self.uses[(kind, name, pos)] = None

    # -- spec strings -------------------------------------------------------------------
    def parse(self, node, start: str):
        try:
            return ITEMS.transform(PARSER.parse(node.value, start=start))
        except VisitError as err:        # a number Python will not read (over 4,300 digits)
            raise self.src.error(node, f"cannot read `{shorten(node.value)}`: {err.orig_exc}") from None
        except UnexpectedInput as err:
            column = getattr(err, "column", 1) or 1
            token = getattr(err, "token", None)
            shown = f"`{token}`" if token is not None and str(token) else "end of text"
            if token is not None and token.type == "$END":
                shown, column = "end of text", len(node.value) + 1
            expected = getattr(err, "expected", None) or getattr(err, "allowed", None) or ()
            hint = HINTS[start]
            if start == "condition_item" and re.search(r"\b(forall|exists)\s*\(\s*\w*\s*$",
                                                       node.value[:column - 1]):
                hint = QUANTIFIER_HINT      # `forall(` read as a predicate inside and / or
            message = f"unexpected {shown}" if token is not None else \
                f"unexpected character `{node.value[column - 1:column]}`"
            if expected and token is not None:
                message += f" (expected {', '.join(sorted(e.lower().lstrip('_') for e in expected)[:4])})"
            raise self.src.error(node, message, hint, offset=column - 1, length=1) from None

    def value(self, expr, env: dict, node) -> int:
        kind = expr[0]
        if kind == "int":
            return expr[1]
        if kind == "var":
            token = expr[1]
            if token not in env:
                raise self.src.error(node, f"unknown option or variable `{token}`",
                                     did_you_mean(str(token), env) or
                                     "declare it under options: or in a `for` clause",
                                     offset=token.column - 1, length=len(token))
            if token in self.options:
                self.use("option", str(token), self.src.pos(node, token.column - 1, len(token)))
            return env[token]
        left, right = self.value(expr[1], env, node), self.value(expr[2], env, node)
        if kind == "//" and right == 0:
            raise self.src.error(node, "division by zero")
        if kind == "+":
            return left + right
        if kind == "-":
            return left - right
        return left * right if kind == "*" else left // right

    def expand(self, node, start: str):
        """The parsed item of a spec string once per combination of its `for` clauses:
        yields (item, env)."""
        _, item, generators = self.parse(node, start)
        envs = [dict(self.options)]
        for _, var, low, high in generators:
            if var in self.options:
                raise self.src.error(node, f"`{var}` is an option; pick another loop variable",
                                     offset=var.column - 1, length=len(var))
            if low[0] == high[0] == "int" and high[1] < low[1]:      # empty whatever the options
                raise self.src.error(node, f"`{var} in {low[1]}..{high[1]}` is an empty range: this item "
                                     "stands for nothing", f"a range counts up: its end must be at least its start "
                                     f"({low[1]}); only a range whose bounds read an option may come out empty",
                                     offset=var.column - 1, length=len(var))
            ranges = [(env, range(self.value(low, env, node), self.value(high, env, node) + 1))
                      for env in envs]
            count = sum(max(0, r.stop - r.start) for _, r in ranges)     # len() overflows
            if count > MAX_GENERATED:
                raise self.src.error(node, f"this item stands for more than {MAX_GENERATED:,} "
                                     "items", "use a smaller option value or fewer `for` clauses")
            if self.generated + count > MAX_GENERATED_TOTAL:        # before they are made
                raise self.src.error(node, f"the `for` clauses of this spec stand for more than "
                                     f"{MAX_GENERATED_TOTAL:,} items in all (with this one)",
                                     "use smaller option values or fewer `for` clauses")
            envs = [{**env, str(var): i} for env, r in ranges for i in r]
        if generators:
            self.generated += len(envs)
        for env in envs:
            yield item, env

    def text(self, pieces, env, node) -> tuple[str, int, int]:
        """The name spelled by `pieces` in `env`, its column offset and written length."""
        parts, first, last = [], None, 0
        for piece in pieces:
            if isinstance(piece, Token):
                parts.append(str(piece))
                first = piece.column if first is None else first
                last = piece.end_column
            else:
                parts.append(str(self.value(piece, env, node)))
        first = first or 1
        return "".join(parts), first - 1, max(1, last - first)

    def term(self, pieces, env, node, params: dict) -> Term:
        name, offset, length = self.text(pieces, env, node)
        return Term(name, self.src.pos(node, offset, length), variable=name in params)

    def atom(self, atom, env, node, params: dict) -> Atom:
        name_pieces, args = atom
        name, offset, length = self.text(name_pieces, env, node)
        return Atom(name, tuple(self.term(a, env, node, params) for a in args),
                    self.src.pos(node, offset, length))

    def signature(self, node):
        _, name, params = self.parse(node, "signature_item")
        return (str(name), tuple(self.param(pair, node) for pair in params),
                self.src.pos(node, name.column - 1, len(name)))

    # -- sections -----------------------------------------------------------------------
    def build(self) -> PlanningProblem:
        """The problem the spec declares, not yet checked; `positions` holds where each
        section starts and `name_uses` where types and options are used."""
        sections = {}
        for key, value in self.src.mapping(self.root, "a planning spec"):
            if key.value not in TOP_KEYS:
                raise self.src.error(key, f"unknown section `{key.value}`",
                                     did_you_mean(key.value, TOP_KEYS) or
                                     f"sections are {', '.join(TOP_KEYS)}")
            sections[key.value] = (key, value)
        for required in ("predicates", "actions", "init", "goal"):
            if required not in sections:
                raise self.src.error(self.root, f"the planning spec has no `{required}` section")
        name_node = sections.get("problem", (None, None))[1]
        name = self.display_name(name_node, "problem") if name_node is not None else \
            Path(self.src.file).stem
        problem = PlanningProblem(name, self.display_name(sections["domain"][1], "domain")
                                  if "domain" in sections else name,
                                  self.src.pos(self.root), action_style="call")
        problem.positions = {name: self.src.pos(key) for name, (key, _) in sections.items()}
        problem.positions.update(self.read_options(sections.get("options")))
        problem.options = dict(self.options)
        if "types" in sections:
            problem.types = self.read_types(sections["types"][1])
        if "objects" in sections:
            problem.objects = self.read_objects(sections["objects"][1])
            self.declare_object_types(problem, sections["objects"][1])
        for item in self.src.items(sections["predicates"][1], "predicates"):
            problem.predicates.append(PredicateDef(*self.signature(item)))
        if "derived" in sections:
            self.read_derived(problem, sections["derived"][1])
        for key, body in self.src.mapping(sections["actions"][1], "actions"):
            problem.actions.append(self.read_action(key, body))
        problem.init = self.facts(sections["init"][1], "init", {})
        problem.goal, problem.goal_formula = split_flat(self.condition(sections["goal"][1],
                                                                       "goal", {}))
        problem.name_uses = list(self.uses)
        return problem

    def display_name(self, node, what: str) -> str:
        from framework.frontend import check_display_text
        return check_display_text(self.src.scalar(node, what), self.src.pos(node),
                                  f"the {what} name")

    def read_options(self, section) -> dict:
        """Reads the options (`self.options`); returns `option NAME` -> where each is declared."""
        declared, places = {}, {}
        if section is not None:
            for key, value in self.src.mapping(section[1], "options"):
                places[f"option {key.value}"] = self.src.pos(key)
                if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key.value):
                    raise self.src.error(key, f"option `{shorten(ascii(key.value)[1:-1])}` is not "
                                         "a valid name", "names start with a letter and contain "
                                         "letters, digits and _")
                if not value.tag.endswith(":int"):
                    raise self.src.error(value, f"option `{key.value}` must default to an integer")
                try:
                    declared[key.value] = int(value.value.replace("_", ""), 0)
                except ValueError:
                    declared[key.value] = None
                if declared[key.value] is None or abs(declared[key.value]) > MAX_OPTION:
                    raise self.src.error(value, f"option `{key.value}`: `{shorten(value.value)}` "
                                         f"is not a whole number from -{MAX_OPTION:,} to {MAX_OPTION:,}")
        for name, given in self.given_options.items():
            if name not in declared:
                where = section[0] if section is not None else self.root
                raise self.src.error(where, f"unknown option `{name}`",
                                     did_you_mean(name, declared) or
                                     f"options: {', '.join(declared) or 'none declared'}")
            if isinstance(given, str) and re.fullmatch(r"\s*-?\d{1,10}\s*", given):
                given = int(given)                              # from the command line, as text
            if isinstance(given, bool) or not isinstance(given, int) or abs(given) > MAX_OPTION:
                shown = "a larger one" if isinstance(given, int) else shorten(repr(given)[:100])
                raise ValueError(f"option {name} must be a whole number from -{MAX_OPTION:,} to "
                                 f"{MAX_OPTION:,}, not {shown}")
            declared[name] = given
        self.options = declared
        return places

    def read_types(self, node) -> list[TypeDef]:
        if isinstance(node, yaml.MappingNode):
            pairs = self.src.mapping(node, "types")
            for _, parent in pairs:
                if self.src.scalar(parent, "a parent type") != ROOT_TYPE:   # maybe implied by .plan
                    self.use("type", parent.value, self.src.pos(parent))
            return [TypeDef(self.src.scalar(k, "a type"), self.src.scalar(v, "a parent type"),
                            self.src.pos(k)) for k, v in pairs]
        return [TypeDef(item.value, ROOT_TYPE, self.src.pos(item))
                for item in self.src.items(node, "types")]

    def declare_object_types(self, problem: PlanningProblem, node):
        """A key of `objects` that names no declared type declares it (under object)."""
        if not isinstance(node, yaml.MappingNode):
            return
        declared = {t.name for t in problem.types} | {ROOT_TYPE}
        for key, _ in node.value:
            if key.value not in declared:
                problem.types.append(TypeDef(key.value, ROOT_TYPE, self.src.pos(key)))
                declared.add(key.value)

    def read_objects(self, node) -> list[ObjectDef]:
        groups = self.src.mapping(node, "objects") if isinstance(node, yaml.MappingNode) else \
            [(None, node)]
        out = []
        for type_node, names in groups:
            type_ = type_node.value if type_node is not None else ROOT_TYPE
            if type_node is not None:
                self.use("type", type_, self.src.pos(type_node))
            for item_node in self.src.items(names, f"objects of type {type_}"):
                for pieces, env in self.expand(item_node, "name_item"):
                    name, offset, length = self.text(pieces, env, item_node)
                    out.append(ObjectDef(name, type_, self.src.pos(item_node, offset, length)))
        return out

    def read_action(self, key, body) -> ActionDef:
        name, params, pos = self.signature(key)
        by_name = {p.name: p for p in params}
        parts = {}
        if isinstance(body, yaml.MappingNode):
            parts = self.src.parts(body, f"action {name}", ACTION_KEYS)
        elif not (isinstance(body, yaml.ScalarNode) and body.tag.endswith(":null")):
            raise self.src.error(body, f"action {name} must map pre/add/del/cost to values")
        pre, condition = split_flat(self.condition(parts["pre"], f"pre of {name}", by_name)) \
            if "pre" in parts else ([], None)
        effects = {part: self.facts(parts[part], f"{part} of {name}", by_name)
                   if part in parts else [] for part in ("add", "del")}
        cost = 1
        if "cost" in parts:
            node = parts["cost"]
            try:
                cost = float(self.src.scalar(node, "cost"))
            except ValueError:
                raise self.src.error(node, f"the cost of {name} must be a number") from None
            if not math.isfinite(cost):
                raise self.src.error(node, f"the cost of {name} must be a finite number")
            cost = int(cost) if cost.is_integer() else cost
        conditional = self.when_effects(parts["when"], name, by_name) if "when" in parts else []
        return ActionDef(name, params, pre, effects["add"], effects["del"], cost, pos,
                         condition, conditional)


def load_yaml(path, **options) -> PlanningProblem:
    """A checked planning problem from a YAML planning spec; `options` override the
    defaults the spec declares."""
    return check(parse_yaml(read_text(path), str(path), **options))


def parse_yaml(text: str, file: str, **options) -> PlanningProblem:
    """The problem the YAML planning spec `text` declares, read but not checked (the
    language server indexes its names, then checks it)."""
    from framework.frontend.yaml_spec import compose
    _, root = compose(text, file, label="not valid YAML", what="planning spec")
    return build_from_nodes(file, text, root, options)


def build_from_nodes(file: str, text: str, root, options: dict) -> PlanningProblem:
    """An unchecked planning problem from YAML nodes whose marks point into `text` (how
    the `.plan` front-end reuses this one)."""
    return _Builder(Source(file, text), root, options).build()
