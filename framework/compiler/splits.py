"""Quantifiers whose body chooses by a condition, `X if T else Y` (a piece moves as a king
or as a man): the choice made once, outside the loop, so that each branch gets the
lowering of its own form (a man's jump as masks, framework/compiler/shifts.py):

    hoist   Q v in D: B[X if T else Y], T not reading v (nor a name bound inside B)
            -> (Q v in D: B[X]) if T else (Q v in D: B[Y])          (any quantifier)
    split   exists v in D: B[X if T else Y], T reading v, D cells
            -> (exists v in D: T and B[X]) or (exists v in D: not T and B[Y])

Same value as the interpreter's: T cannot fail (it is tested once, also where D is empty
and the interpreter tests it never), and for `split` no part of the body can fail (the two
halves test D's cells in another order, which could only change which error is met).  The
new nodes take the checker's types of the nodes they replace.

A loop over a cell parameter (move generation, a compound move's next step) whose
condition is `X if T else Y` with T not reading the parameter draws the parameter from
`(MX if T else MY)`, MX and MY the masks of X's and Y's leading parts (choice_mask): the
same values in the same order, X's and Y's other parts tested in the loop.

When counting or testing (not listing: the order of the moves does not matter there), a
move whose condition P holds `X if T else Y` with T a test of its first cell parameter c
that has a mask is written as two halves (schema_halves): `T and P[X]`, then `not T and
P[Y]`, c drawn from T's cells and then from the others, each half lowered on its own (a
man's jumps and steps as shifted masks, a king's rays as loops over the kings).  Same
count and answer: every (c, ...) is tested once, in another order, so neither T nor any
part of P may fail.

An `or` chain none of whose operands can fail puts first the mask test of each operand
that masks.exists_split wrote as `M != 0 or any(...)` (cheap_first): Go's `takes(c) or
breathes(c)` tests for an empty neighbour before any flood fill.  The same value: the
operands are pure, and none raises an error the new order could hide.

When such a test is `exists d in neighbors(c, DIRS): A ...` of the loop's own cell c and
is the loop's one condition, counting (or finding) the legal values takes the cells with a
neighbour in A's mask as one bit count, `(M & step(A)).bit_count()`, and loops only over
the others (split_loop: Go's plays next to an empty point need no flood fill).
"""
from __future__ import annotations

import dataclasses
import functools
import re

from framework import ast
from framework.builtins.connectivity import _helpers
from framework.graph import Graph
from framework.compiler.common import _names, _operands, may_raise


class SplitsMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def cheap_first(self, node, codes) -> list:
        """The operands' `codes` of the `or` chain `node`, with the mask test of each operand
        that masks.exists_split wrote (`M != 0 or any(...)`) first, when no operand can fail
        (Go's `takes(c) or breathes(c)`: an empty neighbour before any flood fill).  The same
        value: the operands are pure, and none can raise an error the reorder would hide."""
        split = self.split_tests
        if not any(code in split for code in codes):
            return codes
        sure = frozenset(self.never_none(node))
        if any(may_raise(x, self.types, sure) for x in _operands("or", node)):
            return codes
        tests = [split[c][0] for c in codes if c in split]
        rests = [split[c][1] if c in split else c for c in codes]
        outers = [split[c][2] for c in codes if c in split]
        if all(outers) and len({var for var, _ in outers}) == 1:     # for split_loop: the code x_Binary writes
            code = "(" + " or ".join(tests + rests) + ")"
            self.split_tests[code] = (" or ".join(tests), "(" + " or ".join(rests) + ")",
                                      (outers[0][0], " | ".join(mask for _, mask in outers)))
        return tests + rests

    def split_loop(self, out, mode, header, rest, env, append) -> bool:
        """Count (or find) the values of a cell parameter's loop `for V in bits(M):` whose
        one condition is a split `exists d in neighbors(V, DIRS): A or B` (or an `or` chain of
        them, cheap_first): the cells of M with a neighbour in A's mask are counted at once,
        `(M & step(A)).bit_count()`, and only the others test B (a Go point with an empty
        neighbour is a legal play).  The same count: where the mask test holds the `or`
        holds, and B cannot fail.  Listing (`append`, the statement that lists V) gathers the
        others that pass B into that mask and lists its cells, lowest first as `bits(M)`
        would.  Writes the loop and returns True, else returns False."""
        if len(rest) != 1 or not header.startswith("for ") \
                or not header.endswith("):") or " in bits(" not in header:
            return False
        var, mask = header[4:-2].split(" in bits(", 1)
        code = self.expr(rest[0], env)
        split = self.split_tests.get(code)
        if split is None or split[2] is None or split[2][0] != var:
            return False
        cells, near = self.fresh("e"), self.fresh("e")
        out(f"{cells} = {mask}")
        out(f"{near} = {cells} & ({split[2][1]})")
        if mode == "count":
            out(f"n += {near}.bit_count()")
        elif mode == "any":
            out(f"if {near}:")
            out("    return True")
        out(f"for {var} in bits({cells} & ~{near}):")
        out(f"    if {split[1]}:")
        out("        " + {"count": "n += 1", "any": "return True"}.get(mode, f"{near} |= 1 << {var}"))
        if mode == "list":
            out(f"for {var} in bits({near}):")
            out(f"    {append}")
        return True

    def outer_mask(self, node, masks, env):
        """For `exists d in neighbors(C, DIRS): A or ...` with A's masks not reading C and
        DIRS holding each step's opposite: (C's code, the cells C where A holds for some
        neighbour d: one `_step_<dirs>` of A's masks), else None (split_loop)."""
        domain = node.domain
        if not (isinstance(domain, ast.Call) and domain.func == "neighbors" and isinstance(domain.args[0], ast.Name)):
            return None
        var = env.get(domain.args[0].id)
        dirs = self.kinds[id(domain.args[1])][1]
        steps = self.c.directions[dirs]
        if var is None or not re.fullmatch(r"\w+", var) or any(re.search(rf"\b{var}\b", m) for m in masks) \
                or not isinstance(steps, Graph) and any((-dx, -dy) not in steps for dx, dy in steps):
            return None
        step, _ = _helpers(self, dirs)
        return var, f"{step}({' | '.join(masks)})"

    def never_none(self, node):
        """The names in `node` of parameters, quantifier variables and `mover` (never `none`)."""
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, ast.Name) and self.kinds.get(id(n), ("",))[0] in ("param", "quant", "mover"):
                yield n.id
            for f in getattr(n, "__dataclass_fields__", ()):
                child = getattr(n, f) if f != "pos" else None
                stack.extend(ch for ch in (child if isinstance(child, tuple) else (child,))
                             if hasattr(ch, "__dataclass_fields__"))

    def cond_split(self, node, env):
        """`node` (a Quant) rewritten by hoist or split (module docstring), or None."""
        found = _choice(node.body, (), self.types)
        if found is None:
            return None
        cond, path = found
        if may_raise(cond.test, self.types, frozenset({node.var, "mover"})):
            return None
        then, else_ = (self._replaced(node.body, path, branch) for branch in (cond.then, cond.else_))
        if not _reads(cond.test, node.var):
            return self._made(ast.Cond, node, cond.test, self._made(ast.Quant, node, node.kind, node.var,
                                                                      node.domain, then),
                              self._made(ast.Quant, node, node.kind, node.var, node.domain, else_))
        if node.kind != "exists" or self.types.get(id(node.domain)) != "cellset" \
                or may_raise(node.body, self.types, frozenset({node.var, "mover"})) \
                or self.mask_of(cond.test, node.var, env) is None:     # else no half gains
            return None
        halves = [self._made(ast.Quant, node, "exists", node.var, node.domain,
                             self._made(ast.Binary, cond, "and", test, body))
                  for test, body in ((cond.test, then), (self._made(ast.Unary, cond, "not", cond.test), else_))]
        return self._made(ast.Binary, node, "or", *halves)

    def schema_halves(self, a, mode) -> list:
        """The schemas legal.py writes for action `a`: `[a]`, or, when counting or testing
        (the moves' order does not matter) and `a`'s condition P holds `X if T else Y` with T
        a test of its first parameter c alone (a cell; T has a mask), the halves `T and P[X]`
        and `not T and P[Y]` (T before P's first test of a parameter): c drawn from D's
        cells where T holds, then from the others, each half lowered on its own (a man's
        jumps as shifted masks, shifts.py).  The same count and the same answer: the halves
        test the same (c, ...) in another order, so nothing in P may fail (which error is
        met first could change), nor T."""
        if mode not in ("count", "any") or a.chance is not None or a.legal_after is not None \
                or len(a.params) < 2 or a.params[0][2] != "cell" or a.precondition is None:
            return [a]
        first = a.params[0][0]
        found = _choice(a.precondition, tuple(p[0] for p in a.params[1:]), self.types, first)
        if found is None or may_raise(a.precondition, self.types, frozenset(p[0] for p in a.params) | {"mover"}) \
                or self.mask_of(found[0].test, first, {}) is None:
            return [a]
        cond, path = found
        params, halves = {p[0] for p in a.params}, []
        for test, branch in ((cond.test, cond.then), (self._made(ast.Unary, cond, "not", cond.test), cond.else_)):
            conds = _operands("and", self._replaced(a.precondition, path, branch))
            k = next((k for k, c in enumerate(conds) if _names(c) & params), len(conds))    # T first of c's tests
            chain = functools.reduce(lambda x, y: self._made(ast.Binary, a.precondition, "and", x, y),
                                     conds[:k] + [test] + conds[k:])
            halves.append(dataclasses.replace(a, precondition=chain))
        return halves

    def _made(self, kind, like, *fields):
        """A new node of `kind` with the checker's type (and kind) of `like`; kept alive so
        that its id stays its own while the module is written."""
        made = kind(*fields, pos=like.pos)
        for table in (self.types, self.kinds):
            if id(like) in table:
                table[id(made)] = table[id(like)]
        self.__dict__.setdefault("split_nodes", []).append(made)
        return made

    def _replaced(self, node, path, branch):
        """`node` with the node at `path` (field names from `node` down) replaced by `branch`;
        the nodes on the way are new, with the types of those they copy."""
        if not path:
            return branch
        (name, index), rest = path[0], path[1:]
        child = getattr(node, name)
        if index is None:
            new = self._replaced(child, rest, branch)
        else:
            new = tuple(self._replaced(c, rest, branch) if i == index else c for i, c in enumerate(child))
        made = dataclasses.replace(node, **{name: new})
        for table in (self.types, self.kinds):
            if id(node) in table:
                table[id(made)] = table[id(node)]
        self.__dict__.setdefault("split_nodes", []).append(made)
        return made


def _choice(node, bound, types, need=None):
    """The first `Cond` in `node` (outside quantifiers' domains) whose test reads no name in
    `bound` (the variables quantified on the way), reads `need` when given, and is not
    known while compiling, with its path; or None."""
    if isinstance(node, ast.Cond) and types.get(id(node)) == "bool" \
            and not any(_reads(node.test, v) for v in bound) and _reads_state(node.test) \
            and (need is None or _reads(node.test, need)):
        return node, ()
    for name in getattr(node, "__dataclass_fields__", ()):
        if name == "pos" or isinstance(node, ast.Quant) and name == "domain":
            continue
        child = getattr(node, name)
        inner = bound + (node.var,) if isinstance(node, ast.Quant) else bound
        for index, c in enumerate(child) if isinstance(child, tuple) else ((None, child),):
            if hasattr(c, "__dataclass_fields__"):
                found = _choice(c, inner, types, need)
                if found is not None:
                    return found[0], ((name, index),) + found[1]
    return None


def _reads(node, var) -> bool:
    if isinstance(node, ast.Name):
        return node.id == var
    return any(_reads(c, var) for name in getattr(node, "__dataclass_fields__", ()) if name != "pos"
               for c in (getattr(node, name) if isinstance(getattr(node, name), tuple) else (getattr(node, name),)))


def _reads_state(node) -> bool:
    """Whether the test reads the board (a test of players or numbers only is folded by
    the lowering of conditionals already)."""
    if isinstance(node, ast.Index):
        return True
    return any(_reads_state(c) for name in getattr(node, "__dataclass_fields__", ()) if name != "pos"
               for c in (getattr(node, name) if isinstance(getattr(node, name), tuple) else (getattr(node, name),)))


class ChoiceMasksMixin:
    """Part of `Compiler` (framework.compiler): a loop's `X if T else Y` as a mask (below)."""

    def loop_mask(self, cond, pname, env):
        """(the mask of the values of the cell parameter `pname` where `cond` holds, or
        None; the conditions left to test in the loop): a mask of the whole condition, or
        of `X if T else Y` by choice_mask."""
        mask = self.cell_mask(cond, pname, env) or self.mask_of(cond, pname, env)
        chosen = None if mask else self.choice_mask(cond, pname, env)
        if chosen is None:
            return mask, []
        return chosen[0], [] if chosen[1] is None else [chosen[1]]

    def choice_mask(self, cond, pname, env):
        """For a condition `X if T else Y` of the loop over the cell parameter `pname`, T
        not reading it (a king slides, a man steps): (the values of `pname` that X's and Y's
        leading mask parts allow, `(MX if T else MY)`, and the rest of the choice to test
        in the loop, or None when nothing is left); None when no branch has a mask part or
        the condition could fail (its mask parts are then not tested before it)."""
        if not isinstance(cond, ast.Cond) or _reads(cond.test, pname) or not _reads(cond, pname) \
                or may_raise(cond, self.types, frozenset(env) | {pname, "mover"}):
            return None
        masks, rests = [], []
        for branch in (cond.then, cond.else_):
            ops, found = _operands("and", branch), []
            for op in ops:
                mask = self.cell_mask(op, pname, env) or self.mask_of(op, pname, env)
                if not mask:
                    break
                found.append(mask)
            masks.append(" & ".join(found) or "FULL")
            rest = None
            for op in ops[len(found):]:
                rest = op if rest is None else self._made(ast.Binary, cond, "and", rest, op)
            rests.append(rest)
        if masks == ["FULL", "FULL"]:
            return None
        test = self.expr(cond.test, env)
        then, else_ = rests
        if then is None and else_ is None:
            left = None
        elif then is None:
            left = self._made(ast.Binary, cond, "or", cond.test, else_)
        elif else_ is None:
            left = self._made(ast.Binary, cond, "or", self._made(ast.Unary, cond, "not", cond.test), then)
        else:
            left = self._made(ast.Cond, cond, cond.test, then, else_)
        return f"({masks[0]} if {test} else {masks[1]})", left
