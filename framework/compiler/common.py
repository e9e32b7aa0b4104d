"""Shared by the compiler's modules: the indented source writer, code-size limits and
small questions about checked AST nodes (and/or operands, names read, constant folding).
"""
from __future__ import annotations

import re

from framework import ast

UNSET_TURN = -2
# per-mover code is written once for each player up to this many players
MAX_SPECIALISED_PLAYERS = 4
# a table indexed by a whole bitboard is built when the board spans at most this many bits
TABLE_BITS = 12
# larger bitboards are read by tables of this many bits at a time
CHUNK_BITS = 8
# chunks cut from one word of a wider mask (3 x 8 bits: within one 30-bit digit of a Python int)
WORD_CHUNKS = 3
# the kernel's k_leaves2 (moves applied inside moves generated inside moves) is written only
# when k_leaves's loop is at most this long (Kalah's: 8.5 KB, its k_leaves2 25 KB; chess's
# 170 KB would give 2 MB), perft being as exact without it
MAX_FUSED_CHARS = 20_000
# the generated module's largest size (chess: 0.47 MB; Python compiles a 2 MB module in
# seconds, in a few hundred MB)
MAX_SOURCE_CHARS = 2_000_000
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


def loop_depths(conds, params, raises=lambda cond: False) -> list:
    """For each condition, the loop it sits in (the 1-based place in `params`, 0 for none).
    Up to the first condition that `raises`, each sits at the loop of the last parameter
    it names (hoisted: testing it sooner changes nothing); from that one on, each sits where
    the interpreter tests it, no shallower than the conditions before it, so an error comes
    for exactly the bindings the interpreter raises it for."""
    out, deepest, barrier = [], 0, False
    for c in conds:
        own = max([params.index(n) + 1 for n in _names(c) if n in params] or [0])
        deepest = max(deepest, own)
        barrier = barrier or raises(c)
        out.append(deepest if barrier else own)
    return out


# built-ins that raise on no argument value (`none`) only through their arguments' own errors
_NONE_SAFE = frozenset({"abs", "size", "len", "count", "sum", "full", "line", "cells", "can_move", "min", "max"})


def may_raise(node, types, sure=frozenset()) -> bool:
    """Whether testing `node` could raise a run-time error (an index outside an array, a
    division by zero, a built-in given `none`): such a condition is tested where the
    interpreter tests it, never sooner.  `types` are the checker's node types; `sure`
    the names bound to a value that is never `none` (parameters, quantifier variables).
    Conservative: an unknown form may raise."""
    if isinstance(node, (ast.Num, ast.Name)):
        return False
    if isinstance(node, ast.Unary):
        return may_raise(node.operand, types, sure)
    if isinstance(node, ast.Binary):
        if node.op in ("/", "//", "%") and not (isinstance(node.right, ast.Num) and node.right.value):
            return True
        return may_raise(node.left, types, sure) or may_raise(node.right, types, sure)
    if isinstance(node, ast.Cond):
        return any(may_raise(n, types, sure) for n in (node.test, node.then, node.else_))
    if isinstance(node, (ast.TupleExpr, ast.ListExpr)):
        return any(may_raise(n, types, sure) for n in node.items)
    if isinstance(node, ast.Range):
        return may_raise(node.lo, types, sure) or may_raise(node.hi, types, sure)
    if isinstance(node, ast.Index):
        if types.get(id(node)) != "value" and not isinstance(node.index, ast.Num):
            return True              # an array read: the index may be outside it (a board read at `none` is -1)
        return may_raise(node.base, types, sure) or may_raise(node.index, types, sure)
    if isinstance(node, ast.Quant):
        inner = sure | {node.var}
        return node.kind in ("min", "max") or may_raise(node.domain, types, sure) or may_raise(node.body, types, inner)
    if isinstance(node, ast.Call):
        if node.func not in _NONE_SAFE and any(_maybe_none(a, types, sure) for a in node.args):
            return True
        return any(may_raise(a, types, sure) for a in node.args)
    return True


def _maybe_none(node, types, sure) -> bool:
    """Whether an argument may be `none`: a cell or player that is not a parameter or a
    quantifier variable, a computed cell, a cell written as a pair of expressions."""
    if isinstance(node, ast.Num):
        return False
    if isinstance(node, ast.Name):
        return node.id not in sure and types.get(id(node)) in ("cell", "player", "none", None)
    if isinstance(node, ast.TupleExpr):
        return not all(isinstance(n, ast.Num) for n in node.items)
    return types.get(id(node)) in ("cell", "player", "none", None)


def _assigns_turn(effects) -> bool:
    return ast.any_effect(effects, lambda e: isinstance(e, ast.Assign) and isinstance(e.target, ast.Name)
                          and e.target.id == "turn")


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
