"""Chance in generated code: a chance node's outcomes for the kernel (`k_outcomes`, kept
by the pending chance action when no chance action reads the state) and the resolution of
a pending chance action by its outcome, shared by `State.result` and `k_apply`."""
from __future__ import annotations

from framework.compiler.common import _IDENT, _Source


class ChanceMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def outcomes_kernel(self, out: _Source, unpack: str):
        """k_outcomes(s) of a chance node; kept by `pending` (in _K_OUTCOMES) when no chance
        action's outcomes or probabilities read the state (a die is a die)."""
        out("def k_outcomes(s):")
        if self.outcomes_read_state():
            out(f"    {unpack} = s")
            out(f"    return _outcomes({self.sig}, pending)")
        else:
            out("    pending = s[-2]")
            out("    known = _K_OUTCOMES.get(pending)")
            out("    if known is None:")
            out(f"        known = _K_OUTCOMES[pending] = _outcomes({', '.join(['None'] * len(self.fields))}, pending)")
            out("    return known")
            out()
            out("_K_OUTCOMES = {}")
        out()

    def outcomes_read_state(self) -> bool:
        """Whether some chance action's domains or probabilities read a field of the state."""
        fields = set(self.fields)
        for a in self.c.actions:
            if a.chance:
                env = {n: f"p_{n}" for n in [p[0] for p in a.params] + a.chance.names}
                code = [self.domain(d, env) for _, d, _ in a.chance.variables]
                code += [self.expr(e, env) for e in (a.chance.joint, *a.chance.each) if e is not None]
                if fields & set(_IDENT.findall(" ".join(code))):
                    return True
        return False

    def resolve_chance(self, out: _Source, apply: str):
        """State.result / k_apply at a chance node (`pending` set): the outcome (a course
        value, as chance_outcomes / k_outcomes give it) decoded and applied: by the
        function `apply`<i> of chance action i, or, in the kernel, by its effects inline
        (the chance node has its parent's fields, which were not terminal)."""
        out("if pending is not None:")
        out.indent()
        raw, self.raw = self.raw, False
        for ai, a in enumerate(self.c.actions):
            if not a.chance:
                continue
            variables = a.chance.variables
            outcome = [self.decode(variables[0][2], "action")] if len(variables) == 1 else \
                [self.decode(t, f"action[{k}]") for k, (_, _, t) in enumerate(variables)]
            out(f"if pending[0] == {ai}:")
            if not raw:
                out(f"    return {apply}{ai}({self.sig}, *pending[1], {', '.join(outcome)})")
                continue
            out.indent()
            names = [p[0] for p in a.params]
            if names:
                out(f"{''.join(f'p_{n}, ' for n in names)}= pending[1]")
            for (name, _, _), code in zip(variables, outcome):
                out(f"p_{name} = {code}")
            env = {n: f"p_{n}" for n in names + a.chance.names}
            self.raw = True
            self.per_mover(out, lambda o: self.apply_body(o, a, env))
            self.raw = False
            out.dedent()
        self.raw = raw
        out.dedent()
