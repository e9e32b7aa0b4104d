"""Warnings about specs that are valid but probably not what the author meant: an option or
a definition that nothing uses.  `plyspec check` prints them after a spec checks, and the
language server shows them as warnings."""
from __future__ import annotations

import dataclasses

from framework import ast
from framework.errors import SpecWarning


def names_in(node):
    """Every `ast.Name` and `ast.Call` below `node` (any AST node, tuple or GameSpec)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (tuple, list)):
            stack.extend(n)
        elif isinstance(n, dict):
            stack.extend(n.values())
        elif dataclasses.is_dataclass(n) and not isinstance(n, type) and not isinstance(n, ast.Pos):
            if isinstance(n, (ast.Name, ast.Call)):
                yield n
            stack.extend(getattr(n, f.name) for f in dataclasses.fields(n)
                         if f.name not in ("pos", "positions"))


def warnings(spec: ast.GameSpec) -> list:
    """SpecWarnings for options and definitions that no expression of the spec uses."""
    used = {getattr(n, "id", None) or n.func for n in names_in(spec)}
    found = []
    for option in spec.options:
        if option.name not in used:
            found.append(SpecWarning.at(option.pos, f"option `{option.name}` is never used",
                                        "remove it, or use it in the board, a variable or a rule"))
    for define in spec.defines:
        if define.name not in used:
            found.append(SpecWarning.at(define.pos, f"definition `{define.name}` is never used",
                                        "remove it, or call it from a rule"))
    return found
