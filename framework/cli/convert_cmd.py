"""`plyspec convert SPEC --to yaml|game [-o OUT]`: write a game spec in the other format.

The spec is parsed (syntax only: a spec with, say, an unknown name still converts, so it
can be fixed in either format) and printed by `framework.frontend.printer`.  Before
anything is written the output is read back and compared with the input, so a converted
spec always describes the same game.  Comments and layout are not carried over.

Without `-o` the result goes to stdout.  With `-o OUT` it is written atomically: to a
temporary file beside OUT, renamed over OUT once complete, so an error never leaves a
half-written file.  OUT may not be the input.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from framework.cli import COMMANDS
from framework.files import write_atomic
from framework.frontend.printer import spec_fields, to_game, to_yaml
from framework.loader import parse_spec, parse_text

USAGE_ERROR = 2
PRINTERS = {"yaml": to_yaml, "game": to_game}


EXAMPLES = [
    'plyspec convert game_specs/tictactoe.yaml --to game -o tictactoe.game   # YAML -> .game text',
    'plyspec convert my_game.game --to yaml -o my_game.yaml',
]


def add_parser(sub):
    p = sub.add_parser(
        "convert", help=COMMANDS["convert"],
        description="Parse SPEC (.yaml, .yml or .game) and write the same game in the format "
                    "given by --to.  The result is read back and checked to describe the same "
                    "game before it is written.  Comments are not carried over.")
    p.add_argument("spec", metavar="SPEC", help="the spec to convert")
    p.add_argument("--to", required=True, choices=sorted(PRINTERS), help="the output format")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="write to this file (atomically) instead of stdout; never the input")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.output and Path(args.output).exists() and os.path.samefile(args.output, args.spec):
        print(f"error: refusing to overwrite the input {args.spec}; choose another -o", file=sys.stderr)
        return USAGE_ERROR
    spec = parse_spec(args.spec)
    text = convert(spec, args.to)
    if args.output:
        write_atomic(args.output, text, force=True)
    else:
        sys.stdout.write(text)
    return 0


def convert(spec, fmt: str) -> str:
    """`spec` as text in `fmt` ('yaml' or 'game'), checked to read back to the same game."""
    text = PRINTERS[fmt](spec)
    back = parse_text(text, f"<{fmt} output>", fmt)
    if spec_fields(back) != spec_fields(spec):
        raise ValueError(f"converting {spec.file} to {fmt} would change the game; "
                         "please report this as a bug")
    return text


