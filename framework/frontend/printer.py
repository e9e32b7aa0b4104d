"""AST -> spec text: whole specs as YAML or `.game`.

Everything printed reads back to an equal AST (positions aside): `to_yaml` / `to_game`
write every section the front-ends read, with the expression and effect text of
expression_printer.py (`expression_text`, `domain_text`, `effects_text` are importable
from here too).
"""
from __future__ import annotations

import json
import math
from dataclasses import fields

import yaml

from framework import ast
from framework.frontend.expression_printer import (AND, EXPR, OR, SUM, _BINARY_LEVEL, _IDENTIFIER, _at, _form,
                                                   domain_text, effect_text, effects_text, expression_text,
                                                   number_text)  # effects_text: re-exported
from framework.frontend.game_format import RESERVED
from framework.frontend.graph_board import graph_game, graph_yaml

MAX_LINE = 100          # `.game` lines longer than this are broken where the format allows


def spec_fields(spec: ast.GameSpec) -> dict:
    """The fields that make the game: all but where it was read from (file, positions)."""
    return {f.name: getattr(spec, f.name) for f in fields(spec)
            if f.name not in ("file", "pos", "positions")}


# ---------------------------------------------------------------------------- YAML
class _FlowList(list):
    """Written in YAML flow style: [a, b]."""


class _FlowMap(dict):
    """Written in YAML flow style: {a: 1, b: 2}."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_FlowList, lambda dumper, value: dumper.represent_sequence(
    "tag:yaml.org,2002:seq", value, flow_style=True))
_Dumper.add_representer(_FlowMap, lambda dumper, value: dumper.represent_mapping(
    "tag:yaml.org,2002:map", value, flow_style=True))


def to_yaml(spec: ast.GameSpec) -> str:
    """The spec as YAML that `load_yaml_spec` reads back to an equal spec."""
    doc = {"game": spec.name, "players": _FlowList(spec.players)}
    if spec.options:
        doc["options"] = _FlowMap({o.name: _yaml_constant(o.default) if _is_constant(o.default)
                                   else expression_text(o.default) for o in spec.options})
    if spec.board:
        board = spec.board
        doc["board"] = _FlowMap(cells=_FlowList(board.values), **graph_yaml(board, _FlowList, _FlowMap)) \
            if board.points else _FlowMap(width=_yaml_expr(board.width), height=_yaml_expr(board.height),
                                          cells=_FlowList(board.values))
        if board.initial != board.values[0]:
            doc["board"]["initial"] = board.initial
    if spec.directions:
        doc["directions"] = {d.name: _FlowList(_FlowList(_yaml_constant(x) for x in step) if isinstance(step, tuple)
                                               else _yaml_constant(step) for step in d.steps)
                             for d in spec.directions}
    if spec.variables:
        doc["state"] = {v.name: _yaml_variable(v) for v in spec.variables}
    if spec.defines:
        doc["define"] = {_signature(d.name, d.params): expression_text(d.body) if d.effects is None
                         else {"then": _yaml_effects(d.effects)} for d in spec.defines}
    for key, step in (("actions", False), ("steps", True)):
        schemas = {_signature(a.name, [f"{p.name} in {domain_text(p.domain)}" for p in a.params]):
                   _yaml_action(a) for a in spec.actions if a.step == step}
        if schemas or not step:
            doc[key] = schemas
    if spec.prefer is not None:
        doc["prefer"] = spec.prefer
    if spec.init:
        doc["init"] = _yaml_effects(spec.init)
    if spec.turn is not None:
        doc["turn"] = _yaml_expr(spec.turn)
    if spec.pass_rule:
        doc["pass"] = True
    for key in ("terminal", "goal"):
        if getattr(spec, key) is not None:
            doc[key] = _yaml_expr(getattr(spec, key))
    if isinstance(spec.utility, dict):
        doc["utility"] = {player: _yaml_expr(e) for player, e in spec.utility.items()}
    elif spec.utility is not None:
        doc["utility"] = _yaml_expr(spec.utility)
    if spec.winner is not None:
        doc["winner"] = _yaml_expr(spec.winner)
    if spec.utility_bounds is not None:
        doc["utility_bounds"] = _yaml_constant(spec.utility_bounds)
    if spec.zero_sum is not None:
        doc["zero_sum"] = spec.zero_sum
    if spec.constant_sum is not None:
        doc["constant_sum"] = spec.constant_sum
    if spec.evaluation:
        doc["evaluation"] = {f.name: _yaml_expr(f.value) if _default_weight(f.weight) else
                             _FlowMap(weight=_yaml_constant(f.weight), value=_yaml_expr(f.value))
                             for f in spec.evaluation}
    if spec.display:
        doc["display"] = _FlowMap(spec.display)
    if spec.symmetries:
        doc["symmetries"] = _FlowList(spec.symmetries)
    if spec.max_length is not None:
        doc["max_length"] = _yaml_expr(spec.max_length)
    for key, number in (("repetition", "count"), ("max_moves", "limit")):
        rule = getattr(spec, key)
        if rule is None:
            continue
        parts = _FlowMap({number: _yaml_expr(rule.count)} if key == "max_moves" else {})
        parts.update({rule.result: _yaml_expr(rule.outcome)} if rule.outcome is not None else {"result": rule.result})
        parts.update({number: _yaml_expr(rule.count)} if rule.count is not None and key == "repetition" else {})
        parts.update({"over": _FlowList(n.id for n in rule.over)} if rule.over else {})
        if key == "repetition" and list(parts) == ["result"]:
            doc[key] = rule.result                          # repetition: draw
        elif key == "max_moves" and parts == {number: parts[number], "result": "draw"}:
            doc[key] = parts[number]                        # max_moves: 100
        else:
            doc[key] = parts
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=math.inf)


def _yaml_expr(expr):
    """A whole number stays a YAML number; any other expression is a string."""
    if isinstance(expr, ast.Num) and type(expr.value) is int:
        return expr.value
    return expression_text(expr)


def _yaml_constant(value):
    return _FlowList(_yaml_constant(v) for v in value) if isinstance(value, tuple) else value


def _yaml_effects(effects):
    return effect_text(effects[0]) if len(effects) == 1 else [effect_text(e) for e in effects]


def _yaml_variable(variable: ast.Variable):
    vtype = variable.type
    if vtype.kind == "enum":
        type_value = _FlowList(vtype.values)
    else:
        type_value = _type_text(vtype)
    if variable.initial is None and not variable.per_player and variable.size is None:
        return type_value
    entry = _FlowMap(type=type_value)
    if variable.per_player:
        entry["per"] = "player"
    if variable.size is not None:
        entry["size"] = _yaml_expr(variable.size)
    if variable.initial is not None:
        entry["initial"] = _yaml_expr(variable.initial)
    return entry


def _yaml_action(action: ast.Action):
    if action.precondition is None and action.chance is None and action.noisy is None \
            and action.legal_after is None and action.effects:
        return _yaml_effects(action.effects)
    entry = {}
    if action.precondition is not None:
        entry["if"] = _yaml_expr(action.precondition)
    if action.chance is not None:
        entry["chance"] = _chance_text(action.chance)
        if action.chance.probability:
            entry["probability"] = ", ".join(expression_text(p) for p in action.chance.probability)
    if action.noisy is not None:
        entry["noisy"] = _yaml_expr(action.noisy)
    if action.legal_after is not None:
        entry["legal_after"] = _yaml_expr(action.legal_after)
    if action.effects:
        entry["then"] = _yaml_effects(action.effects)
    return entry or _FlowMap()


def _chance_text(chance: ast.ChanceSpec) -> str:
    return ", ".join(f"{_name(v.name, 'chance outcome')} in {domain_text(v.domain)}" for v in chance.variables)


def _signature(name: str, params) -> str:
    return f"{name}({', '.join(params)})" if params else name


def _type_text(vtype: ast.TypeRef) -> str:
    match vtype.kind:
        case "int":
            return domain_text(ast.Range(vtype.lo, vtype.hi))
        case "enum":
            return "{" + ", ".join(_name(v, "enumeration value") for v in vtype.values) + "}"
        case kind:
            return kind


def _default_weight(weight) -> bool:
    return type(weight) is int and weight == 1


# ---------------------------------------------------------------------------- .game
def to_game(spec: ast.GameSpec) -> str:
    """The spec in the `.game` format; `load_game_spec` reads it back to an equal spec."""
    names = lambda items, what: ", ".join(_name(n, what) for n in items)
    lines = [f"game {json.dumps(spec.name, ensure_ascii=False)}",
             f"players {names(spec.players, 'player')}"]
    if spec.options:
        lines.append("option " + ", ".join(f"{_name(o.name, 'option')} = "
                                           f"{_game_constant(o.default) if _is_constant(o.default) else expression_text(o.default)}"
                                           for o in spec.options))
    if spec.board:
        board = spec.board
        initial = f" initial {_name(board.initial, 'cell value')}" if board.initial != board.values[0] else ""
        if board.points:
            lines += graph_game(board, names(board.values, 'cell value'), initial, _name)
        else:
            lines.append(f"board {_at(board.width, SUM)} x {_at(board.height, SUM)} "
                         f"of {names(board.values, 'cell value')}{initial}")
    for d in spec.directions:
        lines.append(f"directions {_name(d.name, 'direction set')} = " + ", ".join(
            f"({', '.join(_game_constant(x) for x in step)})" if isinstance(step, tuple) else _game_constant(step)
            for step in d.steps))
    for variable in spec.variables:
        line = f"state {_name(variable.name, 'state variable')} : {_type_text(variable.type)}"
        if variable.per_player:
            line += " per player"
        if variable.size is not None:
            line += f" size {expression_text(variable.size)}"
        if variable.initial is not None:
            line += f" = {expression_text(variable.initial)}"
        lines.append(line)
    for define in spec.defines:
        params = f"({names(define.params, 'parameter')})" if define.params else ""
        head = f"define {_name(define.name, 'definition')}{params}"
        lines.extend(_game_effects(head + " then", define.effects, "") if define.effects is not None
                     else [_wrapped(head + " = ", define.body)])
    for action in spec.actions:
        lines.extend(_game_action(action))
    if spec.init:
        lines.extend(_game_effects("init", spec.init, ""))
    if spec.turn is not None:
        lines.append(f"turn {expression_text(spec.turn)}")
    if spec.pass_rule:
        lines.append("pass")
    if spec.prefer is not None:
        lines.append(f"prefer {_name(spec.prefer, 'preference')}")
    for key in ("terminal", "goal"):
        if getattr(spec, key) is not None:
            lines.append(_wrapped(f"{key} ", getattr(spec, key)))
    if isinstance(spec.utility, dict):
        entries = [f"{_name(player, 'player')}: {expression_text(e)}" for player, e in spec.utility.items()]
        lines.append("utility " + ",\n        ".join(entries))
    elif spec.utility is not None:
        lines.append(_wrapped("utility ", spec.utility))
    if spec.winner is not None:
        lines.append(_wrapped("winner ", spec.winner))
    if spec.utility_bounds is not None:
        lines.append("utility_bounds " + ", ".join(_game_constant(b) for b in spec.utility_bounds))
    if spec.zero_sum is not None:
        lines.append("zero_sum" if spec.zero_sum else "zero_sum false")
    if spec.constant_sum is not None:
        lines.append("constant_sum " + _game_constant(spec.constant_sum))
    for feature in spec.evaluation:
        weight = "" if _default_weight(feature.weight) else f" weight {_game_constant(feature.weight)}"
        lines.append(_wrapped(f"evaluation {_name(feature.name, 'feature')}{weight}: ", feature.value))
    if spec.display:
        lines.append("display " + ", ".join(f"{_name(value, 'cell value')} {json.dumps(symbol, ensure_ascii=False)}"
                                            for value, symbol in spec.display))
    if spec.symmetries:
        lines.append(f"symmetries {names(spec.symmetries, 'symmetry')}")
    if spec.max_length is not None:
        lines.append(f"max_length {expression_text(spec.max_length)}")
    if spec.repetition is not None:
        rule = spec.repetition
        count = "" if rule.count is None else f" {expression_text(rule.count)}"
        lines.append(f"repetition {_end_result(rule)}" + (f" count{count}" if rule.outcome and count else count)
                     + (f" over {names(tuple(n.id for n in rule.over), 'state variable')}" if rule.over else ""))
    if spec.max_moves is not None:
        lines.append(f"max_moves {expression_text(spec.max_moves.count)} {_end_result(spec.max_moves)}")
    return "\n".join(lines) + "\n"


def _end_result(rule) -> str:
    """A history rule's result in `.game`: `draw` / `loss` / `forbidden`, or `winner EXPR` /
    `utility EXPR`."""
    if rule.outcome is None:
        return _name(rule.result, "end rule result")
    return f"{rule.result} {expression_text(rule.outcome)}"


def _wrapped(head: str, expr, indent: str = "") -> str:
    """`head` and `expr` on one line, or, when too long, broken before each top-level
    `or`/`and`/`+`/`-` or each `else` of a chain (a line that starts with one of those
    continues the line above in the `.game` format)."""
    text = head + expression_text(expr)
    if len(indent + text) <= MAX_LINE:
        return text
    pieces = _pieces(expr)
    return head + f"\n{indent}    ".join(pieces) if len(pieces) > 1 else text


def _pieces(expr) -> list:
    match expr:
        case ast.Binary(op=op, left=left, right=right) if op in _BINARY_LEVEL:
            level = _BINARY_LEVEL[op]
            if level in (OR, AND, SUM):
                _, left_level = _form(left)
                first = _pieces(left) if left_level == level else [_at(left, level)]
                return first + [f"{op} {_at(right, level + 1)}"]
        case ast.Cond(test=test, then=then, else_=else_):
            rest = _pieces(else_) if isinstance(else_, ast.Cond) else [_at(else_, EXPR)]
            return [f"{_at(then, OR)} if {_at(test, OR)}", "else " + rest[0], *rest[1:]]
    return [expression_text(expr)]


def _game_action(action: ast.Action) -> list:
    params = ", ".join(f"{_name(p.name, 'parameter')} in {domain_text(p.domain)}" for p in action.params)
    keyword = "step" if action.step else "action"
    lines = [f"{keyword} {_name(action.name, 'action')}" + (f"({params})" if params else "")]
    if action.precondition is not None:
        lines.append(_wrapped("    if ", action.precondition, "    "))
    if action.chance is not None:
        chance = action.chance
        probability = ", ".join(expression_text(p) for p in chance.probability)
        lines.append(f"    chance {_chance_text(chance)}" + (f" probability {probability}" if probability else ""))
    if action.noisy is not None:
        lines.append(f"    noisy {expression_text(action.noisy)}")
    if action.legal_after is not None:
        lines.append(_wrapped("    legal_after ", action.legal_after, "    "))
    if action.effects:
        lines.extend(_game_effects("then", action.effects, "    "))
    return lines


def _game_effects(keyword: str, effects, indent: str) -> list:
    """`keyword EFFECT` on one line, or the keyword and then one effect per indented line."""
    if len(effects) == 1:
        return [f"{indent}{keyword} {effect_text(effects[0])}"]
    return [indent + keyword] + [f"{indent}    {effect_text(e)}" for e in effects]


def _is_constant(value) -> bool:
    """An option's default is a value, or an expression over earlier options."""
    return isinstance(value, (bool, int, float, tuple))


def _game_constant(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(_game_constant(v) for v in value) + "]"
    return number_text(value)


def _name(name: str, what: str) -> str:
    if not _IDENTIFIER.fullmatch(name) or name in RESERVED:
        raise ValueError(f"the {what} `{name}` is not a name, so it cannot be written as .game")
    return name
