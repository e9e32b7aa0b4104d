"""Compact code: a large definition is written once, as a function, and called.

The checker inlines a definition at each of its calls and records each inlined body with
its argument nodes (`Checked.expansions`: every argument node stands for its parameter
wherever it occurs in the body).  Where the compiler meets such a body of at least
OUTLINE_NODES nodes, it writes the body once as a module-level function

    _def<k>(the fields it reads, d_0, d_1, ...)    # d_i: the i-th argument's value

with each argument compiled as its parameter, and a call in its place.  Bodies that compile
to the same text share one function: the body of a call whose arguments the compiler folds
(a constant player, the mover in code written for one mover) is its own function.  A body
stays inline when an argument's code could raise a run-time error (a function call
evaluates its arguments first, where the inlined body might not have evaluated them at all)
or when the body's code would read a local of its caller by another way than its arguments.
Where the body reads tables (int_ranges.py, range_masks.py) for arguments in a range, the
function tests the ranges once and then reads them, else runs the body written without them.
A body whose code is a few bit operations (at most INLINE_CHARS, no call, no loop) stays
inline: a call would cost more, and inline it knows the call's facts (an argument's range).
In a function, a bit expression that occurs more than once in the body (the players' or the
empty cells' mask in each term of `must_capture`) is computed once, first (`_shared_masks`):
made of names, whole numbers, `& | ^ ~` and shifts by a constant, it cannot fail, so
computing it before an `or` that might not have reached it changes no value and no error.
The body is written without the facts of the call site that made it (the range of a caller's
bound variable), as it serves every call.  A function whose arguments may come again is
memoised (`_memoised` states the rule; framework.runtime.memoise).
"""
from __future__ import annotations

import ast as pyast
import itertools
import re

from framework import ast
from framework.compiler import bitopt

OUTLINE_NODES = 24                  # the smallest inlined body written as a function
INLINE_CHARS = 400                  # a body's code this short, with no call and no loop, is written inline
MEMO_KEY = 8                        # the most parameters of a memoised function (a miss hashes them all)
_CALLER_LOCAL = "\0"                # what the caller's locals are called while a body is written
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_IDENT_CALL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\(| for ")      # a call or a loop in a body's code


class OutlineMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def outline(self, node, env):
        """The call of the function written for the inlined definition body `node`, or None
        when it is written inline."""
        entry = self.c.expansions.get(id(node))
        if entry is None or entry[0] is not node or _size(node, self.node_sizes) < OUTLINE_NODES:
            return None
        args = entry[2]
        made = self.outline_bodies.get((id(node), self.mover_const), False)
        if made is False:           # the body, written once per node (and player to move)
            made = self.outline_bodies[id(node), self.mover_const] = self._outline_body(node, args, env)
        if made is None:
            return None
        params, body, used = made
        values = [self.expr(args[i], env) for i in used]
        if any("POSITIONS[" in v for v in values):
            return None
        name = self.outlined.get((params, body))
        if name is None:
            name = self.outlined[params, body] = f"_def{len(self.outlined)}"
            self.outlined_at[name] = next((d.pos for d in self.c.spec.defines if d.name == entry[1]), None)
            self.outlined_source.append((name, params, body))
        callers = [f if f != "mover" else self.mover_code for f in params[:len(params) - len(used)]]
        callers = [f"({', '.join(self.item_locals[f[2:]])},)" if f[2:] in self.item_locals and f[:2] == "v_" else
                   f"tuple({f})" if f[:2] == "v_" and f[2:] in self.local_lists else f for f in callers]   # (local_lists.py)
        return f"{name}({', '.join(callers + values)})"

    def outlined_lines(self, text: str) -> list:
        """The source of the functions the module's `text` calls (some were written for
        code that was then discarded, e.g. a probe of per-mover code).  A function calls
        only functions written before it, so one pass from the last keeps the callees;
        those worth it are memoised (`_memoised`)."""
        called, kept = set(_IDENT.findall(text)), []
        for name, params, body in reversed(self.outlined_source):
            if name in called:
                called.update(_IDENT.findall(body))
                kept.insert(0, (name, params, body))
        memoised, lines = _memoised(text, kept), []
        known = {} if self.tables is None else {"FULL": self.tables.full}
        for name, params, body in kept:
            if name in memoised:
                lines.append("@memoise")
            lines += [f"def {name}({', '.join(params)}):"] + _statements(body, known) + [""]
        return lines

    def _outline_body(self, node, args, env):
        """(parameters, the body's code, the indexes of the arguments it reads), or None when
        the body would read a local of its caller."""
        def write(guards):
            saved = self.subst, self.tmp, self.mover_code, self.walrus_ok, self.param_ranges, self.local_ranges, \
                self.arg_guards, self.range_mask_off, self.item_locals, self.and_facts
            self.subst = {id(a): f"d_{i}" for i, a in enumerate(args)}
            self.and_facts = []         # (the call site's: a body serves every call)
            self.item_locals = {}       # the function is given the state's fields (a list's items as a tuple)
            # the body serves every call: no fact of this call site (the range of a caller's
            # bound variable, one value of an unrolled quantifier) may drop a check from it
            self.tmp, self.mover_code, self.walrus_ok, self.param_ranges, self.local_ranges = 0, "mover", True, {}, {}
            self.arg_guards, self.range_mask_off = guards, guards is None
            try:
                return getattr(self, "x_" + type(node).__name__)(node, dict.fromkeys(env, _CALLER_LOCAL))
            finally:
                (self.subst, self.tmp, self.mover_code, self.walrus_ok, self.param_ranges, self.local_ranges,
                 self.arg_guards, self.range_mask_off, self.item_locals, self.and_facts) = saved
        guards = {}
        body = write(guards)
        if len(body) <= INLINE_CHARS and not _IDENT_CALL.search(body):
            return None     # a few bit operations (masks), cheaper than a call: inline, with the call's facts
        if guards:          # tables read for arguments in these ranges, tested once (int_ranges.py)
            body = f"({body} if {' and '.join(guards)} else {write(None)})"
        if _CALLER_LOCAL in body:
            return None
        names = set(_IDENT.findall(body))
        used = [i for i in range(len(args)) if f"d_{i}" in names]
        return tuple(f for f in self.fields if f in names) + tuple(f"d_{i}" for i in used), body, used


def _statements(body: str, known: dict | None = None) -> list:
    """The lines of a function returning the expression `body`: `return body`, or when
    `body` is `any(E for x in D if C ...)` / `all(...)` (nested in the same kind, as
    `exists ... exists ...` is written), plain loops that return at the first witness, which
    Python runs several times faster than a generator per quantifier."""
    tree = pyast.parse(body, mode="eval").body
    kind = _quantifier(tree)
    if kind is None:
        return _shared_masks(tree, known)
    lines, depth = [], 1
    while _quantifier(tree) == kind:
        for comp in tree.args[0].generators:
            lines.append("    " * depth + f"for {pyast.unparse(comp.target)} in {pyast.unparse(comp.iter)}:")
            depth += 1
            for cond in comp.ifs:
                lines.append("    " * depth + f"if {pyast.unparse(cond)}:")
                depth += 1
        tree = tree.args[0].elt
    test = pyast.unparse(tree)
    lines += ["    " * depth + (f"if {test}:" if kind == "any" else f"if not ({test}):"),
              "    " * (depth + 1) + f"return {kind == 'any'}", f"    return {kind != 'any'}"]
    return lines


def _shared_masks(tree, known: dict | None = None) -> list:
    """The lines of a function returning the expression `tree`, each bit expression
    (bitopt.pure, with an operator) that occurs more than once bound first to a local: the
    longest first, then those shared by what is left; each binding before its readers (none
    reads a name the body binds: a loop's variable, a `:=` of masks.py's `_bind`).
    The tree is first written with fewer operations (bitopt.simplify: `X >> k | Y >> k` is
    `(X | Y) >> k`; `known` are the names whose values it may fold, FULL)."""
    assigned = {n.id for n in pyast.walk(tree) if isinstance(n, pyast.Name) and not isinstance(n.ctx, pyast.Load)}
    numbers = itertools.count()
    bindings, trees = bitopt.shared({"": bitopt.simplify(tree, known)}, lambda: f"_s{next(numbers)}", assigned)
    return [f"    {name} = {pyast.unparse(code)}" for name, code in bindings] + [f"    return {pyast.unparse(trees[''])}"]


def _memoised(text: str, functions: list) -> set:
    """The names of the outlined `functions` (name, parameters, body; callees first) that
    are memoised (framework.runtime.memoise, which keeps the memory only where its first
    calls find values in it).  Only a body that loops (a quantifier, a sum or count over a
    domain, or a call of a function that loops) is worth it, and only when its arguments
    may come again: a function called inside a loop of another body (the levels of a flood
    fill written by hand, `reach<k>(p, c)` testing `reach<k-1>(p, d)` for each neighbour d,
    become one evaluation per cell and level instead of one per path), or a function of
    the state alone (no argument of its own) called from more than one place in the module
    (`text` and the bodies: the preconditions, the terminal test, the winner of one state;
    and a position reached again).  A straight-line body, a single call, a function of
    arguments called only from the rules (Chess's `attacked(c, p)`), or one of more than
    MEMO_KEY parameters (a miss hashes them all: Chess's `in_check` reads twelve
    bitboards) is not: that costs more than it saves.  A function is a pure function of its parameters (the state fields it
    reads and its arguments), so a remembered value is what the call returns."""
    trees = {name: pyast.parse(body, mode="eval") for name, _, body in functions}
    sites = {name: len(re.findall(rf"\b{name}\(", text)) for name in trees}
    in_loop = set()
    for tree in trees.values():
        for call, looped in _calls(tree, False):
            if call in sites:
                sites[call] += 1
                if looped:
                    in_loop.add(call)
    loops, memoised = set(), set()
    for name, params, _ in functions:
        if any(isinstance(n, _LOOPS) or isinstance(n, pyast.Call) and _looping(getattr(n.func, "id", None), loops)
               for n in pyast.walk(trees[name])):
            loops.add(name)
            state_only = not any(p.startswith("d_") for p in params)
            if len(params) <= MEMO_KEY and (name in in_loop or state_only and sites[name] > 1):
                memoised.add(name)
    return memoised


_LOOPS = (pyast.GeneratorExp, pyast.ListComp, pyast.SetComp, pyast.DictComp)
# run-time helpers that loop over a board (framework/builtins/connectivity.py's floods)
_FLOODS = frozenset({"group", "groups", "groups_meeting", "liberties", "liberties_upto", "connected", "meets"})


def _looping(name, loops) -> bool:
    """Whether a call of `name` loops: an outlined body that does, or a flood."""
    return name is not None and (name in loops or name in _FLOODS or name.startswith("_flood_"))


def _calls(node, looped: bool):
    """(name of the function called, whether inside a loop) for each call by name in `node`:
    within a comprehension all but its first domain run once per value."""
    if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name):
        yield node.func.id, looped
    if isinstance(node, _LOOPS):
        first, *rest = node.generators
        yield from _calls(first.iter, looped)
        for child in [first.target, *first.ifs, *rest, node.elt if not isinstance(node, pyast.DictComp) else node.key]:
            yield from _calls(child, True)
        if isinstance(node, pyast.DictComp):
            yield from _calls(node.value, True)
        return
    for child in pyast.iter_child_nodes(node):
        yield from _calls(child, looped)


def _quantifier(node):
    """'any' / 'all' for a call of it on one generator expression (no async), else None."""
    if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id in ("any", "all") \
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], pyast.GeneratorExp) \
            and not any(comp.is_async for comp in node.args[0].generators):
        return node.func.id
    return None


def _size(node, sizes: dict) -> int:
    """The number of AST nodes of an expression (remembered by node)."""
    known = sizes.get(id(node))
    if known is not None and known[0] is node:
        return known[1]
    total = 1
    for name in getattr(node, "__dataclass_fields__", ()):
        if name == "pos":
            continue
        child = getattr(node, name)
        for c in child if isinstance(child, tuple) else (child,):
            if isinstance(c, (ast.Num, ast.Name)) or hasattr(c, "__dataclass_fields__"):
                total += _size(c, sizes)
    sizes[id(node)] = (node, total)
    return total
