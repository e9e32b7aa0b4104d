"""Tests on generated terminal code (the text kernel.py's perft functions write for a
successor's `terminal`): `_truth` drops a `bool(..)` around the whole test, `_given` folds a
known `_can_move` call out of it, `_before_no_move` reads it as `A or not can_move(..)`."""
from __future__ import annotations

import ast as pyast


def _truth(code: str) -> str:
    """`X` for a test written `bool(X)` as a whole (an `if` takes X's truth itself)."""
    if not (code.startswith("bool(") and code.endswith(")")):
        return code
    depth = 0
    for ch in code[5:-1]:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:                       # `bool(a) or bool(b)`: not one call
            return code
    return code[5:-1] if depth == 0 else code


def _before_no_move(code: str, call: str):
    """`A` when the test `code` is `A or not call` with no `call` in A (A is then tested
    first, as written, and the move count answers `call`), else None."""
    try:
        node = pyast.parse(_truth(code), mode="eval").body
        wanted = pyast.unparse(pyast.parse(f"not {call}", mode="eval").body)
    except SyntaxError:
        return None
    if not (isinstance(node, pyast.BoolOp) and isinstance(node.op, pyast.Or)) \
            or pyast.unparse(node.values[-1]) != wanted:
        return None
    rest = node.values[:-1]
    if any(call in pyast.unparse(value) for value in rest):
        return None
    return pyast.unparse(rest[0] if len(rest) == 1 else pyast.BoolOp(pyast.Or(), rest))


def _given(code: str, call: str, value: bool) -> str:
    """The boolean expression `code` (generated, of `not`/`and`/`or` over calls) with each
    `call` in it replaced by `value` and simplified (`not True` is False, `x and False` is
    False, ...), so that the calls it decides are not made."""
    def simplify(node):
        if pyast.unparse(node) == call:
            return pyast.Constant(value)
        if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.Not):
            inner = simplify(node.operand)
            return pyast.Constant(not inner.value) if isinstance(inner, pyast.Constant) else pyast.UnaryOp(pyast.Not(), inner)
        if isinstance(node, pyast.BoolOp):
            absorbing = isinstance(node.op, pyast.Or)          # True absorbs `or`, False absorbs `and`
            kept = []
            for operand in map(simplify, node.values):
                if isinstance(operand, pyast.Constant):
                    if bool(operand.value) == absorbing:
                        return pyast.Constant(absorbing)
                    continue
                kept.append(operand)
            return kept[0] if len(kept) == 1 else pyast.BoolOp(node.op, kept) if kept else pyast.Constant(not absorbing)
        return node
    return pyast.unparse(simplify(pyast.parse(code, mode="eval").body))
