"""Successor generation indexed by precondition, so that a state does not test every
operator.

The ground operators are arranged in a decision tree over precondition facts (as in Fast
Downward's successor generator): facts are ranked by how many operators need them, each
operator's preconditions are sorted by that rank, and the operators form a trie over
these sorted lists; a node tests one fact once for all the operators below it.  The tree
is written out as nested `if` statements of a Python function and compiled, so a state
pays one integer test per tree node it actually reaches:

    def successors(s):
        out = []
        app = out.append
        if s & 0x4:
            if s & 0x10:
                app((3, s & ~0x14 | 0x1, 1))
            a = 0x2                      # an operator with conditional effects
            d = 0x4
            if s & 0x8 == 0x8:
                a |= 0x20
                d |= 0x0
            app((5, s & ~d | a, 1))
        ...
        return out

The generated source contains nothing but integers (operator indices, masks, costs) and
the names of mask constants; no text of the problem reaches `compile()`.
"""
from __future__ import annotations

from collections import Counter

from framework.runtime import bits

MAX_NESTING = 40        # deeper operators are tested whole (Python limits block nesting)


class _Constants:
    """Spells masks in the generated source: a literal when short, else the name of a
    module-level constant (so that a task with thousands of facts does not write each
    mask out in hex again and again)."""

    LITERAL_BITS = 64

    def __init__(self):
        self.names: dict[int, str] = {}

    def __call__(self, value: int) -> str:
        if value.bit_length() <= self.LITERAL_BITS:
            return f"{value:#x}"
        if value not in self.names:
            self.names[value] = f"m{len(self.names)}"
        return self.names[value]

    def namespace(self) -> dict:
        return {name: value for value, name in self.names.items()}


def _emit(ops, order, indices, depth: int, lines: list[str], const: _Constants):
    """Writes the subtree for operators `indices`, which agree on their first `depth`
    precondition facts (in `order`): those with no further fact are applicable here,
    the others are grouped under a test of their next fact."""
    pad = "    " * (depth + 1)
    groups: dict[int, list] = {}
    for k in indices:
        facts = order[k]
        if depth < len(facts) and depth < MAX_NESTING:
            groups.setdefault(facts[depth], []).append(k)
            continue
        op = ops[k]
        tests = []
        remaining = sum(1 << f for f in facts[depth:])
        if remaining:
            tests.append(f"s & {const(remaining)} == {const(remaining)}")
        if op.absent:
            tests.append(f"not s & {const(op.absent)}")
        if tests:
            lines.append(f"{pad}if {' and '.join(tests)}:")
            lines.extend(_apply(k, op, pad + "    ", const))
        else:
            lines.extend(_apply(k, op, pad, const))
    for fact, members in groups.items():
        lines.append(f"{pad}if s & {const(1 << fact)}:")
        _emit(ops, order, members, depth + 1, lines, const)


def _apply(k: int, op, pad: str, const: _Constants) -> list[str]:
    """Lines appending operator `k`'s successor of `s`; conditional effects add to the
    adds `a` and deletes `d` when their conditions hold in `s` (adds win over deletes)."""
    if not op.effects:
        return [f"{pad}app(({k}, s & {const(~op.delete)} | {const(op.add)}, {op.cost!r}))"]
    lines = [f"{pad}a = {const(op.add)}", f"{pad}d = {const(op.delete)}"]
    for pre, absent, add, delete in op.effects:
        tests = [f"s & {const(pre)} == {const(pre)}"] if pre else []
        tests += [f"not s & {const(absent)}"] if absent else []
        lines.append(f"{pad}if {' and '.join(tests)}:")
        lines.append(f"{pad}    a |= {const(add)}")
        lines.append(f"{pad}    d |= {const(delete)}")
    lines.append(f"{pad}app(({k}, s & ~d | a, {op.cost!r}))")
    return lines


def compile_successors(operators) -> tuple[str, object]:
    """The Python source of the successor function of `operators` and the function.
    It maps a state (int) to a list of (operator index, next state, cost)."""
    const = _Constants()
    needed = Counter(f for op in operators for f in bits(op.pre))
    rank = {fact: r for r, (fact, _) in enumerate(needed.most_common())}
    order = [sorted(bits(op.pre), key=rank.__getitem__) for op in operators]
    lines = ["def successors(s):", "    out = []", "    app = out.append"]
    _emit(operators, order, range(len(operators)), 0, lines, const)
    lines.append("    return out")
    source = "\n".join(lines) + "\n"
    namespace = const.namespace()
    exec(compile(source, "<successors>", "exec"), namespace)
    return source, namespace["successors"]
