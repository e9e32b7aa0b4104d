"""The outline of a YAML or `.plan` planning spec: its sections with every item as written
(options, `{...}` splices and `for` generators kept), read from the YAML nodes both
front-ends build.  `plyspec convert` prints an outline in the other spec format
(`print_yaml.outline_yaml`, `print_plan.outline_plan`), so YAML <-> .plan keeps the whole
recipe, not only the problem it gives for one set of options.  An outline is read only
from a spec that loads, so its structure has been checked already.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import yaml

from framework.errors import normalise_line_breaks
from planners.lifted.ast import ROOT_TYPE
from planners.formats.yaml_items import Source


@dataclass
class Outline:
    problem: str | None = None
    domain: str | None = None
    options: list = field(default_factory=list)      # (name, value text)
    types: list = field(default_factory=list)        # (name, parent or None)
    objects: list = field(default_factory=list)      # (type, [items])
    predicates: list = field(default_factory=list)
    derived: list = field(default_factory=list)      # (signature, [items])
    actions: list = field(default_factory=list)      # (signature, {part: items / cost text /
                                                     #  [when entry: {key: items}]})
    init: list = field(default_factory=list)
    goal: list = field(default_factory=list)


def read_outline(text: str, file: str, fmt: str, options: dict | None = None) -> Outline:
    """The outline of spec `text` (`fmt` "yaml" or "plan"); `options` replace the defaults
    it declares."""
    if fmt == "plan":
        from planners.formats.plan_text import plan_nodes
        text = normalise_line_breaks(text)
        root = plan_nodes(text, file)
    else:
        from framework.frontend.yaml_spec import compose
        _, root = compose(text, file, label="not valid YAML", what="planning spec")
    src = Source(file, text)
    out = Outline()
    for key, value in root.value:
        _section(src, out, key.value, value, options or {})
    return out


def _items(src: Source, node) -> list[str]:
    return [item.value for item in src.items(node, "a list")]


def _section(src: Source, out: Outline, name: str, node, options: dict):
    if name in ("problem", "domain"):
        setattr(out, name, node.value)
    elif name == "options":
        out.options = [(k.value, str(options.get(k.value, v.value))) for k, v in node.value]
    elif name == "types":                              # a parent `object` is no parent
        out.types = [(k.value, None if v.value == ROOT_TYPE else v.value) for k, v in node.value] \
            if isinstance(node, yaml.MappingNode) else [(t, None) for t in _items(src, node)]
    elif name == "objects":                            # untyped objects are of type `object`
        out.objects = [(k.value, _items(src, v)) for k, v in node.value] \
            if isinstance(node, yaml.MappingNode) else [(ROOT_TYPE, _items(src, node))]
    elif name == "derived":
        out.derived = [(k.value, _items(src, v)) for k, v in node.value]
    elif name == "actions":
        out.actions = [(k.value, _parts(src, v)) for k, v in node.value]
    else:                                              # predicates, init, goal
        setattr(out, name, _items(src, node))


def _parts(src: Source, node) -> dict:
    parts = {}
    for key, value in node.value if isinstance(node, yaml.MappingNode) else ():
        if key.value == "cost":
            parts["cost"] = value.value
        elif key.value == "when":
            parts["when"] = [{k.value: _items(src, v) for k, v in entry.value}
                             for entry in value.value]
        else:
            parts[key.value] = _items(src, value)
    return parts
