"""`plyspec check SPEC...`: parse and check specs, print their capabilities."""
from __future__ import annotations

import sys

from framework.cli import COMMANDS
from framework.cli.common import add_set_option, parse_sets, print_json
from framework.errors import SpecError


EXAMPLES = [
    'plyspec check tictactoe               # a shipped spec, by name',
    'plyspec check my_game.yaml my_game.game',
    'plyspec check game_specs/*.yaml',
]


def add_parser(sub):
    p = sub.add_parser("check", help=COMMANDS["check"],
                       description="Parse, check and compile each SPEC (.yaml or .game). Errors are "
                                   "printed as FILE:LINE:COL with the source line, a caret and a hint; "
                                   "exit status 1 if any spec has an error.")
    p.add_argument("specs", nargs="+", metavar="SPEC", help="game spec files")
    add_set_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object with a result per spec")
    p.set_defaults(func=run)


def run(args) -> int:
    from framework import load, parse_spec
    from framework.lint import warnings
    options = parse_sets(args.set)
    results, failed = {}, 0
    for path in args.specs:
        try:
            game = load(path, **options)
            notes = [str(w) for w in warnings(parse_spec(path))]
            results[path] = {"ok": True, **game.describe(), "warnings": notes}
            if not args.json:
                d = game.describe()
                print(f"{path}: ok: {d['name']}, {len(d['players'])} player(s) "
                      f"({', '.join(d['players'])}), {'chance, ' if d['chance'] else ''}"
                      f"{'zero-sum, ' if d['zero_sum'] else ''}utility in {d['utility_bounds']}"
                      + (f", options {d['options']}" if d['options'] else ""))
                for note in notes:
                    print(note, file=sys.stderr)
        except SpecError as e:
            failed += 1
            results[path] = {"ok": False, "error": str(e)}
            if not args.json:
                print(str(e), file=sys.stderr)
    if args.json:
        print_json({"ok": not failed, "specs": results})
    return 1 if failed else 0
