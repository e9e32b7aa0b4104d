"""A compound jump counted as one move when masks show it cannot go on (the last ply).

shifts.py counts the moves of a schema over two cells a, b whose first step is a shifted
jump by a loop over the candidates (the landing cells b, per translation) that calls the
count walk `_walkn<i>` on each: the walk applies the step and looks for a continuation.
A jump with no continuation counts 1, and most jumps at the leaves have none.  So the
count site first tests, for all the jumps at once, whether any of them could go on; when
none can, the count is the candidates' bit count and no walk runs.

The test over-approximates the continuations, so a jump it clears surely has none:

- the effects write only the board (`board[X] = V`, `if`, `continue`; no test or value that
  may fail) at cells X that are a, b or a `cell(x, y)` of their rows and columns, each at
  a fixed offset from b per group of b's for each translation (pairs.py `cell_offsets`;
  off the board for some jump: the walk reports an error, so it stays), and their only
  `continue`, in a last `if` (or at the end), is the same schema from b;
- only the writes on the way to that `continue` count (a crowning that ends the move does
  not): for all the jumps at once, the cells surely emptied K (the default value, not
  under a test) and the cells of any other value U are masks, and off K | U each value
  mask is unchanged, so every cellwise expression of value masks (`& |`, `~` swapping the
  bounds) has a lower and an upper bound after the step, written with the masks before;
- the continuation's candidates are the schema's own loop mask for b from the landing
  cell (as the walk computes it) with each leaf read at its upper bound, the conditions on
  the landing cell alone taken as true, and each `pair` test of the cells between read on
  its bounds (`not`, `!=`: the lower bound, complemented); a test of the jumper's own bit
  (a man or a king) is read on its cell before the step when the first write is `board[b]
  = board[a]` and no later one can hit b (the landing cells are split by those bits),
  else as both cases.  When those shifted candidates are all empty, no jump goes on.
"""
from __future__ import annotations

import ast as pyast

from framework import ast
from framework.compiler.common import _operands, loop_depths, may_raise
from framework.compiler.pairs import _Unsupported, _and
from framework.compiler.shifts import MAX_TERMS, _all_steps, _fold, _moved


class OnwardMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def onward_test(self, a, terms, env):
        """For schema `a` whose count walk runs on the shifted jump candidates `terms`
        ((shift, name of the candidates' mask, step)): (lines to write first, the test
        that is False only when no candidate jump can go on), or None."""
        pa, pb = a.params[0][0], a.params[1][0]
        writes = self._writes(a, a.effects, pb)
        if not writes or not terms:
            return None
        try:
            cleared, unknown = self.fresh("K"), self.fresh("U")
            cells = {"empty": [], "unknown": [], "copy": []}
            copied = writes[0][1] == "copy"         # b holds a's value: a's bit tests are known
            for _, name, step in terms:
                for i, (target, kind) in enumerate(writes):
                    offsets = self.cell_offsets(target, pa, pb, env, step)
                    copied = copied and (i == 0 or 0 not in offsets)
                    cells[kind] += self._written_at(offsets, name, step)
            lines = [f"{cleared} = {' | '.join(dict.fromkeys(cells['empty'])) or 0}",
                     f"{unknown} = {' | '.join(dict.fromkeys(cells['unknown'] + cells['copy'])) or 0}"]
            planes = {f"b_{self.c.values[i]}" for i in self.boards}
            bounds = _Bounds(planes, cleared, unknown, self.fresh, lines)
            onward = self._onward_terms(a, pa, pb, terms, copied, bounds)
        except (_Unsupported, SyntaxError):
            return None
        if onward is None:
            return None
        return lines, " or ".join(onward) or "False"

    def _writes(self, a, effects, pb):
        """[(cell written, "empty" (surely the default value), "copy" (the first write:
        board[b] = board[a]) or "unknown")] on the ways that reach the `continue`, when the
        effects write only the board with values and tests that cannot fail and their only
        `continue`, in a last `if`, is `a` from b; else None."""
        found, reached = [], False
        for i, e in enumerate(effects):
            if isinstance(e, ast.ContinueEffect):
                if not _onward(e, a, pb):
                    return None
                reached = True
                continue
            if isinstance(e, ast.IfEffect) and i == len(effects) - 1 and not reached and not may_raise(e.test, self.types, _params(a)):
                ways = [way for way in (e.then, e.else_) if _continues(way)]
                for way in ways:
                    more = self._writes(a, way, pb) if len(ways) == 1 else self._maybe(a, way, pb)
                    if more is None:
                        return None
                    found += [(cell, "unknown" if found and kind == "copy" else kind) for cell, kind in more]
                return found
            write = self._write(a, e)
            if write is None:
                return None
            copy = not found and isinstance(write[1], ast.Index) and isinstance(write[1].index, ast.Name) \
                and write[1].index.id == a.params[0][0] and _is_board(write[1]) \
                and isinstance(write[0], ast.Name) and write[0].id == pb
            found.append((write[0], "copy" if copy else "empty" if self.const_value(write[1]) ==
                          self.c.default_value else "unknown"))
        return found if reached else None

    def _maybe(self, a, effects, pb):
        """The cells `effects` may write (each "unknown"), or None (see _writes)."""
        found = []
        for e in effects:
            if isinstance(e, ast.IfEffect) and not may_raise(e.test, self.types, _params(a)):
                for way in (e.then, e.else_):
                    more = self._maybe(a, way, pb)
                    if more is None:
                        return None
                    found += more
            elif isinstance(e, ast.ContinueEffect):
                if not _onward(e, a, pb):
                    return None
            else:
                write = self._write(a, e)
                if write is None:
                    return None
                found.append((write[0], "unknown"))
        return found

    def _write(self, a, e):
        """(cell, value) of a board write whose value cannot fail, else None."""
        if isinstance(e, ast.Assign) and e.op == "=" and _is_board(e.target) \
                and not may_raise(e.value, self.types, _params(a)):
            return e.target.index, e.value
        return None

    def _written_at(self, offsets, name, step):
        """The cells at `offsets` (pairs.cell_offsets) from the b's of the mask `name`;
        _Unsupported when one is off the board."""
        parts = []
        for off, where in offsets.items():
            if off is None:
                raise _Unsupported
            source = name if where == self.step_ends(step)[1] else f"({name} & {where})"
            parts.append(source if not off else f"({source} {'<<' if off > 0 else '>>'} {abs(off)})")
        return parts

    def _onward_terms(self, a, pa, pb, jumps, copied, bounds):
        """The continuation's candidates from the landing cells after the step, as shifted
        masks over-approximated by `bounds` (module docstring); with `copied`, the
        landing cells are split by the jumper's bit tests, read on its cell before."""
        conds = _operands("and", a.precondition)
        raising = {c for c in conds if may_raise(c, self.types, frozenset((pa, pb)))}
        depths = loop_depths(conds, [pb], raising.__contains__)
        env = {pa: f"p_{pa}"}
        name, domain, ptype = a.params[1]
        header, rest = self.loop_at(0, name, domain, ptype, conds, depths, raising, env)
        if ptype != "cell" or not header[1]:
            return None
        hoisted, atoms = [], []
        shape = self._shape(pyast.parse(header[1], mode="eval").body, env[pa], hoisted, atoms)
        bounds.codes = dict(hoisted)
        for x in atoms if copied else ():      # read on the jumper's cell before: cellwise only
            bounds.check(x)
        shape = _grown(shape, bounds, copied)
        cases, every = [], " | ".join(jump for _, jump, _ in jumps)
        for case in range(1 << len(atoms) if copied else 1):
            truth = {x: bool(case >> i & 1) for i, x in enumerate(atoms)}
            land = self.fresh("L")
            split = " | ".join("".join([f"({jump}"] + [
                f" & {'' if truth[x] else '~'}({bounds.code(x)} {'<<' if k >= 0 else '>>'} {abs(k)})"
                for x in truth] + [")"]) for k, jump, _ in jumps)
            held = [bounds.code(x) for x in truth if truth[x]]
            if held:                    # no jumper has a bit the masks do not hold
                split = f"({split}) if {' and '.join(held)} else 0"
            elif truth:                 # every jumper lacks the bits when the masks are empty
                split = f"({split}) if {' or '.join(bounds.code(x) for x in truth)} else {every}"
            bounds.lines.append(f"{land} = {split}")
            cases.append((land, truth, []))
        t = self.tables
        self.relaxed = bounds
        try:
            for step in _all_steps(t):
                src = self.step_ends(step)[0]
                for land, truth, terms in cases:
                    cells = _fold(shape, step, truth)
                    for cond in rest:
                        if cells != "0" and src:
                            cells = _and(cells, self.pair(cond, pa, pb, env, step))
                    if cells != "0" and src:
                        terms.append(_moved(cells, step[0] * t.stride + step[1], f"{land} & {src}"))
        finally:
            self.relaxed = None
        terms = [f"({land} and ({' or '.join(found)}))" for land, _, found in cases if found]
        return terms if len(terms) <= MAX_TERMS else None


def _params(a):
    return frozenset(p[0] for p in a.params)


def _onward(e, a, pb):
    """Whether `continue` e goes on with `a` from b."""
    return e.step == a.name and len(e.args) == 1 and isinstance(e.args[0], ast.Name) and e.args[0].id == pb


def _is_board(node):
    return isinstance(node, ast.Index) and isinstance(node.base, ast.Name) and node.base.id == "board"


def _continues(effects):
    return any(isinstance(e, ast.ContinueEffect) or isinstance(e, ast.IfEffect) and
               (_continues(e.then) or _continues(e.else_)) or isinstance(e, ast.ForEffect) and _continues(e.body)
               for e in effects)


def _grown(shape, bounds, copied):
    """`shape` (shifts.py) with each leaf read at its upper bound and each test of a's bit
    as both branches unless `copied`; _Unsupported where a part could shrink."""
    kind = shape[0]
    if kind in ("ALL", "0", "table"):
        return shape
    if kind == "leaf":
        return ("leaf", bounds.upper(shape[1]))
    if kind == "if":
        then, else_ = _grown(shape[2], bounds, copied), _grown(shape[3], bounds, copied)
        return ("if", shape[1], then, else_) if copied else ("|", then, else_)
    if kind in ("&", "|"):
        return (kind, _grown(shape[1], bounds, copied), _grown(shape[2], bounds, copied))
    raise _Unsupported                      # ~ or ^ over a's cells: not monotone


class _Bounds:
    """Bounds of a cellwise bitboard expression after the step, written with the masks
    before it: a value mask b_v is unchanged off the written cells, empty on the cells
    surely emptied (`cleared`, not among the `unknown` ones), unknown on `unknown`."""

    def __init__(self, planes, cleared, unknown, fresh, lines):
        self.planes, self.cleared, self.unknown, self.codes = planes, cleared, unknown, {}
        self.fresh, self.lines, self.names = fresh, lines, {}
        self.lower = False          # pairs.py: under a negation, the lower bound is read

    def bound(self, code):
        """The name of a local holding `code`'s upper bound, or its lower under `lower`."""
        return self.upper(code, not self.lower)

    def check(self, code):
        """_Unsupported unless `code` is a cellwise expression of the value masks."""
        self._bound(pyast.parse(code, mode="eval").body, True)

    def code(self, code):
        """`code` with the names of hoisted masks replaced by their code."""
        return self.code(self.codes[code]) if code in self.codes else code

    def upper(self, code, up=True):
        """The name of a local holding `code`'s upper bound (lower: not `up`), written
        once to `lines`."""
        if (code, up) not in self.names:
            self.names[code, up] = self.fresh("u")
            self.lines.append(f"{self.names[code, up]} = {pyast.unparse(self._bound(pyast.parse(code, mode='eval').body, up))}")
        return self.names[code, up]

    def _bound(self, node, up):
        if isinstance(node, pyast.Constant) and isinstance(node.value, int):
            return node
        if isinstance(node, pyast.Name) and node.id == "FULL":
            return node
        if all(isinstance(n, (pyast.BinOp, pyast.BitAnd, pyast.BitOr, pyast.Load)) or
               isinstance(n, pyast.Name) and n.id in self.planes for n in pyast.walk(node)):
            # value masks under & and |: each cell's bit is unchanged off the written cells
            code = pyast.unparse(node)
            code = f"(({code}) & ~{self.cleared} | {self.unknown})" if up else \
                f"(({code}) & ~({self.cleared} | {self.unknown}))"
            return pyast.parse(code, mode="eval").body
        if isinstance(node, pyast.Name) and node.id in self.codes:
            return self._bound(pyast.parse(self.codes[node.id], mode="eval").body, up)
        if isinstance(node, pyast.BinOp) and isinstance(node.op, (pyast.BitAnd, pyast.BitOr)):
            return pyast.BinOp(self._bound(node.left, up), node.op, self._bound(node.right, up))
        if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Invert):
            return pyast.UnaryOp(pyast.Invert(), self._bound(node.operand, not up))
        raise _Unsupported
