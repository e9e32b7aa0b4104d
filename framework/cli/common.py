"""Helpers shared by the sub-commands: `--set k=v` options and JSON output."""
from __future__ import annotations

import json
import sys

import yaml

from framework.errors import SpecError


def add_set_option(parser):
    parser.add_argument("--set", metavar="NAME=VALUE", action="append", default=[],
                        help="override a spec option, e.g. --set width=5 --set heaps=[1,2,3] "
                             "(repeatable; values are read as YAML scalars or lists)")


def parse_sets(pairs) -> dict:
    options = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise SpecError(f"cannot read --set {pair!r}", hint="write --set NAME=VALUE, e.g. --set size=6")
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError:
            raise SpecError(f"cannot read the value of --set {pair!r}", hint="e.g. 5, true or [1, 2, 3]") from None
        options[name.strip()] = value
    return options


def print_json(obj) -> None:
    json.dump(obj, sys.stdout, default=str)
    sys.stdout.write("\n")


def number_text(value) -> str:
    """A value for people: `-` for none, whole floats without `.0`, else `%g`."""
    if value is None:
        return "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:g}" if isinstance(value, float) else str(value)
