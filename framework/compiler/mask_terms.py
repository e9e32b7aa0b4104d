"""Whether two bitboard formulas the compiler wrote say the same thing, read off their code:
the mask-level proof of compulsory.py's rule ("`not Q` is: no B is legal") for specs whose
Q is not B's own test over B's parameters (English draughts' `must_capture` looks at a
neighbour and the cell beyond it, the jump at the landing cell and the cell between).

A *term* is a product (`&`) of *factors*, each a set of cell values tested on a board mask
(`b_w | b_wk`, `FULL & ~occupied`, a constant mask) shifted by a constant: its bit p is set
when every factor's bit is, and a factor (values S, mask M, shift s) has bit p when M holds
p - s and the cell p - s holds a value of S (a complement, `~mine` or `~(mine << 4)`, has it
also where p - s is off the board, and is read only where the other factors keep it on).
A term is non-zero exactly when some anchor
cell q has, at each offset d from it, a value of S_d (q + d under the factors' masks, p >= 0
for every shift), so `(anchors, {(d, S_d)})`, the offsets taken from the most shifted factor,
is a canonical form: equal forms are equal tests.  A formula that is an `or` of terms
(`(t1 or t2 or ...) != 0`), and code in the "any" mode of legal.py that returns True on the
first non-zero term (assignments, `if`s, loops over tuples of masks and over a mask's
bits that return at once), are read as sets of such forms; a guard (`if pieces:`) is dropped
when each term it guards tests a subset of its values on the board.  Anything else (a call,
a `mover` read, an `|` of different masks, a loop whose body tests its cell) is not read:
no proof, and the compiler tests Q as written.
"""
from __future__ import annotations

import ast as pyast


def same_existence(formula: str, any_code: list, bodies: dict, boards: dict, values: int, full: int) -> bool:
    """Whether the boolean `formula` (code; `_defN(...)` calls read in `bodies`: name ->
    (parameters, body)) holds exactly when the "any"-mode `any_code` (lines) returns True.
    `boards` maps each board's name to its value index; `values` is how many values a cell
    has; `full` the mask of the board's cells."""
    reader = _Reader(bodies, boards, values, full)
    try:
        mine = reader.formula(pyast.parse(formula.strip(), mode="eval").body, {})
        theirs = reader.returns(pyast.parse("\n".join(line.strip() and _dedent(line, any_code) for line in any_code)).body, {})
    except (_NotRead, SyntaxError, RecursionError):
        return False
    return mine is not None and mine == theirs


def _dedent(line: str, lines: list) -> str:
    cut = min(len(x) - len(x.lstrip()) for x in lines if x.strip())
    return line[cut:]


class _NotRead(Exception):
    """Code outside the shapes read here."""


class _Reader:
    def __init__(self, bodies, boards, values, full):
        self.bodies, self.boards, self.full = bodies, boards, full
        self.all = frozenset(range(values))

    # ------------------------------------------------------------------ a formula of terms
    def formula(self, node, env):
        """The set of canonical terms whose `or` is the boolean `node`."""
        if isinstance(node, pyast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], pyast.NotEq) \
                and isinstance(node.comparators[0], pyast.Constant) and node.comparators[0].value == 0:
            return self.formula(node.left, env)
        if isinstance(node, pyast.BoolOp) and isinstance(node.op, pyast.Or):
            return frozenset().union(*(self.formula(v, env) for v in node.values))
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id in self.bodies \
                and not node.keywords:
            params, body = self.bodies[node.func.id]
            if len(params) != len(node.args):
                raise _NotRead
            inner = {p: _Bound(a, env) for p, a in zip(params, node.args)}
            return self.formula(pyast.parse(body.strip(), mode="eval").body, inner)
        if isinstance(node, pyast.Name) and node.id in env:
            bound = env[node.id]
            if bound is None:
                raise _NotRead
            return self.formula(bound.node, bound.env)
        term = self.term(node, env)
        return frozenset() if term is None else frozenset([term])

    # ------------------------------------------------------------------ code returning True
    def returns(self, stmts, env):
        """The set of canonical terms such that `stmts` return True exactly when one is
        non-zero (each path's tests: one term and guards it implies)."""
        paths = self.paths(stmts, dict(env), (), True)
        minimal = [p for p in paths if not any(q < p for q in paths)]         # (j1 and j2) is absorbed by j1
        found = set()
        for path in minimal:
            main = [t for t in path if all(u == t or self.implies(t, u) for u in path)]
            if not main:
                raise _NotRead                  # an unconditional True, or two terms apart
            found.add(main[0])
        return frozenset(found)

    def implies(self, term, guard) -> bool:
        """Whether `term` non-zero makes `guard` non-zero, for a guard testing one cell
        anywhere on the board (`if pieces:`): the term tests a cell for a subset of its values
        (a tested cell is on the board: the factor's mask is)."""
        anchors, tests = guard
        if len(tests) != 1 or anchors & self.full != self.full:
            return False
        (d, wanted), = tests
        return d == 0 and any(values <= wanted for _, values in term[1])

    def paths(self, stmts, env, tests, top=False) -> set:
        """{frozenset of the terms tested on a path to `return True`} of `stmts`.  Only the
        outermost block may `return False` (a False inside would cut off the code after the
        block, which the paths do not say), and a name a block assigns is unknown after it
        (it may hold either value); a board or FULL is never rebound."""
        found = set()
        for stmt in stmts:
            if isinstance(stmt, pyast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], pyast.Name):
                name = stmt.targets[0].id
                if name in self.boards or name == "FULL":
                    raise _NotRead
                env[name] = _Bound(stmt.value, dict(env))
            elif isinstance(stmt, pyast.Return) and isinstance(stmt.value, pyast.Constant) \
                    and stmt.value.value in (True, False) and type(stmt.value.value) is bool:
                if stmt.value.value:
                    found.add(frozenset(tests))
                elif not top:
                    raise _NotRead
                return found
            elif isinstance(stmt, pyast.If) and not stmt.orelse:
                for alternative in self.formula(stmt.test, env) or {None}:
                    if alternative is not None:
                        found |= self.paths(stmt.body, dict(env), tests + (alternative,))
                _forget_assigned(stmt.body, env)
            elif isinstance(stmt, pyast.For) and not stmt.orelse:
                found |= self.loop(stmt, env, tests)
                _forget_assigned([stmt], env)
            else:
                raise _NotRead
        return found

    def loop(self, stmt, env, tests) -> set:
        if isinstance(stmt.iter, pyast.Tuple) and isinstance(stmt.target, pyast.Tuple):     # over a tuple: unrolled
            found = set()
            for item in stmt.iter.elts:
                if not (isinstance(item, pyast.Tuple) and len(item.elts) == len(stmt.target.elts)):
                    raise _NotRead
                inner = dict(env)
                for name, value in zip(stmt.target.elts, item.elts):
                    if not isinstance(name, pyast.Name):
                        raise _NotRead
                    inner[name.id] = _Bound(value, dict(env))
                found |= self.paths(stmt.body, inner, tests)
            return found
        if isinstance(stmt.iter, pyast.Call) and isinstance(stmt.iter.func, pyast.Name) and stmt.iter.func.id == "bits" \
                and len(stmt.iter.args) == 1 and isinstance(stmt.target, pyast.Name):
            inner = dict(env)
            inner[stmt.target.id] = None        # the cell: a path may not test it
            cell_free = self.paths(stmt.body, inner, ())
            if cell_free != {frozenset()}:
                raise _NotRead                  # True at once for any bit, else not read
            return {frozenset(tests + (t,)) for t in self.formula(stmt.iter.args[0], env)}
        raise _NotRead

    # ------------------------------------------------------------------ one term
    def term(self, node, env):
        """The canonical form of the term `node`, None when it is always 0."""
        factors = self.merged(self.factors(node, env))
        top = max(s for _, _, s, _ in factors)
        anchors = ~((1 << max(0, -top)) - 1)
        for values, mask, shift, bounded in factors:
            if bounded:
                anchors &= mask >> (top - shift)
        for values, mask, shift, bounded in factors:      # a complement: true off the board, so the
            if not bounded and (anchors << (top - shift)) & ~self.full:    # anchors must keep it on
                raise _NotRead
        tests = frozenset((top - shift, values) for values, _, shift, _ in factors if values != self.all)
        if anchors <= 0 or any(not values for _, values in tests):
            return None
        return anchors, tests

    def factors(self, node, env) -> list:
        """[(values, mask, shift, bounded)] whose `&` is `node`."""
        if isinstance(node, pyast.Name):
            if node.id in self.boards:
                return [(frozenset([self.boards[node.id]]), self.full, 0, True)]
            if node.id == "FULL":
                return [(self.all, self.full, 0, True)]
            bound = env.get(node.id)
            if bound is None:
                raise _NotRead
            return self.factors(bound.node, bound.env)
        if isinstance(node, pyast.Constant) and type(node.value) is int and node.value >= 0:
            return [(self.all, node.value, 0, True)]
        if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Invert):
            (values, mask, shift, bounded), = self.single(node.operand, env)
            if mask != self.full or not bounded:
                raise _NotRead
            return [(self.all - values, self.full, shift, False)]
        if isinstance(node, pyast.BinOp) and isinstance(node.op, (pyast.LShift, pyast.RShift)):
            if not (isinstance(node.right, pyast.Constant) and type(node.right.value) is int):
                raise _NotRead
            k = node.right.value if isinstance(node.op, pyast.LShift) else -node.right.value
            return [(v, m, s + k, b) for v, m, s, b in self.factors(node.left, env)]
        if isinstance(node, pyast.BinOp) and isinstance(node.op, pyast.BitAnd):
            return self.merged(self.factors(node.left, env) + self.factors(node.right, env))
        if isinstance(node, pyast.BinOp) and isinstance(node.op, pyast.BitOr):
            (v1, m1, s1, b1), = self.single(node.left, env)
            (v2, m2, s2, b2), = self.single(node.right, env)
            if (m1, s1, b1) != (m2, s2, b2) or not b1:
                raise _NotRead
            return [(v1 | v2, m1, s1, True)]
        raise _NotRead

    def merged(self, factors: list) -> list:
        """Factors of one shift folded into one (values and masks intersected); a complement,
        whose bits off the board are set, only with a factor of its shift that has none."""
        by_shift = {}
        for factor in factors:
            by_shift.setdefault(factor[2], []).append(factor)
        out = []
        for shift, group in by_shift.items():
            values, mask, bounded = self.all, -1, False
            for v, m, _, b in group:
                values, mask, bounded = values & v, mask & m, bounded or b
            if any(not b for *_, b in group) and any(b and m & ~self.full for _, m, _, b in group):
                raise _NotRead
            out.append((values, mask, shift, bounded))
        return out

    def single(self, node, env) -> list:
        found = self.factors(node, env)
        if len(found) != 1:
            raise _NotRead
        return found


def _forget_assigned(stmts, env):
    """Unbind every name the statements assign (or loop over): after the block, unknown."""
    for node in (n for stmt in stmts for n in pyast.walk(stmt)):
        if isinstance(node, pyast.Name) and isinstance(node.ctx, pyast.Store):
            env[node.id] = None


class _Bound:
    """A name's value: its code and the names bound where it was written."""
    __slots__ = ("node", "env")

    def __init__(self, node, env):
        self.node, self.env = node, env
