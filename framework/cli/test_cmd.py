"""`plyspec test [SPEC...]`: the conformance suite (framework.conformance) on specs."""
from __future__ import annotations

import argparse
import sys
import time

from framework.cli import COMMANDS
from framework.cli.common import add_set_option, parse_sets, print_json


def add_parser(sub):
    p = sub.add_parser(
        "test", help=COMMANDS["test"],
        description="Check that each SPEC (a game spec .yaml/.game, or a planning problem "
                    ".yaml/.plan) has the properties every spec must have: it loads; random "
                    "playouts end within the spec's max_length (or --max-length); actions exist "
                    "exactly at non-terminal states; result() never mutates a state; replays, "
                    "hashes and pickling agree; utilities lie within the declared bounds and sum "
                    "as declared; chance outcomes are well formed; alpha-beta equals minimax and "
                    "pruned expectimax / max-n equal their plain versions on sampled positions; "
                    "perft matches the golden file; the YAML and .game versions agree; plans "
                    "replay to the goal. One line per property: passed, failed (with the "
                    "shortest action sequence found that shows it) or n/a. Exit status 1 if any "
                    "property fails. Playouts are drawn by Hypothesis (pip install hypothesis).",
        epilog="examples:\n"
               "  plyspec test                                  # every shipped spec\n"
               "  plyspec test my_game.yaml --examples 500      # more playouts\n"
               "  plyspec test game_specs/nim.yaml --set heaps=[2,2] --json\n"
               "See docs/conformance.md for what each property means.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("specs", nargs="*", metavar="SPEC",
                   help="spec files (default: every spec in game_specs/ and planners/problems/)")
    add_set_option(p)
    p.add_argument("--examples", type=int, default=100, metavar="N",
                   help="Hypothesis examples (random playouts) per property; searcher cross-checks "
                        "use N/5 positions (default 100)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="draw other playouts (default: the same, reproducible ones on every run)")
    p.add_argument("--max-length", type=int, default=None, metavar="PLIES",
                   help="a playout longer than this fails (default: the spec's max_length, "
                        "else 10,000)")
    p.add_argument("--json", action="store_true",
                   help='print {"ok": ..., "specs": [{"spec", "kind", "name", "ok", '
                        '"properties": [{"property", "status", "detail", "counterexample"}]}]}')
    p.set_defaults(func=run)


def run(args) -> int:
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        raise ValueError("plyspec test draws its playouts with Hypothesis: "
                         "pip install hypothesis (or pip install \"plyspec[test]\")") from None
    from framework.conformance import check_spec
    from framework.conformance.discover import shipped_specs
    from framework.conformance.report import summary
    if args.examples < 1:
        raise ValueError("--examples must be at least 1")
    if args.max_length is not None and args.max_length < 1:
        raise ValueError("--max-length must be at least 1")
    options = parse_sets(args.set)
    specs = args.specs or [str(p) for p in shipped_specs()]
    reports = []
    start = time.perf_counter()
    for spec in specs:
        report = check_spec(spec, options=options, examples=args.examples, seed=args.seed,
                            max_length=args.max_length)
        reports.append(report)
        if not args.json:
            print(report.text())
            sys.stdout.flush()
    ok = not any(r.failed for r in reports)
    if args.json:
        print_json({"ok": ok, "specs": [r.to_json() for r in reports]})
    else:
        print(f"\n{summary(reports)} in {time.perf_counter() - start:.1f} s")
    return 0 if ok else 1
