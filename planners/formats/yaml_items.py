"""The node layer of the YAML planning front-end (`planners.formats.yaml_spec`): the positions of
PyYAML nodes in the spec's text and the checked YAML structure (`Source`), and the parser
and transformer of the items written inside YAML strings (`planning_spec.lark`:
signatures, condition formulas, names with `for` generators and integer expressions)."""
from __future__ import annotations

from bisect import bisect_right
from pathlib import Path

import yaml
from lark import Transformer, v_args

from framework.frontend.lark_cache import cached_lark
from framework.frontend.yaml_reader import refuse_duplicate_keys
from framework.errors import LINE_BREAK, SpecError, did_you_mean, split_lines
from planners.lifted.ast import Pos

PARSER = cached_lark(Path(__file__).with_name("planning_spec.lark").read_text(), parser="lalr",
                       start=["signature_item", "condition_item", "name_item", "param_item"],
                    maybe_placeholders=True)


class Source:
    """The spec's text, for positions: file name, lines, and the place of a YAML node; and
    the YAML structure of the spec (mappings, lists of strings, scalars), checked."""

    def __init__(self, file: str, text: str):
        self.file = file
        self.text = text
        self.lines = split_lines(text)
        self.line_starts = [0] + [m.end() for m in LINE_BREAK.finditer(text)]

    def flow_items(self, node) -> list:
        """The entries of a flow list `[...]` split at the commas outside parentheses
        (YAML itself would split `[On(a, b)]` into `On(a` and `b)`), as scalar nodes
        whose marks point into the file."""
        start, end = node.start_mark.index + 1, node.end_mark.index - 1
        pieces, depth, begin = [], 0, start
        for index in range(start, end + 1):
            char = self.text[index] if index < end else ","
            depth += (char == "(") - (char == ")")
            if char == "," and (depth <= 0 or index == end):    # unbalanced: kept, to be refused
                pieces.append((begin, index))
                begin = index + 1
        items = []
        for begin, stop in pieces:
            raw = self.text[begin:stop]
            if not raw.strip():
                continue
            first = begin + len(raw) - len(raw.lstrip())
            value = raw.strip()
            style = value[0] if value[0] in "'\"" and value[-1] == value[0] else None
            if style:
                value = value[1:-1]
            line = bisect_right(self.line_starts, first) - 1
            mark = yaml.Mark(self.file, first, line, first - self.line_starts[line], None, None)
            items.append(yaml.ScalarNode("tag:yaml.org,2002:str", value, mark, mark, style))
        return items

    def pos(self, node, offset: int = 0, length: int | None = None) -> Pos:
        """Position of `node` (a YAML node), `offset` characters into its text."""
        mark = node.start_mark
        line = mark.line + 1
        quoted = isinstance(node, yaml.ScalarNode) and node.style in ("'", '"')
        col = mark.column + 1 + (1 if quoted else 0)
        source = self.lines[line - 1] if 0 < line <= len(self.lines) else None
        last = min(len(self.lines), node.end_mark.line + 1)
        while source is not None and col + offset > len(source.rstrip()) + 1 and line < last:
            offset -= len(source.rstrip()) - col + 2      # YAML folded the line break to a space
            line += 1
            source = self.lines[line - 1]
            col = len(source) - len(source.lstrip()) + 1
        col = col + offset if source is None else max(1, min(col + offset, len(source) + 1))
        end = col + length if length else (col + len(node.value) if isinstance(node, yaml.ScalarNode)
                                           and offset == 0 else None)
        return Pos(self.file, line, col, source, end)

    def error(self, node, message: str, hint: str | None = None, offset: int = 0,
              length: int | None = None) -> SpecError:
        return self.pos(node, offset, length).error(message, hint)

    def mapping(self, node, what: str) -> list[tuple]:
        if not isinstance(node, yaml.MappingNode):
            raise self.error(node, f"{what} must be a mapping (key: value lines)")
        refuse_duplicate_keys(self, node, what)
        return node.value

    def parts(self, node, what: str, keys) -> dict:
        """The values of the mapping `node` by key; a key not among `keys` is an error."""
        out = {}
        for key, value in self.mapping(node, what):
            if key.value not in keys:
                raise self.error(key, f"unknown part `{key.value}` of {what}",
                                 did_you_mean(key.value, keys) or f"{what} has {', '.join(keys)}")
            out[key.value] = value
        return out

    def items(self, node, what: str) -> list:
        """A list of scalar nodes; a single scalar counts as a list of one."""
        if isinstance(node, yaml.ScalarNode):
            return [] if node.tag.endswith(":null") else [node]
        if not isinstance(node, yaml.SequenceNode):
            raise self.error(node, f"{what} must be a list")
        if node.flow_style and all(isinstance(item, yaml.ScalarNode) for item in node.value):
            return self.flow_items(node)
        for item in node.value:
            if not isinstance(item, yaml.ScalarNode):
                raise self.error(item, f"each entry of {what} must be one string",
                                     "write it on one line, e.g. - At(A)")
        return node.value

    def scalar(self, node, what: str) -> str:
        if not isinstance(node, yaml.ScalarNode):
            raise self.error(node, f"{what} must be a single value")
        return node.value


@v_args(inline=True)
class Items(Transformer):
    """Turns parsed spec strings into (kind, parts) tuples with token positions kept."""

    def signature(self, name, *params):
        return ("signature", name, [p for p in params if p is not None])

    def param(self, name, type_):
        return (name, type_)

    def type(self, *names):
        return list(names)

    def positive(self, atom):
        return ("literal", atom, True)

    def negation(self, token, inner):
        return ("not", token, inner)

    def differ(self, left, right):
        return ("equality", left, right, False)

    def same(self, left, right):
        return ("equality", left, right, True)

    def conjunction(self, *parts):
        return ("and", list(parts))

    def disjunction(self, *parts):
        return ("or", list(parts))

    def implication(self, token, left, right):
        return ("imply", token, left, right)

    def quantified(self, token, *rest):
        return ("quantified", token, list(rest[:-1]), rest[-1])

    def atom(self, name, *args):
        return (name, [a for a in args if a is not None])

    def name(self, *pieces):
        return list(pieces)

    def splice(self, expr):
        return expr

    def generator(self, var, low, high):
        return ("for", var, low, high)

    def condition_item(self, condition, *generators):
        return ("generated", condition, list(generators))

    def name_item(self, name, *generators):
        return ("generated", name, list(generators))

    def number(self, token):
        return ("int", int(token))

    def variable(self, token):
        return ("var", token)

    def add(self, a, b):
        return ("+", a, b)

    def sub(self, a, b):
        return ("-", a, b)

    def mul(self, a, b):
        return ("*", a, b)

    def div(self, a, b):
        return ("//", a, b)

    def neg(self, a):
        return ("-", ("int", 0), a)


ITEMS = Items()
