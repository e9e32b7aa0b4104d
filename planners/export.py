"""Export of a declared planning problem to PDDL: a domain text and a problem text that
any STRIPS planner (and plyspec's own importer) reads back to the same problem.

Conditional effects whose condition is a conjunction of literals (what the YAML `when`
part writes) are exported as `(when (and ...) effect)`; other ADL (quantified or
disjunctive conditions, `forall` effects, derived predicates) is refused.

Objects that action schemas name directly become domain constants.  Action costs are
written with :action-costs only when some cost differs from 1.  PDDL is case-insensitive,
so names differing only in case (`a` and `A`) must not be mixed in an exported problem.
"""
from __future__ import annotations

import re

from planners.ast import Equality, FunctionTerm, Literal, PlanningProblem
from planners.formula import Junction


def _name(text: str) -> str:
    """A PDDL name: letters, digits, `-` and `_`, starting with a letter."""
    cleaned = re.sub(r"[^A-Za-z0-9_\-]+", "-", text.strip()).strip("-") or "unnamed"
    return cleaned if cleaned[0].isalpha() else "n" + cleaned


def _term(term) -> str:
    return f"?{term.name}" if term.variable else term.name


def _atom(name, args) -> str:
    return "(" + " ".join([name, *(_term(a) for a in args)]) + ")"


def _condition(cond) -> str:
    if isinstance(cond, Equality):
        text = f"(= {_term(cond.left)} {_term(cond.right)})"
    else:
        text = _atom(cond.atom.predicate, cond.atom.args)
    return text if cond.positive else f"(not {text})"


def _conjunction(parts: list[str], indent: str) -> str:
    if len(parts) == 1:
        return parts[0]
    return "(and " + f"\n{indent}     ".join(parts) + ")" if parts else "(and)"


def _when_conditions(effect) -> list | None:
    """The literals of a conditional effect's condition when the export can write it (a
    conjunction of literals and (in)equalities, no `forall` variables), else None."""
    cond = effect.condition
    if effect.params or not (isinstance(cond, Junction) and cond.kind == "and" and all(
            isinstance(c, (Literal, Equality)) for c in cond.parts)):
        return None
    return list(cond.parts)


def _when(effect) -> str:
    atom = _atom(effect.atom.predicate, effect.atom.args)
    written = atom if effect.positive else f"(not {atom})"
    return f"(when {_conjunction([_condition(c) for c in _when_conditions(effect)], '')} {written})"


def _typed(names_and_types) -> str:
    return " ".join(f"{name} - {type_}" for name, type_ in names_and_types)


def _costs_used(problem: PlanningProblem) -> bool:
    return any(a.cost is not None and a.cost != 1 for a in problem.actions)


def domain_pddl(problem: PlanningProblem) -> str:
    costs = _costs_used(problem)
    requirements = [":strips", ":typing"]
    conditions = [c for a in problem.actions for c in a.preconditions] + list(problem.goal)
    conditions += [c for a in problem.actions for e in a.effects for c in _when_conditions(e)]
    if any(not c.positive for c in conditions):
        requirements.append(":negative-preconditions")
    if any(isinstance(c, Equality) for c in conditions):
        requirements.append(":equality")
    if any(a.effects for a in problem.actions):
        requirements.append(":conditional-effects")
    if costs:
        requirements.append(":action-costs")
    constants = _constants(problem)
    lines = [f"(define (domain {_name(problem.domain_name)})",
             f"  (:requirements {' '.join(requirements)})"]
    if problem.types:
        lines.append(f"  (:types {_typed((t.name, t.parent) for t in problem.types)})")
    if constants:
        lines.append(f"  (:constants {_typed((o.name, o.type) for o in constants)})")
    lines.append("  (:predicates")
    for pred in problem.predicates:
        params = " ".join(f"?{p.name} - {p.type}" for p in pred.params)
        lines.append(f"    ({pred.name}{' ' + params if params else ''})")
    lines.append("  )")
    if costs:
        functions = " ".join(_atom(f.name, ()) if not f.params else
                             "(" + " ".join([f.name, *(f"?{p.name} - {p.type}" for p in f.params)])
                             + ")" for f in problem.functions)
        lines.append(f"  (:functions (total-cost){' ' + functions if functions else ''} - number)")
    for action in problem.actions:
        params = " ".join(f"?{p.name} - {p.type}" for p in action.params)
        effects = [_atom(a.predicate, a.args) for a in action.add]
        effects += [f"(not {_atom(a.predicate, a.args)})" for a in action.delete]
        effects += [_when(e) for e in action.effects]
        if costs:
            cost = action.cost if action.cost is not None else 0
            amount = _atom(cost.function, cost.args) if isinstance(cost, FunctionTerm) else \
                format(cost, "g")
            effects.append(f"(increase (total-cost) {amount})")
        lines += [f"  (:action {action.name}",
                  f"    :parameters ({params})",
                  f"    :precondition {_conjunction([_condition(c) for c in action.preconditions], '    ')}",
                  f"    :effect {_conjunction(effects, '    ')})"]
    lines.append(")")
    return "\n".join(lines) + "\n"


def _constants(problem: PlanningProblem) -> list:
    conditions = [(a, [*a.preconditions, *(c for e in a.effects for c in _when_conditions(e))])
                  for a in problem.actions]
    named = {t.name for a, conds in conditions
             for atom in [*(c.atom for c in conds if not isinstance(c, Equality)),
                          *a.add, *a.delete, *(e.atom for e in a.effects)]
             for t in atom.args if not t.variable}
    named |= {t.name for _, conds in conditions for c in conds
              if isinstance(c, Equality) for t in (c.left, c.right) if not t.variable}
    return [o for o in problem.objects if o.name in named]


def problem_pddl(problem: PlanningProblem) -> str:
    constants = {o.name for o in _constants(problem)}
    objects = [(o.name, o.type) for o in problem.objects if o.name not in constants]
    init = [_atom(a.predicate, a.args) for a in problem.init]
    init += [f"(= {_atom(v.term.function, v.term.args)} {v.value:g})"
             for v in problem.function_values]
    costs = _costs_used(problem)
    if costs:
        init.append("(= (total-cost) 0)")
    lines = [f"(define (problem {_name(problem.name)})",
             f"  (:domain {_name(problem.domain_name)})",
             f"  (:objects {_typed(objects)})",
             "  (:init " + "\n         ".join(init) + ")",
             f"  (:goal {_conjunction([_condition(c) for c in problem.goal], '  ')})"]
    if costs:
        lines.append("  (:metric minimize (total-cost))")
    lines.append(")")
    return "\n".join(lines) + "\n"


def to_pddl(problem: PlanningProblem) -> tuple[str, str]:
    """(domain text, problem text) of `problem`; ADL problems (read from PDDL, which is
    already their text) are refused rather than written without their ADL parts."""
    adl = next((a for a in problem.actions if a.condition is not None
                or any(_when_conditions(e) is None for e in a.effects)), None)
    if adl is not None or problem.derived or problem.goal_formula is not None:
        pos = adl.pos if adl is not None else problem.pos
        raise pos.error("PDDL export writes STRIPS problems with conditional effects; this one "
                        "uses other ADL (quantified or disjunctive conditions, `forall` effects "
                        "or derived predicates)",
                        "it was read from PDDL: that PDDL is its export")
    return domain_pddl(problem), problem_pddl(problem)


__all__ = ["to_pddl", "domain_pddl", "problem_pddl"]
