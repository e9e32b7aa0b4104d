"""Export of a declared planning problem to PDDL: a domain text and a problem text that
plyspec's own importer (and any ADL planner) reads back to the same problem.

The whole fragment plyspec reads is written: preconditions, goals, effect conditions and
derived-predicate bodies as formulas (`and`, `or`, `not`, `forall`, `exists`, `=`;
`if A then B` as `(or (not A) B)`, as it was read), conditional and universal effects as
`(forall (...) (when ... effect))`, `:derived` rules, `either` parameter types.  Only the
requirements the problem uses are declared.

Objects that the domain part (actions, derived rules) names directly become domain
constants.  Action costs are written with :action-costs only when some cost differs from
1.  PDDL names start with a letter and ignore case, so a problem whose names are not PDDL
names (`1`, `x#1`) or differ only in case (`a` and `A`) is refused with the position of
the name.
"""
from __future__ import annotations

import re

from planners.lifted.ast import Equality, FunctionTerm, Literal, PlanningProblem
from planners.lifted.formula import (Junction, Negation, Quantified, formulas_of, literals_of,
                              quantified_params)

PDDL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*\Z")


def _name(text: str) -> str:
    """A PDDL name for a domain or problem name: letters, digits, `-` and `_`."""
    cleaned = re.sub(r"[^A-Za-z0-9_\-]+", "-", text.strip()).strip("-") or "unnamed"
    return cleaned if cleaned[0].isalpha() else "n" + cleaned


def _term(term) -> str:
    return f"?{term.name}" if term.variable else term.name


def _atom(name, args) -> str:
    return "(" + " ".join([name, *(_term(a) for a in args)]) + ")"


def _params(params) -> str:
    return " ".join(f"?{p.name} - {p.type}" for p in params)


def formula_text(formula) -> str:
    """`formula` (a planners.lifted.formula tree or None) as a PDDL goal description."""
    if formula is None:
        return "(and)"
    if isinstance(formula, Literal):
        text = _atom(formula.atom.predicate, formula.atom.args)
        return text if formula.positive else f"(not {text})"
    if isinstance(formula, Equality):
        text = f"(= {_term(formula.left)} {_term(formula.right)})"
        return text if formula.positive else f"(not {text})"
    if isinstance(formula, Negation):
        return f"(not {formula_text(formula.part)})"
    if isinstance(formula, Junction):
        if len(formula.parts) == 1 and formula.kind == "and":
            return formula_text(formula.parts[0])
        return "(" + " ".join([formula.kind, *(formula_text(p) for p in formula.parts)]) + ")"
    return f"({formula.kind} ({_params(formula.params)}) {formula_text(formula.body)})"


def _flat(conditions, formula):
    """The formula of a flat condition list or of an ADL formula."""
    return formula if formula is not None else Junction("and", tuple(conditions), None)


def effect_text(effect) -> str:
    atom = _atom(effect.atom.predicate, effect.atom.args)
    text = atom if effect.positive else f"(not {atom})"
    if effect.condition is not None:
        text = f"(when {formula_text(effect.condition)} {text})"
    return f"(forall ({_params(effect.params)}) {text})" if effect.params else text


def _costs_used(problem: PlanningProblem) -> bool:
    """Whether some action costs other than 1 (an action without a cost costs 0 when
    another has one, as in PDDL)."""
    given = [a.cost for a in problem.actions if a.cost is not None]
    return any(c != 1 for c in given) or 0 < len(given) < len(problem.actions)


def _requirements(problem: PlanningProblem) -> list[str]:
    formulas = [f for f in formulas_of(problem) if f is not None]
    formulas += [Junction("and", tuple(a.preconditions), None) for a in problem.actions]
    formulas.append(Junction("and", tuple(problem.goal), None))
    found = set()
    for formula in formulas:
        _features(formula, found)
    if any(not lit.positive for f in formulas for lit in literals_of(f)):
        found.add(":negative-preconditions")
    if any(e.condition is not None for a in problem.actions for e in a.effects):
        found.add(":conditional-effects")
    if any(e.params for a in problem.actions for e in a.effects):
        found.add(":universal-preconditions")
    if problem.derived:
        found.add(":derived-predicates")
    if _costs_used(problem):
        found.add(":action-costs")
    order = [":strips", ":typing", ":negative-preconditions", ":disjunctive-preconditions",
             ":equality", ":existential-preconditions", ":universal-preconditions",
             ":conditional-effects", ":derived-predicates", ":action-costs"]
    return [":strips", ":typing", *(r for r in order if r in found)]


def _nodes(formula):
    """Every node of a formula tree (None: none)."""
    stack = [formula]
    while stack:
        node = stack.pop()
        if node is not None:
            yield node
            stack.extend(node.parts if isinstance(node, Junction) else
                         [node.part] if isinstance(node, Negation) else
                         [node.body] if isinstance(node, Quantified) else [])


def _features(formula, found: set):
    for node in _nodes(formula):
        if isinstance(node, Equality):
            found.add(":equality")
        elif isinstance(node, Negation) or isinstance(node, Junction) and node.kind == "or":
            found.add(":disjunctive-preconditions")     # a negated compound needs de Morgan
        elif isinstance(node, Quantified):
            found.add(":universal-preconditions" if node.kind == "forall"
                      else ":existential-preconditions")


def domain_pddl(problem: PlanningProblem) -> str:
    costs = _costs_used(problem)
    constants = _constants(problem)
    lines = [f"(define (domain {_name(problem.domain_name)})",
             f"  (:requirements {' '.join(_requirements(problem))})"]
    if problem.types:
        lines.append("  (:types " + " ".join(f"{t.name} - {t.parent}" for t in problem.types) + ")")
    if constants:
        lines.append("  (:constants " + " ".join(f"{o.name} - {o.type}" for o in constants) + ")")
    lines.append("  (:predicates")
    for pred in problem.predicates:
        lines.append(f"    ({' '.join([pred.name, _params(pred.params)]).strip()})")
    lines.append("  )")
    if costs:
        functions = " ".join(f"({' '.join([f.name, _params(f.params)]).strip()})"
                             for f in problem.functions if f.name != "total-cost")
        lines.append(f"  (:functions (total-cost){' ' + functions if functions else ''} - number)")
    for rule in problem.derived:
        head = " ".join([rule.head.predicate, _params(rule.params)]).strip()
        lines.append(f"  (:derived ({head})\n    {formula_text(rule.body)})")
    for action in problem.actions:
        effects = [_atom(a.predicate, a.args) for a in action.add]
        effects += [f"(not {_atom(a.predicate, a.args)})" for a in action.delete]
        effects += [effect_text(e) for e in action.effects]
        if costs:
            cost = action.cost if action.cost is not None else 0
            amount = _atom(cost.function, cost.args) if isinstance(cost, FunctionTerm) else \
                format(cost, "g")
            effects.append(f"(increase (total-cost) {amount})")
        effect = effects[0] if len(effects) == 1 else \
            "(and " + "\n             ".join(effects) + ")"
        lines += [f"  (:action {action.name}",
                  f"    :parameters ({_params(action.params)})",
                  f"    :precondition {formula_text(_flat(action.preconditions, action.condition))}",
                  f"    :effect {effect})"]
    lines.append(")")
    return "\n".join(lines) + "\n"


def _object_terms(formula):
    """Every object (not variable) term of a formula."""
    for node in _nodes(formula):
        terms = node.atom.args if isinstance(node, Literal) else \
            (node.left, node.right) if isinstance(node, Equality) else ()
        yield from (t for t in terms if not t.variable)


def _constants(problem: PlanningProblem) -> list:
    """The objects the domain part names (they must be domain constants in PDDL)."""
    named = set()
    for action in problem.actions:
        parts = [_flat(action.preconditions, action.condition),
                 *(Literal(a) for a in [*action.add, *action.delete])]
        for effect in action.effects:
            parts += [Literal(effect.atom), effect.condition]
        for part in parts:
            named.update(t.name for t in _object_terms(part))
        if isinstance(action.cost, FunctionTerm):
            named.update(t.name for t in action.cost.args if not t.variable)
    for rule in problem.derived:
        named.update(t.name for t in _object_terms(rule.body))
    return [o for o in problem.objects if o.name in named]


def problem_pddl(problem: PlanningProblem) -> str:
    constants = {o.name for o in _constants(problem)}
    objects = " ".join(f"{o.name} - {o.type}" for o in problem.objects if o.name not in constants)
    init = [_atom(a.predicate, a.args) for a in problem.init]
    init += [f"(= {_atom(v.term.function, v.term.args)} {v.value:g})"
             for v in problem.function_values if v.term.function != "total-cost"]
    costs = _costs_used(problem)
    if costs:
        init.append("(= (total-cost) 0)")
    lines = [f"(define (problem {_name(problem.name)})",
             f"  (:domain {_name(problem.domain_name)})",
             f"  (:objects {objects})",
             "  (:init " + "\n         ".join(init) + ")",
             f"  (:goal {formula_text(_flat(problem.goal, problem.goal_formula))})"]
    if costs:
        lines.append("  (:metric minimize (total-cost))")
    lines.append(")")
    return "\n".join(lines) + "\n"


def _refuse_bad_names(problem: PlanningProblem):
    """Every name must be a PDDL name, and no two top-level names of a kind may differ
    only in case."""
    seen = {}
    named = [*problem.types, *problem.objects, *problem.predicates, *problem.functions,
             *problem.actions]
    params = [p for d in (*problem.predicates, *problem.functions, *problem.actions,
                          *problem.derived, *(e for a in problem.actions for e in a.effects))
              for p in d.params]
    params += [p for f in formulas_of(problem) for p in quantified_params(f)]
    for item in [*named, *params]:
        if not PDDL_NAME.match(item.name):
            raise item.pos.error(f"`{item.name}` is not a PDDL name, so this problem cannot "
                                 "be written as PDDL",
                                 "PDDL names start with a letter, then letters, digits, - or _")
    for item in named:
        other = seen.setdefault((type(item).__name__, item.name.lower()), item)
        if other.name != item.name:
            raise item.pos.error(f"`{item.name}` and `{other.name}` differ only in case, which "
                                 "PDDL ignores", "rename one of them")


def to_pddl(problem: PlanningProblem) -> tuple[str, str]:
    """(domain text, problem text) of `problem`."""
    _refuse_bad_names(problem)
    return domain_pddl(problem), problem_pddl(problem)


__all__ = ["to_pddl", "domain_pddl", "problem_pddl", "formula_text", "effect_text"]
