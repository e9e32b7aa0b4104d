"""YAML front-end: a game spec written as YAML, every rule in the expression language.

The YAML is *composed* (never constructed) with PyYAML's safe composer, so each section
keeps its line and column and no YAML tag can create Python objects; each string that
holds a rule is parsed by `framework.frontend.expressions` with positions mapped back into
the file.  The result is a `framework.ast.GameSpec`; semantic checks live in the checker.
This module owns the game sections; composing and reading YAML with positions is
yaml_reader.py's (`compose` is importable from here too).
"""
from __future__ import annotations

import re
from dataclasses import replace

from yaml.nodes import MappingNode, SequenceNode

from framework import ast
from framework.errors import SpecError, did_you_mean
from framework.frontend.expressions import parse_expression, parse_domain
from framework.frontend.graph_board import GRAPH_KEYS, read_graph
from framework.frontend.yaml_reader import YamlReader, _split_commas, compose  # compose: planners use it too

SECTIONS = {
    "game": "the game's name", "players": "the players, in turn order",
    "options": "variant options with defaults", "board": "the grid (or a graph: points, links, lines)",
    "directions": "named direction sets: lists of [dx, dy] steps",
    "state": "other state variables", "define": "helper definitions",
    "actions": "the moves", "steps": "the later steps of compound moves", "init": "effects that set up the initial state",
    "turn": "who moves next", "pass": "a mover without moves passes",
    "terminal": "when the game ends", "goal": "the goal of a puzzle",
    "utility": "payoffs", "winner": "the winner", "utility_bounds": "payoff bounds",
    "zero_sum": "whether payoffs sum to zero", "constant_sum": "the constant sum of the payoffs",
    "evaluation": "weighted features",
    "display": "symbols per cell value", "symmetries": "board symmetries",
    "max_length": "bound on a game's length", "repetition": "what a repeated position means",
    "max_moves": "the game ends after this many moves", "prefer": "`longest`: only the moves with the most steps",
}
ACTION_KEYS = {"if", "then", "legal_after", "chance", "probability", "noisy"}
# the planning format's (and PDDL's) words for a game action's keys
ACTION_KEY_SYNONYMS = {"pre": "if", "precondition": "if", "preconditions": "if",
                       "requires": "if", "when": "if", "effect": "then", "effects": "then",
                       "do": "then", "add": "then", "del": "then"}
VARIABLE_KEYS = {"type", "initial", "per", "size"}
BOARD_KEYS = {"width", "height", "cells", "initial", *GRAPH_KEYS}


def load_yaml_spec(text: str, file: str | None = None) -> ast.GameSpec:
    reader, root = compose(text, file)
    if not isinstance(root, MappingNode):
        raise reader.error(root, "a spec must be a mapping of sections",
                           "start with `game: NAME` and `players: [A, B]`")
    sections = {}
    for key, key_node, value in reader.mapping(root, "the spec"):
        if key not in SECTIONS:
            raise reader.error(key_node, f"unknown section `{key}`",
                               did_you_mean(key, SECTIONS) or "sections: " + ", ".join(SECTIONS))
        sections[key] = (key_node, value)
    for required in ("game", "players"):
        if required not in sections:
            raise reader.error(root, f"missing section `{required}` ({SECTIONS[required]})",
                               f"add `{required}:` at the top level")
    if "actions" not in sections:
        raise reader.error(root, "missing section `actions` (the moves)", "add `actions:`")
    if not any(s in sections for s in ("terminal", "goal")):
        raise reader.error(root, "missing section `terminal` (when the game ends)",
                           "add `terminal: EXPRESSION` (or `goal:` for a puzzle)")

    from framework.frontend import check_display_text
    name_node = sections["game"][1]
    spec = ast.GameSpec(name=check_display_text(reader.scalar(name_node, "the game's name"),
                                                reader.pos(name_node), "the game's name"),
                        players=(), file=file, pos=reader.pos(root))
    spec.positions = {k: reader.pos(kn) for k, (kn, _) in sections.items()}
    R = reader

    pnodes = R.sequence(sections["players"][1], "players")
    spec.players = tuple(R.name(n, "player") for n in pnodes)
    spec.positions["players_items"] = tuple(R.pos(n) for n in pnodes)

    if "options" in sections:
        spec.options = tuple(ast.Option(R.name(kn, "option"), R.option_default(v, f"option `{k}`"), R.pos(kn))
                             for k, kn, v in R.mapping(sections["options"][1], "options"))
    if "board" in sections:
        bnode = sections["board"][1]
        items = {k: (kn, v) for k, kn, v in R.mapping(bnode, "board")}
        for k, (kn, _) in items.items():
            if k not in BOARD_KEYS:
                raise R.error(kn, f"unknown board key `{k}`", did_you_mean(k, BOARD_KEYS)
                              or "board keys: width, height, cells, initial (a graph: points, links, lines)")
        graph = read_graph(R, items)
        for needed in ("cells",) if graph else ("width", "height", "cells"):
            if needed not in items:
                raise R.error(bnode, f"the board needs `{needed}`",
                              "e.g. board: {width: 3, height: 3, cells: [empty, X, O]}")
        values = tuple(R.name(n, "cell value") for n in R.sequence(items["cells"][1], "cells"))
        initial = R.name(items["initial"][1], "initial cell value") if "initial" in items else \
            values[0] if values else None            # no values: the checker says "at least two"
        size = (None, None) if graph else (R.expr(items["width"][1], "board width"),
                                           R.expr(items["height"][1], "board height"))
        spec.board = ast.Board("board", *size, values, initial, R.pos(sections["board"][0]), **graph)
        spec.positions["board_initial"] = R.pos(items["initial"][1]) if "initial" in items else R.pos(items["cells"][1])
        spec.positions.update({k: R.pos(items[k][0]) for k in ("links", "lines") if k in items})   # as `.game`'s sections
    if "directions" in sections:
        spec.directions = tuple(ast.Directions(R.name(kn, "direction set"), R.constant(v, f"direction set `{k}`"),
                                               R.pos(kn))
                                for k, kn, v in R.mapping(sections["directions"][1], "directions"))
    if "state" in sections:
        spec.variables = tuple(_variable(R, k, kn, v) for k, kn, v in R.mapping(sections["state"][1], "state"))
    if "define" in sections:
        defines = []
        for _, kn, v in R.mapping(sections["define"][1], "define"):
            name, params = R.signature(kn, "definition", typed=False)
            defines.append(_define(R, name, params, kn, v))
        spec.defines = tuple(defines)
    spec.actions = tuple(_action(R, kn, v) for _, kn, v in R.mapping(sections["actions"][1], "actions"))
    if "steps" in sections:
        spec.actions += tuple(replace(_action(R, kn, v, "step"), step=True)
                              for _, kn, v in R.mapping(sections["steps"][1], "steps"))
    if "prefer" in sections:
        spec.prefer = R.name(sections["prefer"][1], "prefer")
    if "init" in sections:
        spec.init = R.effects(sections["init"][1], "init effects")
    if "turn" in sections:
        spec.turn = R.expr(sections["turn"][1], "turn rule")
    if "pass" in sections:
        spec.pass_rule = bool(R.constant(sections["pass"][1], "pass"))
    for key in ("terminal", "goal", "winner", "max_length"):
        if key in sections:
            setattr(spec, key, R.expr(sections[key][1], key))
    if "utility" in sections:
        node = sections["utility"][1]
        if isinstance(node, MappingNode):
            spec.utility = {k: R.expr(v, f"utility of {k}") for k, kn, v in R.mapping(node, "utility")}
            spec.positions["utility_keys"] = {k: R.pos(kn) for k, kn, v in R.mapping(node, "utility")}
        else:
            spec.utility = R.expr(node, "utility")
    if "utility_bounds" in sections:
        node = sections["utility_bounds"][1]
        bounds = R.constant(node, "utility_bounds")
        if not (isinstance(bounds, tuple) and len(bounds) == 2):
            raise R.error(node, "utility_bounds must be a list [low, high]", "e.g. utility_bounds: [-1, 1]")
        spec.utility_bounds = bounds
    if "zero_sum" in sections:
        spec.zero_sum = bool(R.constant(sections["zero_sum"][1], "zero_sum"))
    if "constant_sum" in sections:
        spec.constant_sum = R.constant(sections["constant_sum"][1], "constant_sum")
    if "evaluation" in sections:
        features = []
        for k, kn, v in R.mapping(sections["evaluation"][1], "evaluation"):
            if isinstance(v, MappingNode):
                parts = {pk: pv for pk, _, pv in R.mapping(v, f"feature `{k}`")}
                if "value" not in parts:
                    raise R.error(v, f"feature `{k}` needs a `value`", "e.g. {weight: 2, value: EXPR}")
                weight = R.constant(parts["weight"], "weight") if "weight" in parts else 1
                features.append(ast.Feature(k, weight, R.expr(parts["value"], f"feature `{k}`"), R.pos(kn)))
            else:
                features.append(ast.Feature(k, 1, R.expr(v, f"feature `{k}`"), R.pos(kn)))
        spec.evaluation = tuple(features)
    if "display" in sections:
        spec.display = tuple((k, str(R.scalar(v, "display symbol")))
                             for k, kn, v in R.mapping(sections["display"][1], "display"))
        spec.positions["display_keys"] = {k: R.pos(kn) for k, kn, v in R.mapping(sections["display"][1], "display")}
    if "symmetries" in sections:
        spec.symmetries = tuple(R.name(n, "symmetry") for n in R.sequence(sections["symmetries"][1], "symmetries"))
    for key, number in (("repetition", "count"), ("max_moves", "limit")):
        if key in sections:
            setattr(spec, key, _end_rule(R, sections[key][0], sections[key][1], key, number))
    return spec


def _define(R: YamlReader, name, params, key_node, node) -> ast.Define:
    """`name(p): EXPR`, or an effect definition `name(p): {then: EFFECTS}`."""
    if not isinstance(node, MappingNode):
        return ast.Define(name, params, R.expr(node, f"definition of `{name}`"), R.pos(key_node))
    items = {k: (kn, v) for k, kn, v in R.mapping(node, f"definition `{name}`")}
    for k, (kn, _) in items.items():
        if k != "then":
            raise R.error(kn, f"unknown key `{k}` in definition `{name}`",
                          "an effect definition is `name(p): {then: EFFECTS}`")
    if "then" not in items:
        raise R.error(node, f"definition `{name}` needs `then`", "an effect definition is `name(p): {then: EFFECTS}`")
    return ast.Define(name, params, None, R.pos(key_node), R.effects(items["then"][1], f"effects of `{name}`"))


def _end_rule(R: YamlReader, key_node, node, key, number) -> ast.EndRule:
    """`repetition: draw` / `{result: draw, count: 3, over: [board, mover]}` / `{winner:
    EXPR}`; `max_moves: 100` / `{limit: 100, result: loss}` / `{limit: 100, utility: EXPR}`
    (the checker checks the names and the numbers)."""
    if not isinstance(node, MappingNode):
        if key == "repetition":
            return ast.EndRule(R.name(node, "repetition rule"), None, R.pos(node))
        return ast.EndRule("draw", R.expr(node, "move limit"), R.pos(node))
    keys = ("result", number, "winner", "utility") + (("over",) if key == "repetition" else ())
    items = {}
    for k, kn, v in R.mapping(node, key):
        if k not in keys:
            raise R.error(kn, f"unknown key `{k}` in {key}", did_you_mean(k, keys) or f"keys: {', '.join(keys)}")
        items[k] = (kn, v)
    if key == "max_moves" and number not in items:
        raise R.error(node, "max_moves needs a `limit`", "e.g. max_moves: {limit: 100, result: draw}")
    given = [k for k in items if k in ("result", "winner", "utility")]
    if len(given) > 1:
        raise R.error(items[given[1]][0], f"{key} takes one of `result`, `winner` and `utility`, not both "
                      f"`{given[0]}` and `{given[1]}`", "`winner: EXPR` or `utility: EXPR` scores the final position")
    result, outcome = "draw", None
    if "result" in items:
        result = R.name(items["result"][1], f"{key} result")
    elif given:
        result = given[0]
        outcome = R.expr(items[result][1], f"{key} {result}")
    count = R.expr(items[number][1], f"{key} {number}") if number in items else None
    over = ()
    if "over" in items:
        over = tuple(ast.Name(R.name(n, "state variable"), R.pos(n)) for n in R.sequence(items["over"][1], "over"))
        if not over:
            raise R.error(items["over"][1], "`over` names no part of the state",
                          "e.g. over: [board, mover]; leave `over` out to compare whole positions")
    return ast.EndRule(result, count, R.pos(key_node), over, outcome)


def _variable(R: YamlReader, name, key_node, node) -> ast.Variable:
    pos = R.pos(key_node)
    R.name(key_node, "state variable")
    if isinstance(node, MappingNode):
        items = {k: (kn, v) for k, kn, v in R.mapping(node, f"state variable `{name}`")}
        for k, (kn, _) in items.items():
            if k not in VARIABLE_KEYS:
                raise R.error(kn, f"unknown key `{k}` in state variable `{name}`",
                              did_you_mean(k, VARIABLE_KEYS) or "keys: type, initial, per, size")
        if "type" not in items:
            raise R.error(node, f"state variable `{name}` needs a `type`",
                          "e.g. {type: 0..10, initial: 0}")
        vtype = _type(R, items["type"][1], name)
        initial = R.expr(items["initial"][1], f"initial value of `{name}`") if "initial" in items else None
        per = False
        if "per" in items:
            per_name = R.scalar(items["per"][1], "per")
            if per_name != "player":
                raise R.error(items["per"][1], f"`per: {per_name}` is not supported", "write `per: player`")
            per = True
        size = R.expr(items["size"][1], f"size of `{name}`") if "size" in items else None
        return ast.Variable(name, vtype, initial, per, size, pos)
    return ast.Variable(name, _type(R, node, name), None, False, None, pos)


def _type(R: YamlReader, node, name) -> ast.TypeRef:
    pos = R.pos(node)
    if isinstance(node, SequenceNode):
        return ast.TypeRef("enum", values=tuple(R.name(n, "enumeration value") for n in node.value), pos=pos)
    text = R.scalar(node, f"type of `{name}`").strip()
    if text in ("bool", "player", "cell", "cellset"):
        return ast.TypeRef(text, pos=pos)
    domain = parse_domain(text, R.origin(node), f"type of `{name}`")
    if isinstance(domain, ast.Range):
        return ast.TypeRef("int", domain.lo, domain.hi, pos=pos)
    raise R.error(node, f"unknown type `{text}` for `{name}`",
                  "types: bool, LOW..HIGH, player, cell, cellset, or a list of names")


def _action(R: YamlReader, key_node, node, what="action") -> ast.Action:
    name, params = R.signature(key_node, what, typed=True)
    pos = R.pos(key_node)
    if isinstance(node, MappingNode):
        items = {k: (kn, v) for k, kn, v in R.mapping(node, f"{what} `{name}`")}
        for k, (kn, _) in items.items():
            if k not in ACTION_KEYS:
                synonym = ACTION_KEY_SYNONYMS.get(k.lower())
                raise R.error(kn, f"unknown key `{k}` in {what} `{name}`",
                              f"a game action writes its {'precondition' if synonym == 'if' else 'effects'} "
                              f"under `{synonym}:` (keys: if, then, legal_after, chance, probability, noisy)"
                              if synonym else
                              did_you_mean(k, ACTION_KEYS) or "keys: if, then, legal_after, chance, probability, noisy")
        pre = R.expr(items["if"][1], f"precondition of `{name}`") if "if" in items else None
        effects = R.effects(items["then"][1], f"effects of `{name}`") if "then" in items else ()
        chance = None
        if "chance" in items:
            chance = _chance(R, items["chance"][1], items.get("probability"))
        elif "probability" in items:
            raise R.error(items["probability"][0], "`probability` without `chance`",
                          "add `chance: d in DOMAIN` naming the outcomes")
        noisy = R.expr(items["noisy"][1], "noisy") if "noisy" in items else None
        after = R.expr(items["legal_after"][1], f"legal_after of `{name}`") if "legal_after" in items else None
        return ast.Action(name, params, pre, effects, chance, noisy, legal_after=after, pos=pos)
    return ast.Action(name, params, None, R.effects(node, f"effects of `{name}`"), None, None, pos=pos)


def _chance(R: YamlReader, cnode, probability) -> ast.ChanceSpec:
    """`chance: a in 1..6, b in 1..6` and `probability:` (absent: uniform; one expression:
    the joint probability; a list or comma-separated expressions: one per variable)."""
    text = R.scalar(cnode, "chance")
    origin = R.origin(cnode)
    variables = []
    for start, piece in _split_commas(text):
        m = re.match(r"(\s*)([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(.+)$", piece, re.S)
        if not m:
            p = origin(1, start + 1)
            raise SpecError(f"cannot read the chance outcome `{piece.strip()}`", file=p.file, line=p.line,
                            col=p.col, source_line=p.source_line,
                            hint="write `chance: d in 1..6`, or `chance: a in 1..6, b in 1..6` for two dice")
        dcol = start + m.start(3)
        glued = re.search(r"\s([A-Za-z_][A-Za-z0-9_]*)\s+in\s", m.group(3))
        if glued:
            p = origin(1, dcol + glued.start(1) + 1)
            raise SpecError("outcome variables are separated by commas", file=p.file, line=p.line, col=p.col,
                            source_line=p.source_line, hint="write `chance: a in 1..6, b in 1..6`")
        domain = parse_domain(m.group(3), lambda l, c, e=None, dcol=dcol: origin(l, c + dcol, None if e is None else e + dcol),
                              "chance outcomes")
        variables.append(ast.ChanceVar(m.group(2), domain, origin(1, start + m.start(2) + 1)))
    probs = ()
    if probability is not None:
        pnode = probability[1]
        if isinstance(pnode, SequenceNode):
            probs = tuple(R.expr(item, "probability") for item in pnode.value)
        else:
            ptext, porigin = R.scalar(pnode, "probability"), R.origin(pnode)
            probs = tuple(parse_expression(piece, lambda l, c, e=None, k=k: porigin(l, c + k, None if e is None else e + k),
                                           "probability") for k, piece in _split_commas(ptext))
    return ast.ChanceSpec(tuple(variables), probs, R.pos(cnode))
