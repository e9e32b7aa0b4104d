"""`plyspec compile SPEC --emit-python`: show the Python the compiler writes for a spec."""
from __future__ import annotations

from framework.cli import COMMANDS
from framework.cli.common import add_set_option, parse_sets


EXAMPLES = [
    'plyspec compile tictactoe --emit-python   # the generated module',
]


def add_parser(sub):
    p = sub.add_parser("compile", help=COMMANDS["compile"],
                       description="Check and compile SPEC; with --emit-python print the generated "
                                   "module (the state class and its rules, with the spec's names).")
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--emit-python", action="store_true", help="print the generated Python source")
    add_set_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from framework import load
    game = load(args.spec, **parse_sets(args.set))
    if args.emit_python:
        print(game.python_source, end="")
    else:
        print(f"{args.spec}: compiled {game.name} ({len(game.python_source.splitlines())} lines of Python); "
              "add --emit-python to see them")
    return 0
