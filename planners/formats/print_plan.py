"""The `.plan` printer: a `PlanningProblem` (from any front-end) as the text of a `.plan`
file (`planners.formats.plan_text`), with the items printed as in a YAML spec
(`planners.formats.print_yaml.Items`), so what one format cannot say the other cannot either.
"""
from __future__ import annotations

from planners.lifted.ast import ROOT_TYPE
from planners.formats.print_yaml import (WIDTH, Items, costs_default_to_zero, derived_heads,
                                 effect_groups, number)


def _list(keyword: str, items: list[str]) -> list[str]:
    """`keyword item, item, ...` on as many lines as needed (a line ending in a comma
    continues on the next)."""
    lines, current = [], keyword
    pad = " " * (len(keyword) - len(keyword.lstrip()) + len(keyword.strip()) + 1)
    for i, item in enumerate(items):
        text = item + ("," if i < len(items) - 1 else "")
        if current.strip() != keyword.strip() and len(current) + 1 + len(text) > WIDTH:
            lines.append(current)
            current = pad + text
        else:
            current += " " + text
    lines.append(current)
    return lines if items else []


def to_plan(problem, header: str = "") -> str:
    """The `.plan` text of `problem`."""
    p = Items(problem)
    lines = [header] if header else []
    for name in (problem.name, problem.domain_name):
        if "#" in name or "\n" in name or not name.strip():
            raise problem.pos.error(f"`{name}` cannot be the name of a .plan problem or domain",
                                    "a .plan name is one line without `#`")
    lines += [f"problem {problem.name.strip()}", f"domain {problem.domain_name.strip()}"]
    types = [t for t in problem.types if t.name != ROOT_TYPE]
    lines += _list("types", [t.name if t.parent == ROOT_TYPE else f"{t.name} - {t.parent}"
                             for t in types])
    groups: dict[str, list[str]] = {}
    for obj in problem.objects:
        groups.setdefault(obj.type, []).append(obj.name)
    for type_, names in groups.items():
        lines += _list("objects" if type_ == ROOT_TYPE else f"objects {type_}:", names)
    lines += _list("predicates", [p.signature(d.name, d.params, p.scope(d.params))
                                  for d in problem.predicates])
    for rule, (key, scope) in zip(problem.derived, derived_heads(p, problem.derived)):
        lines += ["", f"derived {key}", *_list("  if", p.items(rule.body, scope))]
    zero = costs_default_to_zero(problem)
    for action in problem.actions:
        scope = p.scope(action.params)
        lines += ["", f"action {p.signature(action.name, action.params, scope)}"]
        lines += _list("  pre", [p.formula(c, scope) for c in action.preconditions]
                       + p.items(action.condition, scope))
        lines += _list("  add", [p.atom(a, scope) for a in action.add])
        lines += _list("  del", [p.atom(a, scope) for a in action.delete])
        cost = p.cost(action)
        if cost is None and zero:
            cost = 0
        if cost is not None and cost != 1:
            lines.append(f"  cost {number(cost)}")
        for params, condition, adds, deletes in effect_groups(action.effects):
            inner = p.scope(params, scope)
            if params:
                lines.append(f"  forall {p.params(params, inner)}")
            items = p.items(condition, inner)
            if condition is not None and not items and not params:
                raise action.pos.error(f"a conditional effect of `{action.name}` with an "
                                       "empty condition has no spelling in a .plan file")
            lines += _list("  when", items)
            lines += _list("    add", [p.atom(a, inner) for a in adds])
            lines += _list("    del", [p.atom(a, inner) for a in deletes])
    lines.append("")
    lines += _list("init", [p.atom(a, {}) for a in problem.init]) or ["init"]
    lines += _list("goal", [p.formula(c, {}) for c in problem.goal]
                   + p.items(problem.goal_formula, {})) or ["goal"]
    return "\n".join(lines) + "\n"


def outline_plan(o, header: str = "") -> str:
    """A spec outline (`planners.formats.spec_outline`) as a `.plan` file, items as written."""
    lines = [header] if header else []
    lines += [f"{key} {value}" for key, value in (("problem", o.problem), ("domain", o.domain))
              if value]
    lines += _list("options", [f"{k} = {v}" for k, v in o.options])
    lines += _list("types", [t if p is None else f"{t} - {p}" for t, p in o.types])
    for type_, items in o.objects:
        lines += _list("objects" if type_ == ROOT_TYPE else f"objects {type_}:", items)
    lines += _list("predicates", o.predicates) or ["predicates"]
    for key, items in o.derived:
        lines += ["", f"derived {key}", *_list("  if", items)]
    for key, parts in o.actions:
        lines += ["", f"action {key}"]
        for part in ("pre", "add", "del"):
            lines += _list(f"  {part}", parts.get(part, []))
        if "cost" in parts:
            lines.append(f"  cost {parts['cost']}")
        for entry in parts.get("when", []):
            if "forall" in entry:
                lines += _list("  forall", entry["forall"])
            if "if" in entry:
                lines += _list("  when", entry["if"]) or ["  when"]
            lines += _list("    add", entry.get("add", [])) + _list("    del", entry.get("del", []))
    lines += ["", *(_list("init", o.init) or ["init"]), *(_list("goal", o.goal) or ["goal"])]
    return "\n".join(lines) + "\n"
