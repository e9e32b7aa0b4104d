"""Chance in generated code: a chance node's outcomes for the kernel (`k_outcomes`, kept
by the pending chance action when no chance action reads the state) and the resolution of
a pending chance action by its outcome, shared by `State.result` and `k_apply`."""
from __future__ import annotations

from framework.compiler.common import _IDENT, _Source
from framework.compiler.children import _appending


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

    def chance_children(self, out: _Source, unpack: str):
        """k_children at a chance node: the pending action and its parameters read once,
        then per mover a loop over the outcomes with the action's effects inline, each
        `return X` written `children.append((probability, X)); continue`."""
        out("if s[-2]:")
        out.indent()
        out(f"{unpack} = s")
        for ai, a in enumerate(self.c.actions):
            if not a.chance:
                continue
            outcome, names, env = self.chance_outcome(a)
            out(f"if pending[0] == {ai}:")
            out.indent()
            if names:
                out(f"{''.join(f'p_{n}, ' for n in names)}= pending[1]")
            single = len(outcome) == 1 and outcome[0] == "action"   # the outcome as it is

            def emit(o):
                o(f"for {f'p_{a.chance.names[0]}' if single else 'action'}, probability in k_outcomes(s):")
                o.indent()
                o(f"{unpack} = s")
                for (name, _, _), code in zip(a.chance.variables, outcome if not single else ()):
                    o(f"p_{name} = {code}")
                body = _Source()
                body.depth = o.depth
                self.apply_body(body, a, env)
                o.lines += _appending(body.lines, "probability")
                o.dedent()
                o("return children")
            self.per_mover(out, emit)
            out.dedent()
        out("return children")
        out.dedent()

    def chance_outcome(self, a):
        """(the code decoding an outcome of chance action `a`, one per chance variable,
        from `action` as k_outcomes gives it; the names of its parameters; the names the
        effects read them by)."""
        raw, self.raw = self.raw, False
        variables = a.chance.variables
        outcome = [self.decode(variables[0][2], "action")] if len(variables) == 1 else \
            [self.decode(t, f"action[{k}]") for k, (_, _, t) in enumerate(variables)]
        self.raw = raw
        names = [p[0] for p in a.params]
        return outcome, names, {n: f"p_{n}" for n in names + a.chance.names}

    def resolve_chance(self, out: _Source, apply: str):
        """State.result / k_apply at a chance node (`pending` set): the outcome (a course
        value, as chance_outcomes / k_outcomes give it) decoded and applied: by the
        function `apply`<i> of chance action i, or, in the kernel, by its effects inline
        (the chance node has its parent's fields, which were not terminal)."""
        out("if pending:")
        out.indent()
        raw, self.raw = self.raw, False
        for ai, a in enumerate(self.c.actions):
            if not a.chance:
                continue
            outcome, names, env = self.chance_outcome(a)
            out(f"if pending[0] == {ai}:")
            if not raw:
                out(f"    return {apply}{ai}({self.sig}, *pending[1], {', '.join(outcome)})")
                continue
            out.indent()
            if names:
                out(f"{''.join(f'p_{n}, ' for n in names)}= pending[1]")
            for (name, _, _), code in zip(a.chance.variables, outcome):
                out(f"p_{name} = {code}")
            self.raw = True
            self.per_mover(out, lambda o: self.apply_body(o, a, env))
            self.raw = False
            out.dedent()
        self.raw = raw
        out.dedent()
