"""Helpers shared by the sub-commands: `--set k=v` options and JSON output."""
from __future__ import annotations

import sys

from framework.errors import UsageError, shorten


def add_set_option(parser):
    parser.add_argument("--set", metavar="NAME=VALUE", action="append", default=[],
                        help="override a spec option, e.g. --set width=5 --set heaps=[1,2,3] "
                             "(repeatable; values are read as YAML scalars or lists)")


def parse_sets(pairs) -> dict:
    """{name: value} of `--set NAME=VALUE` pairs: a name as in a spec, a value a YAML scalar
    (a number of at most MAX_NUMBER_DIGITS digits, finite) or a flat list of them; anything
    else is a UsageError showing the pair (the spec's checker then checks each value's type
    against the option's default, at the option)."""
    import re
    options = {}
    for pair in pairs:
        import yaml
        name, sep, text = pair.partition("=")
        name = name.strip()
        shown = shorten(ascii(pair)[1:-1])
        if not sep or not name:
            raise UsageError(f"cannot read --set {shown}", hint="write --set NAME=VALUE, e.g. --set size=6")
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise UsageError(f"--set {shown}: `{shorten(ascii(name)[1:-1])}` is not an option name",
                             hint="names start with a letter and contain letters, digits and _")
        try:
            value = yaml.safe_load(text)
        except (yaml.YAMLError, ValueError, RecursionError):     # ([[[[... nested too deeply)
            raise UsageError(f"cannot read the value of --set {shown}", hint="e.g. 5, true or [1, 2, 3]") from None
        for item in value if isinstance(value, list) else [value]:
            _set_item(shown, item)
        options[name] = value
    return options


def _set_item(shown: str, item) -> None:
    """One value (or list item) of `--set`: a scalar with a number of reasonable size."""
    import math
    from framework.frontend.expressions import MAX_NUMBER_DIGITS
    if isinstance(item, (list, dict)) or not isinstance(item, (str, int, float, bool, type(None))):
        raise UsageError(f"--set {shown}: a value is a number, true/false, or a list of those",
                         hint="e.g. --set heaps=[1, 2, 3]")
    if isinstance(item, int) and not isinstance(item, bool) and \
            item.bit_length() > MAX_NUMBER_DIGITS * 3.33:         # about as many decimal digits
        raise UsageError(f"--set {shown}: a number of more than {MAX_NUMBER_DIGITS} digits",
                         hint="options are small numbers")
    if isinstance(item, float) and not math.isfinite(item):
        raise UsageError(f"--set {shown}: {item} is not a finite number", hint="e.g. --set p=0.5")


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
