"""Compiler: a checked game -> readable Python source -> a `Game` with a fast State class.

The state is a tuple subclass (hashing, equality and pickling by value, all in C):
one int per non-initial board value (a bitboard), one slot per state variable (lists as
tuples), the player to move, the pending chance action (games with chance only) and a
cached terminal flag.  Board vocabulary is lowered to bit operations (line-of-k by
shift-and, cells-of-value masks, precomputed neighbour and ray tables), and action
generation iterates over the set bits of a precondition's cell mask instead of testing
every cell (or takes a whole tuple of actions from a table indexed by the mask).

State.actions() and State.result() carry the legal-action code and the effects inline,
written once per player when they read the mover (so `board[c] = mover` names one
bitboard).  result() knows which fields each move writes and, as its parent was not
terminal, tests only the terminal disjuncts that read one of them.  Rays along one-step
directions (slide, between, Othello's move generation) are walked by shifting bits by a
fixed distance, which the spare column of every row keeps from wrapping.

Every name the spec chose appears in the source only with a prefix (`v_` variables, `p_`
parameters, `q_` bound variables, `b_` bitboards), and no text of the spec is ever placed
in the source: symbols and names travel as data.
"""
from __future__ import annotations

import math
import re

from framework import ast, runtime
from framework.errors import SpecError
from framework.checker import Checked, DIRECTION_SETS
from framework.game import Game, CHANCE

UNSET_TURN = -2
# builtins that are a fixed pattern over their compiled arguments
_CALL_TEMPLATES = {"size": "{0}.bit_count()", "col": "COL[{0}]", "row": "ROW[{0}]",
                   "cell": "CELL({0}, {1})", "opponent": "(1 - {0})"}
# direction sets whose steps are one cell, so a step is a shift by a fixed bit distance
# (the spare column of every row then stops a shift from wrapping into the next row)
_SHIFT_DIRECTIONS = ("orthogonal", "diagonal", "queen", "king")
# per-mover code is written once for each player up to this many players
MAX_SPECIALISED_PLAYERS = 4
# a table indexed by a whole bitboard is built when the board spans at most this many bits
TABLE_BITS = 12
# larger bitboards are read by tables of this many bits at a time
CHUNK_BITS = 8
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Source:
    def __init__(self):
        self.lines = []
        self.depth = 0

    def __call__(self, text=""):
        self.lines.append("    " * self.depth + text if text else "")

    def indent(self):
        self.depth += 1

    def dedent(self):
        self.depth -= 1

    def text(self):
        return "\n".join(self.lines) + "\n"


class Compiler:
    def __init__(self, checked: Checked):
        self.c = checked
        self.types = checked.types
        self.kinds = checked.kinds
        self.n = len(checked.players)
        self.has_chance = any(a.chance for a in checked.actions)
        c = checked
        self.boards = [i for i in range(len(c.values)) if i != c.default_value]
        self.fields = [f"b_{c.values[i]}" for i in self.boards] + [f"v_{v.name}" for v in c.variables] + ["mover"]
        self.sig = ", ".join(self.fields)
        self.tables = runtime.BoardTables(c.width, c.height, DIRECTION_SETS) if c.has_board else None
        self.tmp = 0
        self.param_ranges = {}
        self.positions = []                 # spec positions named by run-time errors (POSITIONS)
        self.single = len(c.actions) == 1
        self.vars = {v.name: v for v in c.variables}
        self.mover_const = None       # the player to move, while writing code for one mover
        self.mover_code = "mover"     # how the code being written names the player to move
        self.player_value = None
        if c.values and all(p in c.values for p in c.players):
            self.player_value = tuple(c.values.index(p) for p in c.players)

    def fresh(self, base="t"):
        self.tmp += 1
        return f"_{base}{self.tmp}"

    # ------------------------------------------------------------------ expressions
    def occupied(self):
        return "(" + " | ".join(f"b_{self.c.values[i]}" for i in self.boards) + ")" if self.boards else "0"

    def value_mask(self, node, env):
        """Bitboard expression of the cells holding the value `node` evaluates to."""
        const = self.const_value(node)
        if const is not None:
            if const == self.c.default_value:
                return f"(FULL & ~{self.occupied()})"
            return f"b_{self.c.values[const]}"
        masks = ["FULL & ~" + self.occupied() if i == self.c.default_value else f"b_{v}"
                 for i, v in enumerate(self.c.values)]
        return f"({', '.join(masks)},)[{self.value(node, env)}]"

    def const_value(self, node):
        """Index of a constant board value (a value or a constant player), else None."""
        if isinstance(node, ast.Name):
            kind = self.kinds.get(id(node))
            if kind and kind[0] == "value":
                return kind[1]
        player = self.player_const(node)
        if player is not None and self.player_value:
            return self.player_value[player]
        return None

    def player_const(self, node):
        """Index of the player an expression names when it is known while compiling: a
        player name, `mover` in code written for one mover, next/opponent of those."""
        if isinstance(node, ast.Name):
            kind = self.kinds.get(id(node))
            if kind and kind[0] == "player":
                return kind[1]
            if kind and kind[0] == "mover":
                return self.mover_const
        if isinstance(node, ast.Call) and node.func in ("next", "opponent") and len(node.args) == 1:
            inner = self.player_const(node.args[0])
            if inner is not None:
                return (inner + 1) % self.n if node.func == "next" else 1 - inner
        return None

    def value(self, node, env):
        """Expression as a board value index (coercing players).  A conditional is coerced
        branch by branch: `mover if C else Z` mixes a player with a cell value."""
        if isinstance(node, ast.Cond):
            return (f"({self.value(node.then, env)} if {self.expr(node.test, env)} "
                    f"else {self.value(node.else_, env)})")
        code = self.expr(node, env)
        if self.types.get(id(node)) == "player":
            const = self.const_value(node)
            return str(const) if const is not None else f"PLAYER_VALUE[{code}]"
        return code

    def cell_guarded(self, node):
        """True when a cell expression might be `none` (so shifts need a guard)."""
        if isinstance(node, ast.TupleExpr) and all(isinstance(i, ast.Num) for i in node.items):
            return False
        if isinstance(node, ast.Name):
            kind = self.kinds.get(id(node))
            return not (kind and kind[0] in ("param", "quant"))
        return True

    def expr(self, node, env) -> str:
        m = getattr(self, "x_" + type(node).__name__)
        return m(node, env)

    def x_Num(self, node, env):
        return repr(node.value)

    def x_Name(self, node, env):
        kind, info = self.kinds.get(id(node), (None, None))
        if node.id in env:
            return env[node.id]
        if kind == "bool":
            return "True" if info else "False"
        if kind == "none":
            return "-1"
        if kind == "mover":
            return self.mover_code if self.mover_const is None else str(self.mover_const)
        if kind == "me":
            return "me"
        if kind == "player":
            return str(info)
        if kind == "value":
            return str(info)
        if kind == "enum":
            return str(info[1])
        if kind == "var":
            return f"v_{info.name}"
        raise AssertionError(f"unresolved name {node.id}")

    def x_TupleExpr(self, node, env):
        if all(isinstance(i, ast.Num) for i in node.items):
            return str(self.tables.cell(*(i.value for i in node.items)))
        if all(self.in_bounds(item, size) for item, size in zip(node.items, (self.c.width, self.c.height))):
            x, y = (self.expr(i, env) for i in node.items)
            return f"({y} * {self.tables.stride} + {x})"
        return f"CELL({self.expr(node.items[0], env)}, {self.expr(node.items[1], env)})"

    def x_ListExpr(self, node, env):
        return "(" + "".join(self.expr(i, env) + ", " for i in node.items) + ")"

    def in_bounds(self, node, size):
        """True when an int expression is a constant or a range parameter within 0..size-1."""
        if isinstance(node, ast.Num):
            return 0 <= node.value < size
        lo_hi = self.param_ranges.get(node.id) if isinstance(node, ast.Name) else None
        return lo_hi is not None and 0 <= lo_hi[0] and lo_hi[1] < size

    def note_param_ranges(self, action):
        self.param_ranges = {}
        for name, domain, _ in action.params:
            if isinstance(domain, ast.Range):
                lo, hi = _static_int(domain.lo), _static_int(domain.hi)
                if lo is not None and hi is not None:
                    self.param_ranges[name] = (lo, hi)

    def x_Unary(self, node, env):
        if node.op == "not":                 # a run of `not`s is one test: no nesting to emit
            count, inner = 0, node
            while isinstance(inner, ast.Unary) and inner.op == "not":
                count, inner = count + 1, inner.operand
            code = self.expr(inner, env)
            return f"(not {code})" if count % 2 else f"bool({code})"
        return f"(-{self.expr(node.operand, env)})"

    def x_Cond(self, node, env):
        """`a if c else b if d else e` as one flat Python conditional, however long."""
        parts = []
        while isinstance(node, ast.Cond):
            parts.append(f"{self.expr(node.then, env)} if {self.expr(node.test, env)} else")
            node = node.else_
        return f"({' '.join(parts)} {self.expr(node, env)})"

    def x_Binary(self, node, env):
        op = node.op
        emptiness = self.emptiness(node, env)
        if emptiness:
            return emptiness
        if op in ("and", "or"):              # a chain of any length, flat
            return "(" + f" {op} ".join(self.expr(x, env) for x in _operands(op, node)) + ")"
        if op in ("in", "notin"):
            cell, cells = self.expr(node.left, env), self.expr(node.right, env)
            test = f"({cells} >> {cell} & 1)"
            if self.cell_guarded(node.left):
                test = f"({cell} >= 0 and {test})"
            return f"(not {test})" if op == "notin" else test
        if op in ("==", "!="):
            return self.compare(node, env)
        if op == "-" and self.types.get(id(node)) == "cellset":
            return f"({self.expr(node.left, env)} & ~{self.expr(node.right, env)})"
        left, right = self.expr(node.left, env), self.expr(node.right, env)
        if op in ("//", "%", "/"):
            if isinstance(node.right, ast.Num) and node.right.value != 0:
                return f"({left} {op} {right})"
            return f"divide({left}, {right}, {op!r}, POSITIONS[{self.position(node)}])"
        return f"({left} {op} {right})"

    def emptiness(self, node, env):
        """`size(S) == 0` (or != 0, > 0, ...) where S can say whether it is empty more
        cheaply than it can be built: a slide is empty when no first step is possible."""
        if not (isinstance(node.left, ast.Call) and node.left.func == "size" and isinstance(node.right, ast.Num)):
            return None
        empty = {("==", 0): True, ("<", 1): True, ("<=", 0): True,
                 ("!=", 0): False, (">", 0): False, (">=", 1): False}.get((node.op, node.right.value))
        code = self.any_cell(node.left.args[0], env) if empty is not None else None
        return code and f"({code} {'==' if empty else '!='} 0)"

    def any_cell(self, node, env):
        """A mask that is non-zero exactly when the cell set `node` is non-empty, when
        cheaper than the set itself (else None)."""
        if isinstance(node, ast.Call) and node.func == "slide":
            return f"(NEIGHBORS_{self.kinds[id(node.args[2])][1]}[{self.expr(node.args[1], env)}] & " \
                   f"{self.value_mask(node.args[3], env)})"
        if isinstance(node, ast.Cond):
            then, else_ = self.any_cell(node.then, env), self.any_cell(node.else_, env)
            if then or else_:
                return f"({then or self.expr(node.then, env)} if {self.expr(node.test, env)} " \
                       f"else {else_ or self.expr(node.else_, env)})"
        return None

    def compare(self, node, env):
        op = node.op
        lt, rt = self.types.get(id(node.left)), self.types.get(id(node.right))
        left, right = node.left, node.right
        # board[c] == V: a bit test on V's bitboard
        for a, b in ((left, right), (right, left)):
            if self.is_board_read(a) and self.const_value(b) is not None:
                v = self.const_value(b)
                cell = self.expr(a.index, env)
                if v == self.c.default_value:
                    test = f"not ({self.occupied()} >> {cell} & 1)"
                else:
                    test = f"(b_{self.c.values[v]} >> {cell} & 1)"
                if self.cell_guarded(a.index):
                    test = f"({cell} >= 0 and {test})"
                return f"({test})" if op == "==" else f"(not {test})"
        if "value" in (lt, rt):
            l, r = self.value(left, env), self.value(right, env)
        else:
            l, r = self.expr(left, env), self.expr(right, env)
        return f"({l} {op} {r})"

    def is_board_read(self, node):
        return isinstance(node, ast.Index) and self.types.get(id(node)) == "value"

    def x_Index(self, node, env):
        if self.is_board_read(node):
            # the value index at a cell; -1 (equal to no value) when the cell is `none`
            cell = self.expr(node.index, env)
            parts = [f"{i} if b_{self.c.values[i]} >> _c & 1 else" for i in self.boards]
            guard = "-1 if _c < 0 else " if self.cell_guarded(node.index) else ""
            read = f"{guard}{' '.join(parts)} {self.c.default_value}"
            return f"(lambda _c: {read})({cell})" if guard or len(self.boards) > 1 else f"({read})".replace("_c", cell)
        base, index = self.expr(node.base, env), self.expr(node.index, env)
        if self.index_safe(node):
            return f"{base}[{index}]"
        name = node.base.id if isinstance(node.base, ast.Name) else "the list"
        return f"item({base}, {index}, {name!r}, POSITIONS[{self.position(node)}])"

    def index_safe(self, node) -> bool:
        """An index the checker's facts keep on the list: a constant or range variable
        within it, or a player indexing a per-player variable."""
        if isinstance(node.base, ast.ListExpr):
            return self.in_bounds(node.index, len(node.base.items))
        var = self.vars.get(node.base.id) if isinstance(node.base, ast.Name) else None
        if var is None or var.size is None:
            return False
        if var.per_player and self.types.get(id(node.index)) == "player":
            return True
        return self.in_bounds(node.index, var.size)

    def position(self, node) -> int:
        """The index in POSITIONS of `node`'s place in the spec, for run-time errors."""
        self.positions.append(node.pos)
        return len(self.positions) - 1

    def x_Quant(self, node, env):
        var = self.fresh("q")
        inner = dict(env)
        inner[node.var] = var
        dom = self.domain(node.domain, env)
        saved = self.param_ranges.get(node.var)
        if isinstance(node.domain, ast.Range):          # the body knows the variable's range
            lo, hi = _static_int(node.domain.lo), _static_int(node.domain.hi)
            if lo is not None and hi is not None:
                self.param_ranges[node.var] = (lo, hi)
        try:
            body = self.expr(node.body, inner)
        finally:
            if saved is None:
                self.param_ranges.pop(node.var, None)
            else:
                self.param_ranges[node.var] = saved
        if node.kind == "exists":
            return f"any({body} for {var} in {dom})"
        if node.kind == "forall":
            return f"all({body} for {var} in {dom})"
        if node.kind == "count":
            return f"sum(1 for {var} in {dom} if {body})"
        if node.kind == "sum":
            return f"sum({body} for {var} in {dom})"
        return f"{node.kind}(({body} for {var} in {dom}), default=0)"

    def domain(self, node, env):
        if isinstance(node, ast.Name) and node.id not in env:
            if node.id == "cell":
                return "ALL_CELLS"
            if node.id == "player":
                return f"range({self.n})"
            kind = self.kinds.get(id(node))
            var = self.vars.get(node.id)
            if var is not None and var.type.startswith("enum:") and (kind is None or kind[0] != "var"):
                return f"range({len(var.enum)})"
        if isinstance(node, ast.Range):
            lo, hi = self.expr(node.lo, env), self.expr(node.hi, env)
            if _static_int(node.lo) is not None and _static_int(node.hi) is not None:
                return f"range({lo}, {hi} + 1)"          # the checker bounded its size
            return f"span({lo}, {hi}, POSITIONS[{self.position(node)}])"
        return f"bits({self.expr(node, env)})"

    def x_Call(self, node, env):
        f = node.func
        a = node.args
        e = lambda i: self.expr(a[i], env)
        if f in ("next", "opponent") and self.player_const(node) is not None:
            return str(self.player_const(node))
        if f == "line":
            return self.line(self.value_mask(a[2], env), a[1], env)
        if f == "full":
            return f"({self.occupied()} == FULL)" if self.c.default_value is not None else "True"
        if f == "count":
            return f"{self.value_mask(a[1], env)}.bit_count()"
        if f == "cells":
            return self.value_mask(a[1], env)
        if f == "neighbors":
            return f"NEIGHBORS_{self.kinds[id(a[1])][1]}[{e(0)}]"
        if f in ("slide", "between"):
            dirs = self.kinds[id(a[2])][1]
            masks = [self.value_mask(m, env) for m in a[3:]]
            if dirs in _SHIFT_DIRECTIONS:
                return self.ray_walk("reach" if f == "slide" else "runs", dirs, e(1), *masks)
            return f"{f}(RAYS_{dirs}[{e(1)}], {', '.join(masks)})"
        if f == "drop":
            # the lowest empty cell of the column: its highest empty bit (-1 when full)
            return f"((COLUMN_MASKS[{e(1)}] & ~{self.occupied()}).bit_length() - 1)"
        if f in ("moves", "can_move"):
            self.legal_helpers.add(f)
            return f"_{f}({self.sig_with_mover(e(0))})"
        if f == "next":
            return f"(({e(0)} + 1) % {self.n})"
        if f in ("abs", "len", "sum", "min", "max"):
            return f"{f}({', '.join(self.expr(x, env) for x in a)})"
        return _CALL_TEMPLATES[f].format(*(e(i) for i in range(len(a))))

    def sig_with_mover(self, mover):
        return ", ".join(self.fields[:-1] + [mover])

    def line(self, mask, k_node, env):
        if isinstance(k_node, ast.Num):
            k = k_node.value
            if k > max(self.c.width, self.c.height):
                return "False"
            name = f"_line{k}"
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

    def line_helper(self, name, k):
        """k in a row along each direction by shift-and, doubling the run length per step."""
        lines = [f"def {name}(m):"]
        for s in self.tables.line_shifts():
            run, terms = 1, []
            while run < k:
                step = min(run, k - run)
                terms.append(f"t >> {s * step}")
                run += step
            lines.append(f"    t = m & m >> {s}" if k > 1 else "    t = m")
            for term in terms[1:-1]:
                lines.append(f"    t &= {term}")
            lines.append(f"    if {'t & ' + terms[-1] if len(terms) > 1 else 't'}:")
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
            for dx, dy in DIRECTION_SETS[dirs]:
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
            for dx, dy in DIRECTION_SETS[dirs]:
                delta = dx + dy * self.tables.stride
                back = f">> {delta}" if delta > 0 else f"<< {-delta}"
                lines += [f"    run = outer {back} & inner    # step ({dx}, {dy})",
                          "    while run:",
                          f"        run = run {back}",
                          "        found |= run",
                          "        run &= inner"]
            lines.append("    return found & FULL")
            self.helpers[name] = "\n".join(lines) + "\n"
        return f"{name}({inner}, {outer})"

    # ------------------------------------------------------------------ effects
    def effects(self, effects, env, out: _Source, known_empty=()):
        """`known_empty`: cells the precondition proved empty; true only until the first
        effect, which may write them (an assignment, or one inside an `if` or `for`)."""
        if out.depth > MAX_BLOCK_DEPTH and effects:
            raise SpecError.at(getattr(effects[0], "pos", None),
                               f"effects nested more than {MAX_EFFECT_NESTING} levels deep",
                               "join the conditions with `and`, or split the action")
        for e in effects:
            if isinstance(e, ast.Assign):
                self.assign(e, env, out, known_empty)
            elif isinstance(e, ast.IfEffect):
                out(f"if {self.expr(e.test, env)}:")
                out.indent()
                self.effects(e.then, env, out) if e.then else None
                out("pass") if not e.then else None
                out.dedent()
                if e.else_:
                    out("else:")
                    out.indent()
                    self.effects(e.else_, env, out)
                    out.dedent()
            elif isinstance(e, ast.ForEffect):
                var = self.fresh("q")
                out(f"for {var} in {self.domain(e.domain, env)}:")
                inner = dict(env)
                inner[e.var] = var
                out.indent()
                self.effects(e.body, inner, out)
                out.dedent()
            known_empty = ()

    def assign(self, e, env, out, known_empty):
        t = e.target
        if isinstance(t, ast.Name) and self.kinds.get(id(t), (None,))[0] == "turn":
            out(f"turn = {self.expr(e.value, env)}")
            self.written.add("mover")
            return
        if isinstance(t, ast.Index) and isinstance(t.base, ast.Name) and t.base.id == "board":
            index_type = self.types.get(id(t.index))
            idx = self.expr(t.index, env)
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
            val = self.fresh("v")
            out(f"{val} = {self.value(e.value, env)}")
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
        if isinstance(t, ast.Name):
            new = {"=": value, "+=": f"v_{name} + {value}", "-=": f"v_{name} - {value}"}[e.op]
            out(f"v_{name} = {new}")
            target = f"v_{name}"
        else:
            idx = self.expr(t.index, env)
            if not (idx.isdigit() and int(idx) < var.size <= 8):    # a known slot of a short tuple
                slot = self.fresh("i")
                out(f"{slot} = {idx}")
                if not self.index_safe(t):
                    out(f"if not 0 <= {slot} < {var.size}: bad_index(v_{name}, {slot}, {name!r}, "
                        f"POSITIONS[{self.position(t)}])")
                idx = slot
            new = {"=": value, "+=": f"v_{name}[{idx}] + {value}", "-=": f"v_{name}[{idx}] - {value}"}[e.op]
            if idx.isdigit():
                items = [new if j == int(idx) else f"v_{name}[{j}]" for j in range(var.size)]
                out(f"v_{name} = ({', '.join(items)},)")
            else:
                out(f"v_{name} = set_item(v_{name}, {idx}, {new})")
            target = f"v_{name}[{idx}]"
        if var.type == "int" and not (isinstance(e.value, ast.Num) and e.op == "="):
            out(f"if not {var.lo} <= {target} <= {var.hi}: out_of_range(NAMES[{len(self.names)}], {target}, {var.lo}, {var.hi})")
            self.names.append(name)

    # ------------------------------------------------------------------ actions
    def legal(self, out: _Source, mode: str, ret: str = "acts"):
        """Statements that return the mover's legal actions (mode "list", returning `ret`),
        whether there is one ("any") or how many ("count").  Conditions sit at the
        shallowest loop they depend on, cell parameters are drawn from bit masks, and a
        last parameter with no further condition takes all its values at once."""
        self.per_mover(out, lambda o: self.legal_schemas(o, mode, ret))

    def legal_schemas(self, out: _Source, mode, ret):
        started = mode != "list"
        if mode == "count":
            out("n = 0")
        for ai, a in enumerate(self.c.actions):
            out(f"# action {a.name}")
            self.note_param_ranges(a)
            conds = _operands("and", a.precondition)
            params = [p[0] for p in a.params]
            depth_of = lambda cond: max([params.index(n) + 1 for n in _names(cond) if n in params] or [0])
            env = {}
            base = out.depth
            top = [c for c in conds if depth_of(c) == 0]
            whole = None     # (mask of the last parameter's values, their tuple) when it is free
            loops = []
            for k, (pname, domain, ptype) in enumerate(a.params):
                var = f"p_{pname}"
                here = [c for c in conds if depth_of(c) == k + 1]
                header, rest = self.param_loop(pname, domain, ptype, here, env)
                env[pname] = var
                if k == len(a.params) - 1 and not rest and header[1] is not None \
                        and (mode != "list" or (self.single and len(a.params) == 1)):
                    whole = header[1:]
                else:
                    loops.append((header[0], rest))
            if not started:
                started = True
                if whole and not top and not loops and len(self.c.actions) == 1:
                    self.emit_values(out, "acts = [*{}]", *whole)
                    continue
                out("acts = []")
            for cond in top:
                out(f"if {self.expr(cond, env)}:")
                out.indent()
            for loop, rest in loops:
                out(loop)
                out.indent()
                for cond in rest:
                    out(f"if {self.expr(cond, env)}:")
                    out.indent()
            if whole:
                mask, values = whole
                if mode == "any":
                    out(f"if {mask}:")
                    out("    return True")
                elif mode == "count":
                    out(f"n += ({mask}).bit_count()")
                else:
                    self.emit_values(out, "acts += {}", mask, values)
            else:
                out({"any": "return True", "count": "n += 1"}.get(mode) or
                    f"acts.append({self.encode_action(ai, a, env)})")
            out.depth = base
        if not started:
            out("acts = []")
        out({"any": "return False", "count": "return n"}.get(mode) or f"return {ret}")

    def param_loop(self, pname, domain, ptype, conds, env):
        """((loop header, mask of the values or None, their tuple from a mask or None),
        conditions left to test) for one parameter of an action."""
        var = f"p_{pname}"
        masks, rest = [], []
        for cond in conds:
            m = self.cell_mask(cond, pname, env) if ptype == "cell" else None
            (masks if m else rest).append(m or cond)
        if masks:
            dom = self.domain(domain, env)
            mask = " & ".join(masks) + ("" if dom == "ALL_CELLS" else f" & {self.expr(domain, env)}"
                                        if not dom.startswith("range") else "")
            return (f"for {var} in bits({mask}):", mask, self.cells_table), rest
        if ptype == "int" and isinstance(domain, ast.Range):
            for cond in rest:
                row = self.row_mask(cond, pname, env)
                if row:
                    mask, table = row
                    return (f"for {var} in {table}[{mask}]:", mask, table), [c for c in rest if c is not cond]
            upper = [self.bound(c, pname, env) for c in rest]
            if any(upper):
                hi = "min(" + ", ".join([self.expr(domain.hi, env)] + [u for u in upper if u]) + ")"
                rest = [c for c, u in zip(rest, upper) if not u]
                return (f"for {var} in range({self.expr(domain.lo, env)}, {hi} + 1):", None, None), rest
        return (f"for {var} in {self.domain(domain, env)}:", None, None), rest

    def emit_values(self, out, template, mask, values):
        """`template` filled with the tuple of the values a mask stands for."""
        if callable(values):
            chunks = values()
            if len(chunks) > 1:
                out(f"_k = {mask}")
                mask = "_k"
            parts = [f"{table}[{mask}{f' >> {shift}' if shift else ''}{f' & {width}' if width else ''}]"
                     for table, shift, width in chunks]
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
            name = f"_CELLS{j}" if nbits > TABLE_BITS else "_CELLS"
            if name not in self.helpers:
                self.helpers[name] = (f"# {name}[m]: the (col, row) of each cell of bitboard m"
                                      f"{f' >> {low}' if low else ''}\n{name} = tuple(tuple("
                                      f"XY[i{f' + {low}' if low else ''}] for i in bits(m)) for m in range({1 << width}))\n")
            last = low + width == nbits
            chunks.append((name, low, None if last and (low or nbits <= TABLE_BITS) else (1 << width) - 1))
        return chunks

    def row_mask(self, cond, pname, env):
        """For `board[(p, R)] == V` with p an int parameter over constant bounds inside the
        board and R a constant row: (the bits of row R from column lo on where V is, a
        table from those bits to the tuple of values of p).  Only for ranges of at most
        TABLE_BITS values: the table has 2^(range size) entries."""
        if not (isinstance(cond, ast.Binary) and cond.op == "==" and pname in self.param_ranges):
            return None
        lo, hi = self.param_ranges[pname]
        if hi - lo + 1 > TABLE_BITS:
            return None
        for a, b in ((cond.left, cond.right), (cond.right, cond.left)):
            if self.is_board_read(a) and isinstance(a.index, ast.TupleExpr) and len(a.index.items) == 2 \
                    and _is_name(a.index.items[0], pname) and isinstance(a.index.items[1], ast.Num) \
                    and 0 <= a.index.items[1].value < self.c.height and 0 <= lo <= hi < self.c.width \
                    and self.const_value(b) is not None:
                count = hi - lo + 1
                table = f"_FROM{lo}_{count}"
                if table not in self.helpers:
                    self.helpers[table] = (f"# {table}[m]: {lo} + the index of each set bit of m ({count} bits)\n"
                                           f"{table} = tuple(tuple(i + {lo} for i in bits(m)) for m in range({1 << count}))\n")
                first = self.tables.cell(lo, a.index.items[1].value)
                shifted = f"{self.value_mask(b, env)} >> {first}" if first else self.value_mask(b, env)
                return f"{shifted} & {(1 << count) - 1}", table
        return None

    def cell_mask(self, cond, pname, env):
        """A bit mask of the cells satisfying `cond` for cell parameter `pname`, if it is
        of the form board[p] == V, p in SET (SET not depending on p), or
        size(between(board, p, DIRS, A, B)) > 0 with one-step directions."""
        if isinstance(cond, ast.Binary) and cond.op == "==":
            for a, b in ((cond.left, cond.right), (cond.right, cond.left)):
                if self.is_board_read(a) and _is_name(a.index, pname) and self.const_value(b) is not None:
                    return self.value_mask(b, env)
        if isinstance(cond, ast.Binary) and cond.op == "in" and _is_name(cond.left, pname) \
                and pname not in _names(cond.right):
            return self.expr(cond.right, env)
        if isinstance(cond, ast.Binary) and cond.op in (">", "!=", ">=") and isinstance(cond.right, ast.Num) \
                and cond.right.value == (1 if cond.op == ">=" else 0) and isinstance(cond.left, ast.Call) \
                and cond.left.func == "size" and isinstance(cond.left.args[0], ast.Call) \
                and cond.left.args[0].func == "between":
            _, origin, dirs, inner, outer = cond.left.args[0].args
            dirs = self.kinds[id(dirs)][1]
            if _is_name(origin, pname) and dirs in _SHIFT_DIRECTIONS and pname not in _names(inner) | _names(outer):
                return self.ray_ends(dirs, self.value_mask(inner, env), self.value_mask(outer, env))
        return None

    def bound(self, cond, pname, env):
        """Upper bound on int parameter `pname` from `p <= E` / `p < E` (E free of p)."""
        if isinstance(cond, ast.Binary) and cond.op in ("<=", "<") and _is_name(cond.left, pname) \
                and pname not in _names(cond.right):
            return self.expr(cond.right, env) + (" - 1" if cond.op == "<" else "")
        if isinstance(cond, ast.Binary) and cond.op in (">=", ">") and _is_name(cond.right, pname) \
                and pname not in _names(cond.left):
            return self.expr(cond.left, env) + (" - 1" if cond.op == ">" else "")
        return None

    def external(self, ptype, var):
        if ptype == "cell":
            return f"XY[{var}]"
        if ptype.startswith("enum:"):
            return f"ENUMS[{self.enum_index(ptype)}][{var}]"
        return var

    def enum_index(self, ptype):
        names = [v.name for v in self.c.variables if v.type.startswith("enum:")]
        return names.index(ptype[5:])

    def encode_action(self, ai, a, env):
        values = [self.external(p[2], env[p[0]]) for p in a.params]
        if self.single:
            if len(values) == 1:
                return values[0]
            return "(" + "".join(v + ", " for v in values) + ")"
        if not values:
            return f"ACTION_NAMES[{ai}]"
        return f"(ACTION_NAMES[{ai}], " + "".join(v + ", " for v in values) + ")"

    def decode(self, ptype, code):
        if ptype == "cell":
            return f"CELL_OF[{code}]"
        if ptype.startswith("enum:"):
            return f"ENUM_INDEX[{self.enum_index(ptype)}][{code}]"
        return code

    # ------------------------------------------------------------------ module
    def module(self) -> str:
        c = self.c
        out = _Source()
        self.helpers = {}
        self.names = []
        self.written = set()
        self.legal_helpers = set(_calls_of(c, ("moves", "can_move")))
        body = _Source()
        self.apply_functions(body)
        self.terminal_function(body)
        self.utility_function(body)
        self.evaluation_function(body)
        self.initial_function(body)
        if self.has_chance:
            self.chance_function(body)
        state = _Source()
        self.state_class(state)
        self.legal_functions(body)
        out(f"# Generated by plyspec from {'the spec' if not c.spec.file else 'a spec file'}: "
            f"game with {self.n} player(s), {len(c.actions)} action schema(s).")
        out("# State tuple: (" + ", ".join(self.fields + (["pending"] if self.has_chance else []) + ["terminal"]) + ")")
        out("# Cells are bit indices: (col, row) -> row * STRIDE + col; `none` is -1.")
        out()
        out("_new = tuple.__new__")
        for name, src in self.helpers.items():
            out(src)
        out.lines.extend(body.lines)
        out.lines.extend(state.lines)
        return out.text()

    def per_mover(self, out: _Source, emit):
        """emit(out) once for each player as a constant `mover` (under `if mover == i:`)
        when the code it writes depends on the mover, so that the player's own values and
        bitboards are named directly; otherwise once."""
        probe = _Source()
        probe.depth = out.depth
        emit(probe)
        if self.mover_const is not None or self.n > MAX_SPECIALISED_PLAYERS \
                or "mover" not in _IDENT.findall(probe.text()):
            out.lines.extend(probe.lines)
            return
        for i in range(self.n):
            last = i == self.n - 1
            if self.n > 1:
                out(f"# player {i} to move" if last else f"if mover == {i}:")
            out.depth += not last
            self.mover_const = i
            emit(out)
            self.mover_const = None
            out.depth -= not last

    def legal_functions(self, out: _Source):
        """_can_move / _moves(fields, mover): whether a player has a legal action, how many."""
        for f, mode in (("can_move", "any"), ("moves", "count")):
            if f in self.legal_helpers:
                out(f"def _{f}({self.sig}):")
                out.indent()
                self.legal(out, mode)
                out.dedent()
                out()

    def state_class(self, out: _Source):
        c, n = self.c, self.n
        unpack = ", ".join(self.fields + (["pending"] if self.has_chance else []) + ["terminal"])
        out("class State(tuple):")
        out.indent()
        out('"""An immutable game state; see framework.game for the interface."""')
        out("__slots__ = ()")
        out()
        out("def player(self):")
        if self.has_chance:
            out(f"    return {CHANCE} if self[-2] is not None else self[{len(self.fields) - 1}]")
        else:
            out(f"    return self[{len(self.fields) - 1}]")
        out()
        out("def terminal_test(self):")
        out(f"    return self[{len(self.fields) + self.has_chance}]")
        out()
        out("def is_chance(self):")
        out("    return self[-2] is not None" if self.has_chance else "    return False")
        out()
        out("def actions(self):")
        out.indent()
        out(f"{unpack} = self")
        out("if terminal:")
        out("    return []")
        if self.has_chance:
            out("if pending is not None:")
            out(f"    return [outcome for outcome, _ in _outcomes({self.sig}, pending)]")
        where = c.spec.positions.get("terminal") or c.spec.positions.get("goal") or c.spec.pos
        self.positions.append(where)
        self.legal(out, "list", "acts or ['pass']" if c.spec.pass_rule else
                   f"acts or no_actions(POSITIONS[{len(self.positions) - 1}])")
        out.dedent()
        out()
        out("def chance_outcomes(self):")
        if self.has_chance:
            out(f"    {unpack} = self")
            out(f"    return _outcomes({self.sig}, pending) if pending is not None else []")
        else:
            out("    return []")
        out()
        out("def result(self, action):")
        out.indent()
        out(f"{unpack} = self")
        if self.has_chance:
            out("if pending is not None:")
            out.indent()
            for ai, a in enumerate(c.actions):
                if not a.chance:
                    continue
                out(f"if pending[0] == {ai}:")
                out(f"    return _apply{ai}({self.sig}, *pending[1], {self.decode(a.chance[2], 'action')})")
            out.dedent()
        if c.spec.pass_rule:
            out("if action == 'pass':")
            nxt = f"(mover + 1) % {n}" if n > 1 else "0"
            out(f"    return {self.make_call(self.sig_with_mover(nxt))}")
        out("try:")
        out.indent()
        for ai, a in enumerate(c.actions):
            types = [p[2] for p in a.params]
            if self.single:
                raw = ["action"] if len(types) == 1 else [f"action[{k}]" for k in range(len(types))]
                if not types:
                    raw = []
                    out("if action != ():")
                    out("    raise KeyError(action)")
                elif len(types) > 1:
                    out(f"if len(action) != {len(types)}:")
                    out("    raise KeyError(action)")
            elif not types:
                out(f"if action == ACTION_NAMES[{ai}]:")
                out.indent()
                raw = []
            else:
                out(f"if action[0] == ACTION_NAMES[{ai}]:")
                out.indent()
                out(f"if len(action) != {len(types) + 1}:")
                out("    raise KeyError(action)")
                raw = [f"action[{k + 1}]" for k in range(len(types))]
            args = [self.decode(t, r) for t, r in zip(types, raw)]
            if a.chance:
                fields = self.sig
                out(f"return _new(State, ({fields}, ({ai}, ({''.join(x + ', ' for x in args)})), False))")
            else:
                env = {}
                for (pname, _, _), arg, r in zip(a.params, args, raw):
                    env[pname] = arg if arg == r else f"p_{pname}"
                    if arg != r:
                        out(f"p_{pname} = {arg}")
                self.per_mover(out, lambda o: self.apply_body(o, a, env))
            if not self.single:
                out.dedent()
        if not self.single:
            out("raise KeyError(action)")
        out.dedent()
        out("except (KeyError, IndexError, TypeError, ValueError):")
        out("    raise IllegalAction(f'{action!r} is not an action of this game') from None")
        out.dedent()
        out()
        out("def utility(self, player):")
        out(f"    {unpack} = self")
        out("    if not terminal:")
        out("        return 0")
        out(f"    return _utility({self.sig}, player)")
        out()
        out("def returns(self):")
        out(f"    return tuple(self.utility(p) for p in range({n}))")
        out()
        out("def __reduce__(self):")
        out("    return (restore_state, (GAME_KEY, tuple(self)))")
        out.dedent()
        out()

    def make_call(self, fields, pending="None"):
        extra = f", {pending}" if self.has_chance else ""
        return f"_new(State, ({fields}{extra}, _terminal({fields})))"

    def apply_functions(self, out: _Source):
        """_apply<i>(fields, params, outcome): the successor state once chance has chosen the
        outcome of action i (the other actions are applied inside State.result)."""
        for ai, a in enumerate(self.c.actions):
            if not a.chance:
                continue
            params = [f"p_{p[0]}" for p in a.params] + [f"p_{a.chance[0]}"]
            out(f"def _apply{ai}({', '.join([self.sig] + params)}):")
            out.indent()
            env = {p[0]: f"p_{p[0]}" for p in a.params}
            env[a.chance[0]] = f"p_{a.chance[0]}"
            self.apply_body(out, a, env, frame=False)
            out.dedent()
            out()

    def apply_body(self, out: _Source, a, env, frame=True):
        """The effects of action `a`, the next player and the return of the successor.  With
        `frame`, the parent (a state with `terminal` in scope) is known not to be terminal
        unless `terminal` says so, which lets the successor's terminal test skip what the
        effects cannot have changed."""
        out(f"# {len(a.effects)} effect(s) of action #{self.c.actions.index(a)}")
        self.note_param_ranges(a)
        self.written = {"mover"}
        sets_turn = _assigns_turn(a.effects)
        if self.c.turn is not None:
            turn_rule = self.expr(self.c.turn, {})
        elif self.mover_const is not None:
            turn_rule = str((self.mover_const + 1) % self.n)
        else:
            turn_rule = f"(mover + 1) % {self.n}" if self.n > 1 else "0"
        if sets_turn:
            out(f"turn = {UNSET_TURN}")
        known_empty = [ast.Name(p[0]) for p in a.params if p[2] == "cell" and self._requires_default(a, p[0])]
        self.effects(a.effects, env, out, tuple(known_empty))
        if sets_turn:
            out(f"if turn == {UNSET_TURN}:")
            out(f"    turn = {turn_rule}")
        else:
            out(f"turn = {turn_rule}")
        child = self.sig_with_mover("turn")
        terminal, exact = self.child_terminal() if frame else (f"_terminal({child})", True)
        if not exact:
            out("# terminal: the tests that read what this move wrote (the others failed in the parent)")
        out(f"return _new(State, ({child}{', None' if self.has_chance else ''}, {terminal}))")

    def child_terminal(self):
        """(code, exact): the successor's terminal test given that the parent's failed: a
        disjunct of the terminal (or goal) condition that reads no field the effects wrote
        is still false (exact: none was left out).  Should the parent be terminal after all,
        the whole test is made."""
        saved = self.mover_const, self.mover_code
        self.mover_const, self.mover_code = None, "turn"
        kept, exact = [], True
        fields = set(self.fields[:-1])
        for d in _operands("or", self.c.terminal) + _operands("or", self.c.goal):
            code = self.expr(d, {})
            names = set(_IDENT.findall(code))
            reads = (names & fields) | ({"mover"} if "turn" in names else set())
            if reads & self.written:
                kept.append(code if _is_bool(d, self) else f"bool({code})")
            else:
                exact = False
        self.mover_const, self.mover_code = saved
        if not exact:
            kept.append(f"(terminal and _terminal({self.sig_with_mover('turn')}))")
        return " or ".join(kept) or "False", exact

    def _requires_default(self, a, pname):
        for cond in _operands("and", a.precondition):
            if isinstance(cond, ast.Binary) and cond.op == "==":
                for x, y in ((cond.left, cond.right), (cond.right, cond.left)):
                    if self.is_board_read(x) and _is_name(x.index, pname) and self.const_value(y) == self.c.default_value:
                        return True
        return False

    def terminal_function(self, out: _Source):
        parts = [self.expr(e, {}) for e in (self.c.terminal, self.c.goal) if e is not None]
        out(f"def _terminal({self.sig}):")
        out(f"    return bool({' or '.join(parts) or 'False'})")
        out()
        if self.c.goal is not None:
            out(f"def _goal({self.sig}):")
            out(f"    return bool({self.expr(self.c.goal, {})})")
            out()

    def utility_function(self, out: _Source):
        c = self.c
        out(f"def _utility({self.sig}, me):")
        out.indent()
        if c.winner is not None:
            out(f"winner = {self.expr(c.winner, {})}")
            if self.n == 2:
                out("return 0 if winner < 0 else 1 if winner == me else -1")
            else:
                out("return 1 if winner == me else 0")
        elif c.utility is not None:
            form, e = c.utility
            if form == "zero_sum":
                out(f"value = {self.expr(e, {})}")
                out("return value if me == 0 else -value")
            elif form == "me":
                out(f"return {self.expr(e, {})}")
            else:
                for i, expr in e.items():
                    out(f"if me == {i}:")
                    out(f"    return {self.expr(expr, {})}")
                out("return 0")
        else:
            out(f"return 1 if _goal({self.sig}) else 0")
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
            elif kind == "values":
                code = repr(tuple(init))
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
        self.effects(c.init, {}, out)
        out(f"return {self.make_call(self.sig)}")
        out.dedent()
        out()

    def chance_function(self, out: _Source):
        out(f"def _outcomes({self.sig}, pending):")
        out.indent()
        for ai, a in enumerate(self.c.actions):
            if not a.chance:
                continue
            var, domain, t, prob = a.chance
            out(f"if pending[0] == {ai}:")
            out.indent()
            env = {p[0]: f"p_{p[0]}" for p in a.params}
            if a.params:
                out(f"{', '.join(env.values())}, = pending[1]")
            q = f"p_{var}"
            env[var] = q
            out("out = []")
            out(f"for {q} in {self.domain(domain, env)}:")
            out(f"    probability = {self.expr(prob, env)}")
            out("    if probability > 0:")
            out(f"        out.append(({self.external(t, q)}, probability))")
            out("return out")
            out.dedent()
        out("return []")
        out.dedent()
        out()


_STATIC_CALLS = {"len": len, "max": max, "min": min, "sum": sum, "abs": abs}


def _static_int(node):
    """The value of an integer expression made of constants (options are constants once
    checked: `len(heaps) - 1`), or None."""
    if isinstance(node, ast.Num):
        return node.value if isinstance(node.value, int) else None
    if isinstance(node, ast.Binary) and node.op in ("+", "-", "*"):
        a, b = _static_int(node.left), _static_int(node.right)
        if a is not None and b is not None:
            return a + b if node.op == "+" else a - b if node.op == "-" else a * b
    if isinstance(node, ast.Call) and node.func in _STATIC_CALLS and len(node.args) == 1 \
            and isinstance(node.args[0], ast.ListExpr):
        values = [_static_int(i) for i in node.args[0].items]
        if values and None not in values:
            return _STATIC_CALLS[node.func](values)
    return None


MAX_EFFECT_NESTING = 40        # `if`/`for` effects inside each other (Python allows ~100 blocks)
MAX_BLOCK_DEPTH = MAX_EFFECT_NESTING + 12   # the generated code's own blocks around them


def _operands(op: str, node) -> list:
    """The operands of a chain of `op` ("and" / "or"): [a, b, c] for a op b op c; [] for none
    (iterative: a chain of thousands of terms is fine)."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        if isinstance(n, ast.Binary) and n.op == op:
            stack.append(n.right)
            stack.append(n.left)
        else:
            out.append(n)
    return out


def _is_name(node, name):
    return isinstance(node, ast.Name) and node.id == name


def _names(node) -> set:
    out = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name):
            out.add(n.id)
        for f in getattr(n, "__dataclass_fields__", {}):
            if f == "pos":
                continue
            child = getattr(n, f)
            for ch in (child if isinstance(child, tuple) else (child,)):
                if hasattr(ch, "__dataclass_fields__"):
                    stack.append(ch)
    return out


def _assigns_turn(effects) -> bool:
    for e in effects:
        if isinstance(e, ast.Assign) and isinstance(e.target, ast.Name) and e.target.id == "turn":
            return True
        if isinstance(e, ast.IfEffect) and (_assigns_turn(e.then) or _assigns_turn(e.else_)):
            return True
        if isinstance(e, ast.ForEffect) and _assigns_turn(e.body):
            return True
    return False


def _is_bool(node, compiler) -> bool:
    """True when the code compiled for a condition surely evaluates to a bool."""
    if isinstance(node, ast.Unary):
        return node.op == "not"
    if isinstance(node, ast.Call):
        return node.func in ("line", "full", "can_move")
    if isinstance(node, ast.Binary):
        if node.op in ("and", "or"):
            return _is_bool(node.left, compiler) and _is_bool(node.right, compiler)
        if node.op in ("<", "<=", ">", ">="):
            return True
        return node.op in ("==", "!=") and not (compiler.is_board_read(node.left) or compiler.is_board_read(node.right))
    return isinstance(node, ast.Name) and compiler.kinds.get(id(node), (None,))[0] == "bool"


def _calls_of(checked, funcs) -> set:
    """The names among `funcs` of the built-ins the checked game's rules call."""
    found, stack = set(), [checked.actions, checked.init, checked.turn, checked.terminal, checked.goal,
                           checked.utility, checked.winner, checked.features]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, dict):
            stack.extend(n.values())
        elif hasattr(n, "__dataclass_fields__"):
            if isinstance(n, ast.Call) and n.func in funcs:
                found.add(n.func)
            stack.extend(getattr(n, f) for f in n.__dataclass_fields__ if f != "pos")
    return found
