"""The words an editor can offer: section keywords, builtins with their signatures and
one-line docs, direction sets, and the names a spec declares (for completion and hover)."""
from __future__ import annotations

from framework.lsp.analysis import Analysis

# the one-line docs of the builtins (the spec language reference, docs/spec_language.md)
BUILTIN_DOCS = {
    "line": "true when some line of k cells in a row (any direction) holds value v",
    "full": "true when no cell of the board holds its initial value",
    "count": "how many cells hold value v",
    "cells": "the set of cells holding value v",
    "neighbors": "the cells one step from c in the given directions, on the board",
    "slide": "the cells reached from c stepping in each direction until a cell is not v",
    "drop": "the lowest cell of column x whose value is the initial one (gravity), or no cell",
    "between": "the runs of v-cells from c that end at a w-cell, in each direction (captures)",
    "size": "the number of cells in a set",
    "col": "the column of a cell",
    "row": "the row of a cell",
    "cell": "the cell at (column, row)",
    "moves": "how many legal moves player p would have in this state",
    "can_move": "whether player p would have a legal move in this state",
    "next": "the player after p in turn order",
    "opponent": "the other player of a two-player game",
    "abs": "absolute value",
    "len": "the length of a list",
    "sum": "the sum of a list",
    "min": "the smallest of the numbers",
    "max": "the largest of the numbers",
}
GAME_KEYWORDS = ("game", "players", "option", "board", "state", "define", "action", "init", "turn",
                 "pass", "terminal", "goal", "utility", "winner", "utility_bounds", "zero_sum",
                 "constant_sum", "evaluation", "display", "symmetries", "max_length")
EXPRESSION_WORDS = ("and", "or", "not", "in", "if", "else", "exists", "forall", "count", "sum",
                    "min", "max", "mover", "me", "none", "true", "false")


def _signatures() -> dict:
    from framework.checker import BUILTINS
    out = {}
    for name, signature in BUILTINS.items():
        if signature is None:
            out[name] = f"{name}(number, ...) -> number"
        else:
            args, result = signature
            out[name] = f"{name}({', '.join('number' if a == '*' else a for a in args)}) -> " \
                        f"{'number' if result == '*' else result}"
    return out


def builtin_help(name: str) -> str | None:
    """Markdown for a builtin's hover, or None if `name` is none."""
    signature = _signatures().get(name)
    if signature is None:
        from framework.checker import DIRECTION_SETS
        if name in DIRECTION_SETS:
            steps = ", ".join(f"({dx},{dy})" for dx, dy in DIRECTION_SETS[name])
            return f"direction set `{name}`: {steps}"
        return None
    return f"`{signature}`\n\n{BUILTIN_DOCS.get(name, '')}"


def completions_for(result: Analysis, scope: str | None, at_line_start: bool, game_syntax: bool) -> list:
    """[(label, CompletionItemKind name, detail)] for a place in the document."""
    from framework.checker import DIRECTION_SETS
    items = []
    if at_line_start:
        if game_syntax:
            items += [(k, "Keyword", "section") for k in GAME_KEYWORDS]
        else:
            from framework.frontend.yaml_spec import SECTIONS
            items += [(f"{k}:", "Keyword", what) for k, what in SECTIONS.items()]
    for name, signature in _signatures().items():
        items.append((name, "Function", signature))
    items += [(name, "EnumMember", "direction set") for name in DIRECTION_SETS]
    items += [(word, "Keyword", "expression") for word in EXPRESSION_WORDS]
    kinds = {"player": "EnumMember", "option": "Constant", "variable": "Variable", "board": "Struct",
             "cell value": "EnumMember", "define": "Function", "action": "Method", "parameter": "Variable"}
    for s in result.symbols:
        if s.scope in (None, scope) and s.kind != "action":
            items.append((s.name, kinds[s.kind], s.detail))
    seen, unique = set(), []
    for item in items:
        if item[0] not in seen:
            seen.add(item[0])
            unique.append(item)
    return unique
