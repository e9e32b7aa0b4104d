"""Plan validation against the lifted problem, independent of grounding, normalisation
and search: replay a plan (action texts such as `(pick-up a)` or `Move(A, C)`) from the
initial state with the action schemas' own semantics and report the first step that
fails.  ADL formulas are evaluated directly (quantifiers range over the objects of their
type), conditional and universal effects are collected on the state before the step
(deletes before adds), derived predicates are recomputed stratum by stratum after each
step by evaluating their rule bodies over every binding of the head.
"""
from __future__ import annotations

import re
from itertools import product

from framework.records import dataclass   # dataclasses.dataclass, made cheaply
from planners.lifted.ast import Equality, FunctionTerm, Literal, PlanningProblem
from planners.lifted.check import subtypes
from planners.lifted.formula import Junction, Negation, strata

_CALL = re.compile(r"^\s*([^\s(),]+)\s*(?:\((.*)\))?\s*$")


@dataclass
class PlanCheck:
    valid: bool
    steps_applied: int          # steps that applied before the first failure
    cost: float
    message: str                # "plan reaches the goal" or what went wrong at which step
    failed_step: int | None = None   # 1-based index of the failing step


def parse_action_text(text: str) -> tuple[str, list[str]]:
    """`(move a b)` or `move(a, b)` or `HasBananas` -> ("move", ["a", "b"])."""
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        name, *args = text[1:-1].split()
        return name, args
    match = _CALL.match(text)
    if not match:
        raise ValueError(f"cannot read the action `{text}`")
    name, args = match.group(1), match.group(2)
    return name, [a.strip() for a in args.split(",") if a.strip()] if args else []


def _ground(name, args, binding):
    return name, tuple(binding.get(t.name, t.name) if t.variable else t.name for t in args)


def _fact(atom, binding):
    return _ground(atom.predicate, atom.args, binding)


class _Semantics:
    """Truth of ADL formulas and derived predicates in a state (a set of ground facts)."""

    def __init__(self, problem: PlanningProblem, below: dict):
        self.objects_of = {t: [o.name for o in problem.objects if o.type in below[t]]
                           for t in below}
        self.derived = {rule.head.predicate for rule in problem.derived}
        level = strata(problem.derived)
        self.layers = [[r for r in problem.derived if level[r.head.predicate] == k]
                       for k in sorted(set(level.values()))]

    def holds(self, formula, state: set, binding: dict) -> bool:
        if isinstance(formula, Literal):
            return (_fact(formula.atom, binding) in state) == formula.positive
        if isinstance(formula, Equality):
            left = binding.get(formula.left.name, formula.left.name)
            right = binding.get(formula.right.name, formula.right.name)
            return (left == right) == formula.positive
        if isinstance(formula, Negation):
            return not self.holds(formula.part, state, binding)
        if isinstance(formula, Junction):
            test = all if formula.kind == "and" else any
            return test(self.holds(p, state, binding) for p in formula.parts)
        test = all if formula.kind == "forall" else any
        return test(self.holds(formula.body, state, {**binding, **extra})
                    for extra in self.bindings(formula.params))

    def bindings(self, params):
        names = [p.name for p in params]
        for values in product(*(self.objects_of[p.type] for p in params)):
            yield dict(zip(names, values))

    def derive(self, state: set) -> set:
        """`state` with its derived facts recomputed."""
        state = {f for f in state if f[0] not in self.derived}
        for layer in self.layers:
            changed = True
            while changed:
                changed = False
                for rule in layer:
                    for binding in self.bindings(rule.params):
                        fact = _fact(rule.head, binding)
                        if fact not in state and self.holds(rule.body, state, binding):
                            state.add(fact)
                            changed = True
        return state

    def effects(self, action, state: set, binding: dict) -> tuple[set, set]:
        """The facts a step adds and deletes, its conditions tested on `state`."""
        add = {_fact(a, binding) for a in action.add}
        delete = {_fact(a, binding) for a in action.delete}
        for effect in action.effects:
            for extra in self.bindings(effect.params):
                full = {**binding, **extra}
                if effect.condition is None or self.holds(effect.condition, state, full):
                    (add if effect.positive else delete).add(_fact(effect.atom, full))
        return add, delete


def validate_plan(problem: PlanningProblem, plan: list[str]) -> PlanCheck:
    """Replays `plan` on `problem`; the first inapplicable step or an unreached goal makes
    it invalid."""
    fold = (str.lower if problem.action_style == "pddl" else (lambda s: s))
    actions = {fold(a.name): a for a in problem.actions}
    types_of = {o.name: o.type for o in problem.objects}
    below = subtypes(problem)
    costs = {(v.term.function, tuple(t.name for t in v.term.args)): v.value
             for v in problem.function_values}
    uses_costs = any(a.cost is not None for a in problem.actions)
    world = _Semantics(problem, below)
    state = world.derive({(a.predicate, tuple(t.name for t in a.args)) for a in problem.init})
    total = 0
    for index, text in enumerate(plan):
        fail = (lambda why: PlanCheck(False, index, total, f"step {index + 1} `{text}`: {why}",
                                      index + 1))
        try:
            name, args = parse_action_text(text)
        except ValueError as err:
            return fail(str(err))
        action = actions.get(fold(name))
        if action is None:
            return fail(f"unknown action `{name}`")
        args = [fold(a) for a in args]
        if len(args) != len(action.params):
            return fail(f"`{action.name}` takes {len(action.params)} argument(s), {len(args)} given")
        for param, value in zip(action.params, args):
            if value not in types_of:
                return fail(f"unknown object `{value}`")
            if types_of[value] not in below[param.type]:
                return fail(f"`{value}` is not a {param.type}")
        binding = {p.name: value for p, value in zip(action.params, args)}
        for cond in action.preconditions:
            if isinstance(cond, Equality):
                left = binding.get(cond.left.name, cond.left.name)
                right = binding.get(cond.right.name, cond.right.name)
                if (left == right) != cond.positive:
                    return fail(f"`{left} {'==' if cond.positive else '!='} {right}` is false")
                continue
            fact = _fact(cond.atom, binding)
            if (fact in state) != cond.positive:
                shown = problem.fact_text(*fact)
                return fail(f"precondition {'' if cond.positive else 'not '}{shown} does not hold")
        if action.condition is not None and not world.holds(action.condition, state, binding):
            return fail("its precondition does not hold")
        add, delete = world.effects(action, state, binding)
        state = world.derive((state - delete) | add)
        if isinstance(action.cost, FunctionTerm):
            total += costs.get(_ground(action.cost.function, action.cost.args, binding), 0)
        else:
            total += action.cost if action.cost is not None else (0 if uses_costs else 1)
    for cond in problem.goal:
        fact = _fact(cond.atom, {})
        if (fact in state) != cond.positive:
            shown = problem.fact_text(*fact)
            return PlanCheck(False, len(plan), total,
                             f"after {len(plan)} step(s) the goal {'' if cond.positive else 'not '}"
                             f"{shown} does not hold")
    if problem.goal_formula is not None and not world.holds(problem.goal_formula, state, {}):
        return PlanCheck(False, len(plan), total,
                         f"after {len(plan)} step(s) the goal does not hold")
    return PlanCheck(True, len(plan), total, "plan reaches the goal")
