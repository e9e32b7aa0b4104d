"""The `plyspec` command line.  Each sub-command lives in its own module under
`framework.cli` and exposes `add_parser(subparsers)` which registers itself and sets
`func(args) -> int`.  Exit codes: 0 ok, 1 spec or input error, 2 usage error."""
from __future__ import annotations

import argparse
import importlib
import sys

from framework.errors import SpecError

# sub-command modules, in the order `plyspec --help` lists them
COMMANDS = ["check", "perft", "compile", "convert", "solve", "tree", "play", "match", "book",
            "plan", "test", "fuzz"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="plyspec",
        description="Declare games and planning problems; check, compile, search, solve and plan them.",
        epilog="Run `plyspec COMMAND --help` for the options of one command.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"framework.cli.{name}_cmd").add_parser(sub)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args) or 0
    except SpecError as err:
        print(str(err), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (OSError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
