"""Checks of actions: parameters, preconditions, chance draws and compound moves.

Each action is checked on its own (an error in one does not hide the next): its name, its
parameters (a scope of their own, each domain seeing the parameters before it), its
precondition, its chance variables and their probabilities (`chance: a in A, b in B`), its
effects, its `noisy` test and its `legal_after` condition (on the position the move leaves).  Then the `continue` effects are matched to the steps they
name, and `prefer` is checked.  `continues(effects)` tells the compiler and the interpreter
which actions start compound moves.
"""
from __future__ import annotations

from framework import ast
from framework.checker.model import CheckedAction, CheckedChance, check_name, describe, err
from framework.checker.symbols import Scope
from framework.errors import SpecError, SpecErrors, did_you_mean

PREFERENCES = {"longest": "only the moves with the most steps are legal (maximum capture)"}


class MovesMixin:
    """Actions; a mixin of `Checker` (framework.checker)."""

    def _actions(self):
        names = set()
        if not self.spec.actions:
            raise err(self.spec.positions.get("actions"), "a game needs at least one action")
        errors = []
        for a in self.spec.actions:
            try:
                self._action(a, names)
            except SpecError as e:              # the next action is checked all the same
                errors.append(e)
        if errors:
            raise errors[0] if len(errors) == 1 else SpecErrors(errors)
        self._compound_moves()

    def _action(self, a, names):
        check_name(a.name, a.pos, "action")
        if a.name in names:
            raise err(a.pos, f"duplicate action `{a.name}`", "actions need their own names")
        if a.name == "pass":
            raise err(a.pos, "`pass` is the name of the forced pass (`pass: true`), so an action cannot take it",
                      "for a pass a player may always choose, name the action otherwise (`skip`, `pass_turn`); "
                      "for one only a player without a legal move makes, declare `pass: true`")
        names.add(a.name)
        scope, params = Scope(), []
        for p in a.params:
            check_name(p.name, p.pos, "parameter")
            if p.name in scope:
                raise err(p.pos, f"duplicate parameter `{p.name}` in action `{a.name}`")
            domain, t = self.domain(p.domain, scope, f"parameter `{p.name}`")
            if self.domain_size(domain, t) == 0:
                raise err(p.pos, f"parameter `{p.name}` of action `{a.name}` has an empty domain",
                          "check the range bounds and options")
            scope.declare(p.name, "param", t)
            params.append((p.name, domain, t))
        pre = None
        if a.precondition is not None:
            pre = self.expect(a.precondition, scope, "bool", f"precondition of `{a.name}`", where="action")
        chance, escope = self._chance(a, scope) if a.chance is not None else (None, scope)
        effects = self.effect_block(a.effects, escope, "action")
        noisy = self.expect(a.noisy, scope, "bool", "noisy", where="action") if a.noisy is not None else None
        after = self._legal_after(a, scope) if a.legal_after is not None else None
        self.out.actions.append(CheckedAction(a.name, params, pre, effects, chance, noisy, a.pos, a.step, after))

    def _legal_after(self, a: ast.Action, scope):
        """`legal_after: C`: a condition on the position the move leaves, seeing the
        action's parameters and `mover` (the player who moved); a single step that draws
        no chance outcome (the successor of a chance action depends on the outcome)."""
        where = a.legal_after.pos
        if a.chance is not None:
            raise err(where, f"`legal_after` on `{a.name}`, which draws a chance outcome",
                      "the position it leaves depends on the outcome: test the rule in the action that follows")
        if a.step or continues(a.effects):
            raise err(where, f"`legal_after` on `{a.name}`, which is part of a compound move",
                      "`legal_after` tests single-step moves; a compound move's steps test their `if`")
        return self.expect(a.legal_after, scope, "bool", f"legal_after of `{a.name}`", where="action")

    def _chance(self, a: ast.Action, scope):
        """`chance: a in A, b in B` with no probability (each uniform), one (the joint
        probability) or one per variable (multiplied); (the chance, the scope of its
        variables: one scope a variable, so the i-th probability sees the first i)."""
        variables, scopes = [], [scope]
        for v in a.chance.variables:
            check_name(v.name, v.pos, "outcome variable")
            if v.name in scopes[-1]:
                raise err(v.pos, f"outcome variable `{v.name}` is already a name in `{a.name}`",
                          "give each parameter and outcome its own name")
            domain, t = self.domain(v.domain, scopes[-1], "chance outcomes")
            self.domain_size(domain, t)
            scopes.append(scopes[-1].child())
            scopes[-1].declare(v.name, "param", t)
            variables.append((v.name, domain, t))
        probs = a.chance.probability
        if len(probs) not in (0, 1, len(variables)):
            raise err(probs[0].pos, f"{len(probs)} probabilities for {len(variables)} outcome variables",
                      "give one probability per variable (they are multiplied), one for the whole "
                      "outcome, or none (each variable uniform over its domain)")
        if len(probs) == len(variables) > 1:
            each = tuple(self.expect(p, scopes[i + 1], "num", f"probability of `{variables[i][0]}`", where="action")
                         for i, p in enumerate(probs))
            return CheckedChance(variables, each, None), scopes[-1]
        joint = self.expect(probs[0], scopes[-1], "num", "probability", where="action") if probs else None
        return CheckedChance(variables, (), joint), scopes[-1]

    def _compound_moves(self):
        """The `continue` effects name a schema and fit its first parameters; steps are not
        moves by themselves; chance actions are single steps; `prefer` is known."""
        schemas = {a.name: a for a in self.out.actions}
        for a in self.out.actions:
            if a.chance is not None and (a.step or continues(a.effects)):
                raise err(a.pos, f"`{a.name}` draws a chance outcome, so it cannot be part of a compound move",
                          "make the chance draw an action of its own")
        if all(a.step for a in self.out.actions):
            raise err(self.spec.positions.get("actions") or self.spec.pos, "a game needs at least one action",
                      "steps are reached only by `continue` from an action")
        for e, types in self.continues:
            target = schemas.get(e.step)
            if target is None:
                raise err(e.pos, f"`continue {e.step}`: no action or step is called `{e.step}`",
                          did_you_mean(e.step, schemas) or "declare it under `steps:`")
            if target.legal_after is not None:
                raise err(target.legal_after.pos, f"`legal_after` on `{target.name}`, which is part of a compound "
                          f"move (`continue {e.step}`)", "`legal_after` tests single-step moves; a compound "
                          "move's steps test their `if`")
            if len(e.args) > len(target.params):
                raise err(e.pos, f"`{e.step}` has {len(target.params)} parameter(s), `continue` gives "
                          f"{len(e.args)}", "the arguments fix the step's first parameters; "
                          "the rest are chosen by the player")
            for arg, t, (pname, _, want) in zip(e.args, types, target.params):
                if not self.compatible(t, want):
                    raise err(arg.pos, f"`{e.step}`'s parameter `{pname}` is {describe(want)}, "
                              f"not {describe(t)}")
            for pname, _, want in target.params[len(e.args):]:
                if want == "player":
                    raise err(e.pos, f"`{e.step}` would have the player choose a player (`{pname}`) "
                              "in a later step", "fix it with an argument of `continue`")
        prefer = self.spec.prefer
        if prefer is not None and prefer not in PREFERENCES:
            raise err(self.spec.positions.get("prefer") or self.spec.pos, f"unknown preference `{prefer}`",
                      "write `prefer: longest` (only the moves with the most steps are legal)")
        self.out.prefer = prefer


def continues(effects) -> bool:
    """Whether the effects hold a `continue` (the action starts compound moves)."""
    return ast.any_effect(effects, lambda e: isinstance(e, ast.ContinueEffect))
