"""Normalisation of a lifted (ADL) problem into the simple schemas the grounder
instantiates, as Fast Downward's translator does:

- every precondition, effect condition, goal and derived-predicate body is put in
  negation normal form and split into the clauses of its disjunctive normal form
  (`planners.lifted.formula.clauses`: `exists` variables become extra parameters, `forall` is
  expanded over the objects of its type);
- an action becomes one `Schema` per clause of its precondition (the extra `exists`
  parameters do not show in the plan text: `arity` counts the declared ones); its
  conditional and universal effects become `SchemaEffect`s, one per clause of their
  condition (the effect is the same, so firing any clause has the same result);
- a derived predicate becomes one `Rule` per clause of its body; a goal that is not a
  conjunction of literals becomes the derived atom `(goal#)` with one rule per clause;
- a formula whose DNF would exceed `formula.MAX_CLAUSES` clauses is axiomatised first:
  each disjunction in it becomes an auxiliary derived atom (`aux#N` over its free
  variables) with one rule per disjunct, so nothing grows exponentially;
- `strata` orders the derived predicates (negation only on lower strata).
"""
from __future__ import annotations

from itertools import product

from framework.records import dataclass, field   # the dataclasses module's, made cheaply
from framework.errors import LimitError
from planners.lifted.ast import Atom, Equality, Literal, Param, PlanningProblem, Pos, Term
from planners.lifted.formula import (DerivedRule, Junction, Quantified, clauses, conjunction,
                              free_variables, literals_of, nnf, strata, substitute)

GOAL_PREDICATE = "goal#"        # `#` cannot occur in a PDDL name


@dataclass
class SchemaEffect:
    params: tuple[Param, ...]
    conditions: tuple             # Literals and Equalities
    atom: Atom
    positive: bool


@dataclass
class Schema:
    """An operator schema: a precondition clause of an action with all its effects."""
    name: str
    params: tuple[Param, ...]
    arity: int                    # the declared parameters come first
    preconditions: tuple
    add: list
    delete: list
    effects: list
    cost: object
    pos: Pos


@dataclass
class Rule:
    """`head :- preconditions` over `params` (the head's variables first)."""
    name: str
    params: tuple[Param, ...]
    preconditions: tuple
    head: Atom
    pos: Pos

    @property
    def add(self):
        return [self.head]


@dataclass
class Normalised:
    schemas: list[Schema]
    rules: list[Rule]
    goal: list                     # Literals of ground atoms
    strata: dict = field(default_factory=dict)     # derived predicate -> stratum


def _static_equalities(conditions) -> tuple | None:
    """`conditions` without equalities between objects; None when one of them is false."""
    kept = []
    for cond in conditions:
        if isinstance(cond, Equality) and not cond.left.variable and not cond.right.variable:
            if (cond.left.name == cond.right.name) != cond.positive:
                return None
            continue
        kept.append(cond)
    return tuple(kept)


class _Normaliser:
    """Splits formulas into DNF clauses; a formula whose DNF would be too large is first
    axiomatised: each disjunction becomes an auxiliary derived atom `(aux#N free vars)`
    with one rule per disjunct; each `forall` becomes the negation of an auxiliary atom
    whose rule says a counterexample exists (`forall x: P` is `not aux`, `aux :- exists x:
    not P`), as Fast Downward's translator does, so its rule is joined over the facts that
    make a counterexample instead of being expanded over every object; a `forall` whose
    body reads a derived predicate of the domain is expanded over the objects instead
    (the negation could make recursive rules unstratified)."""

    def __init__(self, objects_of: dict, derived: set = frozenset()):
        self.objects_of = objects_of
        self.derived = derived
        self.rules: list[DerivedRule] = []

    def _head(self, formula, scope: dict) -> Atom:
        """A new auxiliary atom over the free variables of `formula`."""
        params = tuple(scope[name] for name in sorted(free_variables(formula)))
        return Atom(f"aux#{len(self.rules)}", tuple(Term(p.name, p.pos, variable=True)
                                                    for p in params), formula.pos), params

    def clauses(self, formula, scope) -> list:
        formula = nnf(formula)
        try:
            return clauses(formula, self.objects_of)
        except LimitError:
            return clauses(self.axiomatise(formula, {p.name: p for p in scope}),
                           self.objects_of)

    def axiomatise(self, formula, scope: dict):
        if isinstance(formula, (Literal, Equality)):
            return formula
        if isinstance(formula, Quantified):
            if formula.kind == "exists":
                inner = {**scope, **{p.name: p for p in formula.params}}
                return Quantified("exists", formula.params,
                                  self.axiomatise(formula.body, inner), formula.pos)
            if not any(lit.atom.predicate in self.derived for lit in literals_of(formula.body)):
                counterexample = Quantified("exists", formula.params, nnf(formula.body, False),
                                            formula.pos)
                head, params = self._head(formula, scope)
                self.rules.append(DerivedRule(head, params, counterexample, formula.pos))
                return Literal(head, positive=False)
            names = [p.name for p in formula.params]
            parts = tuple(substitute(formula.body, dict(zip(names, values))) for values in
                          product(*(self.objects_of[p.type] for p in formula.params)))
            return self.axiomatise(Junction("and", parts, formula.pos), scope)
        parts = tuple(self.axiomatise(p, scope) for p in formula.parts)
        if formula.kind == "and":
            return Junction("and", parts, formula.pos)
        head, params = self._head(formula, scope)
        self.rules.append(DerivedRule(head, params, Junction("or", parts, formula.pos),
                                      formula.pos))
        return Literal(head)

    def effects(self, action) -> tuple[list, list, list]:
        adds, deletes, out = list(action.add), list(action.delete), []
        for effect in action.effects:
            if effect.condition is None:
                parts = [((), ())]
            else:
                parts = self.clauses(effect.condition, action.params + effect.params)
            for extra, conditions in parts:
                params = effect.params + extra
                if not params and not conditions:
                    (adds if effect.positive else deletes).append(effect.atom)
                else:
                    out.append(SchemaEffect(params, conditions, effect.atom, effect.positive))
        return adds, deletes, out


def normalise(problem: PlanningProblem, objects_of: dict) -> Normalised:
    norm = _Normaliser(objects_of, {rule.head.predicate for rule in problem.derived})
    schemas = []
    for action in problem.actions:
        adds, deletes, effects = norm.effects(action)
        condition = (action.condition if action.condition is not None
                     else conjunction(action.preconditions, action.pos))
        for extra, conditions in norm.clauses(condition, action.params):
            schemas.append(Schema(action.name, action.params + extra, len(action.params),
                                  conditions, adds, deletes, effects, action.cost, action.pos))
    goal = (problem.goal_formula if problem.goal_formula is not None
            else conjunction(problem.goal, problem.pos))
    goal_clauses = [(extra, kept) for extra, conditions in norm.clauses(goal, ())
                    if (kept := _static_equalities(conditions)) is not None]
    rules = []
    for rule in problem.derived:
        for extra, conditions in norm.clauses(rule.body, rule.params):
            rules.append(Rule(rule.head.predicate, rule.params + extra, conditions, rule.head,
                              rule.pos))
    done = 0
    while done < len(norm.rules):            # auxiliary rules may add more of their own
        rule = norm.rules[done]
        done += 1
        for extra, conditions in norm.clauses(rule.body, rule.params):
            rules.append(Rule(rule.head.predicate, rule.params + extra, conditions, rule.head,
                              rule.pos))
    # strata of the rules as they are grounded too: an axiomatised body reads auxiliary
    # atoms its original does not (optical telegraphs: `blocked` over the `aux#` of a
    # forall expanded over the transitions, whose rules negate another `aux#`)
    level = strata([*problem.derived, *norm.rules,
                    *(DerivedRule(rule.head, rule.params, Junction("and", rule.preconditions,
                                                                   rule.pos), rule.pos)
                      for rule in rules)])
    if len(goal_clauses) == 1 and not goal_clauses[0][0]:
        return Normalised(schemas, rules, list(goal_clauses[0][1]), level)
    head = Atom(GOAL_PREDICATE, (), problem.pos)
    for extra, conditions in goal_clauses:
        rules.append(Rule(GOAL_PREDICATE, extra, conditions, head, problem.pos))
    level[GOAL_PREDICATE] = max(level.values(), default=-1) + 1
    return Normalised(schemas, rules, [Literal(head)], level)


