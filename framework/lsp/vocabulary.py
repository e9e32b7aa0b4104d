"""The words an editor can offer: section keywords, builtins with their signatures and
one-line docs, direction sets, and the names a spec declares (for completion and hover)."""
from __future__ import annotations

from framework import builtins
from framework.lsp.analysis import Analysis

GAME_KEYWORDS = ("game", "players", "option", "board", "links", "lines", "state", "define", "action", "step", "init", "turn",
                 "pass", "prefer", "terminal", "goal", "utility", "winner", "utility_bounds", "zero_sum",
                 "constant_sum", "evaluation", "display", "symmetries", "max_length", "repetition",
                 "max_moves")
EXPRESSION_WORDS = ("and", "or", "not", "in", "if", "else", "exists", "forall", "count", "sum",
                    "min", "max", "mover", "me", "none", "true", "false", "let", "continue")


# hovers of the keywords of an action that are not names a rule can mention
KEYWORD_HELP = {
    "legal_after": "`legal_after: CONDITION`: the move is legal only if CONDITION holds in the position "
                   "it leaves (its effects applied; `mover` is still the player who moved, the action's "
                   "parameters keep their values). Chess: `legal_after: not in_check(mover)`.",
    "repetition": "`repetition: R` or `{result: R, count: C, over: [...]}`: when the position a move reaches "
                  "occurs for the C-th time (default 2), R happens: `draw`, `loss` (for the mover) or `forbidden` "
                  "(the move is not legal); or, in place of `result`, `winner: EXPR` / `utility: EXPR` scored on "
                  "that position. `.game`: `repetition draw 3 over board, mover`.",
    "max_moves": "`max_moves: N` or `{limit: N, result: R}`: the game ends after the players' N-th move as a "
                 "`draw` (default) or a `loss` for the mover; or `winner: EXPR` / `utility: EXPR` scored on the "
                 "last position (Go's area at the limit). `.game`: `max_moves 50 utility EXPR`.",
    "over": "`over: [board, mover, NAME...]` in `repetition`: the parts of the state that make a position "
            "(the board, the player to move, state variables by name); a counter or clock left out does not "
            "hide a repetition. Positional superko: `{result: forbidden, over: [board]}`.",
    "points": "`points: [[a, b], [c, d]]` (`.game`: `board points a b / c d of ...`): a graph board's named "
              "points, row by row as the board is drawn; a point's name is a cell in the rules and in moves.",
    "links": "`links: [[a, b, c], [c, d]]` (`.game`: `links a - b - c, c - d`): a graph board's links, as paths "
             "(each point linked to the next, both ways); in rules the direction set `links`: neighbors(c, links).",
    "lines": "`lines: {top: [a, b, c]}` (`.game`: `lines top = a b c`): a graph board's named lines along its "
             "links (mills); `line(board, k, v)` runs along them, `in_line(board, c, v)` asks for a whole line "
             "through c, and a line's name is the set of its points.",
}


def builtin_help(name: str, call: bool = True) -> str | None:
    """Markdown for a builtin's hover (a function when `call`, a special name such as
    `mover` when not, a direction set), or None if `name` is none of them."""
    if name in builtins.CONSTANTS and not (call and builtins.get(name)):
        return f"`{name}`: {builtins.CONSTANTS[name]}"
    builtin = builtins.get(name)
    if builtin is None:
        from framework.checker import DIRECTION_SETS
        if name == "links":
            return "direction set `links`: on a graph board, the points linked to a point"
        if name in DIRECTION_SETS:
            steps = ", ".join(f"({dx},{dy})" for dx, dy in DIRECTION_SETS[name])
            return f"direction set `{name}`: {steps}"
        return None
    return f"`{builtin.usage()}`\n\n{builtin.doc}"


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
    items += [(b.name, "Function", b.usage()) for b in builtins.all()]
    graph = any(s.kind == "point" for s in result.symbols)      # a graph board: its one direction set
    items += [("links", "EnumMember", "direction set")] if graph else \
        [(name, "EnumMember", "direction set") for name in DIRECTION_SETS]
    items += [(word, "Keyword", "expression") for word in EXPRESSION_WORDS]
    kinds = {"player": "EnumMember", "option": "Constant", "variable": "Variable", "board": "Struct",
             "cell value": "EnumMember", "point": "EnumMember", "line": "Constant", "direction set": "EnumMember", "define": "Function", "action": "Method", "parameter": "Variable"}
    for s in result.symbols:
        if s.scope in (None, scope) and s.kind != "action":
            items.append((s.name, kinds[s.kind], s.detail))
    seen, unique = set(), []
    for item in items:
        if item[0] not in seen:
            seen.add(item[0])
            unique.append(item)
    return unique
