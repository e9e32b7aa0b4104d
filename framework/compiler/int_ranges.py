"""Ranges of whole-number expressions, proved while compiling, and `cell(x, y)` as a table.

`interval(node, env)`: the least and greatest value an integer expression can take, from
the ranges of its operands (an integer state variable's declared range, which every write
checks; a parameter over a constant range; a quantifier's value in a written-out
quantifier; constants) through `+ - *`, `//` and `%` by a positive constant, `abs` and
conditionals; None when unknown.  A list index or a cell coordinate proved in range is read
directly, with no run-time test (Ultimate tic-tac-toe's `won[3 * r + q]`,
`won[3 * y + x]`).  A definition's argument while its body is written once as a function
(compiler/outline.py) has no range: the function is shared by calls of other arguments.

A local of effects has a range too (`local_range`): a `let` local's is the hull of its
first value and of every value its block assigns to it, proved by induction, and inside a
conditional the tests narrow it (`self.facts`: the middle branch of `0 if s and p == 11
else p + 1 if s else ...` knows p != 11); a `for` variable has its range's.  So a sowing
loop's `house[pos]` is read and written with no test, `1..hand` is a plain `range`, and an
item's write tests only the end of its range its value may pass (compiler/effects.py).

`int_cell`: where the coordinates of `cell(x, y)` are arithmetic (`+ - *`, `//` and `%` by a
non-zero constant, `abs`, conditionals) over integer names of a known small range (as
above, or such a name passed to an outlined definition) and constants, the cell is read
from a tuple made when the module loads, `_CT<k>[index]`, instead of computed by a call of
CELL per use (Ultimate tic-tac-toe's `cell(3 * (b % 3) + x, 3 * (b // 3) + y)`, whose `b` is
known only during play: CELL's bounds test was a quarter of its time); a cell proved on the board whose coordinates
divide or take a remainder (Pentago's quadrants, `3 * (q % 2) + x`) is read from the table
too, with no guard.  The table holds what
CELL gives for every value of the names in their ranges (-1 off the board), so it means
exactly what the call means.  A state variable and a parameter are always in their ranges
(every write of a variable is checked; moves are legal ones); a definition's argument in a
body written as a function is tested against its range first, and a value outside it (an
argument of a call of another range sharing the function) computes the cell as before.  The
coordinates cannot fail (no indexing, no division by anything but a non-zero constant), so
reading a table raises nothing the call would not.
"""
from __future__ import annotations

from framework import ast
from framework.compiler.common import _operands, _static_int
from framework.compiler.range_masks import _NUMBER, _index


class IntRangesMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def int_cell(self, x_node, y_node, env):
        """The table read for the cell at (x_node, y_node), or None (then CELL is called)."""
        if self.tables is None or self.c.graph is not None:
            return None
        if self.in_bounds(x_node, self.c.width, env) and self.in_bounds(y_node, self.c.height, env):
            direct = f"({self.expr(y_node, env)} * {self.tables.stride} + {self.expr(x_node, env)})"
            if "//" not in direct and "%" not in direct:
                return direct
            found = self._cell_names(x_node, y_node, env, ())      # (Pentago's quadrants: a table read)
            if found is None or not found[2] or set(found[2]) - found[4]:
                return direct
        else:
            found = self._cell_names(x_node, y_node, env, ())
        if found is None or not found[2]:
            return None
        x, y, names, ranges, trusted, codes = found
        key = ("int cell", x, y, tuple((n, ranges[n]) for n in names))
        table = self.relations.get(key)
        if table is None:
            table = self.relations[key] = f"_CT{len(self.relations)}"
            loops = " ".join(f"for {n} in range({ranges[n][0]}, {ranges[n][1] + 1})" for n in names)
            self.helpers[table] = f"# {table}: cell({x}, {y}) over {', '.join(names)}\n" \
                                  f"{table} = tuple(CELL({x}, {y}) {loops})\n"
        read = f"{table}[{_index(names, ranges, codes)}]"
        guard = " and ".join(f"{ranges[n][0]} <= {n} <= {ranges[n][1]}" for n in names if n not in trusted)
        if guard and self.arg_guards is not None:      # the outlined function tests it once (outline.py)
            self.arg_guards[guard] = None
            return read
        return f"({read} if {guard} else CELL({self.expr(x_node, env)}, {self.expr(y_node, env)}))" if guard else read

    def interval(self, node, env=None):
        """(least, greatest) value of the integer expression `node`, or None (see the module
        docstring)."""
        if self.subst and id(node) in self.subst:
            return None
        if isinstance(node, ast.Num):
            return (node.value, node.value) if type(node.value) is int else None
        if isinstance(node, ast.Name):
            code = env.get(node.id) if env else None
            if code is not None and _NUMBER.match(code):
                value = int(code.strip("()"))
                return value, value
            if code in self.local_ranges:
                found = self._narrowed(node.id, *self.local_ranges[code])
            else:
                found = self._int_range(node) if self.kinds.get(id(node), ("",))[0] in ("var", "param") else None
            return self._compared(node, *found, env) if found and self.and_facts else found
        if isinstance(node, ast.Index) and isinstance(node.base, ast.Name) and self.types.get(id(node)) == "int":
            var = self.vars.get(node.base.id)       # an item of an int list: its declared range
            if var is None or not var.is_array or var.type != "int" or self.kinds.get(id(node.base), ("",))[0] != "var":
                return None
            return None if var.lo == float("-inf") or var.hi == float("inf") else (int(var.lo), int(var.hi))
        if isinstance(node, ast.Unary) and node.op == "-":
            inner = self.interval(node.operand, env)
            return None if inner is None else (-inner[1], -inner[0])
        if isinstance(node, ast.Cond):         # each branch knows how its test came out
            self.facts.append((node.test, True))
            try:
                a = self.interval(node.then, env)
                self.facts[-1] = (node.test, False)
                b = self.interval(node.else_, env)
            finally:
                self.facts.pop()
            return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))
        if isinstance(node, ast.Call) and node.func == "abs" and len(node.args) == 1:
            inner = self.interval(node.args[0], env)
            if inner is None:
                return None
            lo, hi = inner
            return (lo, hi) if lo >= 0 else (-hi, -lo) if hi <= 0 else (0, max(-lo, hi))
        if not isinstance(node, ast.Binary) or node.op not in ("+", "-", "*", "//", "%"):
            return None
        a = self.interval(node.left, env)
        if node.op in ("//", "%"):
            c = node.right.value if isinstance(node.right, ast.Num) and type(node.right.value) is int else 0
            if a is None or c <= 0:
                return None if c <= 0 else (0, c - 1) if node.op == "%" else None
            if node.op == "//":
                return a[0] // c, a[1] // c
            return a if 0 <= a[0] and a[1] < c else (0, c - 1)
        b = self.interval(node.right, env)
        if a is None or b is None:
            return None
        if node.op == "+":
            found = a[0] + b[0], a[1] + b[1]
        elif node.op == "-":
            found = a[0] - b[1], a[1] - b[0]
        else:
            products = [i * j for i in a for j in b]
            found = min(products), max(products)
        return self._compared(node, *found, env) if self.and_facts else found

    def _compared(self, node, lo, hi, env):
        """(lo, hi) of the name, sum, difference or product `node` where the operands of an
        `and` before it or the test of an `if` effect around it (self.and_facts: the code runs
        only when they held) compare that same expression with a constant or a local of
        proved range: `pos - k >= opp and pits[pos - k] == 2` reads pits[pos - k] knowing
        pos - k >= 6.  Names are told apart by their code (a quantifier's `k` is not the
        loop's `k` it shadows)."""
        mine = _code_key(node, env)
        for key, truth in _held(self.and_facts).items():
            if mine not in (key[1], key[2]):
                continue
            op, other = (key[0], key[2]) if key[1] == mine else (_FLIP[key[0]], key[1])
            bound = (other[1], other[1]) if other[0] == "C" else self.local_ranges.get(other[1]) if other[0] == "N" else None
            if bound is None:
                continue
            op = op if truth else _NEGATE[op]
            if op in ("==", ">=", ">"):
                lo = max(lo, bound[0] + (op == ">"))
            if op in ("==", "<=", "<"):
                hi = min(hi, bound[1] - (op == "<"))
        return (lo, hi) if lo <= hi else None

    def _int_range(self, node):
        """(lo, hi) for an integer name: a state variable's declared range, or the union of
        the constant ranges of the parameters of that name; else None."""
        if not isinstance(node, ast.Name) or self.types.get(id(node)) != "int":
            return None
        kind, info = self.kinds.get(id(node), (None, None))
        if kind == "var" and not info.is_array and info.type == "int":
            if info.lo == float("-inf") or info.hi == float("inf"):
                return None
            return int(info.lo), int(info.hi)
        if kind != "param":
            return None
        found = []
        for action in self.c.actions:
            for name, domain, _ in action.params:
                if name == info and isinstance(domain, ast.Range):
                    lo, hi = _static_int(domain.lo), _static_int(domain.hi)
                    if lo is None or hi is None:
                        return None
                    found.append((lo, hi))
        return (min(f[0] for f in found), max(f[1] for f in found)) if found else None

    def local_range(self, code, let, scope, env):
        """Prove a range for the local `code` that `let` binds, over the effects `scope`
        after it: the hull of its first value and of every value the scope assigns to it,
        each computed with the local in that hull (induction: a value in the range stays in
        it), widened at most MAX_WIDENINGS times; none when a value is unknown."""
        writes = []
        if not _assignments(let.name, scope, writes):
            return
        found = self.interval(let.value, env)
        for _ in range(MAX_WIDENINGS):
            if found is None:
                return
            self.local_ranges[code] = found
            hull = found
            for op, value in writes:
                v = self.interval(value, env)
                if v is None or op not in ("=", "+=", "-="):
                    hull = None
                    break
                v = v if op == "=" else (found[0] + v[0], found[1] + v[1]) if op == "+=" else \
                    (found[0] - v[1], found[1] - v[0])
                hull = min(hull[0], v[0]), max(hull[1], v[1])
            if hull == found:
                return
            found = hull
        self.local_ranges.pop(code, None)

    def _narrowed(self, name, lo, hi):
        """(lo, hi) of the local `name` where the conditionals around it (self.facts) say more:
        `pos + 1 if in_store else ...` inside the else of `in_store and pos == 11` has pos != 11."""
        known, clauses = {}, []
        for test, truth in self.facts:
            _atoms(test, truth, known, clauses)
        for _ in range(2):                        # a clause whose other operands are known
            for op, operands in clauses:
                unknown = [x for x in operands if known.get(_key(x)) != (op == "and")]
                if len(unknown) == 1:
                    _atoms(unknown[0], op != "and", known, clauses)
        for key, truth in known.items():
            if len(key) == 3 and key[0] in _FLIP and key[1] == ("N", name) and key[2][0] == "C":
                op, c = key[0], key[2][1]
            elif len(key) == 3 and key[0] in _FLIP and key[2] == ("N", name) and key[1][0] == "C":
                op, c = _FLIP[key[0]], key[1][1]
            else:
                continue
            if not truth:
                op = _NEGATE[op]
            if op == "==":
                lo, hi = max(lo, c), min(hi, c)
            elif op == "!=" and c in (lo, hi):
                lo, hi = lo + (c == lo), hi - (c == hi)
            elif op in ("<", "<="):
                hi = min(hi, c - (op == "<"))
            elif op in (">", ">="):
                lo = max(lo, c + (op == ">"))
        return (lo, hi) if lo <= hi else None


MAX_WIDENINGS = 16
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def _key(node):
    """A structural key of a simple test or operand (names, constants, comparisons, `not`),
    equal for equal expressions; None for anything else."""
    if isinstance(node, ast.Name):
        return ("N", node.id)
    if isinstance(node, ast.Num) and type(node.value) is int:
        return ("C", node.value)
    if isinstance(node, ast.Binary) and node.op in _FLIP:
        left, right = _key(node.left), _key(node.right)
        return None if left is None or right is None else (node.op, left, right)
    return None


def _code_key(node, env):
    """A structural key of a name, constant or `+ - *` of them, names by their code."""
    if isinstance(node, ast.Name):
        return ("N", env[node.id]) if env and node.id in env else ("G", node.id)
    if isinstance(node, ast.Num) and type(node.value) is int:
        return ("C", node.value)
    if isinstance(node, ast.Binary) and node.op in ("+", "-", "*"):
        left, right = _code_key(node.left, env), _code_key(node.right, env)
        return None if left is None or right is None else ("A" + node.op, left, right)
    return None


def _held(facts) -> dict:
    """{(comparison, key, key): truth} of what the `and` operands in `facts` (test, env)
    having held says: their comparisons, through `and`, `not` and failed `or`s."""
    known, stack = {}, [(test, True, env) for test, env in facts]
    while stack:
        test, truth, env = stack.pop()
        while isinstance(test, ast.Unary) and test.op == "not":
            test, truth = test.operand, not truth
        if isinstance(test, ast.Binary) and test.op in ("and", "or") and (test.op == "and") == truth:
            stack.extend((x, truth, env) for x in _operands(test.op, test))
        elif isinstance(test, ast.Binary) and test.op in _FLIP:
            left, right = _code_key(test.left, env), _code_key(test.right, env)
            if left is not None and right is not None:
                known[(test.op, left, right)] = truth
    return known


def _atoms(test, truth, known, clauses):
    """Record what `test` having come out `truth` says: known[key] = truth of its simple
    parts, and (op, operands) of an `and` that failed or an `or` that held (one operand)."""
    while isinstance(test, ast.Unary) and test.op == "not":
        test, truth = test.operand, not truth
    if isinstance(test, ast.Binary) and test.op in ("and", "or"):
        operands = _operands(test.op, test)
        if (test.op == "and") == truth:           # every operand came out `truth`
            for x in operands:
                _atoms(x, truth, known, clauses)
        else:
            clauses.append((test.op, operands))
        return
    key = _key(test)
    if key is not None:
        known[key] = truth


def _assignments(name, effects, out) -> bool:
    """Append (op, value) of every assignment to the local `name` in `effects` (nested
    blocks included) to `out`; False when a nested `let` or `for` binds the name again."""
    for e in effects:
        if isinstance(e, ast.Assign) and isinstance(e.target, ast.Name) and e.target.id == name:
            out.append((e.op, e.value))
        elif isinstance(e, ast.LetEffect) and e.name == name or isinstance(e, ast.ForEffect) and e.var == name:
            return False
        elif isinstance(e, ast.IfEffect) and not _assignments(name, e.then + e.else_, out):
            return False
        elif isinstance(e, ast.ForEffect) and not _assignments(name, e.body, out):
            return False
    return True
