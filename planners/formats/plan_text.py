"""The `.plan` front-end: the compact text format of planning specs (`plan_format.lark`).

A `.plan` file says what a YAML planning spec says, one keyword-led line per section:

    problem Monkey and bananas
    objects place: A, B, C
    objects level: Low, High
    predicates At(x - place), BoxAt(x - place), BananasAt(x - place), Height(h - level),
               HasBananas
    action Move(x - place, y - place)
      pre At(x), Height(Low), x != y
      add At(y)
      del At(x)
    init At(A), BoxAt(C), BananasAt(B), Height(Low)
    goal HasBananas

Inside an action, `when CONDITIONS` and `forall VARIABLES` lines start conditional and
universal effects (the `add` / `del` lines after them are theirs); `derived SIGNATURE`
with `if CONDITIONS` lines defines a derived predicate.

The grammar reads the line structure; the sections are then handed to the YAML
front-end's builder as the same nodes a YAML file gives (each item keeps its place in
the `.plan` file), so the items, the checks and the error messages are shared.
"""
from __future__ import annotations

from pathlib import Path

import yaml
from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from framework.frontend.lark_cache import cached_lark
from framework.errors import SpecError, normalise_line_breaks
from framework.loader import read_text
from planners.lifted.ast import ROOT_TYPE, PlanningProblem
from planners.lifted.check import check
from planners.formats.yaml_spec import build_from_nodes

_PARSER = cached_lark(Path(__file__).with_name("plan_format.lark").read_text(), parser="lalr",
                       maybe_placeholders=True, propagate_positions=True)

SECTIONS = "problem, domain, options, types, objects, predicates, derived (with if), action " \
           "(with pre, add, del, cost, when, forall), init, goal"
STR, INT, MAP, SEQ = ("tag:yaml.org,2002:" + t for t in ("str", "int", "map", "seq"))


class _Nodes:
    """Builds the YAML node tree of a parsed `.plan` file."""

    def __init__(self, file: str, lines: list[str]):
        self.file = file
        self.lines = lines
        self.sections: dict[str, list] = {}     # key -> [key node, value node]
        self.action_parts = None               # the parts mapping of the last action
        self.when_entry = None                 # the forall/if/add/del mapping of its last
                                               # `when` or `forall`
        self.derived_body = None               # the condition list of the last `derived`

    def mark(self, line: int, column: int, index: int = 0) -> yaml.Mark:
        return yaml.Mark(self.file, index, line - 1, column - 1, None, None)

    def scalar(self, token: Token, tag: str = STR) -> yaml.ScalarNode:
        mark = self.mark(token.line, token.column, token.start_pos)
        text = str(token).rstrip()
        return yaml.ScalarNode(tag, text[:-1].rstrip() if token.type == "TYPE_LABEL" else text,
                               mark, mark)

    def key(self, tree: Tree, name: str) -> yaml.ScalarNode:
        mark = self.mark(tree.meta.line, tree.meta.column, tree.meta.start_pos)
        return yaml.ScalarNode(STR, name, mark, mark)

    def container(self, tree: Tree, name: str, tag: str):
        """The mapping or sequence node of section `name`, created at its first line."""
        if name not in self.sections:
            mark = self.mark(tree.meta.line, tree.meta.column)
            node_type = yaml.MappingNode if tag == MAP else yaml.SequenceNode
            self.sections[name] = [self.key(tree, name), node_type(tag, [], mark, mark)]
        return self.sections[name][1]

    def items(self, tree: Tree) -> list:
        return [self.scalar(token) for token in tree.children]

    def add(self, section: Tree):
        kind = section.data
        if kind in ("problem", "domain"):
            if kind in self.sections:
                raise self.error(section, f"a second `{kind}` line")
            self.sections[kind] = [self.key(section, kind), self.scalar(section.children[0])]
        elif kind == "options":
            for option in section.children:
                name, value = option.children
                self.container(section, "options", MAP).value.append(
                    (self.scalar(name), self.scalar(value, INT)))
        elif kind == "types":
            for item in section.children:
                name, parent = item.children
                parent_node = self.scalar(parent) if parent is not None else \
                    yaml.ScalarNode(STR, ROOT_TYPE, self.scalar(name).start_mark, None)
                self.container(section, "types", MAP).value.append((self.scalar(name), parent_node))
        elif kind == "objects":
            label, items = section.children
            type_key = self.scalar(label) if label is not None else self.key(section, ROOT_TYPE)
            mark = type_key.start_mark
            self.container(section, "objects", MAP).value.append(
                (type_key, yaml.SequenceNode(SEQ, self.items(items), mark, mark)))
        elif kind in ("predicates", "init", "goal"):
            items = section.children[0]
            self.container(section, kind, SEQ).value.extend(self.items(items) if items else [])
        elif kind == "action":
            mark = self.mark(section.meta.line, section.meta.column)
            self.action_parts = yaml.MappingNode(MAP, [], mark, mark)
            self.when_entry = self.derived_body = None
            self.container(section, "actions", MAP).value.append(
                (self.scalar(section.children[0]), self.action_parts))
        elif kind == "derived":
            mark = self.mark(section.meta.line, section.meta.column)
            self.derived_body = yaml.SequenceNode(SEQ, [], mark, mark)
            self.action_parts = self.when_entry = None
            self.container(section, "derived", MAP).value.append(
                (self.scalar(section.children[0]), self.derived_body))
        elif kind == "derived_if":
            if self.derived_body is None:
                raise self.error(section, "`if` belongs to a derived predicate",
                                 "start it with `derived Name(params)` on the line above (the "
                                 "condition of an action's effect is a `when` line)")
            self.derived_body.value.extend(self.items(section.children[0]))
        elif kind in ("when", "forall"):
            self.add_effect(section, kind)
        else:
            self.add_part(section)

    def add_effect(self, section: Tree, kind: str):
        """`when CONDITIONS` / `forall VARIABLES`: a conditional / universal effect of the
        current action, whose add and del lines follow it (the YAML `when: [{forall: [...],
        if: [...], add: [...], del: [...]}]`); a `when` right after a `forall` is its
        condition."""
        if self.action_parts is None:
            raise self.error(section, f"`{kind}` belongs to an action",
                             "start the action with `action Name(params)` on the line above")
        mark = self.mark(section.meta.line, section.meta.column)
        items = section.children[0]
        values = yaml.SequenceNode(SEQ, self.items(items) if items else [], mark, mark)
        key = self.key(section, "if" if kind == "when" else "forall")
        entry = self.when_entry
        if kind == "when" and entry is not None and [k.value for k, _ in entry.value] == ["forall"]:
            entry.value.append((key, values))
            return
        self.when_entry = yaml.MappingNode(MAP, [(key, values)], mark, mark)
        self.append_part(self.action_parts, section, "when", [self.when_entry])

    def add_part(self, section: Tree):
        word, items = section.children
        if self.action_parts is None:
            raise self.error(section, f"`{word}` belongs to an action",
                             "start the action with `action Name(params)` on the line above")
        values = self.items(items)
        if self.when_entry is not None:
            if word not in ("add", "del"):
                raise self.error(section, f"`{word}` after a `when` of the action",
                                 "write the action's pre and cost before its first `when` "
                                 "or `forall`")
            self.append_part(self.when_entry, section, str(word), values)
            return
        if word == "cost":
            if len(values) != 1:
                raise self.error(section, "an action has one cost")
            self.action_parts.value.append((self.key(section, "cost"), values[0]))
            return
        self.append_part(self.action_parts, section, str(word), values)

    def append_part(self, parts: yaml.MappingNode, section: Tree, word: str, values: list):
        """`values` added to the list `word` of the mapping `parts` (created if new)."""
        for key, value in parts.value:
            if key.value == word:
                value.value.extend(values)
                return
        mark = self.mark(section.meta.line, section.meta.column)
        parts.value.append((self.key(section, word), yaml.SequenceNode(SEQ, values, mark, mark)))

    def error(self, tree: Tree, message: str, hint: str | None = None) -> SpecError:
        line = tree.meta.line
        return SpecError(message, file=self.file, line=line, col=tree.meta.column,
                         source_line=self.lines[line - 1], hint=hint)

    def root(self) -> yaml.MappingNode:
        return yaml.MappingNode(MAP, [tuple(pair) for pair in self.sections.values()],
                                self.mark(1, 1), self.mark(1, 1))


def load_plan_text(path, **options) -> PlanningProblem:
    """A checked planning problem from a `.plan` file; `options` override its defaults."""
    return check(parse_plan_text(read_text(path), str(path), **options))


def parse_plan_text(text: str, path: str, **options) -> PlanningProblem:
    """The problem the `.plan` text declares, read but not checked (the language server
    indexes its names, then checks it)."""
    text = normalise_line_breaks(text)
    return build_from_nodes(str(path), text, plan_nodes(text, path), options)


def plan_nodes(text: str, path: str) -> yaml.MappingNode:
    """The YAML node tree a `.plan` text (line breaks normalised) stands for."""
    lines = text.split("\n")
    try:
        tree = _PARSER.parse(text)
    except UnexpectedInput as err:
        line, col = getattr(err, "line", 1), getattr(err, "column", 1)
        if line is None or line < 1:
            line, col = len(lines) or 1, len(lines[-1]) + 1 if lines else 1
        source = lines[line - 1] if 0 < line <= len(lines) else None
        token = getattr(err, "token", None)
        what = f"`{token}`" if token is not None and str(token) else "text"
        raise SpecError(f"unexpected {what} in a .plan file", file=str(path), line=line,
                        col=col, source_line=source,
                        hint=f"each line starts with a section keyword: {SECTIONS}") from None
    nodes = _Nodes(str(path), lines)
    for section in tree.children:
        nodes.add(section)
    return nodes.root()
