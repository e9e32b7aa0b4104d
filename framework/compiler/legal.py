"""Legal-move generation: action schemas -> loops over parameter domains, cell masks from
preconditions (iterating set bits, tables indexed by a mask), and action encoding/decoding.
"""
from __future__ import annotations

import re

from framework import ast
from framework.builtins.rays import shifts
from framework.compiler.common import TABLE_BITS, CHUNK_BITS, WORD_CHUNKS, _Source, _operands, _is_name, _names, loop_depths, may_raise
from framework.compiler.param_loops import MAX_UNROLLED


class LegalMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    # ------------------------------------------------------------------ actions
    def legal(self, out: _Source, mode: str, ret: str = "acts"):
        """Statements that return the mover's legal actions (mode "list", returning `ret`),
        whether there is one ("any") or how many ("count").  Conditions sit at the
        shallowest loop they depend on, cell parameters are drawn from bit masks, and a
        last parameter with no further condition takes all its values at once."""
        self.per_mover(out, lambda o: self.legal_schemas(o, mode, ret))

    def legal_schemas(self, out: _Source, mode, ret, only=None):
        """legal()'s statements for the player to move (every action, or action `only`)."""
        started = mode == "any"
        longest = self.c.prefer == "longest" and mode == "list"
        tally = self.c.prefer == "longest" and mode == "count"      # count walks: (most steps, how many, all)
        if longest:
            out("_long = []     # (steps, place in acts) of the compound moves")
        if tally:
            out("_best = _nbest = 0     # the most steps of a compound move, how many moves have them")
        read_off, order = self.read_off(mode) if only is None else ({}, [only])   # compulsory.py: `not must_jump` as "no jump"
        for ai in order:
            if mode != "any" and read_off and ai == order[1]:       # after B, the first: its moves alone
                out(f"_none{order[0]} = not {'n' if mode == 'count' else 'acts'}")
            if self.c.actions[ai].step:
                continue
            first = len(out.lines)
            for a in self.schema_halves(self.c.actions[ai], mode):     # splits.py
                started = self.legal_schema(out, mode, ai, a, read_off, started)
            if mode == "count":
                out.lines[first:] = _counted_loops(out.lines[first:])
        if not started:
            out("n = 0" if mode == "count" else "acts = []")
        if longest:
            out("if _long:")                 # the moves with the most steps, or all in the spec's order
            out("    _best = max(_long)[0]")
            out("    if _best > 1:")
            out("        acts = [acts[i] for steps, i in _long if steps == _best]")
        if tally:
            out("if _best > 1:")
            out("    n = _nbest")
        out({"any": "return False", "count": f"return {'n' if ret == 'acts' else ret}"}.get(mode) or f"return {ret}")

    def legal_schema(self, out, mode, ai, a, read_off, started):
        """Write schema `a` (number `ai`) in `mode` (legal_schemas); return whether `n`
        or `acts` is started."""
        longest = self.c.prefer == "longest" and mode == "list"
        tally = self.c.prefer == "longest" and mode == "count"
        compound = a.chance is None and self.is_compound(a)
        out(f"# action {a.name}")
        self.note_param_ranges(a)
        conds = _operands("and", a.precondition)
        params = [p[0] for p in a.params]
        raising = {c for c in conds if may_raise(c, self.types, frozenset(params))}
        depths = loop_depths(conds, params, raising.__contains__)
        env, base = {}, out.depth
        top = [c for c, d in zip(conds, depths) if d == 0]
        whole = None     # (mask of the last parameter's values, their tuple) when it is free
        loops = []
        last = None      # (name, (lo, hi), conditions) of a last int parameter over constant bounds
        for k, (pname, domain, ptype) in enumerate(a.params):
            var = f"p_{pname}"
            header, rest = self.loop_at(k, pname, domain, ptype, conds, depths, raising, env)
            env[pname] = var
            last = (pname, header[3], rest) if header[3] else None
            if k == len(a.params) - 1 and not rest and header[1] is not None and not compound \
                    and a.legal_after is None \
                    and (mode != "list" or (self.single and len(a.params) == 1)):
                whole = header[1:3]
            else:
                loops.append((header[0], rest, header[1]))
        if not started:
            started = True
            if whole and not top and not loops and len(self.c.actions) == 1:
                if mode == "count":                       # one mask: its bit count
                    out(f"n = ({whole[0]}).bit_count()")
                else:
                    self.emit_values(out, "acts = {}" if self.raw else "acts = [*{}]", *whole)
                return started
            out("n = 0" if mode == "count" else "acts = []")
        for cond in top:
            if ai in read_off and cond is read_off[ai][1]:
                if mode != "any":                   # (in "any" mode no B was found: it holds)
                    out(f"if _none{read_off[ai][0]}:")
                    out.indent()
                continue
            out(f"if {self.expr(cond, env)}:")
            out.indent()
        if self.grid_moves(out, mode, ai, a, (conds, depths, base), env):     # a table (range_masks.py)
            return started
        plain = not compound and a.legal_after is None          # the body: n += 1 / return True
        shifted = self.shift_moves(out, mode, loops, env, a, whole, base, plain,     # bitboard shifts (shifts.py)
                                   walked=compound and not tally and a.legal_after is None)
        if shifted == "counted":
            return started
        unrolled = not (shifted or whole or compound or a.legal_after is not None or last is None) \
            and last[1][1] - last[1][0] < MAX_UNROLLED
        if plain and not (shifted or whole or unrolled) and len(loops) == 1 \
                and self.split_loop(out, mode, loops[-1][0], loops[-1][1], env,     # splits.py
                                    mode == "list" and f"acts.append({self.encode_action(ai, a, env)})"):
            out.depth = base
            return started
        for loop, rest, _ in [] if shifted else loops[:-1] if unrolled else loops:
            out(loop)
            out.indent()
            for cond in rest:
                out(f"if {self.expr(cond, env)}:")
                out.indent()
        if unrolled:
            self.unrolled_values(out, mode, ai, a, env, *last)
        elif whole:
            mask, values = whole
            if mode == "any":
                out(f"if {self.ray_hits(mask) or mask}:")
                out("    return True")
            elif mode == "count":
                out(f"n += ({mask}).bit_count()")
            else:
                self.emit_values(out, "acts += {}", mask, values)
        elif compound and mode != "any":
            walk = f"{self.compound_name('walk', ai)}({', '.join([self.sig] + [env[p[0]] for p in a.params] + ['1'])})"
            if tally:
                self.tally(out, self.count_walk(ai, [env[p[0]] for p in a.params]), "n")
            elif mode == "count":
                out(f"n += {self.count_walk(ai, [env[p[0]] for p in a.params])}")
            else:
                out(f"for _tail, _n in {walk}:")
                move = f"{self.encode_action(ai, a, env, compound=True)} + _tail"
                if longest:
                    out("    _long.append((_n, len(acts)))")
                out(f"    acts.append({move})")
        else:
            if a.legal_after is not None:         # tested on the successor: legal_after_functions
                mover = self.mover_code if self.mover_const is None else str(self.mover_const)
                out(f"if _after{ai}({', '.join(self.fields[:-1] + [mover] + [env[p[0]] for p in a.params])}):")
                out.indent()
            out({"any": "return True", "count": "n += 1"}.get(mode) or
                f"acts.append({self.encode_action(ai, a, env)})")
        out.depth = base
        return started

    def loop_at(self, k, pname, domain, ptype, conds, depths, raising, env):
        # param_loop over the k-th loop's conditions; a mask never raises, so it may be tested first,
        here = [c for c, d in zip(conds, depths) if d == k + 1]   # but not one after a test that may raise
        masked = lambda c: ptype == "cell" and self.loop_mask(c, pname, env)[0]
        cut = next((i for i, c in enumerate(here) if c in raising and not masked(c)), len(here))
        header, rest = self.param_loop(pname, domain, ptype, here[:cut], env)
        return header, rest + here[cut:]

    def emit_values(self, out, template, mask, values):
        """`template` filled with the tuple of the values a mask stands for.  A mask wider
        than a machine digit is first cut into words of WORD_CHUNKS chunks, so that each
        chunk is read from a small int; a list is built by unpacking the chunks' tuples."""
        if callable(values):
            chunks = values()
            if len(chunks) > 1:
                out(f"_k = {mask}")
                mask = "_k"
            words = len(chunks) > WORD_CHUNKS
            parts = []
            for j, (table, shift, width) in enumerate(chunks):
                word, first = divmod(j, WORD_CHUNKS)
                if words and not first:
                    low = shift + CHUNK_BITS * WORD_CHUNKS
                    out(f"_k{word} = _k{f' >> {shift}' if shift else ''}" +
                        (f" & {(1 << CHUNK_BITS * WORD_CHUNKS) - 1}" if low < self.board_bits() else ""))
                name, shift = (f"_k{word}", shift - chunks[word * WORD_CHUNKS][1]) if words else (mask, shift)
                last = words and (j == len(chunks) - 1 or (j + 1) % WORD_CHUNKS == 0)
                parts.append(f"{table}[{name}{f' >> {shift}' if shift else ''}"
                             f"{f' & {width}' if width and not (words and last) else ''}]")
            if template == "acts = [*{}]" and len(parts) > 1:
                out(f"acts = [{', '.join('*' + p for p in parts)}]")
            else:
                out(template.format(" + ".join(parts)))
        else:
            out(template.format(f"{values}[{mask}]"))

    def cells_table(self):
        """[(table, shift, width mask)]: the (col, row) tuples of a cell mask by table lookups
        of at most TABLE_BITS bits (CHUNK_BITS each on larger boards)."""
        nbits = self.board_bits()
        chunks = []
        step = TABLE_BITS if nbits <= TABLE_BITS else CHUNK_BITS
        for j, low in enumerate(range(0, nbits, step)):
            width = min(step, nbits - low)
            base, what, item = ("_IDX", "bit index", "i") if self.raw else ("_CELLS", "(col, row)", "XY[i]")
            name = f"{base}{j}" if nbits > TABLE_BITS else base
            if name not in self.helpers:
                item = item.replace("i", f"i + {low}" if low else "i")
                self.helpers[name] = (f"# {name}[m]: the {what} of each cell of bitboard m"
                                      f"{f' >> {low}' if low else ''}\n{name} = tuple(tuple("
                                      f"{item} for i in bits(m)) for m in range({1 << width}))\n")
            last = low + width == nbits
            chunks.append((name, low, None if last and (low or nbits <= TABLE_BITS) else (1 << width) - 1))
        return chunks

    def cell_mask(self, cond, pname, env):
        """A bit mask of the cells satisfying `cond` for cell parameter `pname`, if it is
        of the form board[p] == V, p in SET (SET not depending on p), or
        size(between(board, p, DIRS, A, B)) > 0 with one-step directions."""
        if isinstance(cond, ast.Binary) and cond.op == "==":
            for a, b in ((cond.left, cond.right), (cond.right, cond.left)):
                if self.is_board_read(a) and _is_name(a.index, pname) and self.const_value(b) is not None:
                    return self.value_mask(b, env)
        distance = self.distance_mask(cond, pname, env)
        if distance:
            return distance
        if isinstance(cond, ast.Binary) and cond.op == "in" and _is_name(cond.left, pname) \
                and pname not in _names(cond.right):
            return self.expr(cond.right, env)
        if isinstance(cond, ast.Binary) and cond.op in (">", "!=", ">=") and isinstance(cond.right, ast.Num) \
                and cond.right.value == (1 if cond.op == ">=" else 0) and isinstance(cond.left, ast.Call) \
                and cond.left.func == "size" and isinstance(cond.left.args[0], ast.Call) \
                and cond.left.args[0].func == "between":
            _, origin, dirs, inner, outer = cond.left.args[0].args
            dirs = self.kinds[id(dirs)][1]
            if _is_name(origin, pname) and shifts(self.c.directions[dirs]) and pname not in _names(inner) | _names(outer):
                return self.ray_ends(dirs, self.value_mask(inner, env), self.value_mask(outer, env))
        return None

    def external(self, ptype, var):
        if ptype == "cell" and not self.raw:
            return f"XY[{var}]"
        if ptype.startswith("enum:") and not self.raw:
            return f"ENUMS[{self.enum_index(ptype)}][{var}]"
        return var

    def enum_index(self, ptype):
        return [v.name for v in self.c.variables if v.type.startswith("enum:")].index(ptype[5:])

    def encode_action(self, ai, a, env, compound=False):
        """The action value of schema `ai` with the parameters in `env`; a compound move's
        first step always as a tuple (the later steps' values follow it)."""
        values = [self.external(p[2], env[p[0]]) for p in a.params]
        if compound:
            return "(" + "".join(v + ", " for v in ([] if self.single else [f"ACTION_NAMES[{ai}]"]) + values) + ")"
        if self.single:
            if len(values) == 1:
                return values[0]
            return "(" + "".join(v + ", " for v in values) + ")"
        if not values:
            return f"ACTION_NAMES[{ai}]"
        return f"(ACTION_NAMES[{ai}], " + "".join(v + ", " for v in values) + ")"

    def decode(self, ptype, code):
        if ptype == "cell" and not self.raw:
            return f"CELL_OF[{code}]"
        if ptype.startswith("enum:") and not self.raw:
            return f"ENUM_INDEX[{self.enum_index(ptype)}][{code}]"
        return code

    # ------------------------------------------------------------------ module


_COUNT_LOOP = re.compile(r"( *)for (\w+) in (range\((-?\d+), (-?\d+)\)|bits\((.+)\)):$")
_ADD = re.compile(r"( *)n \+= (\d+)$")


def _counted_loops(lines: list) -> list:
    """A count's loop that only adds a constant, `for v in range(a, b): n += k` or `for v in
    bits(M): n += k` (parameters with no test of their own: Pentago's quadrant and turn),
    written as one product, innermost first (range and bits evaluate nothing that fails)."""
    changed = True
    while changed:
        changed = False
        for i in range(len(lines) - 1):
            loop, add = _COUNT_LOOP.fullmatch(lines[i]), _ADD.fullmatch(lines[i + 1])
            if not (loop and add and len(add.group(1)) > len(loop.group(1))):
                continue
            after = lines[i + 2] if i + 2 < len(lines) else ""
            if after.strip() and len(after) - len(after.lstrip()) > len(loop.group(1)):
                continue                        # the body goes on
            if any(re.search(rf"\b{loop.group(2)}\b", line) for line in lines[i + 2:]):
                continue                        # the variable is read after the loop
            k = int(add.group(2))
            if loop.group(4) is not None:
                times = max(0, int(loop.group(5)) - int(loop.group(4)))
                lines[i:i + 2] = [f"{loop.group(1)}n += {k * times}"] if times else []
            else:
                lines[i:i + 2] = [f"{loop.group(1)}n += {k} * ({loop.group(6)}).bit_count()"]
            changed = True
            break
    return lines
