"""`plyspec fuzz`: the loader fuzzing campaign (framework.conformance.fuzz)."""
from __future__ import annotations

import argparse
import sys

from framework.cli import COMMANDS
from framework.cli.common import print_json


def add_parser(sub):
    from framework.conformance.fuzz import FORMATS, KINDS
    p = sub.add_parser(
        "fuzz", help=COMMANDS["fuzz"],
        description="Feed the spec loaders (game YAML, .game, planning YAML, .plan, PDDL domain "
                    "and problem) generated inputs: mutations of every shipped spec, random YAML "
                    "documents built from the sections' own keys, and random text. Each input must "
                    "load (a game must also start) or be refused with a SpecError whose line and "
                    "column lie inside the input; anything else is a finding. Prints progress on "
                    "stderr, then the counts and one example per distinct finding; exit status 1 "
                    "if there are findings.",
        epilog="examples:\n"
               "  plyspec fuzz --inputs 100000            # the full campaign (several minutes)\n"
               "  plyspec fuzz --inputs 2000 --format game --kind mutations --seed 7\n"
               "  python -m framework.conformance.fuzz --inputs 100000 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--inputs", type=int, default=10_000, metavar="N",
                   help="inputs to try, spread evenly over formats and kinds (default 10,000)")
    p.add_argument("--format", action="append", choices=FORMATS, default=None,
                   help="only this input format (repeatable; default: all)")
    p.add_argument("--kind", action="append", choices=KINDS, default=None,
                   help="only this kind of input (repeatable; default: all)")
    p.add_argument("--seed", type=int, default=None,
                   help="other inputs (default: the same, reproducible ones on every run)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object with the counts and the distinct findings")
    p.set_defaults(func=run)


def run(args) -> int:
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        raise ValueError("plyspec fuzz draws its inputs with Hypothesis: pip install hypothesis") from None
    from framework.conformance.fuzz import FORMATS, KINDS, campaign, progress_line, report
    if args.inputs < 1:
        raise ValueError("--inputs must be at least 1")

    def progress(tally, news=None):
        print(news or progress_line(tally), file=sys.stderr, flush=True)
    tally = campaign(args.inputs, seed=args.seed, formats=args.format or FORMATS,
                     kinds=args.kind or KINDS, progress=progress)
    if args.json:
        print_json(tally.to_json())
    else:
        print(report(tally))
    return 1 if tally.findings and tally.finding_count > tally.slow else 0
