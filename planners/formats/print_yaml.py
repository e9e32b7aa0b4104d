"""The YAML planning-spec printer: a `PlanningProblem` (from any front-end) as the text
of a YAML planning spec (`planners.formats.yaml_spec`), and the item printer both spec formats
share (`Items`: signatures and condition formulas in `planning_spec.lark`'s syntax).

Variables are plain names in a spec, so a variable named like an object (PDDL allows
`?a` beside the object `a`) is renamed (`a_1`); quantifiers and `if ... then` are put in
parentheses inside `and` / `or` / `not`.  What a spec cannot say is refused at its
position: a cost given by a function (`(road-length ?a ?b)`), `true` / `false` inside a
formula (an empty `and` / `or`).  Options and generators never appear: the problem is
already expanded.
"""
from __future__ import annotations

import re

from planners.lifted.ast import ROOT_TYPE, Equality, FunctionTerm, Literal, either_members
from planners.lifted.formula import Junction, Negation, Quantified

PLAIN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9 _\-.]*\Z")
WIDTH = 92
_PRECEDENCE = {"quantified": 0, "or": 1, "and": 2, "not": 3, "leaf": 4}


def scalar(text: str) -> str:
    """`text` as a YAML scalar or `.plan` text: plain when safe, else double-quoted."""
    if PLAIN.match(text) and text == text.strip():
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _precedence(formula) -> int:
    if isinstance(formula, (Literal, Equality)):
        return _PRECEDENCE["leaf"] if formula.positive or isinstance(formula, Equality) \
            else _PRECEDENCE["not"]
    if isinstance(formula, Negation):
        return _PRECEDENCE["not"]
    if isinstance(formula, Junction):
        return _PRECEDENCE[formula.kind] if len(formula.parts) != 1 else \
            _precedence(formula.parts[0])
    return _PRECEDENCE["quantified"]


class Items:
    """Prints signatures and formulas of one problem; `objects` are the names a variable
    must not take."""

    def __init__(self, problem):
        self.objects = {o.name for o in problem.objects}

    def scope(self, params, outer: dict | None = None, avoid=()) -> dict:
        """variable name -> printed name for `params` added to `outer`."""
        scope = dict(outer or {})
        taken = self.objects | set(scope.values()) | set(avoid)
        for param in params:
            name, k = param.name, 0
            while name in taken:
                k += 1
                name = f"{param.name}_{k}"
            taken.add(name)
            scope[param.name] = name
        return scope

    @staticmethod
    def type_text(type_: str) -> str:
        return " or ".join(either_members(type_) or (type_,))

    def params(self, params, scope: dict) -> str:
        return ", ".join(scope[p.name] if p.type == ROOT_TYPE else
                         f"{scope[p.name]} - {self.type_text(p.type)}" for p in params)

    def signature(self, name: str, params, scope: dict) -> str:
        return f"{name}({self.params(params, scope)})" if params else name

    @staticmethod
    def term(term, scope: dict) -> str:
        return scope.get(term.name, term.name) if term.variable else term.name

    def atom(self, atom, scope: dict) -> str:
        if not atom.args:
            return atom.predicate
        return f"{atom.predicate}({', '.join(self.term(t, scope) for t in atom.args)})"

    def items(self, formula, scope: dict) -> list[str]:
        """A precondition / goal / condition as list items (the parts of a conjunction)."""
        if formula is None:
            return []
        if isinstance(formula, Junction) and formula.kind == "and":
            return [self.formula(part, scope) for part in formula.parts]
        return [self.formula(formula, scope)]

    def formula(self, formula, scope: dict, least: int = 0) -> str:
        """`formula` as an item; parenthesised when it binds looser than `least`."""
        text = self._formula(formula, scope)
        return f"({text})" if _precedence(formula) < least else text

    def _formula(self, formula, scope: dict) -> str:
        if isinstance(formula, Literal):
            text = self.atom(formula.atom, scope)
            return text if formula.positive else f"not {text}"
        if isinstance(formula, Equality):
            operator = "==" if formula.positive else "!="
            return f"{self.term(formula.left, scope)} {operator} {self.term(formula.right, scope)}"
        if isinstance(formula, Negation):
            return f"not {self.formula(formula.part, scope, _PRECEDENCE['not'])}"
        if isinstance(formula, Junction):
            if not formula.parts:
                raise formula.pos.error(f"an empty `{formula.kind}` (always "
                                        f"{'true' if formula.kind == 'and' else 'false'}) "
                                        "inside a formula has no spelling in a YAML or .plan spec")
            if len(formula.parts) == 1:
                return self._formula(formula.parts[0], scope)
            # a nested part of the same kind keeps its parentheses (the structure read back)
            least = _PRECEDENCE[formula.kind] + 1
            return f" {formula.kind} ".join(self.formula(p, scope, least) for p in formula.parts)
        assert isinstance(formula, Quantified)
        inner = self.scope(formula.params, scope)
        return (f"{formula.kind}({self.params(formula.params, inner)}) "
                f"{self.formula(formula.body, inner)}")

    @staticmethod
    def cost(action):
        """The cost of `action` as a spec writes it (None: the default, 1)."""
        if isinstance(action.cost, FunctionTerm):
            raise action.cost.pos.error(
                f"the cost of `{action.name}` is the function `{action.cost.function}`; a YAML "
                "or .plan spec gives each action a number", "convert to PDDL instead, or give "
                "the action a fixed cost")
        return action.cost


def costs_default_to_zero(problem) -> bool:
    """PDDL: with action costs, an action without an `increase` costs 0."""
    return any(a.cost is not None for a in problem.actions)


def number(value) -> str:
    return format(value, "g")


def effect_groups(effects):
    """Consecutive effects with the same variables and condition, grouped:
    [(params, condition, adds, deletes)]."""
    groups = []
    for effect in effects:
        if not groups or groups[-1][:2] != (effect.params, effect.condition):
            groups.append((effect.params, effect.condition, [], []))
        groups[-1][2 if effect.positive else 3].append(effect.atom)
    return groups


def derived_heads(p: Items, rules) -> list[tuple]:
    """(printed head, variable scope) of each derived rule; a head printed like an earlier
    one gets other variable names (a spec's derived heads are mapping keys)."""
    out, keys = [], set()
    for rule in rules:
        scope = p.scope(rule.params)
        while (key := p.signature(rule.head.predicate, rule.params, scope)) in keys:
            scope = p.scope(rule.params, avoid=set(scope.values()))
        keys.add(key)
        out.append((key, scope))
    return out


def _entry(key: str, items: list[str], indent: int = 0) -> str:
    """`key: [items]` at `indent`: a flow list when the line is short, else one item per line."""
    pad = " " * indent
    text = f"{pad}{key}: [" + ", ".join(items) + "]"
    if len(text) <= WIDTH:
        return text
    return f"{pad}{key}:\n" + "\n".join(f"{pad}  - {item}" for item in items)


def to_yaml(problem, header: str = "") -> str:
    """The YAML planning spec of `problem`."""
    p = Items(problem)
    lines = [header] if header else []
    lines += [f"problem: {scalar(problem.name)}", f"domain: {scalar(problem.domain_name)}"]
    types = [t for t in problem.types if t.name != ROOT_TYPE]
    if types:
        lines.append("types: {" + ", ".join(f"{t.name}: {t.parent}" for t in types) + "}")
    if problem.objects:
        groups: dict[str, list[str]] = {}
        for obj in problem.objects:
            groups.setdefault(obj.type, []).append(obj.name)
        lines.append("objects:")
        lines += [_entry(type_, names, 2) for type_, names in groups.items()]
    signatures = [p.signature(d.name, d.params, p.scope(d.params)) for d in problem.predicates]
    lines.append(_entry("predicates", signatures))
    if problem.derived:
        lines.append("derived:")
        for rule, (key, scope) in zip(problem.derived, derived_heads(p, problem.derived)):
            lines.append(_entry(key, p.items(rule.body, scope), 2))
    lines.append("actions:" if problem.actions else "actions: {}")
    zero = costs_default_to_zero(problem)
    for action in problem.actions:
        scope = p.scope(action.params)
        lines.append(f"  {p.signature(action.name, action.params, scope)}:")
        pre = [p.formula(c, scope) for c in action.preconditions] + p.items(action.condition, scope)
        parts = [("pre", pre), ("add", [p.atom(a, scope) for a in action.add]),
                 ("del", [p.atom(a, scope) for a in action.delete])]
        lines += [_entry(key, items, 4) for key, items in parts if items]
        cost = p.cost(action)
        if cost is None and zero:
            cost = 0
        if cost is not None and cost != 1:
            lines.append(f"    cost: {number(cost)}")
        if action.effects:
            lines.append("    when:")
        for params, condition, adds, deletes in effect_groups(action.effects):
            inner = p.scope(params, scope)
            entry = [f"forall: [{p.params(params, inner)}]"] if params else []
            if condition is not None:
                entry.append(f"if: [{', '.join(p.items(condition, inner))}]")
            entry += [f"{key}: [{', '.join(p.atom(a, inner) for a in atoms)}]"
                      for key, atoms in (("add", adds), ("del", deletes)) if atoms]
            lines.append("      - {" + ", ".join(entry) + "}")
    lines.append(_entry("init", [p.atom(a, {}) for a in problem.init]))
    goal = [p.formula(c, {}) for c in problem.goal] + p.items(problem.goal_formula, {})
    lines.append(_entry("goal", goal))
    return "\n".join(lines) + "\n"


def _quoted(item: str) -> str:
    """A spec item in a YAML flow list: quoted when YAML would read it otherwise."""
    return f'"{item}"' if re.search(r"[{}\[\]#]|: ", item) else item


def _items_yaml(key: str, items, indent: int = 0) -> str:
    return _entry(key, [_quoted(i) for i in items], indent)


def outline_yaml(o, header: str = "") -> str:
    """A spec outline (`planners.formats.spec_outline`) as a YAML planning spec, items as written."""
    lines = [header] if header else []
    lines += [f"{key}: {scalar(value)}" for key, value in (("problem", o.problem),
                                                          ("domain", o.domain)) if value]
    if o.options:
        lines.append("options: {" + ", ".join(f"{k}: {v}" for k, v in o.options) + "}")
    if o.types:
        lines.append("types: " + ("[" + ", ".join(t for t, _ in o.types) + "]"
                                  if all(p is None for _, p in o.types) else
                                  "{" + ", ".join(f"{t}: {p or ROOT_TYPE}" for t, p in o.types) + "}"))
    if o.objects:
        lines.append("objects:")
        lines += [_items_yaml(type_, items, 2) for type_, items in o.objects]
    lines.append(_items_yaml("predicates", o.predicates))
    if o.derived:
        lines.append("derived:")
        lines += [_items_yaml(key, items, 2) for key, items in o.derived]
    lines.append("actions:" if o.actions else "actions: {}")
    for key, parts in o.actions:
        lines.append(f"  {key}:" + ("" if parts else " {}"))
        lines += [_items_yaml(part, parts[part], 4) for part in ("pre", "add", "del") if part in parts]
        if "cost" in parts:
            lines.append(f"    cost: {parts['cost']}")
        if "when" in parts:
            lines.append("    when:")
            lines += ["      - {" + ", ".join(f"{k}: [{', '.join(map(_quoted, v))}]"
                                              for k, v in entry.items()) + "}"
                      for entry in parts["when"]]
    lines += [_items_yaml("init", o.init), _items_yaml("goal", o.goal)]
    return "\n".join(lines) + "\n"
