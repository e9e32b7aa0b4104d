"""Successor generation indexed by precondition, so that a state does not test every
operator.

The ground operators are arranged in a decision tree over precondition facts (as in Fast
Downward's successor generator): at each node the fact required by most of the remaining
operators is tested once, the operators needing it go below the test, the others carry
on beside it.  The tree is written out as nested `if` statements of a Python function
and compiled, so a state pays one integer test per tree node it actually reaches:

    def successors(s):
        out = []
        app = out.append
        if s & 0x4:
            if s & 0x10:
                app((3, s & ~0x14 | 0x1, 1))
        ...
        return out

The generated source contains nothing but integers (operator indices, masks, costs); no
text of the problem reaches `compile()`.
"""
from __future__ import annotations

from collections import Counter

from framework.runtime import bits

MAX_NESTING = 40        # deeper operators are tested whole (Python limits block nesting)


def _emit(ops, indices, decided: int, depth: int, lines: list[str]):
    pad = "    " * depth
    rest = []
    for k in indices:
        op = ops[k]
        if op.pre & ~decided and depth < MAX_NESTING:
            rest.append(k)
            continue
        tests = []
        remaining = op.pre & ~decided
        if remaining:
            tests.append(f"s & {remaining:#x} == {remaining:#x}")
        if op.absent:
            tests.append(f"not s & {op.absent:#x}")
        successor = f"s & {~op.delete:#x} | {op.add:#x}"
        if tests:
            lines.append(f"{pad}if {' and '.join(tests)}:")
            lines.append(f"{pad}    app(({k}, {successor}, {op.cost!r}))")
        else:
            lines.append(f"{pad}app(({k}, {successor}, {op.cost!r}))")
    while rest:
        counts = Counter(i for k in rest for i in bits(ops[k].pre & ~decided))
        fact = 1 << counts.most_common(1)[0][0]
        below = [k for k in rest if ops[k].pre & fact]
        rest = [k for k in rest if not ops[k].pre & fact]
        lines.append(f"{pad}if s & {fact:#x}:")
        _emit(ops, below, decided | fact, depth + 1, lines)


def compile_successors(operators) -> tuple[str, object]:
    """The Python source of the successor function of `operators` and the function.
    It maps a state (int) to a list of (operator index, next state, cost)."""
    lines = ["def successors(s):", "    out = []", "    app = out.append"]
    _emit(operators, range(len(operators)), 0, 1, lines)
    lines.append("    return out")
    source = "\n".join(lines) + "\n"
    namespace: dict = {}
    exec(compile(source, "<successors>", "exec"), namespace)
    return source, namespace["successors"]
