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


def positive_int(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    import argparse
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def add_game_play_options(p, games_help: str) -> None:
    """--games, --seed, --move-time, --max-plies: how `match` and `tournament` play games."""
    p.add_argument("--games", type=positive_int, default=10, metavar="N", help=games_help)
    p.add_argument("--seed", type=int, default=0, help="seed for chance and random agents (default 0)")
    p.add_argument("--move-time", type=float, default=1.0, metavar="SECONDS",
                   help="time per move for a searcher agent given no depth, time, nodes or "
                        "iterations (default 1.0)")
    p.add_argument("--max-plies", type=positive_int, metavar="N",
                   help="stop a game after N plies and count it unfinished (default: the spec's "
                        "max_length, else 10,000)")


def table_console():
    """A rich console for result tables: the terminal's width on a terminal, and wide enough
    that no column is cut when the output goes to a file or a pipe."""
    from rich.console import Console
    return Console() if sys.stdout.isatty() else Console(width=200)
