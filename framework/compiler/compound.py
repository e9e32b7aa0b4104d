"""Compound moves: an action whose effects may `continue` with a step is one move of
several steps.  For each such schema (and each step) two functions are emitted:

    _walk<i>(fields, params) -> ((later values, steps), ...)
        every way the move goes on after step i with these arguments: the effects run on
        local copies of the fields; a `continue` reached leads to each legal choice of the
        step's remaining parameters (recursively); no legal choice ends the move there.
    _follow<i>(fields, params, rest, turn) -> (fields without mover, turn)
        the position after step i and the later steps whose chosen values are `rest`.

and once per schema the count walk, for counting moves without building them (k_count,
k_leaves, `moves()`):

    _walkn<i>(fields, params) -> how many ways the move goes on after step i, or under
        `prefer: longest` (the most steps, how many ways have that many, how many in all),
        so that the preference is applied while counting.

A compound move's steps keep the player to move, so in a game of 2 to
MAX_SPECIALISED_PLAYERS players each of these functions is written once per player with
`mover` a constant (`_walk<i>_m<p>`, as per_mover does for the first step: the player's own
values are named directly); code written for one mover calls that player's version, other
code the unsuffixed function, which calls the version of its `mover` argument.

Legal-move generation (framework.compiler.legal) appends each walk's values to the first
step's; State.result decodes the first step's values and follows the rest.

The kernel (framework.compiler.kernel) makes a compound move one raw action: the first
step's raw values and then the later steps' values.  When those later values are all of
one type whose raw form differs (cells: bit indices; enums: their index), the walk and
follow functions are written a second time over raw values (`_walk_raw<i>`,
`_follow_raw<i>`); otherwise the kernel's later values are the course interface's and it
calls the same functions.
"""
from __future__ import annotations

import re

from framework import ast
from framework.checker import continues
from framework.compiler.common import (MAX_SPECIALISED_PLAYERS, UNSET_TURN, _Source, _operands,
                                       loop_depths, may_raise)
from framework.runtime import MAX_MOVE_STEPS


class CompoundMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def is_compound(self, a) -> bool:
        """Whether `a` makes or continues a compound move: a step, an action whose effects
        may `continue`, or an action some `continue` names (its walk is called from there,
        even when it has no effects of its own)."""
        return a.step or continues(a.effects) or any(e.step == a.name for b in self.c.actions
                                                      for e in _continue_effects(b.effects))

    def compound_functions(self, out: _Source):
        for raw in (False, True) if self.raw_tail_type() else (False,):
            self.raw = raw
            for ai, a in enumerate(self.c.actions):
                if a.chance is None and self.is_compound(a):
                    self.per_player_function(out, lambda o: self.walk_function(o, ai, a))
                    self.per_player_function(out, lambda o: self.follow_function(o, ai, a))
                    if not raw:
                        self.per_player_function(out, lambda o: self.walk_function(o, ai, a, counted=True))
        self.raw = False

    def mover_walks(self) -> bool:
        """Whether the compound functions are written once per player (module docstring)."""
        return 2 <= self.n <= MAX_SPECIALISED_PLAYERS

    def walk_name(self, base: str) -> str:
        """The function `base` (a walk or follow) as the code being written calls it: its
        version for the player to move when that player is a constant."""
        return f"{base}_m{self.mover_const}" if self.mover_walks() and self.mover_const is not None else base

    def per_player_function(self, out: _Source, write):
        """write(out) (a `def` of a walk or follow function) once per player with `mover`
        a constant, then the unsuffixed function calling the version of its `mover`."""
        if not self.mover_walks():
            write(out)
            return
        saved = self.mover_const
        for i in range(self.n):
            self.mover_const = i
            start = len(out.lines)
            write(out)
        self.mover_const = saved
        header = out.lines[start].strip()                 # def NAME_m<n-1>(ARGS):
        name, args = re.match(r"def (\w+)_m\d+\((.*)\):$", header).groups()
        versions = ", ".join(f"{name}_m{i}" for i in range(self.n))
        out(f"def {name}({args}):")
        out(f"    return ({versions})[mover]({args})")
        out()

    def tail_types(self) -> set:
        """The types of the values a compound move's later steps choose."""
        return {t for a in self.c.actions for bi, nfixed in self._targets(a)
                for _, _, t in self.c.actions[bi].params[nfixed:]}

    def raw_tail_type(self):
        """The one type of every later step's value when the kernel writes those values
        raw (a cell or an enum), else None (the kernel's later values are the course's)."""
        types = self.tail_types()
        kind = next(iter(types)) if len(types) == 1 else None
        return kind if kind == "cell" or (kind or "").startswith("enum:") else None

    def compound_name(self, kind: str, ai: int) -> str:
        """`_walk<i>` / `_follow<i>`, or their raw versions while writing the kernel."""
        return self.walk_name(f"_{kind}_raw{ai}" if self.raw and self.raw_tail_type() else f"_{kind}{ai}")

    def raw_tail(self, values: str) -> str:
        """The course-interface values of the raw later-step values `values` (a tuple)."""
        kind = self.raw_tail_type()
        if kind is None:
            return values
        raw, self.raw = self.raw, False
        code = self.external(kind, "v")
        self.raw = raw
        return f"tuple([{code} for v in {values}])"

    def _targets(self, a) -> list:
        """(schema index, number of fixed arguments) of each `continue` in `a`'s effects."""
        found = [(next(i for i, b in enumerate(self.c.actions) if b.name == e.step), len(e.args))
                 for e in _continue_effects(a.effects)]
        return list(dict.fromkeys(found))

    def _step_head(self, out: _Source, ai, a):
        """The effects of step `a` on local copies of the fields; `_cont` is the `continue`."""
        self.note_param_ranges(a)
        self.written = {"mover"}
        out("_cont = None")
        out(f"turn = {UNSET_TURN}")
        self.effects(a.effects, {p[0]: f"p_{p[0]}" for p in a.params}, out)

    def _bind_fixed(self, out: _Source, b, nfixed):
        """Bind a step's fixed parameters from `_cont` (their values need not lie in the
        declared domain, so no range facts are assumed for them)."""
        self.note_param_ranges(b)
        for name, _, _ in b.params[:nfixed]:
            self.param_ranges.pop(name, None)
        if nfixed:
            out(f"{''.join(f'p_{p[0]}, ' for p in b.params[:nfixed])}= _cont[1]")

    def count_walk(self, ai: int, args: list) -> str:
        """The call of `_walkn<ai>` (see walk_function) with the first step's arguments."""
        return f"{self.walk_name(f'_walkn{ai}')}({', '.join([self.sig] + args + ['1'])})"

    def tally(self, out: _Source, call: str, total: str):
        """Under `prefer: longest`: the count walk `call`'s ways added to `total`, and to
        (`_best`, `_nbest`), the most steps met and how many ways have them."""
        out(f"_steps, _ways, _all = {call}")
        out(f"{total} += _all")
        out("if _steps >= _best:")
        out("    _nbest = _ways if _steps > _best else _nbest + _ways")
        out("    _best = _steps")

    def walk_function(self, out: _Source, ai, a, counted: bool = False):
        """`_walk<i>` (or `_walk_raw<i>`); with `counted`, `_walkn<i>`: the same walk
        that builds no move, returning how many ways the move goes on (or under `prefer:
        longest`, (the most steps, how many ways have that many, how many ways in all))."""
        params = [f"p_{p[0]}" for p in a.params]
        self.helpers.setdefault("ONE_STEP", "ONE_STEP = (((), 1),)   # a move that ends after this step\n")
        name = self.walk_name(f"_walkn{ai}") if counted else self.compound_name('walk', ai)
        longest = counted and self.c.prefer == "longest"
        one = "(1, 1, 1)" if longest else "1" if counted else "ONE_STEP"
        out(f"def {name}({', '.join([self.sig] + params + ['_depth'])}):")
        out.indent()
        out(f"if _depth > {MAX_MOVE_STEPS}:")
        out(f"    endless_move(POSITIONS[{self.position(a)}])")
        self._step_head(out, ai, a)
        targets = self._targets(a)
        if targets:
            out("if _cont is None:")
            out(f"    return {one}")
            out("_best = _nbest = _total = 0" if longest else "_total = 0" if counted else "out = []")
        base = out.depth
        for bi, nfixed in targets:
            b = self.c.actions[bi]
            out(f"if _cont[0] == {bi} and len(_cont[1]) == {nfixed}:")
            out.indent()
            self._bind_fixed(out, b, nfixed)
            env = {p[0]: f"p_{p[0]}" for p in b.params[:nfixed]}
            self._choice_loops(out, b, nfixed, env)
            args = ', '.join([self.sig] + [env[p[0]] for p in b.params] + ['_depth + 1'])
            if longest:
                self.tally(out, f"{self.walk_name(f'_walkn{bi}')}({args})", "_total")
            elif counted:
                out(f"_total += {self.walk_name(f'_walkn{bi}')}({args})")
            else:
                chosen = "".join(self.external(t, f"p_{n}") + ", " for n, _, t in b.params[nfixed:])
                out(f"for _tail, _n in {self.compound_name('walk', bi)}({args}):")
                out(f"    out.append((({chosen}) + _tail, _n + 1))")
            out.depth = base
        if not targets:
            out(f"return {one}")
        elif longest:
            out(f"return (_best + 1, _nbest, _total) if _total else {one}")
        else:
            out(f"return _total or 1" if counted else "return out or ONE_STEP")
        out.dedent()
        out()

    def _choice_loops(self, out: _Source, b, nfixed, env):
        """Loops over the chosen parameters of step `b`, each condition of its `if` at the
        shallowest loop it depends on, cell parameters drawn from masks (as for actions)."""
        conds = _operands("and", b.precondition)
        chosen = [p[0] for p in b.params[nfixed:]]
        raising = {c for c in conds if may_raise(c, self.types, frozenset(p[0] for p in b.params))}
        depths = loop_depths(conds, chosen, raising.__contains__)
        for cond, depth in zip(conds, depths):
            if depth == 0:
                out(f"if {self.expr(cond, env)}:")
                out.indent()
        for k, (name, domain, ptype) in enumerate(b.params[nfixed:]):
            header, rest = self.loop_at(k, name, domain, ptype, conds, depths, raising, env)
            env[name] = f"p_{name}"
            out(header[0])
            out.indent()
            for cond in rest:
                out(f"if {self.expr(cond, env)}:")
                out.indent()

    def follow_function(self, out: _Source, ai, a):
        params = [f"p_{p[0]}" for p in a.params]
        out(f"def {self.compound_name('follow', ai)}({', '.join([self.sig] + params + ['_rest', '_turn'])}):")
        out.indent()
        self._step_head(out, ai, a)
        out(f"if turn == {UNSET_TURN}:")
        out("    turn = _turn")
        base = out.depth
        for bi, nfixed in self._targets(a):
            b = self.c.actions[bi]
            chosen = b.params[nfixed:]
            out(f"if _cont is not None and _cont[0] == {bi} and len(_cont[1]) == {nfixed} "
                f"and len(_rest) >= {len(chosen)}:")
            out.indent()
            self._bind_fixed(out, b, nfixed)
            for k, (name, _, t) in enumerate(chosen):
                out(f"p_{name} = {self.decode(t, f'_rest[{k}]')}")
            args = [f"p_{p[0]}" for p in b.params]
            if b.precondition is not None:
                out(f"if {self.expr(b.precondition, {p[0]: f'p_{p[0]}' for p in b.params})}:")
                out.indent()
            out(f"return {self.compound_name('follow', bi)}({', '.join([self.sig] + args + [f'_rest[{len(chosen)}:]', 'turn'])})")
            out.depth = base
        out(f"return ({''.join(f + ', ' for f in self.fields[:-1])}turn,)")
        out.dedent()
        out()

    def apply_compound(self, out: _Source, ai, a, env, rest: str):
        """State.result for the compound action `ai` whose first step's arguments are in
        `env` and whose later values are `rest`."""
        fields = self.fields[:-1]
        args = [env[p[0]] for p in a.params]
        out(f"{''.join(f + ', ' for f in fields)}turn, = {self.compound_name('follow', ai)}({', '.join([self.sig] + args + [rest, str(UNSET_TURN)])})")
        if self.c.turn is not None:
            rule = self.expr(self.c.turn, {})
        else:
            rule = f"(mover + 1) % {self.n}" if self.n > 1 else "0"
        out(f"if turn == {UNSET_TURN}:")
        out(f"    turn = {rule}")
        if self.leaf_count:                    # k_leaves: the successor's moves counted, not built
            self.count_after(out, f"_terminal({self.sig_with_mover('turn')})", None)
            return
        out(f"return {self.make_call(self.sig_with_mover('turn'))}")


def _continue_effects(effects):
    for e in effects:
        if isinstance(e, ast.ContinueEffect):
            yield e
        elif isinstance(e, ast.IfEffect):
            yield from _continue_effects(e.then)
            yield from _continue_effects(e.else_)
        elif isinstance(e, ast.ForEffect):
            yield from _continue_effects(e.body)
