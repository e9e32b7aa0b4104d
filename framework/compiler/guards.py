"""Overflow guards for the generated module: the body of every function runs inside
`try: ... except OverflowError` (free in Python 3.11 until it fires), so that a number that
grows too large for a float (`x * 1.0` or `a / b` on huge integers, in an evaluation, a
utility or an effect) is a SpecRuntimeError at the rule, never a traceback.  Indexes,
divisors and ranges have their own, finer checks (framework.runtime)."""
from __future__ import annotations

import re

_DEF = re.compile(r"^( *)def (\w+)\(.*\):$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def guard_overflow(lines: list, position_of) -> list:
    """`lines` of generated source with each function body (top-level functions and the
    methods of the state class) wrapped; `position_of(function name)` is the index in
    POSITIONS of the rule that function implements."""
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        found = _DEF.match(line)
        if not found:
            continue
        depth = len(found.group(1))
        end = i
        while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > depth):
            end += 1
        last = end
        while last > i and not lines[last - 1].strip():
            last -= 1
        inner = " " * (depth + 4)
        out.append(inner + "try:")
        out.extend("    " + text if text.strip() else text for text in lines[i:last])
        out.append(inner + "except OverflowError as _error:")
        out.append(inner + f"    overflow(_error, POSITIONS[{position_of(found.group(2))}])")
        out.extend(lines[last:end])
        i = end
    return out
