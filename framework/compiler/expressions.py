"""Expression lowering: each checked expression node -> a Python expression over the state's
fields (names, arithmetic, comparisons with cell values, indexing); quantifiers and domains
are lowered by quantifiers.py, builtin calls by their registry modules (framework.builtins).
"""
from __future__ import annotations


from framework import ast, builtins
from framework.builtins.connectivity import capped_liberties, region_meets
from framework.compiler.common import _static_int, _operands
from framework.compiler.local_lists import constant_index

# cell code that may be written more than once (no side effect, cheap): a name, a
# non-negative integer, a name indexed by an integer (a raw action's `action[1]`)


class ExpressionsMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

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

    def const_test(self, node):
        """True or False for a comparison of two players known while compiling, else None."""
        if isinstance(node, ast.Binary) and node.op in ("==", "!="):
            a, b = self.player_const(node.left), self.player_const(node.right)
            if a is not None and b is not None and self.types.get(id(node.left)) == "player" \
                    and self.types.get(id(node.right)) == "player":
                return (a == b) == (node.op == "==")
        return None

    def folded(self, node):
        """`node` with each outer conditional whose test is known while compiling (players
        compared, the mover known) replaced by the branch it takes."""
        while isinstance(node, ast.Cond) and self.const_test(node.test) is not None:
            node = node.then if self.const_test(node.test) else node.else_
        return node

    def const_value(self, node):
        """Index of a constant board value (a value or a constant player), else None."""
        if isinstance(node, ast.Cond) and self.const_test(node.test) is not None:
            return self.const_value(node.then if self.const_test(node.test) else node.else_)
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
        if isinstance(node, ast.Cond) and self.const_test(node.test) is not None:
            return self.player_const(node.then if self.const_test(node.test) else node.else_)
        if isinstance(node, ast.Call) and node.func in ("next", "prev", "opponent") and len(node.args) == 1:
            inner = self.player_const(node.args[0])
            if inner is not None:
                return {"next": (inner + 1) % self.n, "prev": (inner - 1) % self.n, "opponent": 1 - inner}[node.func]
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
        if self.subst and id(node) in self.subst:         # an argument of the body being outlined
            return self.subst[id(node)]
        if self.outlining and id(node) in self.c.expansions:
            code = self.outline(node, env)                # a large definition: called (outline.py)
            if code is not None:
                return code
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
        if kind == "point":                    # a graph board's point: its cell (framework.graph)
            return str(self.tables.cell(info, 0))
        if kind == "line":                     # a graph board's line: the mask of its points
            return str(sum(1 << self.tables.cell(i, 0) for i in self.c.graph.lines[info][1]))
        raise AssertionError(f"unresolved name {node.id}")

    def x_TupleExpr(self, node, env):
        if all(isinstance(i, ast.Num) for i in node.items):
            return str(self.tables.cell(*(i.value for i in node.items)))
        if all(self.in_bounds(item, size, env) for item, size in zip(node.items, (self.c.width, self.c.height))):
            x, y = (self.expr(i, env) for i in node.items)
            return f"({y} * {self.tables.stride} + {x})"
        return self.int_cell(*node.items, env) or f"CELL({self.expr(node.items[0], env)}, {self.expr(node.items[1], env)})"

    def x_ListExpr(self, node, env):
        return "(" + "".join(self.expr(i, env) + ", " for i in node.items) + ")"

    def in_bounds(self, node, size, env=None):
        """True when an int expression is a constant or a range parameter within 0..size-1,
        or its range (int_ranges.py) is."""
        if isinstance(node, ast.Num):
            return 0 <= node.value < size
        lo_hi = self.param_ranges.get(node.id) if isinstance(node, ast.Name) else None
        lo_hi = lo_hi or self.interval(node, env)
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
        """`a if c else b if d else e` as one flat Python conditional, however long; a test
        known while compiling (players compared, the mover known) keeps its branch only."""
        parts = []
        node = self.folded(node)
        if not isinstance(node, ast.Cond):
            return self.expr(node, env)
        while isinstance(node, ast.Cond):
            parts.append(f"{self.expr(node.then, env)} if {self.expr(node.test, env)} else")
            node = node.else_
        return f"({' '.join(parts)} {self.expr(node, env)})"

    def x_Binary(self, node, env):
        op = node.op
        emptiness = self.emptiness(node, env) or capped_liberties(self, node, env)
        if emptiness:
            return emptiness
        if op == "and":                      # a chain of any length, flat; each operand knows
            operands, mark = _operands(op, node), len(self.and_facts)     # those before it held
            try:
                codes = []
                for x in operands:
                    codes.append(self.expr(x, env))
                    self.and_facts.append((x, env))
            finally:
                del self.and_facts[mark:]
            return "(" + " and ".join(codes) + ")"
        if op == "or":
            codes = [self.expr(x, env) for x in _operands(op, node)]
            return "(" + " or ".join(self.cheap_first(node, codes)) + ")"
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
        meets = region_meets(self, node, env)
        if meets:
            return meets
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
            return self.board_read(node, env)
        if isinstance(node.base, ast.Name) and node.base.id in self.item_locals \
                and self.kinds.get(id(node.base), ("",))[0] == "var":      # one local per item (local_lists.py)
            return self.item_locals[node.base.id][constant_index(self, node.index)]
        base, index = self.expr(node.base, env), self.expr(node.index, env)
        if self.index_safe(node, env):
            return f"{base}[{index}]"
        name = node.base.id if isinstance(node.base, ast.Name) else "the list"
        return f"item({base}, {index}, {name!r}, POSITIONS[{self.position(node)}])"

    def index_safe(self, node, env=None) -> bool:
        """An index the checker's facts keep on the list: a constant or range variable
        within it, or a player indexing a per-player variable."""
        if isinstance(node.base, ast.ListExpr):
            return self.in_bounds(node.index, len(node.base.items), env)
        var = self.vars.get(node.base.id) if isinstance(node.base, ast.Name) else None
        if var is None or var.size is None:
            return False
        if var.per_player and self.types.get(id(node.index)) == "player":
            return True
        return self.in_bounds(node.index, var.size, env)

    def position(self, node) -> int:
        """The index in POSITIONS of `node`'s place in the spec, for run-time errors."""
        known = self.position_index.get(node.pos)
        if known is None:
            self.positions.append(node.pos)
            known = self.position_index[node.pos] = len(self.positions) - 1
        return known

    def x_Call(self, node, env):
        """A builtin call, lowered by its registry module (framework.builtins)."""
        return builtins.get(node.func).lower(self, node, env)
