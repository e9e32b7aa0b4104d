"""Effects: an action's assignments, `if` and `for` effects -> statements that build the child
state's fields (bitboard stores, list updates with range checks, turn changes).
"""
from __future__ import annotations

import re

from framework import ast
from framework.errors import SpecError
from framework.compiler.common import _Source, MAX_EFFECT_NESTING, MAX_BLOCK_DEPTH, _operands, may_raise
from framework.compiler.local_lists import constant_index, item_locals, local_list_runs


class EffectsMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    # ------------------------------------------------------------------ effects
    def effects(self, effects, env, out: _Source, known_empty=()):
        """`known_empty`: cells the precondition proved empty; true only until the first
        effect, which may write them (an assignment, or one inside an `if` or `for`)."""
        if out.depth > MAX_BLOCK_DEPTH and effects:
            raise SpecError.at(getattr(effects[0], "pos", None),
                               f"effects nested more than {MAX_EFFECT_NESTING} levels deep",
                               "join the conditions with `and`, or split the action")
        env = dict(env)          # a `let` is in scope to the end of its block
        runs = local_list_runs(effects, [v.name for v in self.c.variables
                                         if v.is_array and v.name not in self.local_lists])
        ends = {}
        for i, e in enumerate(effects):
            for end, name in runs.get(i, ()):
                items = item_locals(self, effects[i:end + 1], name, self.vars[name].size)
                if items:
                    self.item_locals[name] = items
                out(f"{', '.join(items)}, = v_{name}" if items else f"v_{name} = list(v_{name})")
                self.local_lists.add(name)
                ends.setdefault(end, []).append(name)
            if isinstance(e, ast.LetEffect):
                value = self.expr(e.value, env)
                env[e.name] = self.fresh("l")
                out(f"{env[e.name]} = {value}")
                self.local_range(env[e.name], e, effects[i + 1:], env)
            elif isinstance(e, ast.ContinueEffect):
                target = next(i for i, b in enumerate(self.c.actions) if b.name == e.step)
                out(f"_cont = ({target}, ({''.join(self.expr(x, env) + ', ' for x in e.args)}))")
            elif isinstance(e, ast.Assign) and isinstance(e.target, ast.Name) and e.target.id in env:
                local = env[e.target.id]            # a local variable (the checker allows no other)
                value = self.expr(e.value, env)
                out(f"{local} = {value if e.op == '=' else f'{local} {e.op[0]} {value}'}")
            elif isinstance(e, ast.Assign):
                self.assign(e, env, out, known_empty)
            elif isinstance(e, ast.IfEffect):
                out(f"if {self.expr(e.test, env)}:")
                out.indent()
                self.guarded(e.then, e.test, env, out) if e.then else out("pass")
                out.dedent()
                if e.else_:
                    out("else:")
                    out.indent()
                    self.guarded(e.else_, ast.Unary("not", e.test), env, out)
                    out.dedent()
            elif isinstance(e, ast.ForEffect):
                done = self.loop_table(e, env, out)      # its outcome from a table (loop_tables.py)
                if done:
                    out(f"if not {done}:")
                    out.indent()
                var = self.fresh("q")
                cells = self.where_cells(e, env)
                if cells is not None:                   # for c in cell do if P(c) and R then ...
                    out(f"for {var} in bits({' & '.join(cells[0])}):")
                    e = ast.ForEffect(e.var, e.domain, (ast.IfEffect(cells[1], e.body[0].then),) if cells[1] else
                                      e.body[0].then, e.pos)
                else:
                    out(f"for {var} in {self.domain(e.domain, env)}:")
                if isinstance(e.domain, ast.Range):     # the loop's variable stays in its range
                    lo, hi = self.interval(e.domain.lo, env), self.interval(e.domain.hi, env)
                    if lo is not None and hi is not None:
                        self.local_ranges[var] = (lo[0], hi[1])
                inner = dict(env)
                inner[e.var] = var
                out.indent()
                self.effects(e.body, inner, out)
                out.dedent()
                if done:
                    out.dedent()
            known_empty = ()
            for name in ends.get(i, ()):
                items = self.item_locals.pop(name, None)
                out(f"v_{name} = ({', '.join(items)},)" if items else f"v_{name} = tuple(v_{name})")
                self.local_lists.discard(name)

    def guarded(self, block, test, env, out):
        """The effects of a branch, knowing `test` held (int_ranges.py `_compared`: an index
        it bounds needs no run-time test) when the branch assigns no name the test reads."""
        mark = len(self.and_facts)
        if not _names(test) & _assigned(block):
            self.and_facts.append((test, env))
        try:
            self.effects(block, env, out)
        finally:
            del self.and_facts[mark:]

    def where_cells(self, e, env):
        """For `for c in cell do if A and B and R then ...` (no `else`) whose leading parts A, B
        are masks of where c lies (masks.py: a test of c's row, column or relation to another
        cell; no state read, so the effects cannot change them): ([FULL, masks], R or None),
        to loop over those cells only, in the same order (bits, like ALL_CELLS, ascending);
        R is tested on them as the `and` would.  Else None."""
        if not (isinstance(e.domain, ast.Name) and e.domain.id == "cell" and e.domain.id not in env
                and self.c.spec.board is not None and len(e.body) == 1 and isinstance(e.body[0], ast.IfEffect)
                and not e.body[0].else_):
            return None
        parts, masks, saved = self.joined_parts(_operands("and", e.body[0].test), e.var, env), [], self.walrus_ok
        self.walrus_ok = False
        try:
            for part in parts:
                mask = self.mask_of(part, e.var, env)
                if mask is None or re.search(r"\b(?:[bv]_\w|_l\d)", mask):     # (a state or local it writes)
                    break
                masks.append(mask)
        finally:
            self.walrus_ok = saved
        if not masks:
            return None
        test = None
        for part in reversed(parts[len(masks):]):
            test = part if test is None else ast.Binary("and", part, test)
        return ["FULL"] + masks, test

    def assign(self, e, env, out, known_empty):
        t = e.target
        if isinstance(t, ast.Name) and self.kinds.get(id(t), (None,))[0] == "turn":
            out(f"turn = {self.expr(e.value, env)}")
            self.written.add("mover")
            return
        early = None            # a value that may fail is computed first, as the interpreter does
        if isinstance(t, ast.Index) and may_raise(e.value, self.types) and self.const_value(e.value) is None:
            early = self.fresh("v")
        if isinstance(t, ast.Index) and isinstance(t.base, ast.Name) and t.base.id == "board":
            if early:
                out(f"{early} = {self.value(e.value, env)}")
            index_type = self.types.get(id(t.index))
            idx = self.expr(t.index, env)
            if index_type == "cell" and self.cell_guarded(t.index) and t.index not in known_empty:
                cell = self.fresh("c")             # a cell that may be `none`: an error to write
                out(f"{cell} = {idx}")
                out(f"if {cell} < 0: off_board(POSITIONS[{self.position(t)}])")
                idx = cell
            bit = "1 << " + idx if index_type == "cell" else idx
            const = self.const_value(e.value)
            was_empty = index_type == "cell" and (t.index in known_empty or (
                isinstance(t.index, ast.Call) and t.index.func == "drop"))
            if const is not None and was_empty:
                # an empty cell gets one value: only that value's bitboard changes
                if const != self.c.default_value:
                    out(f"b_{self.c.values[const]} |= {bit}")
                    self.written.add(f"b_{self.c.values[const]}")
                return
            self.written.update(f"b_{self.c.values[i]}" for i in self.boards)
            mask = self.fresh("m")
            out(f"{mask} = {bit}")
            if const is not None:
                for i in self.boards:
                    out(f"b_{self.c.values[i]} {'|= ' if i == const else '&= ~'}{mask}")
                return
            val = early or self.fresh("v")
            out(f"{val} = {self.value(e.value, env)}") if not early else None
            for i in self.boards:
                bb = f"b_{self.c.values[i]}"
                if was_empty:
                    out(f"if {val} == {i}: {bb} |= {mask}")
                else:
                    out(f"{bb} = {bb} | {mask} if {val} == {i} else {bb} & ~{mask}")
            return
        name = t.id if isinstance(t, ast.Name) else t.base.id
        var = self.vars[name]
        self.written.add(f"v_{name}")
        value = self.expr(e.value, env)
        if early:
            out(f"{early} = {value}")
            value = early
        if isinstance(t, ast.Name):
            new = {"=": value, "+=": f"v_{name} + {value}", "-=": f"v_{name} - {value}"}[e.op]
            out(f"v_{name} = {new}")
            target = f"v_{name}"
        elif name in self.item_locals:                  # one local per item (local_lists.py)
            target = self.item_locals[name][constant_index(self, t.index)]
            out(f"{target} = {value if e.op == '=' else f'{target} {e.op[0]} {value}'}")
        else:
            idx = self.expr(t.index, env)
            safe = self.index_safe(t, env)
            if not (idx.isdigit() and int(idx) < var.size <= 8) and not (safe and idx.isidentifier()):
                slot = self.fresh("i")              # (a local or a parameter in range is used as it is)
                out(f"{slot} = {idx}")
                if not safe:
                    out(f"if not 0 <= {slot} < {var.size}: bad_index(v_{name}, {slot}, {name!r}, "
                        f"POSITIONS[{self.position(t)}])")
                idx = slot
            new = {"=": value, "+=": f"v_{name}[{idx}] + {value}", "-=": f"v_{name}[{idx}] - {value}"}[e.op]
            if name in self.local_lists:            # a list while this run of effects lasts
                out(f"v_{name}[{idx}] = {new}")
            elif idx.isdigit():
                items = [new if j == int(idx) else f"v_{name}[{j}]" for j in range(var.size)]
                out(f"v_{name} = ({', '.join(items)},)")
            else:
                out(f"v_{name} = set_item(v_{name}, {idx}, {new})")
            target = f"v_{name}[{idx}]"
        if var.type == "int" and not (isinstance(e.value, ast.Num) and e.op == "="):
            v = self.interval(e.value, env)         # the value's range, when known: only the ends it may pass
            v = v and {"=": v, "+=": (var.lo + v[0], var.hi + v[1]), "-=": (var.lo - v[1], var.hi - v[0])}[e.op]
            test = f"{var.lo} <= {target} <= {var.hi}" if not v or (v[0] < var.lo and v[1] > var.hi) else \
                f"{target} <= {var.hi}" if v[0] >= var.lo else f"{var.lo} <= {target}"
            if not v or v[0] < var.lo or v[1] > var.hi:
                out(f"if not {test}: out_of_range(NAMES[{len(self.names)}], {target}, {var.lo}, {var.hi})")
                self.names.append(name)


def _names(node) -> set:
    """The names an expression reads."""
    found, stack = set(), [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name):
            found.add(n.id)
        elif hasattr(n, "__dataclass_fields__"):
            for f in n.__dataclass_fields__:
                v = getattr(n, f)
                stack.extend(v if isinstance(v, (list, tuple)) else (v,))
    return found


def _assigned(effects) -> set:
    """The names a block of effects assigns (`x = ...`, `x += ...`, at any depth)."""
    found = set()
    for e in effects:
        if isinstance(e, ast.Assign) and isinstance(e.target, ast.Name):
            found.add(e.target.id)
        elif isinstance(e, ast.IfEffect):
            found |= _assigned(e.then) | _assigned(e.else_)
        elif isinstance(e, ast.ForEffect):
            found |= _assigned(e.body)
    return found
