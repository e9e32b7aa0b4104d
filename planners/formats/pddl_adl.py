"""The formula and effect half of the PDDL importer (`planners.formats.pddl`): turns parsed
conditions into `planners.lifted.formula` trees (and, or, not, imply, forall, exists, atoms,
equalities) and effects into unconditional adds / deletes / cost plus `Effect`s for the
conditional (`when`) and universal (`forall`) ones; reads `:derived` rules.  A mixin of
the builder `_Builder`, which supplies `pos`, `term` and `refuse`.
"""
from __future__ import annotations

from planners.lifted.ast import Atom, Equality, Literal, Term
from planners.lifted.formula import DerivedRule, Effect, Junction, Negation, Quantified


def formula_pos(formula):
    """The position of a formula (of its atom for a literal)."""
    return formula.atom.pos if isinstance(formula, Literal) else formula.pos


def flat_conditions(formula):
    """The conjunction of literals and equalities `formula` is, as a list, or None when it
    needs ADL (a disjunction, a quantifier, a negated compound)."""
    if isinstance(formula, (Literal, Equality)):
        return [formula]
    if isinstance(formula, Junction) and formula.kind == "and":
        out = []
        for part in formula.parts:
            flat = flat_conditions(part)
            if flat is None:
                return None
            out.extend(flat)
        return out
    return None


class AdlBuilder:
    """Transformer callbacks for conditions, effects and derived predicates."""

    @staticmethod
    def _formula(item):
        return Literal(item) if isinstance(item, Atom) else item

    # -- conditions -------------------------------------------------------------------
    # conjunctions are flattened, a one-part conjunction is its part and double negations
    # cancel as the parser reduces them (bottom-up), so a formula nested thousands deep
    # becomes shallow, never a recursion
    def conjunction(self, children):
        parts = []
        for child in children[1:]:
            child = self._formula(child)
            is_and = isinstance(child, Junction) and child.kind == "and"
            parts.extend(child.parts if is_and else [child])
        if len(parts) == 1:
            return parts[0]
        return Junction("and", tuple(parts), self.pos(children[0]))

    def disjunction(self, children):
        return Junction("or", tuple(self._formula(c) for c in children[1:]),
                        self.pos(children[0]))

    def negation(self, children):
        inner = self._formula(children[1])
        if isinstance(inner, Literal):
            return Literal(inner.atom, not inner.positive)
        if isinstance(inner, Equality):
            return Equality(inner.left, inner.right, not inner.positive, inner.pos)
        if isinstance(inner, Negation):
            return inner.part
        return Negation(inner, self.pos(children[0]))

    def implication(self, children):
        token, left, right = children
        pos = self.pos(token)
        return Junction("or", (Negation(self._formula(left), pos), self._formula(right)), pos)

    def quantified(self, children):
        token, params, body = children
        return Quantified(token.lower(), tuple(params), self._formula(body), self.pos(token))

    def equality(self, children):
        left, right = (self.term(t) for t in children)
        return Equality(left, right, True, left.pos)

    # -- effects ----------------------------------------------------------------------
    @staticmethod
    def _items(effect) -> list:
        return effect if isinstance(effect, list) else [effect]

    def effect_and(self, children):
        return [item for child in children[1:] for item in self._items(child)]

    def effect_not(self, children):
        return [("not", children[1])]

    def forall_effect(self, children):
        token, params, body = children
        if token.lower() != "forall":
            raise self.refuse(token, "`exists` in an effect (only `forall` quantifies effects)")
        return [self._wrap(item, tuple(params), None, token) for item in self._items(body)]

    def when(self, children):
        token, condition, body = children
        return [self._wrap(item, (), self._formula(condition), token)
                for item in self._items(body)]

    def _wrap(self, item, params, condition, token) -> Effect:
        """`item` (an atom, ("not", atom), an Effect) under more variables / a condition."""
        if isinstance(item, Atom):
            return Effect(params, condition, item, True)
        if isinstance(item, Effect):
            both = condition if item.condition is None else (
                item.condition if condition is None
                else Junction("and", (condition, item.condition), formula_pos(condition)))
            return Effect(params + item.params, both, item.atom, item.positive)
        if item[0] == "not":
            return Effect(params, condition, item[1], False)
        raise self.refuse(token, "an action cost inside `when` or `forall` (a conditional cost)")

    def split_effects(self, effect):
        """(adds, deletes, cost or None, conditional / universal Effects) of an action."""
        items = self._items(effect)
        adds = [item for item in items if isinstance(item, Atom)]
        effects = [item for item in items if isinstance(item, Effect)]
        rest = [item for item in items if isinstance(item, tuple)]
        deletes = [value for kind, value in rest if kind == "not"]
        costs = [value for kind, value in rest if kind == "cost"]
        return adds, deletes, costs[-1] if costs else None, effects

    # -- derived predicates -----------------------------------------------------------
    def derived(self, children):
        (name, params, pos), body = children
        head = Atom(name.lower(), tuple(Term(p.name, p.pos, variable=True) for p in params), pos)
        return ("derived", DerivedRule(head, tuple(params), self._formula(body), pos))
