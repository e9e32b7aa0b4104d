"""Compiler: a checked game -> readable Python source -> a `Game` with a fast State class.

The state is a tuple subclass (hashing, equality and pickling by value, all in C):
one int per non-initial board value (a bitboard), one slot per state variable (lists as
tuples), the player to move, the pending chance action (games with chance only) and a
cached terminal flag.  Board vocabulary is lowered to bit operations (line-of-k by
shift-and, cells-of-value masks, precomputed neighbour and ray tables), and action
generation iterates over the set bits of a precondition's cell mask instead of testing
every cell.  Every name the spec chose appears in the source only with a prefix
(`v_` variables, `p_` parameters, `q_` bound variables, `b_` bitboards), and no text of the
spec is ever placed in the source: symbols and names travel as data.
"""
from __future__ import annotations

import math

from framework import ast, runtime
from framework.checker import Checked, DIRECTION_SETS
from framework.game import Game, CHANCE

UNSET_TURN = -2
# builtins that are a fixed pattern over their compiled arguments
_CALL_TEMPLATES = {"size": "{0}.bit_count()", "col": "COL[{0}]", "row": "ROW[{0}]",
                   "cell": "CELL({0}, {1})", "opponent": "(1 - {0})"}


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
        self.single = len(c.actions) == 1
        self.vars = {v.name: v for v in c.variables}
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
        """Index of a constant board value (a value or player name), else None."""
        if isinstance(node, ast.Name):
            kind = self.kinds.get(id(node))
            if kind and kind[0] == "value":
                return kind[1]
            if kind and kind[0] == "player" and self.player_value:
                return self.player_value[kind[1]]
        return None

    def value(self, node, env):
        """Expression as a board value index (coercing players)."""
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
            return "mover"
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
        self.param_ranges = {p[0]: (p[1].lo.value, p[1].hi.value) for p in action.params
                             if isinstance(p[1], ast.Range) and isinstance(p[1].lo, ast.Num)
                             and isinstance(p[1].hi, ast.Num)}

    def x_Unary(self, node, env):
        inner = self.expr(node.operand, env)
        return f"(not {inner})" if node.op == "not" else f"(-{inner})"

    def x_Cond(self, node, env):
        return f"({self.expr(node.then, env)} if {self.expr(node.test, env)} else {self.expr(node.else_, env)})"

    def x_Binary(self, node, env):
        op = node.op
        if op in ("and", "or"):
            return f"({self.expr(node.left, env)} {op} {self.expr(node.right, env)})"
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
        if op in ("//", "%"):
            return f"_div({left}, {right}, {op!r})"
        if op == "/":
            return f"_div({left}, {right}, '/')"
        return f"({left} {op} {right})"

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
            cell = self.expr(node.index, env)
            parts = [f"{i} if b_{self.c.values[i]} >> _c & 1 else" for i in self.boards]
            return f"(lambda _c: {' '.join(parts)} {self.c.default_value})({cell})" if len(self.boards) > 1 \
                else f"({parts[0]} {self.c.default_value})".replace("_c", cell) if self.boards else str(self.c.default_value)
        return f"{self.expr(node.base, env)}[{self.expr(node.index, env)}]"

    def x_Quant(self, node, env):
        var = self.fresh("q")
        inner = dict(env)
        inner[node.var] = var
        dom = self.domain(node.domain, env)
        body = self.expr(node.body, inner)
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
            return f"range({self.expr(node.lo, env)}, {self.expr(node.hi, env)} + 1)"
        return f"bits({self.expr(node, env)})"

    def x_Call(self, node, env):
        f = node.func
        a = node.args
        e = lambda i: self.expr(a[i], env)
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
        if f == "slide":
            return f"slide(RAYS_{self.kinds[id(a[2])][1]}[{e(1)}], {self.value_mask(a[3], env)})"
        if f == "between":
            return (f"between(RAYS_{self.kinds[id(a[2])][1]}[{e(1)}], {self.value_mask(a[3], env)}, "
                    f"{self.value_mask(a[4], env)})")
        if f == "drop":
            return f"_drop(COLUMN_MASKS[{e(1)}] & ~{self.occupied()})"
        if f in ("moves", "can_move"):
            return f"{'len' if f == 'moves' else 'bool'}(_legal({self.sig_with_mover(e(0))}))"
        if f == "next":
            return f"(({e(0)} + 1) % {self.n})"
        if f in ("abs", "len", "sum", "min", "max"):
            return f"{f}({', '.join(self.expr(x, env) for x in a)})"
        return _CALL_TEMPLATES[f].format(*(e(i) for i in range(len(a))))

    def sig_with_mover(self, mover):
        return ", ".join(self.fields[:-1] + [mover])

    def line(self, mask, k_node, env):
        shifts = self.tables.line_shifts()
        if isinstance(k_node, ast.Num):
            k = k_node.value
            if k > max(self.c.width, self.c.height):
                return "False"
            name = f"_line{k}"
            if name not in self.line_helpers:
                body = " or ".join(
                    "(" + " & ".join(["m"] + [f"m >> {s * j}" for j in range(1, k)]) + ")" for s in shifts)
                self.line_helpers[name] = f"def {name}(m):\n    return bool({body})\n"
            return f"{name}({mask})"
        return f"line({mask}, {self.expr(k_node, env)}, LINE_SHIFTS)"

    # ------------------------------------------------------------------ effects
    def effects(self, effects, env, out: _Source, known_empty=()):
        for e in effects:
            if isinstance(e, ast.Assign):
                self.assign(e, env, out, known_empty)
                known_empty = ()
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

    def assign(self, e, env, out, known_empty):
        t = e.target
        if isinstance(t, ast.Name) and self.kinds.get(id(t), (None,))[0] == "turn":
            out(f"turn = {self.expr(e.value, env)}")
            return
        if isinstance(t, ast.Index) and isinstance(t.base, ast.Name) and t.base.id == "board":
            index_type = self.types.get(id(t.index))
            mask = self.fresh("m")
            idx = self.expr(t.index, env)
            out(f"{mask} = {'1 << ' + idx if index_type == 'cell' else idx}")
            const = self.const_value(e.value)
            was_empty = index_type == "cell" and (t.index in known_empty or (
                isinstance(t.index, ast.Call) and t.index.func == "drop"))
            if const is not None:
                for i in self.boards:
                    bb = f"b_{self.c.values[i]}"
                    if i == const:
                        out(f"{bb} |= {mask}")
                    elif not was_empty:
                        out(f"{bb} &= ~{mask}")
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
        value = self.expr(e.value, env)
        if isinstance(t, ast.Name):
            new = {"=": value, "+=": f"v_{name} + {value}", "-=": f"v_{name} - {value}"}[e.op]
            out(f"v_{name} = {new}")
            target = f"v_{name}"
        else:
            idx = self.fresh("i")
            out(f"{idx} = {self.expr(t.index, env)}")
            new = {"=": value, "+=": f"v_{name}[{idx}] + {value}", "-=": f"v_{name}[{idx}] - {value}"}[e.op]
            out(f"v_{name} = set_item(v_{name}, {idx}, {new})")
            target = f"v_{name}[{idx}]"
        if var.type == "int" and not (isinstance(e.value, ast.Num) and e.op == "="):
            out(f"if not {var.lo} <= {target} <= {var.hi}: out_of_range(NAMES[{len(self.names)}], {target}, {var.lo}, {var.hi})")
            self.names.append(name)

    # ------------------------------------------------------------------ actions
    def conjuncts(self, node):
        if node is None:
            return []
        if isinstance(node, ast.Binary) and node.op == "and":
            return self.conjuncts(node.left) + self.conjuncts(node.right)
        return [node]

    def legal(self, out: _Source):
        """_legal(fields, mover): the legal actions, with conditions placed at the
        shallowest loop they depend on and cell parameters drawn from bit masks."""
        out(f"def _legal({self.sig}):")
        out.indent()
        out("acts = []")
        for ai, a in enumerate(self.c.actions):
            out(f"# action {a.name}")
            self.note_param_ranges(a)
            conds = self.conjuncts(a.precondition)
            params = [p[0] for p in a.params]
            depth_of = lambda cond: max([params.index(n) + 1 for n in _names(cond) if n in params] or [0])
            env = {}
            base = out.depth
            for cond in [c for c in conds if depth_of(c) == 0]:
                out(f"if {self.expr(cond, env)}:")
                out.indent()
            for k, (pname, domain, ptype) in enumerate(a.params):
                var = f"p_{pname}"
                here = [c for c in conds if depth_of(c) == k + 1]
                masks, rest = [], []
                for cond in here:
                    m = self.cell_mask(cond, pname, env) if ptype == "cell" else None
                    (masks if m else rest).append(m or cond)
                upper = [self.bound(c, pname, env) for c in rest] if ptype == "int" else []
                if masks:
                    dom = self.domain(domain, env)
                    mask = " & ".join(masks) + ("" if dom == "ALL_CELLS" else f" & {self.expr(domain, env)}"
                                                if not dom.startswith("range") else "")
                    out(f"for {var} in bits({mask}):")
                elif ptype == "int" and isinstance(domain, ast.Range) and any(upper):
                    hi = "min(" + ", ".join([self.expr(domain.hi, env)] + [u for u in upper if u]) + ")"
                    out(f"for {var} in range({self.expr(domain.lo, env)}, {hi} + 1):")
                    rest = [c for c, u in zip(rest, upper) if not u]
                else:
                    out(f"for {var} in {self.domain(domain, env)}:")
                out.indent()
                env[pname] = var
                for cond in rest:
                    out(f"if {self.expr(cond, env)}:")
                    out.indent()
            out(f"acts.append({self.encode_action(ai, a, env)})")
            out.depth = base
        out("return acts")
        out.dedent()
        out()

    def cell_mask(self, cond, pname, env):
        """A bit mask of the cells satisfying `cond` for cell parameter `pname`, if it is
        of the form board[p] == V or p in SET (SET not depending on p)."""
        if isinstance(cond, ast.Binary) and cond.op == "==":
            for a, b in ((cond.left, cond.right), (cond.right, cond.left)):
                if self.is_board_read(a) and _is_name(a.index, pname) and self.const_value(b) is not None:
                    return self.value_mask(b, env)
        if isinstance(cond, ast.Binary) and cond.op == "in" and _is_name(cond.left, pname) \
                and pname not in _names(cond.right):
            return self.expr(cond.right, env)
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
        self.line_helpers = {}
        self.names = []
        body = _Source()
        self.legal(body)
        self.apply_functions(body)
        self.terminal_function(body)
        self.utility_function(body)
        self.evaluation_function(body)
        self.initial_function(body)
        if self.has_chance:
            self.chance_function(body)
        out(f"# Generated by plyspec from {'the spec' if not c.spec.file else 'a spec file'}: "
            f"game with {self.n} player(s), {len(c.actions)} action schema(s).")
        out("# State tuple: (" + ", ".join(self.fields + (["pending"] if self.has_chance else []) + ["terminal"]) + ")")
        out("# Cells are bit indices: (col, row) -> row * STRIDE + col; `none` is -1.")
        out()
        out("_new = tuple.__new__")
        for name, src in self.line_helpers.items():
            out(src)
        out("def _div(a, b, op):")
        out("    if b == 0:")
        out("        raise ZeroDivisionError('division by zero in a rule of the spec')")
        out("    return a // b if op == '//' else a % b if op == '%' else a / b")
        out()
        out("def _drop(empty_in_column):")
        out("    return empty_in_column.bit_length() - 1 if empty_in_column else -1")
        out()
        out.lines.extend(body.lines)
        self.state_class(out)
        return out.text()

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
        out("    return self[-1]")
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
        out(f"acts = _legal({self.sig})")
        if c.spec.pass_rule:
            out("return acts or ['pass']")
        else:
            out("return acts")
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
                out(f"return _apply{ai}({', '.join([self.sig] + args)})")
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
        """_apply_<action>(fields, params[, outcome]): the successor state."""
        for ai, a in enumerate(self.c.actions):
            params = [f"p_{p[0]}" for p in a.params]
            if a.chance:
                params.append(f"p_{a.chance[0]}")
            out(f"def _apply{ai}({', '.join([self.sig] + params)}):")
            out.indent()
            out(f"# {len(a.effects)} effect(s) of action #{ai}")
            self.note_param_ranges(a)
            env = {p[0]: f"p_{p[0]}" for p in a.params}
            if a.chance:
                env[a.chance[0]] = f"p_{a.chance[0]}"
            sets_turn = _assigns_turn(a.effects)
            turn_rule = self.expr(self.c.turn, {}) if self.c.turn is not None else f"(mover + 1) % {self.n}" if self.n > 1 else "0"
            if sets_turn:
                out(f"turn = {UNSET_TURN}")
            known_empty = [ast.Name(p[0]) for p in a.params if p[2] == "cell" and self._requires_default(a, p[0])]
            self.effects(a.effects, env, out, tuple(known_empty))
            if sets_turn:
                out(f"if turn == {UNSET_TURN}:")
                out(f"    turn = {turn_rule}")
            else:
                out(f"turn = {turn_rule}")
            out(f"return {self.make_call(self.sig_with_mover('turn'))}")
            out.dedent()
            out()

    def _requires_default(self, a, pname):
        for cond in self.conjuncts(a.precondition):
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
