"""Helpers shared by the sub-commands: `--set k=v` options and JSON output."""
from __future__ import annotations

import sys

from framework.errors import UsageError, shorten


def add_set_option(parser):
    parser.add_argument("--set", metavar="NAME=VALUE", action="append", default=[],
                        help="override a spec option, e.g. --set width=5 --set heaps=[1,2,3] "
                             "(repeatable; values are read as YAML scalars or lists)")


def parse_sets(pairs) -> dict:
    options = {}
    for pair in pairs:
        import yaml
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"cannot read --set {pair!r}", hint="write --set NAME=VALUE, e.g. --set size=6")
        try:
            value = yaml.safe_load(text)
        except (yaml.YAMLError, RecursionError):        # (RecursionError: [[[[... nested too deeply)
            raise UsageError(f"cannot read the value of --set {shorten(pair)!r}",
                             hint="e.g. 5, true or [1, 2, 3]") from None
        options[name.strip()] = value
    return options


def print_json(obj) -> None:
    import json
    json.dump(obj, sys.stdout, default=str)
    sys.stdout.write("\n")


def number_text(value) -> str:
    """A value for people: `-` for none, whole floats without `.0`, else `%g`."""
    if value is None:
        return "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:g}" if isinstance(value, float) else str(value)


MAX_WHOLE = 10 ** 12          # the largest count a flag takes (nodes, iterations, games ...)
MAX_DEPTH = 1_000_000         # the deepest search a --depth asks for (a recursion limit follows it)
MAX_NUMBER = 1e9              # the largest seconds or megabytes a flag takes


def _whole(text: str, least: int, most: int = MAX_WHOLE) -> int:
    import argparse
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
    if value > most:
        raise argparse.ArgumentTypeError(f"must be at most {most:,}")
    return value


def positive_int(text: str) -> int:
    """argparse type: a whole number of at least 1 (and at most MAX_WHOLE)."""
    return _whole(text, 1)


def nonnegative_int(text: str) -> int:
    """argparse type: a whole number of at least 0 (and at most MAX_WHOLE)."""
    return _whole(text, 0)


def search_depth(text: str) -> int:
    """argparse type: a search depth, 1..MAX_DEPTH."""
    return _whole(text, 1, MAX_DEPTH)


def perft_depth(text: str) -> int:
    """argparse type: a perft or tree depth, 0..MAX_DEPTH."""
    return _whole(text, 0, MAX_DEPTH)


def _number(text: str, zero_ok: bool) -> float:
    import argparse
    import math
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, not {text!r}") from None
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero_ok) or value > MAX_NUMBER:
        raise argparse.ArgumentTypeError(f"expected a number {'>=' if zero_ok else '>'} 0 and at most "
                                         f"{MAX_NUMBER:g}, not {text!r}")
    return value


def positive_number(text: str) -> float:
    """argparse type: a finite number > 0 (seconds, megabytes)."""
    return _number(text, False)


def nonnegative_number(text: str) -> float:
    """argparse type: a finite number >= 0 (an exploration constant)."""
    return _number(text, True)


def add_game_play_options(p, games_help: str) -> None:
    """--games, --seed, --move-time, --max-plies: how `match` and `tournament` play games."""
    p.add_argument("--games", type=positive_int, default=10, metavar="N", help=games_help)
    p.add_argument("--seed", type=int, default=0, help="seed for chance and random agents (default 0)")
    p.add_argument("--move-time", type=positive_number, default=1.0, metavar="SECONDS",
                   help="time per move for a searcher agent given no depth, time, nodes or "
                        "iterations (default 1.0)")
    p.add_argument("--max-plies", type=positive_int, metavar="N",
                   help="stop a game after N plies and count it unfinished (default: the spec's "
                        "max_length, else 10,000)")


def table_console():
    """A rich console for result tables: the terminal's width on a terminal, and wide enough
    that no column is cut when the output goes to a file or a pipe; markup off, control
    characters shown as escapes (`framework.terminal`)."""
    from framework.terminal import console
    return console() if sys.stdout.isatty() else console(width=200)
