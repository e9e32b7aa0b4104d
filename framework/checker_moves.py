"""Checks of compound moves, local variables and chance nodes of several variables.

`let x = E` (a local of the effects), `continue step(args)` (a compound move goes on with
a step), `steps` and `prefer: longest`, and `chance: a in A, b in B` with its
probabilities.  Functions of the `Checker` (framework.checker), which calls them.
"""
from __future__ import annotations

from dataclasses import replace

from framework import ast

PREFERENCES = {"longest": "only the moves with the most steps are legal (maximum capture)"}


def _ck():
    import framework.checker as checker
    return checker


def check_let(c, e: ast.LetEffect, scope: dict, where: str):
    """`let x = E`: x is new here, typed by E, and in scope to the end of its block."""
    ck = _ck()
    ck._check_name(e.name, e.pos, "local variable")
    if e.name in scope:
        kind = scope[e.name][0] if isinstance(scope[e.name], tuple) else "param"
        what = {"local": "a local variable", "quant": "a loop variable"}.get(kind, "a parameter")
        raise ck.err(e.pos, f"`{e.name}` is already {what} here", "pick another name for the local variable")
    g = c.globals.get(e.name)
    if g is not None or e.name in c.defines or e.name in ck.DIRECTION_SETS or e.name in ck.RESERVED_NAMES:
        kinds = {"var": "a state variable", "option": "an option", "player": "a player", "board": "the board",
                 "value": "a cell value", "enum": "an enumeration value"}
        what = kinds.get(g[0], f"a {g[0]}") if g else "a definition" if e.name in c.defines else "a built-in name"
        raise ck.err(e.pos, f"`let {e.name}`: `{e.name}` is already {what}",
                     "a local variable needs a name of its own")
    value = c.inline(e.value, {k: True for k in scope})
    t = c.type(value, scope, where)
    if t in (None, "none", "board", "dirs", "array"):
        raise ck.err(value.pos, f"`let {e.name}` needs a value of a known kind (a number, a condition, "
                     f"a player, a cell, a set of cells or a cell value), not {ck._describe(t)}")
    scope[e.name] = ("local", t)
    return replace(e, value=value)


def assign_local(c, e: ast.Assign, scope: dict, where: str):
    ck = _ck()
    t = scope[e.target.id][1]
    c.type(e.target, scope, where)
    if e.op != "=" and t not in ck.NUMERIC:
        raise ck.err(e.pos, f"`{e.op}` needs a number, and `{e.target.id}` is {ck._describe(t)}")
    want = t if e.op == "=" else "int"
    value = c.expect(e.value, scope, "num" if t == "num" else want, f"value for `{e.target.id}`",
                     where=where, allow_none=t == "cell")
    if t == "int" and c.out.types.get(id(value)) == "num":
        raise ck.err(value.pos, f"`{e.target.id}` holds whole numbers (it started as one)",
                     "use `//` for whole-number division")
    return replace(e, value=value)


def check_continue(c, e: ast.ContinueEffect, scope: dict, where: str):
    """`continue step(args)`: checked against the step once every schema is known."""
    ck = _ck()
    if where != "action":
        raise ck.err(e.pos, "`continue` only goes in the effects of an action or a step",
                     "a compound move goes on from one of its steps")
    args = tuple(c.inline(a, {k: True for k in scope}) for a in e.args)
    types = [c.type(a, scope, where) for a in args]
    e = replace(e, args=args)
    c.continues.append((e, types))
    return e


def check_compound_moves(c):
    """The `continue` effects name a schema and fit its first parameters; steps are not
    moves by themselves; chance actions are single steps; `prefer` is known."""
    ck = _ck()
    schemas = {a.name: a for a in c.out.actions}
    for a in c.out.actions:
        if a.chance is not None and (a.step or continues(a.effects)):
            raise ck.err(a.pos, f"`{a.name}` draws a chance outcome, so it cannot be part of a compound move",
                         "make the chance draw an action of its own")
    if all(a.step for a in c.out.actions):
        raise ck.err(c.spec.positions.get("actions") or c.spec.pos, "a game needs at least one action",
                     "steps are reached only by `continue` from an action")
    for e, types in c.continues:
        target = schemas.get(e.step)
        if target is None:
            raise ck.err(e.pos, f"`continue {e.step}`: no action or step is called `{e.step}`",
                         ck.did_you_mean(e.step, schemas) or "declare it under `steps:`")
        if len(e.args) > len(target.params):
            raise ck.err(e.pos, f"`{e.step}` has {len(target.params)} parameter(s), `continue` gives "
                         f"{len(e.args)}", "the arguments fix the step's first parameters; "
                         "the rest are chosen by the player")
        for arg, t, (pname, _, want) in zip(e.args, types, target.params):
            if not c.compatible(t, want):
                raise ck.err(arg.pos, f"`{e.step}`'s parameter `{pname}` is {ck._describe(want)}, "
                             f"not {ck._describe(t)}")
        for pname, _, want in target.params[len(e.args):]:
            if want == "player":
                raise ck.err(e.pos, f"`{e.step}` would have the player choose a player (`{pname}`) "
                             "in a later step", "fix it with an argument of `continue`")
    prefer = c.spec.prefer
    if prefer is not None and prefer not in PREFERENCES:
        raise ck.err(c.spec.positions.get("prefer") or c.spec.pos, f"unknown preference `{prefer}`",
                     "write `prefer: longest` (only the moves with the most steps are legal)")
    c.out.prefer = prefer


def continues(effects) -> bool:
    """Whether the effects hold a `continue` (the action starts compound moves)."""
    for e in effects:
        if isinstance(e, ast.ContinueEffect):
            return True
        if isinstance(e, ast.IfEffect) and (continues(e.then) or continues(e.else_)):
            return True
        if isinstance(e, ast.ForEffect) and continues(e.body):
            return True
    return False


def check_chance(c, a: ast.Action, scope: dict):
    """`chance: a in A, b in B` with no probability (each uniform), one (the joint
    probability) or one per variable (multiplied); adds the variables to `scope`."""
    ck = _ck()
    chance = a.chance
    variables, each = [], []
    for v in chance.variables:
        ck._check_name(v.name, v.pos, "outcome variable")
        if v.name in scope:
            raise ck.err(v.pos, f"outcome variable `{v.name}` is already a name in `{a.name}`",
                         "give each parameter and outcome its own name")
        domain, t = c.domain(v.domain, scope, "chance outcomes")
        c.domain_size(domain, t)
        scope[v.name] = ("param", t)
        variables.append((v.name, domain, t))
    probs = chance.probability
    if len(probs) not in (0, 1, len(variables)):
        raise ck.err(probs[0].pos, f"{len(probs)} probabilities for {len(variables)} outcome variables",
                     "give one probability per variable (they are multiplied), one for the whole "
                     "outcome, or none (each variable uniform over its domain)")
    if len(probs) == len(variables) > 1:
        for i, p in enumerate(probs):
            names = {n for n, _, _ in variables[:i + 1]}
            inner = {k: v for k, v in scope.items() if k not in {n for n, _, _ in variables} or k in names}
            each.append(c.expect(p, inner, "num", f"probability of `{variables[i][0]}`", where="action"))
        return ck.CheckedChance(variables, tuple(each), None)
    joint = c.expect(probs[0], scope, "num", "probability", where="action") if probs else None
    return ck.CheckedChance(variables, (), joint)
