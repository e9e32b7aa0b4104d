"""`plyspec test [SPEC...]`: the conformance suite (framework.conformance) on specs."""
from __future__ import annotations

import argparse
import sys
import time

from framework.cli import COMMANDS
from framework.cli.parallel_options import add_parallel_options
from framework.cli.common import add_set_option, parse_sets, positive_int, print_json


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
                   help="spec files (default: every spec in game_specs/ and planners/data/problems/)")
    add_set_option(p)
    p.add_argument("--examples", type=positive_int, default=100, metavar="N",
                   help="Hypothesis examples (random playouts) per property; searcher cross-checks "
                        "use N/5 positions (default 100)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="draw other playouts (default: the same, reproducible ones on every run)")
    p.add_argument("--max-length", type=positive_int, default=None, metavar="PLIES",
                   help="a playout longer than this fails (default: the spec's max_length, "
                        "else 10,000)")
    p.add_argument("--json", action="store_true",
                   help='print {"ok": ..., "specs": [{"spec", "kind", "name", "ok", '
                        '"properties": [{"property", "status", "detail", "counterexample"}]}]}')
    p.add_argument("--all", action="store_true",
                   help="every shipped spec (also what no SPEC means), spread over the workers")
    add_parallel_options(p, results=False)
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
    specs = list(args.specs) + ([str(p) for p in shipped_specs()] if args.all or not args.specs else [])
    start = time.perf_counter()
    if len(specs) > 1 and args.workers != 0 or args.ray is not None:
        reports, interrupted = _check_in_parallel(args, specs, options)
    else:
        reports, interrupted = [], False
        for spec in specs:
            report = check_spec(spec, options=options, examples=args.examples, seed=args.seed,
                                max_length=args.max_length)
            reports.append(report)
            if not args.json:
                print(report.text())
                sys.stdout.flush()
    if interrupted:
        print(f"interrupted after {len(reports)} of {len(specs)} specs", file=sys.stderr)
    ok = not any(r.failed for r in reports)
    if args.json:
        print_json({"ok": ok, "specs": [r.to_json() for r in reports]})
    else:
        print(f"\n{summary(reports)} in {time.perf_counter() - start:.1f} s")
    return 130 if interrupted else 0 if ok else 1


def _check_in_parallel(args, specs, options):
    """Each spec's conformance run on a fresh worker (Hypothesis draws differently in a
    process that has run other checks before); reports printed in the order of `specs` as
    soon as each one and all before it have finished (so the output does not depend on the
    number of workers).  A worker's failure is a failed `loads` property of that spec."""
    from framework.cli.parallel_options import drive
    from framework.conformance.report import FAILED, Outcome, SpecReport
    from framework.parallel import Failure
    from framework.conformance.discover import resolve
    from framework.parallel.tasks import spec_bundle
    tasks = [(i, (spec_bundle(resolve(spec)), resolve(spec).name, spec, options, args.examples, args.seed,
                  args.max_length)) for i, spec in enumerate(specs)]
    reports = {}
    shown = [0]

    def arrived(i, data):
        if isinstance(data, Failure):
            data = SpecReport(specs[i], "game", None, [Outcome("loads", FAILED, f"the worker failed "
                                                               f"({data.kind}): {data.message}")]).to_json()
        reports[i] = SpecReport.from_json(data)
        while shown[0] in reports:
            if not args.json:
                print(reports[shown[0]].text())
                sys.stdout.flush()
            shown[0] += 1

    _, interrupted = drive(args, "framework.parallel.tasks:check_bundle", tasks, on_result=arrived,
                           label="specs", fresh=True)
    return [reports[i] for i in sorted(reports)], interrupted
