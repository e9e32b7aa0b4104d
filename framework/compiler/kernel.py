"""The function-level kernel written under the State class: the same legal-move and effect
code over plain tuples and raw parameter values, for the searchers' inner loops.

The packed state is the plain tuple of the State's fields (`tuple(state)`; its hash is the
state's hash, and `_new(State, packed)` is the course-interface view of it).  A raw action
names a cell parameter by its bit index and an enum by its index (ints as they are), so
that applying it decodes nothing.  Written for games without compound moves (or a move
preference):

    k_actions(s)  the raw actions, in the order of State.actions()
    k_count(s)    how many there are (a bit count where move generation is a mask)
    k_apply(s, a) the successor, a plain tuple (the parent is not terminal)
    k_leaves(s)   the sum of k_count(k_apply(s, a)) over the moves a of s, in one loop that
                  builds no successor (perft's last ply)
    k_children(s) [(a, k_apply(s, a))] over the moves of the non-terminal s, in one call
                  (the moves generated and applied inline: the searchers' loops)
    k_utility(s, me), k_returns(s)  player me's utility, every player's (0 until terminal)
    k_action(a)   the course-interface action of raw action a

In a game with chance the packed state keeps the State's `pending` field (the chance
action awaiting its outcome, None at decision nodes) before `terminal`; there
    k_outcomes(s) the [(outcome, probability)] of the chance node s, as State.chance_outcomes()
                  (kept by `pending` when no chance action reads the state)
and k_actions / k_apply at a chance node take its outcomes, as State.actions() / result()
do, and k_children gives [(probability, successor)].  Perft runs chance games on the
course interface, so they get no k_count / k_leaves.
"""
from __future__ import annotations

from framework.compiler.common import _IDENT, _Source


class KernelMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def has_kernel(self) -> bool:
        return not self.c.prefer and not any(a.step or self.is_compound(a) for a in self.c.actions)

    def packed_names(self) -> list:
        """The names a packed state unpacks to: the fields, `pending` (chance), `terminal`."""
        return self.fields + (["pending"] if self.has_chance else []) + ["terminal"]

    def kernel_functions(self, out: _Source):
        unpack = ", ".join(self.packed_names())
        self.raw = True
        out("# The kernel: plain tuples and raw actions (framework/compiler/kernel.py).")
        out("def k_actions(s):")
        out.indent()
        out(f"{unpack} = s")
        out("if terminal:")
        out("    return ()")
        if self.has_chance:
            out("if pending is not None:")
            out(f"    return [outcome for outcome, _ in _outcomes({self.sig}, pending)]")
        spec = self.c.spec
        self.positions.append(spec.positions.get("terminal") or spec.positions.get("goal") or spec.pos)
        self.legal(out, "list", "acts or ['pass']" if self.c.spec.pass_rule else
                   f"acts or no_actions(POSITIONS[{len(self.positions) - 1}])")
        out.dedent()
        out()
        if self.has_chance:
            self.outcomes_kernel(out, unpack)
        else:
            self.count_function(out, unpack)
        out("def k_apply(s, action):")
        out.indent()
        out(f"{unpack} = s")
        if self.has_chance:
            self.resolve_chance(out, None)
        self.apply_dispatch(out)
        out.dedent()
        out()
        if not self.has_chance:
            self.leaves_function(out, unpack)
        self.children_function(out, unpack)
        self.utility_function(out, kernel=True)
        out("def k_returns(s):")
        out(f"    {unpack} = s")
        out("    if not terminal:")
        out(f"        return {(0,) * self.n}")
        out(f"    return ({''.join(f'_utility({self.sig}, {p}), ' for p in range(self.n))})")
        out()
        self.raw = False
        self.kernel_action(out)

    def count_function(self, out: _Source, unpack: str):
        out("def k_count(s):")
        out.indent()
        out(f"{unpack} = s")
        out("if terminal:")
        out("    return 0")
        self.legal(out, "count", "n or 1" if self.c.spec.pass_rule else "acts")
        out.dedent()
        out()

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

    def children_function(self, out: _Source, unpack: str):
        """k_children(s): [(action, successor)] of a decision node, [(probability,
        successor)] of a chance node, in one call: the apply code inline in a loop over the
        moves (outcomes), each `return X` of it written `children.append((tag, X)); continue`."""
        out("def k_children(s):")
        out.indent()
        out("children = []")
        append = out.lines.append
        if self.has_chance:
            out("if s[-2] is not None:")
            out("    for action, probability in k_outcomes(s):")
            body = _Source()
            body.depth = out.depth + 2
            body(f"{unpack} = s")
            self.resolve_chance(body, None)
            for line in _appending(body.lines, "probability"):
                append(line)
            out("    return children")
        out(f"{unpack} = s")
        out("while True:                  # the moves, as k_actions makes them (s is not terminal)")
        moves = _Source()
        moves.depth = out.depth + 1
        spec = self.c.spec
        self.positions.append(spec.positions.get("terminal") or spec.positions.get("goal") or spec.pos)
        self.legal(moves, "list", "acts or ['pass']" if spec.pass_rule else
                   f"acts or no_actions(POSITIONS[{len(self.positions) - 1}])")
        for line in moves.lines:
            text = line.lstrip()
            if text.startswith("return "):       # the end of move generation (never in a loop)
                pad = line[:len(line) - len(text)]
                out.lines += [f"{pad}acts = {text[7:]}", f"{pad}break"]
            else:
                append(line)
        out("for action in acts:")
        body = _Source()
        body.depth = out.depth + 1
        body(f"{unpack} = s")
        self.apply_dispatch(body)
        for line in _appending(body.lines, "action"):
            append(line)
        out("return children")
        out.dedent()
        out()

    def leaves_function(self, out: _Source, unpack: str):
        """k_leaves(s): the successors' move counts summed in one loop: the apply code with
        `count_after` at its end, each `return X` of it written `total += X; continue`."""
        body = _Source()
        body.depth = 2
        self.leaf_count = True
        self.apply_dispatch(body)
        self.leaf_count = False
        out("def k_leaves(s):")
        out("    total = 0")
        out("    for action in k_actions(s):")
        out(f"        {unpack} = s")
        for line in body.lines:
            text = line.lstrip()
            if text.startswith("return "):
                pad = line[:len(line) - len(text)]
                out.lines += ([] if text == "return 0" else [f"{pad}total += {text[7:]}"]) + [f"{pad}continue"]
            else:
                out.lines.append(line)
        out("    return total")
        out()

    def count_after(self, out: _Source, terminal: str, next_player):
        """The end of k_leaves's apply code: 0 when the successor (its fields in the locals, its
        player in `turn`, a constant `next_player` when known) is terminal, else how many
        moves it has."""
        out(f"if {terminal}:")
        out("    return 0")
        saved, self.mover_const = self.mover_const, next_player
        count = _Source()
        count.depth = out.depth
        self.legal(count, "count", "n or 1" if self.c.spec.pass_rule else "acts")
        self.mover_const = saved
        if "mover" in _IDENT.findall(count.text()):
            out("mover = turn")
        out.lines += count.lines

    def kernel_action(self, out: _Source):
        """k_action(a): the course-interface action of a raw action."""
        out("def k_action(a):")
        out.indent()
        if self.c.spec.pass_rule:
            out("if a == 'pass':")
            out("    return a")
        for ai, a in enumerate(self.c.actions):
            types = [p[2] for p in a.params]
            if self.single:
                values = ["a"] if len(types) == 1 else [f"a[{k}]" for k in range(len(types))]
                code = [self.external(t, v) for t, v in zip(types, values)]
                out(f"return {code[0]}" if len(types) == 1 else f"return ({''.join(x + ', ' for x in code)})")
            elif not types:
                out(f"if a == ACTION_NAMES[{ai}]:")
                out("    return a")
            else:
                code = [self.external(t, f"a[{k + 1}]") for k, t in enumerate(types)]
                out(f"if a[0] == ACTION_NAMES[{ai}]:")
                out(f"    return (a[0], {''.join(x + ', ' for x in code)})")
        if not self.single:
            out("raise KeyError(a)")
        out.dedent()
        out()


def _appending(lines, tag):
    """Apply-code lines with each `return X` written `children.append((tag, X)); continue`."""
    for line in lines:
        text = line.lstrip()
        if text.startswith("return "):
            pad = line[:len(line) - len(text)]
            yield f"{pad}children.append(({tag}, {text[7:]}))"
            yield f"{pad}continue"
        else:
            yield line
