"""YAML with positions, shared by the game and planning front-ends: `compose` (PyYAML's safe
composer only, standard tags only, alias expansion bounded by `MAX_YAML_NODES`, errors with
file:line:col) and `YamlReader`, the typed accessors over composed nodes that keep every
position, map a rule string's positions back into the file and raise positioned errors.
"""
from __future__ import annotations

import math
import re

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from framework import ast
from framework.errors import SpecError, line_and_column, shorten, split_lines
from framework.frontend.expressions import MAX_NUMBER_DIGITS, parse_expression, parse_effects, parse_domain

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
        refuse_duplicate_keys(self, node, what)
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
        if node.tag.endswith((":int", ":float")) and len(node.value) > MAX_NUMBER_DIGITS:
            raise self.error(node, f"{what}: {shorten(node.value)} has {len(node.value):,} "
                                   f"characters, more than a number may have ({MAX_NUMBER_DIGITS})",
                             "use a smaller number")
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

    def option_default(self, node, what):
        """An option's default: a constant, or an expression over earlier options written as
        a string (`wall_count: n * n // 8`), which the checker computes."""
        if isinstance(node, ScalarNode) and node.tag.endswith(":str"):
            return self.expr(node, what)
        return self.constant(node, what)

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
            shown = text if text.isprintable() else ascii(text)[1:-1]   # no NUL, ESC... in messages
            raise self.error(node, f"{what} `{shorten(shown)}` is not a valid name",
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
    """Refuse a document that stands for more than MAX_YAML_NODES nodes (counted over the
    graph of shared nodes, each once, so the count itself is cheap; the message blames
    aliases only when the document has some), or for an endless one (an alias inside the
    node it names: `a: &a [*a]`)."""
    size, open_nodes, aliased = {}, set(), False
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in size:
            aliased = True           # a node met twice: an alias to it
            continue
        if not children_done:
            if id(node) in open_nodes:   # met again below itself: a cycle
                raise reader.error(node, "this YAML refers to itself: an alias (`*name`) "
                                   "inside the value its anchor (`&name`) names",
                                   "write the data out without the alias")
            open_nodes.add(id(node))
        children = [x for kv in node.value for x in kv] if isinstance(node, MappingNode) else \
            node.value if isinstance(node, SequenceNode) else []
        if children_done:
            size[id(node)] = 1 + sum(size.get(id(c), 1) for c in children)
            if size[id(node)] > MAX_YAML_NODES and aliased:
                raise reader.error(node, f"this YAML stands for more than {MAX_YAML_NODES:,} values once "
                                   "its aliases (`*name`) are expanded", "write the data out, or use fewer aliases")
            if size[id(node)] > MAX_YAML_NODES:
                raise reader.error(node, f"this YAML holds more than {MAX_YAML_NODES:,} values, more than "
                                   "a spec may have", "a spec states rules; generate long lists with "
                                   "options and expressions instead of writing them out")
        else:
            stack.append((node, True))
            aliased = aliased or any(id(c) in size for c in children)
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


def refuse_duplicate_keys(reader, node, what) -> None:
    """A mapping node's keys are single values, each given once (`reader` has the
    `scalar(node, what)` and `error(node, message, hint)` of a YAML front-end)."""
    seen = {}
    for key, _ in node.value:
        name = reader.scalar(key, f"a key of {what}")
        if name in seen:
            raise reader.error(key, f"duplicate key `{name}` in {what}",
                               f"first given at line {seen[name].start_mark.line + 1}")
        seen[name] = key
