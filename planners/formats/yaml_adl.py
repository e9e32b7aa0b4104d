"""The ADL half of the YAML planning front-end (`planners.formats.yaml_spec`, and through it the
`.plan` one): condition items become `planners.lifted.formula` trees exactly as the PDDL reader
(`planners.formats.pddl_adl`) builds them (`and` flattened, `not` of a literal flipped, `if A then
B` read as `(or (not A) B)`, quantifiers over typed variables that are in scope in their
body); the `derived` section becomes `DerivedRule`s and the `when` entries of an action
(optionally quantified with `forall`) become `Effect`s.  A mixin of `yaml_spec._Builder`,
which supplies `src`, `parse`, `expand`, `atom`, `term` and `use`.
"""
from __future__ import annotations

import yaml

from planners.lifted.ast import ROOT_TYPE, Atom, Equality, Literal, Param, PredicateDef, Term, either_type
from planners.lifted.formula import DerivedRule, Effect, Junction, Negation, Quantified
from planners.formats.pddl_adl import flat_conditions, formula_pos

WHEN_KEYS = ("forall", "if", "add", "del")


def conjoin(parts: list, pos):
    """The conjunction of `parts` as PDDL's reader builds it: nested `and`s flattened, a
    single part standing for itself."""
    flat = []
    for part in parts:
        flat.extend(part.parts if isinstance(part, Junction) and part.kind == "and" else [part])
    return flat[0] if len(flat) == 1 else Junction("and", tuple(flat), pos)


def split_flat(formula):
    """(flat literal list, None) when `formula` is a conjunction of literals and
    (in)equalities, else ([], formula): how PDDL's reader stores a precondition / goal."""
    flat = flat_conditions(formula)
    return (flat, None) if flat is not None else ([], formula)


class AdlItems:
    """Builder callbacks for formulas, derived predicates and conditional / universal
    effects."""

    def param(self, pair, node) -> Param:
        """A parsed `name - type` (`type` may be `a or b`: PDDL's `either`)."""
        name, types = pair
        for token in types or ():
            self.use("type", str(token), self.src.pos(node, token.column - 1, len(token)))
        type_ = ROOT_TYPE if not types else str(types[0]) if len(types) == 1 else \
            either_type(str(t) for t in types)
        return Param(str(name), type_, self.src.pos(node, name.column - 1, len(name)))

    def formulas(self, node, what: str, params: dict) -> list[tuple]:
        """(formula, item node) of every item of the list `node`, generators expanded."""
        return [(self.formula(item, env, item_node, params), item_node)
                for item_node in self.src.items(node, what)
                for item, env in self.expand(item_node, "condition_item")]

    def formula(self, item, env: dict, node, params: dict):
        kind = item[0]
        if kind == "literal":
            return Literal(self.atom(item[1], env, node, params), item[2])
        if kind == "equality":
            left = self.term(item[1], env, node, params)
            return Equality(left, self.term(item[2], env, node, params), item[3], left.pos)
        if kind in ("and", "or"):
            parts = [self.formula(part, env, node, params) for part in item[1]]
            if kind == "and":
                return conjoin(parts, formula_pos(parts[0]))
            return Junction("or", tuple(parts), formula_pos(parts[0]))
        token = item[1]
        pos = self.src.pos(node, token.column - 1, len(token))
        if kind == "not":
            inner = self.formula(item[2], env, node, params)
            if isinstance(inner, Literal):
                return Literal(inner.atom, not inner.positive)
            if isinstance(inner, Equality):
                return Equality(inner.left, inner.right, not inner.positive, inner.pos)
            return inner.part if isinstance(inner, Negation) else Negation(inner, pos)
        if kind == "imply":
            left = self.formula(item[2], env, node, params)
            return Junction("or", (Negation(left, pos), self.formula(item[3], env, node, params)),
                            pos)
        bound = tuple(self.param(pair, node) for pair in item[2])
        scope = {**params, **{p.name: p for p in bound}}
        return Quantified(str(token), bound, self.formula(item[3], env, node, scope), pos)

    def condition(self, node, what: str, params: dict):
        """The conjunction of the items of the list `node` (`pre`, `goal`, `if`)."""
        parts = [f for f, _ in self.formulas(node, what, params)]
        return conjoin(parts, self.src.pos(node)) if parts else Junction("and", (), self.src.pos(node))

    def facts(self, node, what: str, params: dict) -> list[Atom]:
        """The atoms of `init`, `add` or `del`: positive literals only."""
        out = []
        for formula, item_node in self.formulas(node, what, params):
            if isinstance(formula, Equality):
                raise self.src.error(item_node, f"{what} cannot contain an equality")
            if isinstance(formula, Literal) and not formula.positive:
                raise self.src.error(item_node, f"{what} lists only facts that hold",
                                     "facts not listed are false (closed world)")
            if not isinstance(formula, Literal):
                raise self.src.error(item_node, f"{what} lists facts, not a formula",
                                     "and / or / not / if / forall / exists belong in conditions "
                                     "(pre, goal, if, derived)")
            out.append(formula.atom)
        return out

    # -- derived predicates -----------------------------------------------------------
    def read_derived(self, problem, node):
        """`derived: {Head(x - t): [conditions]}`: a rule per key; a head not declared
        under `predicates` declares its predicate."""
        declared = {p.name for p in problem.predicates}
        for key, body in self.src.mapping(node, "derived"):
            name, params, pos = self.signature(key)
            scope = {p.name: p for p in params}
            head = Atom(name, tuple(Term(p.name, p.pos, variable=True) for p in params), pos)
            problem.derived.append(DerivedRule(head, params, self.condition(
                body, f"the definition of {name}", scope), pos))
            if name not in declared:
                problem.predicates.append(PredicateDef(name, params, pos))
                declared.add(name)

    # -- conditional and universal effects ----------------------------------------------
    def when_effects(self, node, name: str, params: dict) -> list[Effect]:
        """`when: [{forall: [c - crate], if: [...], add: [...], del: [...]}, ...]`: the
        conditional (`if`) and universal (`forall`: for every such object) effects of
        action `name`."""
        if not isinstance(node, yaml.SequenceNode):
            raise self.src.error(node, f"`when` of {name} must be a list of if/add/del entries",
                                 "e.g. when: [{if: [Dark(x)], add: [Lit(x)]}]")
        out = []
        for entry in node.value:
            if not isinstance(entry, yaml.MappingNode):
                raise self.src.error(entry, f"each `when` entry of {name} maps if/add/del to lists",
                                     "e.g. - {if: [Dark(x)], add: [Lit(x)], del: [Dark(x)]}")
            parts = self.src.parts(entry, f"a `when` entry of {name}", WHEN_KEYS)
            if "if" not in parts and "forall" not in parts:
                raise self.src.error(entry, f"a `when` entry of {name} has no `if` conditions",
                                     "add if: [...] or forall: [x - type] (use add/del directly "
                                     "for unconditional effects)")
            bound = tuple(self.param(self.parse(item, "param_item"), item) for item in
                          self.src.items(parts["forall"], f"forall of {name}")) \
                if "forall" in parts else ()
            scope = {**params, **{p.name: p for p in bound}}
            condition = self.condition(parts["if"], f"if of {name}", scope) \
                if "if" in parts else None
            for part, positive in (("add", True), ("del", False)):
                if part in parts:
                    out += [Effect(bound, condition, atom, positive) for atom in
                            self.facts(parts[part], f"{part} of a `when` of {name}", scope)]
        return out
