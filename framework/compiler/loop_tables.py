"""Loops whose course reads no state, as tables.  A `for` effect over a range whose ends,
tests and local assignments read only locals and constants, and whose other effects add
a constant to an int state variable or to an item of an int list at an index made of the
same (a sowing loop: `for k in 1..hand do { pos = (pos + 1) % 12; if pos == start then
pos = (pos + 1) % 12; pits[pos] += 1 }`), does one thing for given values of the locals
it reads, whatever the state: the locals it assigns end with the same values, and it adds
to the same items the same number of times.  That outcome is computed once per key (the
locals' values) by a module function `_lt<k>` that runs the loop's own code on the locals
alone, recording its additions (the item's index per addition, or a count for a constant
index or a plain variable), kept in the table `_LT<k>` (runtime.loop_outcome, at most
runtime.LOOP_KEYS keys), and applied as a few additions where the loop was.

The meaning is the loop's, errors included:
- `_lt<k>` tests each recorded index against the list's size; an index off the list, any
  error its expressions raise (they are the loop's own, written the same way), or more than
  MAX_WRITES recorded indexes make the outcome `False`, and the loop itself then runs;
- every addition to one variable has one sign, so an item's value moves one way during the
  loop and leaves its declared range exactly when its final value is out of it: the fast
  path adds, tests the final values, and on a failure takes the additions back and lets
  the loop itself run (the same error, item, value and position as without the table);
- the loop's code stays after the fast path, skipped when the table did the work
  (`for k in (() if _t else range(...))`, at the same depth of blocks).
"""
from __future__ import annotations

import re

from framework import ast
from framework.compiler.common import MAX_BLOCK_DEPTH, _Source, _static_int
from framework.compiler.local_lists import constant_index

MAX_WRITES = 256            # indexes recorded per key: longer loops run as loops
MAX_CELLS = 16384           # a table over keys of known ranges is nested lists up to this size, else a dict
_PLAIN_KINDS = ("bool", "none", "player", "value", "enum")
_PURE_CALLS = ("next", "prev", "opponent", "abs")      # builtins of their arguments alone
_FRESH = re.compile(r"\b_[a-z]+\d+\b")
_NUMBER = re.compile(r"\(?-?\d+\)?")


class LoopTablesMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def loop_table(self, loop, env, out: _Source):
        """Write the table's fast path for the `for` effect `loop` when it qualifies, and
        return the local that is true when the table did the loop's work; else None."""
        form = _Form(self, env)
        if not form.block((loop,), frozenset()) or not form.slots or out.depth + form.depth + 2 > MAX_BLOCK_DEPTH:
            return None
        keys = list(dict.fromkeys(form.keys))
        assigned = list(dict.fromkeys(form.assigned))
        slots = list(form.slots.items())             # ((name, constant index or None), delta)
        ranges = [form.ranges.get(k) for k in keys]
        cells = 1
        for r in ranges:
            cells *= (r[1] - r[0] + 1) if r else MAX_CELLS + 1
        lows = [r[0] for r in ranges] if cells <= MAX_CELLS else None
        table, run = self._outcome_function(loop, env, keys, assigned, slots, ranges if lows else None)
        t, bad = self.fresh("t"), self.fresh("bad")
        key = f"({', '.join(keys)},)" if keys else "()"     # no key: the loop's outcome is one constant
        if lows:
            out(f"{t} = {table}{''.join(f'[{k}]' if lo == 0 else f'[{k} - {lo}]' for k, lo in zip(keys, lows))}")
        else:
            out(f"{t} = {table}.get({key})")
        out(f"if {t} is None:")
        out(f"    {t} = loop_outcome({table}, {key}, {run}{f', {tuple(lows)}' if lows else ''})")
        out(f"if {t}:")
        out.indent()
        new = [self.fresh("o") for _ in assigned]
        got = [self.fresh("w") for _ in slots]
        out(f"{', '.join(new + got)}, = {t}")
        out(f"{bad} = False")
        undo = []
        for w, ((name, index), delta) in zip(got, slots):
            var = self.vars[name]
            test = f"> {var.hi}" if delta > 0 else f"< {var.lo}"
            finite = abs(var.hi if delta > 0 else var.lo) != float("inf")
            if index is None and var.is_array:
                j, x = self.fresh("j"), self.fresh("x")
                out(f"for {j} in {w}:")
                out(f"    {x} = v_{name}[{j}] + {delta}")
                out(f"    v_{name}[{j}] = {x}")
                out(f"    if {x} {test}: {bad} = True") if finite else None
                undo.append(f"for {j} in {w}: v_{name}[{j}] -= {delta}")
            else:
                target = self.item_locals[name][index] if name in self.item_locals else \
                    f"v_{name}[{index}]" if var.is_array else f"v_{name}"
                times = "" if delta == 1 else f" * {delta}"
                out(f"if {w}:")
                out(f"    {target} = {target} + {w}{times}")
                out(f"    if {target} {test}: {bad} = True") if finite else None
                undo.append(f"{target} = {target} - {w}{times}")
            self.written.add(f"v_{name}")
        out(f"if {bad}:")                           # taken back: the loop runs and raises
        for line in undo + [f"{t} = False"]:
            out(f"    {line}")
        if assigned:
            out("else:")
            out(f"    {', '.join(assigned)} = {', '.join(new)}")
        out.dedent()
        return t

    def _outcome_function(self, loop, env, keys, assigned, slots, ranges):
        """(table, function) for the loop: the function runs the loop on the locals alone and
        returns (assigned locals' values..., each slot's indexes or count), or False."""
        body = _Source()
        body.depth = 1
        names = {}
        for i, (slot, _) in enumerate(slots):
            names[slot] = f"_w{i}"
            body(f"_w{i} = {'[]' if slot[1] is None and self.vars[slot[0]].is_array else '0'}")
        self._outcome_block((loop,), env, body, names)
        outs = assigned + [f"tuple({names[s]})" if s[1] is None and self.vars[s[0]].is_array else names[s]
                           for s, _ in slots]
        body(f"return ({', '.join(outs)},)")
        source = f"def RUN({', '.join(keys)}):\n" + body.text()
        fresh = {}
        source = _FRESH.sub(lambda m: fresh.setdefault(m.group(), f"_s{len(fresh)}"), source)
        key = ("loop table", source, tuple(ranges or ()))
        if key not in self.relations:
            table = self.relations[key] = f"_LT{len(self.relations)}"
            run = "_lt" + table[3:]
            empty = f"loop_table({[hi - lo + 1 for lo, hi in ranges]})" if ranges else "{}"
            self.helpers[table] = f"# {table}: the outcomes of a loop that reads no state, per " \
                                  f"{'value in ' + str(ranges) if ranges else 'key'} (loop_tables.py)\n" \
                                  f"{table} = {empty}\n" + source.replace("def RUN(", f"def {run}(", 1)
        table = self.relations[key]
        return table, "_lt" + table[3:]

    def _outcome_block(self, effects, env, out, names):
        for e in effects:
            if isinstance(e, ast.IfEffect):
                out(f"if {self.expr(e.test, env)}:")
                out.indent()
                self._outcome_block(e.then, env, out, names) if e.then else out("pass")
                out.dedent()
                if e.else_:
                    out("else:")
                    out.indent()
                    self._outcome_block(e.else_, env, out, names)
                    out.dedent()
            elif isinstance(e, ast.ForEffect):
                var = self.fresh("q")
                out(f"for {var} in {self.domain(e.domain, env)}:")
                out.indent()
                self._outcome_block(e.body, {**env, e.var: var}, out, names)
                out.dedent()
            elif isinstance(e.target, ast.Name) and e.target.id in env:
                local, value = env[e.target.id], self.expr(e.value, env)
                out(f"{local} = {value if e.op == '=' else f'{local} {e.op[0]} {value}'}")
            else:
                name = e.target.id if isinstance(e.target, ast.Name) else e.target.base.id
                var = self.vars[name]
                if isinstance(e.target, ast.Index) and _const_index(self, e.target) is None:
                    w, i = names[(name, None)], self.fresh("i")
                    out(f"{i} = {self.expr(e.target.index, env)}")
                    out(f"if not 0 <= {i} < {var.size} or len({w}) == {MAX_WRITES}: return False")
                    out(f"{w}.append({i})")
                else:
                    out(f"{names[(name, _const_index(self, e.target))]} += 1")


def _const_index(compiler, target):
    """The constant index of an item write, else None (also for a plain variable)."""
    return constant_index(compiler, target.index) if isinstance(target, ast.Index) else None


class _Form:
    """Whether a block of effects is a loop body the table can replace: `block` answers and
    gathers the locals read (keys), the locals assigned and the additions (slots)."""

    def __init__(self, compiler, env):
        self.c, self.env = compiler, env
        self.keys, self.assigned, self.slots, self.signs = [], [], {}, {}
        self.depth = 0              # the blocks nested in the loop (the loop's code goes one deeper)
        self.ranges = {}            # a key's code -> (lo, hi) proved for it at the loop, or None

    def pure(self, node, bound) -> bool:
        """Whether `node` reads only locals, loop variables and constants."""
        if isinstance(node, ast.Num):
            return True
        if isinstance(node, ast.Name):
            kind = self.c.kinds.get(id(node), (None,))[0]
            if node.id in bound:
                return True
            if node.id in self.env:
                code = self.env[node.id]
                if _NUMBER.fullmatch(code):          # a parameter's value written out
                    return True
                self.keys.append(code)
                self.ranges.setdefault(code, self.range_of(node))
                return code.isidentifier()
            if kind == "mover" and self.c.mover_const is None:
                self.keys.append(self.c.mover_code)
                self.ranges[self.c.mover_code] = (0, self.c.n - 1)
                return True
            return kind in _PLAIN_KINDS or kind == "mover"
        if isinstance(node, ast.Unary):
            return self.pure(node.operand, bound)
        if isinstance(node, ast.Binary):
            return node.op not in ("in", "notin") and self.pure(node.left, bound) and self.pure(node.right, bound)
        if isinstance(node, ast.Cond):
            return self.pure(node.test, bound) and self.pure(node.then, bound) and self.pure(node.else_, bound)
        if isinstance(node, ast.Call) and node.func in _PURE_CALLS:
            return all(self.pure(a, bound) for a in node.args)
        return False

    def range_of(self, node):
        """(lo, hi) of a local read by the loop (its range proved for the whole block, so
        at the loop's start too: int_ranges.py), (0, 1) for a bool, else None."""
        kind = self.c.types.get(id(node))
        return (0, 1) if kind == "bool" else self.c.interval(node, self.env) if kind == "int" else None

    def block(self, effects, bound, depth=1) -> bool:
        self.depth = max(self.depth, depth)
        for e in effects:
            if isinstance(e, ast.IfEffect):
                if not (self.pure(e.test, bound) and self.block(e.then, bound, depth + 1)
                        and self.block(e.else_, bound, depth + 1)):
                    return False
            elif isinstance(e, ast.ForEffect):
                d = e.domain
                if not (isinstance(d, ast.Range) and self.pure(d.lo, bound) and self.pure(d.hi, bound)
                        and self.block(e.body, bound | {e.var}, depth + 1)):
                    return False
            elif not (isinstance(e, ast.Assign) and self.assign(e, bound)):
                return False
        return True

    def assign(self, e, bound) -> bool:
        t, c = e.target, self.c
        if isinstance(t, ast.Name) and t.id in self.env and t.id not in bound:
            if c.kinds.get(id(t), (None,))[0] == "turn" or not self.pure(e.value, bound):
                return False
            self.assigned.append(self.env[t.id])
            self.keys.append(self.env[t.id])
            self.ranges.setdefault(self.env[t.id], self.range_of(t))
            return self.env[t.id].isidentifier()
        base = t if isinstance(t, ast.Name) else t.base if isinstance(t, ast.Index) else None
        if not isinstance(base, ast.Name) or c.kinds.get(id(base), (None,))[0] != "var":
            return False
        var = c.vars.get(base.id)
        if var is None or var.type != "int" or var.is_array != isinstance(t, ast.Index):
            return False
        delta = _delta(e)
        if not delta or self.signs.setdefault(base.id, delta > 0) != (delta > 0):
            return False
        index = None
        if var.is_array:
            if base.id not in c.local_lists or not self.pure(t.index, bound):
                return False
            index = _const_index(c, t)
            if index is not None and not 0 <= index < var.size:
                return False
        return self.slots.setdefault((base.id, index), delta) == delta


def _delta(e):
    """The constant an assignment adds (`x += 2`, `x -= 1`, `x = x + 1`), else None."""
    if e.op in ("+=", "-="):
        value = _static_int(e.value)
        return None if value is None else value if e.op == "+=" else -value
    v = e.value
    if isinstance(v, ast.Binary) and v.op in ("+", "-") and v.left == e.target:
        value = _static_int(v.right)
        return None if value is None else value if v.op == "+" else -value
    return None
