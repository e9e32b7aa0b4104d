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
                       description="Parse, check and compile each SPEC (.yaml or .game; planning problems "
                                   "too: YAML, .plan, or PDDL given as DOMAIN.pddl PROBLEM.pddl). Errors are "
                                   "printed as FILE:LINE:COL with the source line, a caret and a hint; "
                                   "exit status 1 if any spec has an error.")
    p.add_argument("specs", nargs="+", metavar="SPEC", help="game spec files or planning problems")
    add_set_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object with a result per spec")
    p.set_defaults(func=run)


def run(args) -> int:
    from framework import load, parse_spec
    from framework.conformance.discover import resolve
    from framework.lint import warnings
    from framework.loader import planning_kind
    options = parse_sets(args.set)
    results, failed = {}, 0
    specs = list(args.specs)
    while specs:
        path = specs.pop(0)
        if planning_kind(resolve(path)):
            partner = specs.pop(0) if str(path).lower().endswith(".pddl") and specs and \
                str(specs[0]).lower().endswith(".pddl") else None
            failed += _check_planning(path, partner, options, results, args.json)
            continue
        try:
            game = load(path, **options)
            notes = [str(w) for w in warnings(parse_spec(resolve(path)), options)]
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


def _check_planning(path, partner, options, results, quiet) -> int:
    """Check a planning problem (YAML, .plan, or a PDDL domain with its problem) as `plan`
    reads it; returns 1 on an error.  A PDDL file alone is checked as planners.formats.pddl_alone
    says (a domain with its constants, a problem with the domain beside it)."""
    import planners
    from planners.formats.pddl_alone import check_pddl_text
    from framework.loader import read_text
    key = f"{path} {partner}" if partner else str(path)
    try:
        if str(path).lower().endswith(".pddl") and partner is None:
            summary = check_pddl_text(read_text(path), str(path))
        else:
            problem = planners.load(path, partner, **options) if partner else planners.load(path, **options)
            summary = f"planning problem {problem.name}"
        results[key] = {"ok": True, "planning": True, "summary": summary}
        if not quiet:
            print(f"{key}: ok: {summary}" + ("" if partner is None and str(path).lower().endswith(".pddl")
                                              else f"; plan it with `plyspec plan {key}`"))
        return 0
    except (SpecError, ValueError) as e:
        results[key] = {"ok": False, "error": str(e)}
        if not quiet:
            print(str(e), file=sys.stderr)
        return 1
