"""ADL formulas of the planning AST and their normal forms.

A precondition, goal, effect condition or derived-predicate body is a tree of
`Junction` (and / or), `Negation`, `Quantified` (forall / exists over typed variables)
and the leaves `Literal` and `Equality` of `planners.lifted.ast`; `(imply a b)` is read as
`(or (not a) b)`.  An `Effect` is one literal that a (possibly quantified, possibly
conditional) effect sets, a `DerivedRule` one `:derived` definition.

What the grounder needs, as Fast Downward's translator does it:
- `nnf`: negations pushed down to the literals (de Morgan, forall <-> exists);
- `clauses`: the disjunctive normal form of an NNF formula as a list of conjunctive
  clauses, each (extra variables, literals): an `exists` lifts its variables (renamed
  apart) into the clause, a `forall` is expanded into the conjunction of its body over
  the objects of the variables' types;
- `strata`: the stratification of derived predicates (a predicate used negatively must be
  complete before the ones using it); a cycle through a negation is an error.
"""
from __future__ import annotations

from itertools import product

from framework.records import dataclass, replace   # the dataclasses module's, made cheaply
from framework.errors import LimitError
from planners.lifted.ast import Atom, Equality, Literal, Param, Pos, Term

MAX_CLAUSES = 256       # a disjunctive normal form larger than this is refused


@dataclass(frozen=True)
class Junction:
    kind: str                     # "and" | "or"
    parts: tuple
    pos: Pos


@dataclass(frozen=True)
class Negation:
    part: object
    pos: Pos


@dataclass(frozen=True)
class Quantified:
    kind: str                     # "forall" | "exists"
    params: tuple[Param, ...]
    body: object
    pos: Pos


@dataclass(frozen=True)
class Effect:
    """`forall params: when condition: atom` (positive) or `... (not atom)`."""
    params: tuple[Param, ...]
    condition: object | None
    atom: Atom
    positive: bool


@dataclass(frozen=True)
class DerivedRule:
    """`(:derived (head ?x - t ...) body)`; `params` are the head's typed variables."""
    head: Atom
    params: tuple[Param, ...]
    body: object
    pos: Pos


def conjunction(conditions, pos: Pos):
    """A flat precondition list as a formula."""
    return Junction("and", tuple(conditions), pos)


def nnf(formula, positive: bool = True):
    """`formula` (negated when not `positive`) with negations only on literals."""
    if isinstance(formula, Literal):
        return formula if positive else Literal(formula.atom, not formula.positive)
    if isinstance(formula, Equality):
        return formula if positive else replace(formula, positive=not formula.positive)
    if isinstance(formula, Negation):
        return nnf(formula.part, not positive)
    if isinstance(formula, Junction):
        kind = formula.kind if positive else {"and": "or", "or": "and"}[formula.kind]
        return Junction(kind, tuple(nnf(p, positive) for p in formula.parts), formula.pos)
    kind = formula.kind if positive else {"forall": "exists", "exists": "forall"}[formula.kind]
    return Quantified(kind, formula.params, nnf(formula.body, positive), formula.pos)


def substitute_term(term: Term, values: dict) -> Term:
    if term.variable and term.name in values:
        new = values[term.name]
        return new if isinstance(new, Term) else Term(new, term.pos)
    return term


def substitute_atom(atom: Atom, values: dict) -> Atom:
    return Atom(atom.predicate, tuple(substitute_term(t, values) for t in atom.args), atom.pos)


def substitute(formula, values: dict):
    """`formula` with the variables named in `values` replaced (by object names or Terms)."""
    if isinstance(formula, Literal):
        return Literal(substitute_atom(formula.atom, values), formula.positive)
    if isinstance(formula, Equality):
        return replace(formula, left=substitute_term(formula.left, values),
                       right=substitute_term(formula.right, values))
    if isinstance(formula, Negation):
        return Negation(substitute(formula.part, values), formula.pos)
    if isinstance(formula, Junction):
        return Junction(formula.kind, tuple(substitute(p, values) for p in formula.parts),
                        formula.pos)
    inner = {k: v for k, v in values.items() if k not in {p.name for p in formula.params}}
    return Quantified(formula.kind, formula.params, substitute(formula.body, inner), formula.pos)


class _Fresh:
    """Fresh variable names for lifted `exists` variables (`?x` -> `x#1`; `#` cannot
    appear in a PDDL name, so a fresh name never clashes with a declared one)."""

    def __init__(self):
        self.count = 0

    def __call__(self, param: Param) -> Param:
        self.count += 1
        return Param(f"{param.name}#{self.count}", param.type, param.pos)


def clauses(formula, objects_of: dict, fresh=None) -> list[tuple[tuple, tuple]]:
    """The DNF of an NNF `formula`: [(extra typed variables, literals and equalities)]."""
    fresh = fresh or _Fresh()
    if isinstance(formula, (Literal, Equality)):
        return [((), (formula,))]
    if isinstance(formula, Quantified):
        if formula.kind == "exists":
            renamed = [fresh(p) for p in formula.params]
            body = substitute(formula.body, {p.name: Term(r.name, p.pos, variable=True)
                                             for p, r in zip(formula.params, renamed)})
            return [(tuple(renamed) + extra, lits)
                    for extra, lits in clauses(body, objects_of, fresh)]
        names = [p.name for p in formula.params]
        domains = [objects_of[p.type] for p in formula.params]
        parts = tuple(substitute(formula.body, dict(zip(names, values)))
                      for values in product(*domains))
        return clauses(Junction("and", parts, formula.pos), objects_of, fresh)
    parts = [clauses(p, objects_of, fresh) for p in formula.parts]
    if formula.kind == "or":
        out = [c for part in parts for c in part]
    else:
        out = [((), ())]
        for part in parts:
            out = [(e1 + e2, l1 + l2) for e1, l1 in out for e2, l2 in part]
            _limit(out, formula.pos)
    _limit(out, formula.pos)
    return out


def _limit(out: list, pos: Pos):
    if len(out) > MAX_CLAUSES:
        raise LimitError(f"this formula has more than {MAX_CLAUSES} disjuncts in disjunctive "
                         "normal form", file=pos.file, line=pos.line, col=pos.col,
                         source_line=pos.source_line,
                         hint="state the disjunction through a derived predicate (:derived)")


def literals_of(formula):
    """Every Literal in `formula` with its polarity after pushing negations in."""
    formula = nnf(formula)
    stack = [formula]
    while stack:
        node = stack.pop()
        if isinstance(node, Literal):
            yield node
        elif isinstance(node, Junction):
            stack.extend(node.parts)
        elif isinstance(node, Quantified):
            stack.append(node.body)


def strata(rules: list[DerivedRule]) -> dict[str, int]:
    """Derived predicate -> its stratum (0, 1, ...): a predicate is in a stratum at least as
    high as the derived predicates its rules use positively, and higher than those they use
    negatively.  Raises a SpecError at a rule when the rules are not stratifiable."""
    derived = {r.head.predicate for r in rules}
    level = dict.fromkeys(derived, 0)
    for _ in range(len(derived) + 1):
        changed = False
        for rule in rules:
            head = rule.head.predicate
            for lit in literals_of(rule.body):
                used = lit.atom.predicate
                if used in derived:
                    need = level[used] + (0 if lit.positive else 1)
                    if level[head] < need:
                        level[head] = need
                        changed = True
                        if need > len(derived):
                            raise rule.pos.error(
                                f"derived predicate `{head}` depends negatively on itself "
                                "(the derived predicates are not stratified)")
        if not changed:
            return level
    raise rules[0].pos.error("the derived predicates are not stratified")


def quantified_params(formula):
    """The typed variables of every quantifier in `formula`."""
    if isinstance(formula, Negation):
        yield from quantified_params(formula.part)
    elif isinstance(formula, Junction):
        for part in formula.parts:
            yield from quantified_params(part)
    elif isinstance(formula, Quantified):
        yield from formula.params
        yield from quantified_params(formula.body)


def formulas_of(problem):
    """Every ADL formula of `problem` (preconditions, effect conditions, goal, rule bodies)."""
    for action in problem.actions:
        yield action.condition
        yield from (e.condition for e in action.effects)
    yield problem.goal_formula
    yield from (rule.body for rule in problem.derived)


def free_variables(formula) -> set[str]:
    """The names of the variables `formula` uses without binding them."""
    if isinstance(formula, Literal):
        return {t.name for t in formula.atom.args if t.variable}
    if isinstance(formula, Equality):
        return {t.name for t in (formula.left, formula.right) if t.variable}
    if isinstance(formula, Negation):
        return free_variables(formula.part)
    if isinstance(formula, Junction):
        return set().union(*(free_variables(p) for p in formula.parts))
    return free_variables(formula.body) - {p.name for p in formula.params}
