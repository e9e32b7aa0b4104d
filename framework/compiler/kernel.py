"""The function-level kernel written under the State class: the same legal-move and effect
code over plain tuples and raw parameter values, for the searchers' inner loops.

The packed state is the plain tuple of the State's fields (`tuple(state)`; its hash is the
state's hash, and `_new(State, packed)` is the course-interface view of it).  A raw action
names a cell parameter by its bit index and an enum by its index (ints as they are), so
that applying it decodes nothing.  Written for games without chance and compound moves:

    k_actions(s)  the raw actions, in the order of State.actions()
    k_count(s)    how many there are (a bit count where move generation is a mask)
    k_apply(s, a) the successor, a plain tuple (the parent is not terminal)
    k_leaves(s)   the sum of k_count(k_apply(s, a)) over the moves a of s, in one loop that
                  builds no successor (perft's last ply)
    k_utility(s, me), k_returns(s)  player me's utility, every player's (0 until terminal)
    k_action(a)   the course-interface action of raw action a
"""
from __future__ import annotations

from framework.compiler.common import _IDENT, _Source


class KernelMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def has_kernel(self) -> bool:
        return not self.has_chance and not self.c.prefer and \
            not any(a.step or self.is_compound(a) for a in self.c.actions)

    def kernel_functions(self, out: _Source):
        unpack = ", ".join(self.fields + ["terminal"])
        self.raw = True
        out("# The kernel: plain tuples and raw actions (framework/compiler/kernel.py).")
        out("def k_actions(s):")
        out.indent()
        out(f"{unpack} = s")
        out("if terminal:")
        out("    return ()")
        spec = self.c.spec
        self.positions.append(spec.positions.get("terminal") or spec.positions.get("goal") or spec.pos)
        self.legal(out, "list", "acts or ['pass']" if self.c.spec.pass_rule else
                   f"acts or no_actions(POSITIONS[{len(self.positions) - 1}])")
        out.dedent()
        out()
        out("def k_count(s):")
        out.indent()
        out(f"{unpack} = s")
        out("if terminal:")
        out("    return 0")
        self.legal(out, "count", "n or 1" if self.c.spec.pass_rule else "acts")
        out.dedent()
        out()
        out("def k_apply(s, action):")
        out.indent()
        out(f"{unpack} = s")
        self.apply_dispatch(out)
        out.dedent()
        out()
        self.leaves_function(out, unpack)
        self.utility_function(out, kernel=True)
        out("def k_returns(s):")
        out(f"    {unpack} = s")
        out("    if not terminal:")
        out(f"        return {(0,) * self.n}")
        out(f"    return ({''.join(f'_utility({self.sig}, {p}), ' for p in range(self.n))})")
        out()
        self.raw = False
        self.kernel_action(out)

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
