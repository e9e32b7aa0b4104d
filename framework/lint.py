"""Warnings about specs that are valid but probably not what the author meant: an option or
a definition that nothing uses, rotations declared as symmetries of a board that is not
square, connectivity followed by hand (a flood fill written as definitions calling
definitions on neighbouring cells) where the `connected`/`group` builtins do it.  `plyspec check` prints them after a spec checks, and the language server shows
them as warnings."""
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


def warnings(spec: ast.GameSpec, options: dict | None = None) -> list:
    """SpecWarnings for options and definitions that no expression of the spec uses, and
    for rotations on a board that `options` (given with --set, else the defaults) make
    oblong."""
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
    return found + _symmetry_warnings(spec, options or {}) + _flood_fill_warnings(spec)


FLOOD_LEVELS = 3        # definitions in a chain of neighbour steps that make a flood fill


def _flood_fill_warnings(spec: ast.GameSpec) -> list:
    """A chain of FLOOD_LEVELS or more definitions, each calling the next inside a quantifier
    over a neighbourhood whose variable it passes on (`exists d in neighbors(c, hex):
    reach2(p, d)`), follows
    chains of cells one step per definition: a flood fill by hand, which costs a quantifier
    per level per cell (exponential in the levels) where `connected`, `group` and
    `liberties` grow the whole set by a few bit operations.  One warning, at the chain's
    first definition."""
    defines = {d.name: d for d in spec.defines}
    steps = {d.name: _quantified_calls(d.body, defines) for d in spec.defines}
    longest = {}

    def chain(name):                # definitions never call themselves (the checker refuses it)
        if name not in longest:
            longest[name] = 1 + max((chain(n) for n in steps[name]), default=0)
        return longest[name]
    heads = [d for d in spec.defines if chain(d.name) >= FLOOD_LEVELS]
    called = {n for d in heads for n in steps[d.name]}
    return [SpecWarning.at(d.pos, f"definition `{d.name}` follows chains of cells by hand, "
                                  f"{longest[d.name]} definitions deep (a flood fill): each level "
                                  "runs a quantifier per cell",
                           "the builtins connected(board, A, B, DIRS, v), group(board, c, DIRS) "
                           "and liberties(board, c, DIRS) follow a whole chain in a few bit "
                           "operations (docs/spec_language.md, Connectivity and groups)")
            for d in heads if d.name not in called][:1]


def _quantified_calls(body, defines) -> set:
    """Names of the definitions `body` calls inside a quantifier over `neighbors(...)` with
    the quantifier's variable as an argument."""
    found = set()
    stack = [body]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Quant) and isinstance(n.domain, ast.Call) and n.domain.func == "neighbors":
            found |= {c.func for c in names_in(n.body) if isinstance(c, ast.Call) and c.func in defines
                      and any(isinstance(a, ast.Name) and a.id == n.var for a in c.args)}
        if dataclasses.is_dataclass(n) and not isinstance(n, type) and not isinstance(n, ast.Pos):
            stack.extend(getattr(n, f.name) for f in dataclasses.fields(n) if f.name != "pos")
        elif isinstance(n, (tuple, list)):
            stack.extend(n)
    return found


def _symmetry_warnings(spec: ast.GameSpec, given: dict) -> list:
    """`rotate` (or `all`) on a board that is not square: only the half turn maps it onto
    itself, so the quarter turns are left out (the runtime's `permutations`).  The board's
    sides are read when they are numbers or options; other expressions are not judged."""
    if spec.board is None or not {"rotate", "all"} & set(spec.symmetries):
        return []
    values = {**{o.name: o.default for o in spec.options}, **given}
    sides = []
    for node in (spec.board.width, spec.board.height):
        value = node.value if isinstance(node, ast.Num) else \
            values.get(node.id) if isinstance(node, ast.Name) else None
        if not isinstance(value, int) or isinstance(value, bool):
            return []
        sides.append(value)
    if sides[0] == sides[1]:
        return []
    where = spec.positions.get("symmetries") or spec.pos
    return [SpecWarning.at(where, f"a {sides[0]}x{sides[1]} board is not square: of the rotations "
                                  "only the half turn maps it onto itself",
                           "the quarter turns are left out; declare `reflect` only, or keep the board square")]
