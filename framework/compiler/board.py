"""Board vocabulary: k-in-a-row by shift-and (`line`), ray walks by shifting bits (`slide`,
`between`), Othello-style ray ends, and the helper functions and tables these emit into the
module.
"""
from __future__ import annotations

import re

from framework import ast
from framework.compiler.common import TABLE_BITS, _IDENT

_PLAIN = re.compile(r"\d+|[A-Za-z_]\w*(\[\d+\])?")     # a cell code read twice as it is (board_read)


class BoardMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def sig_with_mover(self, mover):
        return ", ".join(self.fields[:-1] + [mover])

    def board_read(self, node, env):
        """The value index at a cell (`board[c]`); -1 (equal to no value) when the cell is
        `none`.  A computed cell is evaluated once: bound by `:=` where the expression allows
        it, else by a call."""
        cell = self.expr(node.index, env)
        guarded = self.cell_guarded(node.index)
        plain = _PLAIN.fullmatch(cell) or not guarded and len(self.boards) == 1
        if not plain and self.walrus_ok and self.boards:     # an expression evaluated once, bound by `:=`
            at = self.fresh("r")
            first = f"({at} := {cell})"
        else:
            at = cell if plain else "_c"        # ... or by a call
            first = at
        parts = [f"{i} if b_{self.c.values[i]} >> {first if k == 0 and not guarded else at} & 1 else"
                 for k, i in enumerate(self.boards)]
        guard = f"-1 if {first} < 0 else " if guarded else ""
        read = f"{guard}{' '.join(parts)} {self.c.default_value}"
        return f"({read})" if plain or at != "_c" else f"(lambda _c: {read})({cell})"

    def line(self, mask, k_node, env):
        if isinstance(k_node, ast.Num):
            k = k_node.value
            if k > max(self.c.width, self.c.height):
                return "False"
            name = f"_line{k}"
            if _IDENT.fullmatch(mask) and self.board_bits() > TABLE_BITS and self.walrus_ok:
                return self.line_inline(mask, k)
            if name not in self.helpers:
                self.helpers[name] = self.line_helper(name, k)
            if self.board_bits() <= TABLE_BITS:
                table = f"_LINE{k}"
                if table not in self.helpers:
                    self.helpers[table] = (f"# {table}[m]: does bitboard m hold {k} in a row?\n"
                                           f"{table} = tuple({name}(m) for m in range({1 << self.board_bits()}))\n")
                return f"{table}[{mask}]"
            return f"{name}({mask})"
        return f"line({mask}, {self.expr(k_node, env)}, LINE_SHIFTS)"

    def line_runs(self, k):
        """[(first shift, [later shifts])] per direction: k in a row is m & m >> s, then
        t & t >> x for each later x (the run length doubling per step)."""
        out = []
        for s in self.tables.line_shifts():
            run, steps = 1, []
            while run < k:
                step = min(run, k - run)
                steps.append(s * step)
                run += step
            out.append((s, steps[1:]))
        return out

    def line_inline(self, m, k):
        """k in a row on the bitboard named `m` as one expression of shifts and masks (a
        temporary `_t` carries each direction's run), so that a large board makes no call;
        a board of fewer than k discs is answered by its bit count alone."""
        if k <= 1:
            return f"({m} != 0)"
        parts = []
        for s, later in self.line_runs(k):
            code = f"{m} & {m} >> {s}"
            for x in later:
                code = f"(_t := {code}) & _t >> {x}"
            parts.append(code)
        return f"({m}.bit_count() >= {k} and (" + " or ".join(parts) + ") != 0)"

    def line_helper(self, name, k):
        """k in a row along each direction by shift-and, doubling the run length per step."""
        lines = [f"def {name}(m):"]
        for s, later in self.line_runs(k):
            lines.append(f"    t = m & m >> {s}" if k > 1 else "    t = m")
            for x in later[:-1]:
                lines.append(f"    t &= t >> {x}")
            lines.append(f"    if {f't & t >> {later[-1]}' if later else 't'}:")
            lines.append("        return True")
        lines.append("    return False")
        return "\n".join(lines) + "\n"

    def board_bits(self):
        """Bits a bitboard can use (its highest cell + 1)."""
        return self.tables.cells[-1] + 1

    def ray_walk(self, kind, dirs, cell, *masks):
        """slide(...) ("reach": the cells of `through` along each ray from the cell until
        the first other cell) or between(...) ("runs": the inner cells in unbroken runs from
        the cell that an outer cell closes), by shifting the cell's bit one step at a time
        along each direction; a bit that leaves the board is in no mask, so a walk stops."""
        name = f"_{'slide' if kind == 'reach' else 'between'}_{dirs}"
        if name not in self.helpers:
            walk = "through" if kind == "reach" else "inner"
            lines = [f"def {name}(c, {', '.join(['through'] if kind == 'reach' else ['inner', 'outer'])}):",
                     f'    """{"Cells of through" if kind == "reach" else "Inner cells"} along each {dirs} ray from c'
                     f'{" up to the first other cell" if kind == "reach" else " in a run an outer cell closes"}."""',
                     "    if c < 0:",
                     "        return 0",
                     "    bit = 1 << c",
                     f"    {kind} = 0"]
            for dx, dy in self.c.directions[dirs]:
                delta = dx + dy * self.tables.stride
                step = f"<< {delta}" if delta > 0 else f">> {-delta}"
                lines += [f"    x = bit {step} & {walk}    # step ({dx}, {dy})",
                          "    if x:",
                          "        run = 0",
                          f"        while x & {walk}:",
                          "            run |= x",
                          f"            x = x {step}"]
                lines += ["        reach |= run"] if kind == "reach" else ["        if x & outer:",
                                                                         "            runs |= run"]
            lines.append(f"    return {kind}")
            self.helpers[name] = "\n".join(lines) + "\n"
        return f"{name}({cell}, {', '.join(masks)})"

    def ray_hits(self, mask):
        """Code for `mask != 0` where `mask` is `T & <ray_ends(dirs, inner, outer)>`: a
        helper that shifts the rays as ray_ends does and stops at the first one that ends on
        a cell of T (whether a player can move, without the whole move mask); None for
        another mask."""
        for (dirs, inner, outer), code in self.ray_calls.items():
            if mask == code or mask.endswith(" & " + code):
                target = mask[:-len(code) - 3] if mask != code else "FULL"
                name = f"_ray_hits_{dirs}"
                if name not in self.helpers:
                    lines = [f"def {name}(inner, outer, target):",
                             f'    """Whether a {dirs} ray crosses inner cells and then an outer cell from a cell of target."""',
                             "    outer &= ~inner",
                             "    target &= FULL"]
                    lines += self.ray_shift_lines(dirs, ["        if run & target:", "            return True"])
                    lines.append("    return False")
                    self.helpers[name] = "\n".join(lines) + "\n"
                return f"{name}({inner}, {outer}, {target})"
        return None

    def ray_shift_lines(self, dirs, on_run: list) -> list:
        """Helper lines walking every ray of `dirs` back from `outer` across `inner` cells,
        one step a loop turn, with the lines `on_run` run at each step (on `run`)."""
        lines = []
        for step, back in self.ray_steps(dirs):
            lines += [f"    run = outer {back} & inner    # step {step}", "    while run:",
                      f"        run = run {back}", *on_run, "        run &= inner"]
        return lines

    def ray_steps(self, dirs):
        """[((dx, dy), the shift that moves a bit one step against the direction)]."""
        out = []
        for dx, dy in self.c.directions[dirs]:
            delta = dx + dy * self.tables.stride
            out.append(((dx, dy), f">> {delta}" if delta > 0 else f"<< {-delta}"))
        return out

    def ray_ends(self, dirs, inner, outer):
        """Mask of the cells from which a ray of `dirs` crosses one or more `inner` cells and
        then meets an `outer` cell: `between(...)` is not empty there.  By directional shifts
        of the whole board (Othello's move generation), with one helper per direction set."""
        name = f"_ray_ends_{dirs}"
        if name not in self.helpers:
            lines = [f"def {name}(inner, outer):",
                     f'    """Cells from which a {dirs} ray crosses inner cells and then an outer cell."""',
                     "    outer &= ~inner",
                     "    found = 0"]
            lines += self.ray_shift_lines(dirs, ["        found |= run"])
            lines.append("    return found & FULL")
            self.helpers[name] = "\n".join(lines) + "\n"
        code = f"{name}({inner}, {outer})"
        self.ray_calls[(dirs, inner, outer)] = code
        return code
