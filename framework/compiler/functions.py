"""Rule functions of the generated module: terminal test, goal, utility, evaluation, initial
state and chance outcomes.
"""
from __future__ import annotations

from framework.compiler.common import _Source, _assigns_turn


class RuleFunctionsMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def terminal_function(self, out: _Source):
        parts = [self.expr(e, {}) for e in (self.c.terminal, self.c.goal) if e is not None]
        out(f"def _terminal({self.sig}):")
        out(f"    return bool({' or '.join(parts) or 'False'})")
        out()
        if self.c.goal is not None:
            out(f"def _goal({self.sig}):")
            out(f"    return bool({self.expr(self.c.goal, {})})")
            out()

    def utility_function(self, out: _Source, kernel: bool = False):
        """_utility(fields, me); with `kernel`, k_utility(s, me) of a packed state (0 until
        it is terminal), the same body inline."""
        c = self.c
        if kernel:
            out("def k_utility(s, me):")
            out.indent()
            out(f"{', '.join(self.packed_names())} = s")
            out("if not terminal:")
            out("    return 0")
        else:
            out(f"def _utility({self.sig}, me):")
            out.indent()
        if c.winner is not None:
            self.score_body(out, "winner", c.winner)
        elif c.utility is not None:
            form, e = c.utility
            if form != "each":
                self.score_body(out, form, e)
            else:
                for i, expr in e.items():
                    out(f"if me == {i}:")
                    out(f"    return {self.expr(expr, {})}")
                out("return 0")
        else:
            out(f"return 1 if _goal({self.sig}) else 0")
        out.dedent()
        out()

    def score_body(self, out: _Source, form: str, e):
        """The lines that return player `me`'s score by a `winner` expression or a single
        utility (`zero_sum`, or with `me`)."""
        if form == "winner":
            out(f"winner = {self.expr(e, {})}")
            if self.n == 2:
                out("return 0 if winner < 0 else 1 if winner == me else -1")
            else:
                out("return 1 if winner == me else 0")
        elif form == "zero_sum":
            out(f"value = {self.expr(e, {})}")
            out("return value if me == 0 else -value")
        else:
            out(f"return {self.expr(e, {})}")

    def end_score_functions(self, out: _Source):
        """_score_repetition / _score_max_moves(fields, me): a history rule's score of the
        final position (framework.history calls them)."""
        for key, (form, e) in self.c.end_scores.items():
            out(f"def _score_{key}({self.sig}, me):")
            out.indent()
            self.score_body(out, form, e)
            out.dedent()
            out()

    def evaluation_function(self, out: _Source):
        if not self.c.features:
            return
        out(f"def _evaluate({self.sig}, me):")
        out.indent()
        out("total = 0")
        for name, weight, e, per_player in self.c.features:
            code = self.expr(e, {})
            if per_player:
                out(f"total += {weight!r} * ({code})")
            else:
                out(f"total += {weight!r} * ({code}) * (1 if me == 0 else -1)")
        out("return total")
        out.dedent()
        out()

    def initial_function(self, out: _Source):
        c = self.c
        out("def _initial():")
        out.indent()
        for i in self.boards:
            out(f"b_{c.values[i]} = 0")
        for v in c.variables:
            kind, init = v.initial
            if kind == "const":
                code = repr(init) if v.type != "cell" else "-1"
                code = f"({code},) * {v.size}" if v.is_array else code
            elif kind == "list":
                code = "(" + "".join(self.expr(x, {}) + ", " for x in init) + ")"
            else:
                code = self.expr(init, {})
                code = f"({code},) * {v.size}" if v.is_array else code
            out(f"v_{v.name} = {code}")
            if v.type == "int" and kind != "const":       # computed from options: check the range
                values = f"v_{v.name}" if v.is_array else f"(v_{v.name},)"
                out(f"for _x in {values}:")
                out(f"    if not {v.lo} <= _x <= {v.hi}: out_of_range(NAMES[{len(self.names)}], _x, {v.lo}, {v.hi}, True)")
                self.names.append(v.name)
        out("mover = 0")
        if _assigns_turn(c.init):            # `turn = P` in `init`: P moves first
            out("turn = 0")
            self.effects(c.init, {}, out)
            out("mover = turn")
        else:
            self.effects(c.init, {}, out)
        out(f"return {self.make_call(self.sig)}")
        out.dedent()
        out()

    def chance_function(self, out: _Source):
        """_outcomes(fields, pending): [(outcome, probability)] of the pending chance action,
        one loop per outcome variable; the probability is the joint expression, or the
        product of the variables' own (1/|domain| when none is given)."""
        out(f"def _outcomes({self.sig}, pending):")
        out.indent()
        for ai, a in enumerate(self.c.actions):
            if not a.chance:
                continue
            chance = a.chance
            out(f"if pending[0] == {ai}:")
            out.indent()
            base = out.depth
            env = {p[0]: f"p_{p[0]}" for p in a.params}
            if a.params:
                out(f"{', '.join(env.values())}, = pending[1]")
            out("out = []")
            factors = []
            for k, (var, domain, t) in enumerate(chance.variables):
                env[var] = f"p_{var}"
                if chance.joint is None and not chance.each:
                    out(f"_values{k} = tuple({self.domain(domain, env)})")
                    out(f"for p_{var} in _values{k}:")
                    factors.append(f"(1 / len(_values{k}))")
                else:
                    out(f"for p_{var} in {self.domain(domain, env)}:")
                out.indent()
                if chance.each:
                    out(f"_p{k} = {' * '.join(factors + [f'({self.expr(chance.each[k], env)})'])}")
                    factors = [f"_p{k}"]
            probability = self.expr(chance.joint, env) if chance.joint is not None else " * ".join(factors)
            out(f"probability = {probability}")
            values = [self.external(t, f"p_{var}") for var, _, t in chance.variables]
            outcome = values[0] if len(values) == 1 else "(" + "".join(v + ", " for v in values) + ")"
            out("if probability > 0:")
            out(f"    out.append(({outcome}, probability))")
            out.depth = base
            out(f"return out or no_outcomes(POSITIONS[{self.position(a)}])")
            out.dedent()
        out("return []")
        out.dedent()
        out()
