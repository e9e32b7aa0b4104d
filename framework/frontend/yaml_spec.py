"""YAML front-end: a game spec written as YAML, every rule in the expression language.

The YAML is *composed* (never constructed) with PyYAML's safe composer, so each section
keeps its line and column and no YAML tag can create Python objects; each string that
holds a rule is parsed by `framework.frontend.expressions` with positions mapped back into
the file.  The result is a `framework.ast.GameSpec`; semantic checks live in the checker.
"""
from __future__ import annotations

import math
import re
from dataclasses import replace

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from framework import ast
from framework.errors import SpecError, did_you_mean, line_and_column, shorten, split_lines
from framework.frontend.expressions import parse_expression, parse_effects, parse_domain

SECTIONS = {
    "game": "the game's name", "players": "the players, in turn order",
    "options": "variant options with defaults", "board": "the grid",
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
ACTION_KEYS = {"if", "then", "chance", "probability", "noisy"}
VARIABLE_KEYS = {"type", "initial", "per", "size"}
BOARD_KEYS = {"width", "height", "cells", "initial"}
_STANDARD_TAGS = {"tag:yaml.org,2002:" + t for t in
                  ("str", "int", "float", "bool", "null", "map", "seq")}
_SIGNATURE = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)


class YamlReader:
    """Turns composed YAML nodes into AST pieces, keeping file positions."""

    def __init__(self, text: str, file: str | None):
        self.text = text
        self.file = file
        self.lines = split_lines(text)

    # ---- positions and errors
    def pos(self, node) -> ast.Pos:
        mark = node.start_mark
        line = mark.line + 1
        src = self.lines[mark.line] if mark.line < len(self.lines) else None
        end = node.end_mark.column + 1 if node.end_mark.line == mark.line else None
        return ast.Pos(self.file, line, mark.column + 1, end, src)

    def error(self, node, message, hint=None) -> SpecError:
        p = self.pos(node)
        return SpecError(message, file=p.file, line=p.line, col=p.col, end_col=p.end_col,
                         source_line=p.source_line, hint=hint)

    def origin(self, node):
        """Origin mapping positions inside a scalar's text to positions in the file."""
        mark = node.start_mark
        style = node.style
        if style in ("|", ">"):
            first = mark.line + 1
            while first < len(self.lines) and not self.lines[first].strip():
                first += 1
            body = self.lines[first] if first < len(self.lines) else ""
            indent = len(body) - len(body.lstrip())
            line0, col0, cont = first + 1, indent + 1, indent + 1
        else:
            line0 = mark.line + 1
            col0 = mark.column + 1 + (1 if style in ("'", '"') else 0)
            cont = None

        folded = style == ">" or (cont is None and node.start_mark.line != node.end_mark.line)

        def origin(line, col, end_col=None):
            fline = line0 + line - 1
            src = self.lines[fline - 1] if 0 < fline <= len(self.lines) else None
            if line == 1 and folded:      # YAML joined the scalar's lines into one
                fline, c = self._unfold(line0, col0, col - 1)
                src = self.lines[fline - 1] if fline <= len(self.lines) else None
            elif line == 1:
                c = col0 + col - 1
            elif cont is not None:
                c = cont + col - 1
            else:   # a plain multi-line scalar: YAML folded the line; point at its start
                c = len(src) - len(src.lstrip()) + col if src else col
            if src is None:               # never point outside the input
                fline = max(1, min(fline, len(self.lines)))
                src = self.lines[fline - 1]
            c = max(1, min(c, len(src) + 1))
            e = None if end_col is None else c + (end_col - col)
            return ast.Pos(self.file, fline, c, e, src)
        return origin

    def _unfold(self, line0, col0, offset):
        """(line, col) in the file of `offset` into a plain scalar YAML folded onto one line."""
        idx, start = line0, col0
        while idx < len(self.lines):
            seg = len(self.lines[idx - 1].rstrip()) - (start - 1)
            if offset <= seg:
                break
            offset -= seg + 1
            idx += 1
            nxt = self.lines[idx - 1]
            start = len(nxt) - len(nxt.lstrip()) + 1
        return idx, start + max(0, offset)

    # ---- typed accessors
    def scalar(self, node, what) -> str:
        if not isinstance(node, ScalarNode):
            raise self.error(node, f"{what} must be a single value, not a "
                             f"{'list' if isinstance(node, SequenceNode) else 'mapping'}")
        return node.value

    def mapping(self, node, what) -> list:
        if not isinstance(node, MappingNode):
            raise self.error(node, f"{what} must be a mapping (`key: value` lines)")
        seen = {}
        for key, value in node.value:
            name = self.scalar(key, f"a key of {what}")
            if name in seen:
                raise self.error(key, f"duplicate key `{name}` in {what}",
                                 f"first given at line {seen[name].start_mark.line + 1}")
            seen[name] = key
        return [(k.value, k, v) for k, v in node.value]

    def sequence(self, node, what) -> list:
        if isinstance(node, SequenceNode):
            return node.value
        if isinstance(node, ScalarNode) and node.tag.endswith(":str") and "," in node.value:
            raise self.error(node, f"{what} must be a list", "write it as [a, b, c]")
        if isinstance(node, ScalarNode):
            return [node]
        raise self.error(node, f"{what} must be a list")

    def constant(self, node, what):
        """A YAML constant (int, float, bool, or a list of ints) for options and bounds."""
        if isinstance(node, SequenceNode):
            return tuple(self.constant(item, what) for item in node.value)
        if not isinstance(node, ScalarNode):
            raise self.error(node, f"{what} must be a number, a boolean or a list of numbers")
        if node.tag.endswith(":bool"):
            return node.value.lower() in ("true", "yes", "on")
        if node.tag.endswith(":int"):
            try:
                return int(node.value.replace("_", ""), 0)
            except ValueError:
                raise self.error(node, f"{what}: {shorten(node.value)!r} is not a whole number") from None
        if node.tag.endswith(":float"):
            try:
                value = float(node.value.replace("_", ""))
            except ValueError:
                raise self.error(node, f"{what}: {shorten(node.value)!r} is not a number") from None
            if not math.isfinite(value):
                raise self.error(node, f"{what}: {shorten(node.value)!r} is too large for a number")
            return value
        raise self.error(node, f"{what} must be a number, a boolean or a list of numbers, "
                         f"not {shorten(node.value)!r}")

    def expr(self, node, what):
        if isinstance(node, ScalarNode) and node.tag.endswith((":int", ":float", ":bool", ":null")):
            if node.tag.endswith(":null"):
                raise self.error(node, f"{what} is empty", f"write the {what} here")
        text = self.scalar(node, what)
        return parse_expression(text, self.origin(node), what)

    def effects(self, node, what) -> tuple:
        if isinstance(node, SequenceNode):
            out = []
            for item in node.value:
                out.extend(parse_effects(self.scalar(item, what), self.origin(item), what))
            return tuple(out)
        return parse_effects(self.scalar(node, what), self.origin(node), what)

    def name(self, node, what) -> str:
        text = self.scalar(node, what)
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
            raise self.error(node, f"{what} `{text}` is not a valid name",
                             "names start with a letter and contain letters, digits and _")
        return text

    def signature(self, node, what, typed: bool):
        """`name(p in domain, ...)` (typed) or `name(p, q)` (untyped) from a mapping key."""
        text = node.value
        m = _SIGNATURE.match(text)
        if not m:
            raise self.error(node, f"cannot read {what} `{text}`",
                             "write name(param in domain, ...)" if typed else "write name(param, ...)")
        name, inner = m.group(1), m.group(2)
        params = []
        if inner and inner.strip():
            origin = self.origin(node)
            offset = m.start(2)
            for piece_start, piece in _split_commas(inner):
                col = offset + piece_start + 1
                pm = re.match(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:(?:in|:)\s*(.*?))?\s*$", piece, re.S)
                if not pm or (typed and not pm.group(2)) or (not typed and pm.group(2)):
                    p = origin(1, col)
                    raise SpecError(f"cannot read parameter `{piece.strip()}` of {what} `{name}`",
                                    file=p.file, line=p.line, col=p.col, source_line=p.source_line,
                                    hint="write `param in domain`, e.g. `c in cell` or `n in 1..3`"
                                    if typed else "write just the parameter names")
                ppos = origin(1, col + pm.start(1))
                if typed:
                    dcol = col + pm.start(2)
                    domain = parse_domain(pm.group(2), lambda l, c, e=None, dcol=dcol: origin(1, dcol + c - 1,
                                          None if e is None else dcol + e - 1),
                                          f"domain of parameter `{pm.group(1)}`")
                    params.append(ast.Param(pm.group(1), domain, ppos))
                else:
                    params.append(pm.group(1))
        return name, tuple(params)


def _split_commas(text):
    """Split at top-level commas; yields (offset, piece)."""
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            yield start, text[start:i]
            start = i + 1
    yield start, text[start:]


def _check_tags(reader: YamlReader, node):
    stack = [node]
    while stack:
        n = stack.pop()
        if n.tag not in _STANDARD_TAGS:
            raise reader.error(n, f"YAML tag `{n.tag}` is not allowed in a spec",
                               "specs are plain data: remove the tag")
        if isinstance(n, MappingNode):
            for k, v in n.value:
                stack.extend((k, v))
        elif isinstance(n, SequenceNode):
            stack.extend(n.value)


MAX_YAML_NODES = 100_000       # nodes a document may stand for once its aliases are expanded


def compose(text: str, file: str | None, *, label: str = "YAML syntax", what: str = "spec"):
    """YAML text -> (reader, root node), with YAML syntax errors as SpecError, tags refused
    and aliases bounded (a 500-byte 'billion laughs' document is refused at once).  Shared
    by the game and planning front-ends; `label` starts syntax messages, `what` names the
    document in the message for an empty one."""
    reader = YamlReader(text, file)
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else 1
        col = mark.column + 1 if mark else 1
        src = reader.lines[line - 1] if 0 < line <= len(reader.lines) else None
        raise SpecError(f"{label}: {err.problem or err.context}", file=file, line=line, col=col,
                        source_line=src, hint=_yaml_hint(err, src)) from None
    except yaml.YAMLError as err:        # e.g. a ReaderError: a character YAML refuses
        line, col = line_and_column(text, getattr(err, "position", 0) or 0)
        raise SpecError(f"{label}: {err}", file=file, line=line, col=col,
                        source_line=reader.lines[line - 1]) from None
    except ValueError as err:            # PyYAML reads a %YAML directive's version with int()
        line = directive_line(reader.lines)
        raise SpecError(f"{label}: cannot read a directive ({shorten(str(err), 60)})", file=file,
                        line=line, col=1, source_line=reader.lines[line - 1]) from None
    except RecursionError:
        raise SpecError("YAML is nested too deeply", file=file, line=1, col=1,
                        source_line=reader.lines[0] if reader.lines else None) from None
    if root is None:
        raise SpecError(f"the {what} is empty", file=file, line=1, col=1, source_line="",
                        hint="start with `game: NAME` and `players: [A, B]`" if what == "spec" else None)
    _check_expansion(reader, root)
    _check_tags(reader, root)
    return reader, root


def _check_expansion(reader: YamlReader, root) -> None:
    """Refuse a document whose aliases make it stand for more than MAX_YAML_NODES nodes
    (counted over the graph of shared nodes, each once, so the count itself is cheap)."""
    size = {}
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in size:
            continue
        children = [x for kv in node.value for x in kv] if isinstance(node, MappingNode) else \
            node.value if isinstance(node, SequenceNode) else []
        if children_done:
            size[id(node)] = 1 + sum(size.get(id(c), 1) for c in children)
            if size[id(node)] > MAX_YAML_NODES:
                raise reader.error(node, f"this YAML stands for more than {MAX_YAML_NODES:,} values once "
                                   "its aliases (`*name`) are expanded", "write the data out, or use fewer aliases")
        else:
            stack.append((node, True))
            stack.extend((c, False) for c in children if id(c) not in size)


def directive_line(lines) -> int:
    """The line of the first YAML directive (`%YAML 1.1`), else 1."""
    return next((i + 1 for i, line in enumerate(lines) if line.startswith("%")), 1)


def _yaml_hint(err, src):
    if src and re.search(r"\w\([^)]*:\s", src):
        return "a `:` inside a key confuses YAML: write `name(x in domain)` or quote the key"
    if err.problem and "mapping values" in err.problem:
        return "quote text that contains `: `"
    return "check indentation and quoting"


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

    spec = ast.GameSpec(name=reader.scalar(sections["game"][1], "the game's name"),
                        players=(), file=file, pos=reader.pos(root))
    spec.positions = {k: reader.pos(kn) for k, (kn, _) in sections.items()}
    R = reader

    pnodes = R.sequence(sections["players"][1], "players")
    spec.players = tuple(R.name(n, "player") for n in pnodes)
    spec.positions["players_items"] = tuple(R.pos(n) for n in pnodes)

    if "options" in sections:
        spec.options = tuple(ast.Option(k, R.constant(v, f"option `{k}`"), R.pos(kn))
                             for k, kn, v in R.mapping(sections["options"][1], "options"))
    if "board" in sections:
        bnode = sections["board"][1]
        items = {k: (kn, v) for k, kn, v in R.mapping(bnode, "board")}
        for k, (kn, _) in items.items():
            if k not in BOARD_KEYS:
                raise R.error(kn, f"unknown board key `{k}`", did_you_mean(k, BOARD_KEYS)
                              or "board keys: width, height, cells, initial")
        for needed in ("width", "height", "cells"):
            if needed not in items:
                raise R.error(bnode, f"the board needs `{needed}`",
                              "e.g. board: {width: 3, height: 3, cells: [empty, X, O]}")
        values = tuple(R.name(n, "cell value") for n in R.sequence(items["cells"][1], "cells"))
        initial = R.name(items["initial"][1], "initial cell value") if "initial" in items else \
            values[0] if values else None            # no values: the checker says "at least two"
        spec.board = ast.Board("board", R.expr(items["width"][1], "board width"),
                               R.expr(items["height"][1], "board height"), values, initial,
                               R.pos(sections["board"][0]))
        spec.positions["board_initial"] = R.pos(items["initial"][1]) if "initial" in items else R.pos(items["cells"][1])
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
            defines.append(ast.Define(name, params, R.expr(v, f"definition of `{name}`"), R.pos(kn)))
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


def _end_rule(R: YamlReader, key_node, node, key, number) -> ast.EndRule:
    """`repetition: draw` / `{result: draw, count: 3}`; `max_moves: 100` / `{limit: 100,
    result: loss}` (the checker checks the names and the numbers)."""
    if not isinstance(node, MappingNode):
        if key == "repetition":
            return ast.EndRule(R.name(node, "repetition rule"), None, R.pos(node))
        return ast.EndRule("draw", R.expr(node, "move limit"), R.pos(node))
    items = {k: v for k, kn, v in R.mapping(node, key)}
    for k, kn, _ in R.mapping(node, key):
        if k not in ("result", number):
            raise R.error(kn, f"unknown key `{k}` in {key}", f"keys: result, {number}")
    if key == "max_moves" and number not in items:
        raise R.error(node, "max_moves needs a `limit`", "e.g. max_moves: {limit: 100, result: draw}")
    result = R.name(items["result"], f"{key} result") if "result" in items else "draw"
    count = R.expr(items[number], f"{key} {number}") if number in items else None
    return ast.EndRule(result, count, R.pos(key_node))


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
                raise R.error(kn, f"unknown key `{k}` in {what} `{name}`",
                              did_you_mean(k, ACTION_KEYS) or "keys: if, then, chance, probability, noisy")
        pre = R.expr(items["if"][1], f"precondition of `{name}`") if "if" in items else None
        effects = R.effects(items["then"][1], f"effects of `{name}`") if "then" in items else ()
        chance = None
        if "chance" in items:
            chance = _chance(R, items["chance"][1], items.get("probability"))
        elif "probability" in items:
            raise R.error(items["probability"][0], "`probability` without `chance`",
                          "add `chance: d in DOMAIN` naming the outcomes")
        noisy = R.expr(items["noisy"][1], "noisy") if "noisy" in items else None
        return ast.Action(name, params, pre, effects, chance, noisy, pos=pos)
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
