"""Bit expressions written with fewer operations: the last step before a pure mask
expression (names, whole numbers, `& | ^ ~` and shifts by a constant: outline.py's
`_pure_mask`) becomes code.

A term of a generated mask is written the way its parts were lowered, one test at a time:
`(FULL & C) >> 20 & (own >> 20 & (king >> 20 & empty & (~(empty >> 10) & ~(own >> 10))))`.
`simplify` rewrites such a tree by identities that hold for every Python int (negative ones
too: `~` and `>>` are those of an infinite two's complement), so no value changes:

- an `&`, `|` or `^` chain is read as one list of operands (`A & (B & C)`: A, B, C);
- whole numbers are folded, and a name whose value is known when the module is written
  (`FULL`, the board's cells) is folded with them;
- operands shifted by the same amount are shifted once: `X >> k & Y >> k` -> `(X & Y) >> k`
  (the same for `<<` and for `|` and `^`);
- in an `&` chain, a constant joins a shifted group: `C & X >> k` -> `(X & C << k) >> k` and
  `C & X << k` -> `(X & C >> k) << k` (where it meets the group's own constant it is folded);
- a name written twice in an `&` or `|` chain is kept once;
- inverted operands are inverted once: `~A & ~B` -> `~(A | B)`, `~A | ~B` -> `~(A & B)`; and
  `~(X >> k)` is `~X >> k`, so inverted right shifts join their group.

`simplify` never returns more operations than it was given (`operations`): if a rewrite would
cost more, the tree is kept as it was.  tests/test_bitopt.py checks the identities on drawn
expressions and values.
"""
from __future__ import annotations

import ast as pyast
import functools
import itertools

_CHAIN_OPS = (pyast.BitAnd, pyast.BitOr, pyast.BitXor)
_SHIFTS = (pyast.LShift, pyast.RShift)


def operations(node) -> int:
    """The number of operators in the pure expression `node` (`pure`)."""
    if isinstance(node, pyast.BinOp):
        return 1 + operations(node.left) + operations(node.right)
    if isinstance(node, pyast.UnaryOp):
        return 1 + operations(node.operand)
    return 0


def pure(node) -> bool:
    """Whether `node` is made of names, whole numbers, `& | ^ ~` and shifts by a constant
    from 0 to 4096 (which cannot fail: no index, no call, no negative shift)."""
    if isinstance(node, pyast.Name):
        return True
    if isinstance(node, pyast.Constant):
        return type(node.value) is int
    if isinstance(node, pyast.UnaryOp):
        return isinstance(node.op, pyast.Invert) and pure(node.operand)
    if isinstance(node, pyast.BinOp):
        if isinstance(node.op, _SHIFTS):
            shift = node.right
            return isinstance(shift, pyast.Constant) and type(shift.value) is int and 0 <= shift.value <= 4096 \
                and pure(node.left)
        return isinstance(node.op, _CHAIN_OPS) and pure(node.left) and pure(node.right)
    return False


def simplify(node, known: dict | None = None):
    """`node` (an ast expression) rewritten with no more operations and the same value for
    every value of its names; `known` maps names to their values (folded only where they
    meet a whole number).  A part that is not a pure mask expression is kept as it is,
    its pure parts rewritten."""
    known = known or {}
    if not pure(node):
        return _Inside(known).visit(node)
    better = _rewrite(node, known)
    return better if operations(better) <= operations(node) else node


class _Inside(pyast.NodeTransformer):
    """The largest pure parts of an expression that is not pure, each simplified."""

    def __init__(self, known):
        self.known = known

    def generic_visit(self, node):
        if isinstance(node, (pyast.BinOp, pyast.UnaryOp)) and pure(node):
            return simplify(node, self.known)
        return super().generic_visit(node)


def _const(node):
    """The whole number `node` stands for (`5`, `~5`), else None."""
    if isinstance(node, pyast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Invert):
        inner = _const(node.operand)
        return None if inner is None else ~inner
    return None


def _num(value: int):
    return pyast.Constant(value) if value >= 0 else pyast.UnaryOp(pyast.Invert(), pyast.Constant(~value))


def _invert(x):
    """~x, for an x already rewritten."""
    value = _const(x)
    if value is not None:
        return _num(~value)
    if isinstance(x, pyast.UnaryOp):                        # ~~X
        return x.operand
    if isinstance(x, pyast.BinOp) and isinstance(x.op, pyast.RShift):      # ~(X >> k) -> ~X >> k
        return _shift(_invert(x.left), pyast.RShift, x.right.value)
    return pyast.UnaryOp(pyast.Invert(), x)


def _shift(x, kind, k: int):
    """x << k or x >> k, for an x already rewritten."""
    value = _const(x)
    if value is not None:
        return _num(value << k if kind is pyast.LShift else value >> k)
    if k == 0:
        return x
    if isinstance(x, pyast.BinOp) and type(x.op) is kind:  # (X >> j) >> k -> X >> j + k
        return pyast.BinOp(x.left, kind(), pyast.Constant(x.right.value + k))
    return pyast.BinOp(x, kind(), pyast.Constant(k))


def _rewrite(node, known):
    if isinstance(node, pyast.UnaryOp) and isinstance(node.operand, pyast.Name) and node.operand.id in known:
        return _num(~known[node.operand.id])        # ~FULL: a whole number, folded where it meets one
    if isinstance(node, pyast.UnaryOp):
        return _invert(_rewrite(node.operand, known))
    if isinstance(node, pyast.BinOp) and isinstance(node.op, _SHIFTS):
        return _shift(_rewrite(node.left, known), type(node.op), node.right.value)
    if isinstance(node, pyast.BinOp):
        return _chain(type(node.op), [_rewrite(x, known) for x in _operands(node, type(node.op))], known)
    return node


def _operands(node, op):
    """The operands of the chain of `op` rooted at `node`, left to right."""
    if isinstance(node, pyast.BinOp) and type(node.op) is op:
        return _operands(node.left, op) + _operands(node.right, op)
    return [node]


def _fold(op, values):
    out = values[0]
    for v in values[1:]:
        out = out & v if op is pyast.BitAnd else out | v if op is pyast.BitOr else out ^ v
    return out


_IDENTITY = {pyast.BitAnd: -1, pyast.BitOr: 0, pyast.BitXor: 0}
_ABSORBING = {pyast.BitAnd: 0, pyast.BitOr: -1}


def _chain(op, operands, known):
    """The chain `op` of `operands` (each already rewritten) with fewer operations."""
    flat = []
    for x in operands:                      # a rewritten operand may be a chain of the same op
        flat += _operands(x, op)
    constants = [v for v in map(_const, flat) if v is not None]
    rest = [x for x in flat if _const(x) is None]
    if op is not pyast.BitXor:              # X & X -> X, X | X -> X (names, the common case)
        rest = [x for i, x in enumerate(rest) if not (isinstance(x, pyast.Name) and
                                                      any(isinstance(y, pyast.Name) and y.id == x.id for y in rest[:i]))]
    if constants and any(isinstance(x, pyast.Name) and x.id in known for x in rest):     # FULL & C: folded
        constants += [known[x.id] for x in rest if isinstance(x, pyast.Name) and x.id in known]
        rest = [x for x in rest if not (isinstance(x, pyast.Name) and x.id in known)]
    constant = _fold(op, constants) if constants else None
    if constant is not None and constant == _ABSORBING.get(op):
        return _num(constant)
    if op is not pyast.BitXor:              # ~A & ~B -> ~(A | B); ~A | ~B -> ~(A & B)
        inverted = [x for x in rest if isinstance(x, pyast.UnaryOp)]
        if len(inverted) > 1:
            dual = pyast.BitOr if op is pyast.BitAnd else pyast.BitAnd
            rest = [x for x in rest if not isinstance(x, pyast.UnaryOp)] + \
                [_invert(_chain(dual, [x.operand for x in inverted], known))]
    groups, out = {}, []            # the operands in their order, a group where its first member was
    for x in rest:
        if isinstance(x, pyast.BinOp) and isinstance(x.op, _SHIFTS):
            key = (type(x.op), x.right.value)
            if key not in groups:
                groups[key] = []
                out.append(key)
            groups[key].append(x.left)
        else:
            out.append(x)
    if constant is not None and op is pyast.BitAnd and groups:       # C & X >> k -> (X & C << k) >> k
        (kind, k), members = next(iter(groups.items()))
        members.append(_num(constant << k if kind is pyast.RShift else constant >> k))
        constant = None
    for i, x in enumerate(out):
        if isinstance(x, tuple):
            (kind, k), members = x, groups[x]
            out[i] = _shift(members[0] if len(members) == 1 else _chain(op, members, known), kind, k)
    if constant is not None and (constant != _IDENTITY[op] or not out):
        out.append(_num(constant))
    tree = out[0]
    for x in out[1:]:
        tree = pyast.BinOp(tree, op(), x)
    return tree


def tightened(codes: list, full: int | None, fresh) -> tuple:
    """The move masks `codes` (shifts.py: one per translation, read in one place) each
    written by `simplify` (FULL = `full` when there is a board), what they repeat bound
    once: ([(name, code)], [code of each mask, in parentheses]) with names from `fresh()`.
    The same masks come again for each player and kind of count, so the work is kept
    (`_tightened`), the names left to fill."""
    bindings, masks = _tightened(tuple(codes), full)
    names = {placeholder: fresh() for placeholder, _ in bindings}

    def named(code):
        for placeholder, name in names.items():
            code = code.replace(placeholder, name)
        return code
    return [(names[placeholder], named(code)) for placeholder, code in bindings], [named(m) for m in masks]


@functools.lru_cache(maxsize=4096)
def _tightened(codes: tuple, full) -> tuple:
    known = {} if full is None else {"FULL": full}
    trees = {i: simplify(pyast.parse(code, mode="eval").body, known) for i, code in enumerate(codes)}
    numbers = itertools.count()
    bindings, trees = shared(trees, lambda: f"_SHARED{next(numbers)}_")
    return (tuple((name, pyast.unparse(tree)) for name, tree in bindings),
            tuple(f"({pyast.unparse(trees[i])})" for i in range(len(codes))))


def shared(trees: dict, fresh, assigned=frozenset()) -> tuple:
    """Each pure bit subexpression (with an operator, reading no name in `assigned`: a loop's
    variable, a `:=`) that occurs more than once in the expressions `trees` (key -> tree)
    bound to a name of its own, `fresh()`: the largest first, then those shared by what is
    left.  Returns ([(name, tree)], each after the names it reads; the trees rewritten)."""
    names = []
    while True:
        shapes, seen = _Shapes(assigned), {}
        for root in trees.values():
            shapes.key(root)
            for node in pyast.walk(root):
                if node is not root and isinstance(node, (pyast.BinOp, pyast.UnaryOp)) and shapes.bindable(node):
                    k = shapes.key(node)
                    seen[k] = seen.get(k, 0) + 1
        repeated = [k for k, n in seen.items() if n > 1]
        if not repeated:
            break
        best, name = max(repeated, key=lambda k: shapes.size[k]), fresh()
        model = None
        for key in list(trees):
            trees[key], found = _replaced(trees[key], best, shapes, name)
            model = model or found
        trees[name] = model
        names.append(name)
    order, done = [], set()

    def bind(name):                 # the bindings `name` reads, then `name`
        if name not in done:
            done.add(name)
            for used in sorted({n.id for n in pyast.walk(trees[name]) if isinstance(n, pyast.Name)} & set(names)):
                bind(used)
            order.append((name, trees[name]))
    for name in names:
        bind(name)
    return order, {key: tree for key, tree in trees.items() if key not in done}


class _Shapes:
    """A number per distinct expression shape (equal numbers: equal code), its size, and
    whether it is a pure bit expression reading no name in `assigned`; one pass per node."""

    def __init__(self, assigned):
        self.assigned, self.ids, self.size, self.ok, self.of = assigned, {}, {}, {}, {}

    def key(self, node) -> int:
        known = self.of.get(id(node))
        if known is not None and known[0] is node:
            return known[1]
        if isinstance(node, pyast.BinOp):
            kids = (self.key(node.left), self.key(node.right))
            shape = ("B", type(node.op), kids)
        elif isinstance(node, pyast.UnaryOp):
            kids = (self.key(node.operand),)
            shape = ("U", type(node.op), kids)
        elif isinstance(node, pyast.Name):
            kids, shape = (), ("N", node.id)
        elif isinstance(node, pyast.Constant):
            kids, shape = (), ("C", type(node.value), node.value)
        else:                       # any other expression: its code
            kids, shape = (), ("X", pyast.unparse(node))
        k = self.ids.get(shape)
        if k is None:
            k = self.ids[shape] = len(self.ids)
            self.size[k] = 1 + sum(self.size[c] for c in kids)
            if shape[0] == "N":
                self.ok[k] = node.id not in self.assigned
            elif shape[0] in "BU":
                self.ok[k] = all(self.ok[c] for c in kids) and pure(node)
            else:
                self.ok[k] = shape[0] == "C" and type(node.value) is int
        self.of[id(node)] = (node, k)
        return k

    def bindable(self, node) -> bool:
        return self.ok[self.key(node)]


def _replaced(node, key, shapes, name):
    """(`node` with each subexpression of shape `key` replaced by the name `name`, one such
    subexpression or None)."""
    if shapes.key(node) == key:
        return pyast.Name(name, pyast.Load()), node
    found = None
    for field, value in pyast.iter_fields(node):
        if isinstance(value, pyast.AST):
            new, f = _replaced(value, key, shapes, name)
            setattr(node, field, new)
            found = found or f
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, pyast.AST):
                    value[i], f = _replaced(item, key, shapes, name)
                    found = found or f
    return node, found
