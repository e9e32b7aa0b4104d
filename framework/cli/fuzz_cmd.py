"""`plyspec fuzz`: the loader fuzzing campaign (framework.conformance.fuzz)."""
from __future__ import annotations

import argparse
import sys

from framework.cli import COMMANDS
from framework.cli.common import positive_int, print_json


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
               "  plyspec fuzz --inputs 100000 --json\n"
               "  plyspec fuzz --differential --inputs 5000   # compiler vs interpreter (about 4 minutes)\n"
               "  plyspec fuzz --tools --inputs 300          # past the loaders: perft, solve, test\n"
               "  plyspec fuzz --files                       # every command with FIFOs, devices, links",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--inputs", type=positive_int, default=10_000, metavar="N",
                   help="inputs to try, spread evenly over formats and kinds (default 10,000)")
    p.add_argument("--format", action="append", choices=FORMATS, default=None,
                   help="only this input format (repeatable; default: all)")
    p.add_argument("--kind", action="append", choices=KINDS, default=None,
                   help="only this kind of input (repeatable; default: all)")
    p.add_argument("--seed", type=int, default=None,
                   help="other inputs (default: the same, reproducible ones on every run)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object with the counts and the distinct findings")
    p.add_argument("--tools", action="store_true",
                   help="instead: mutate the small shipped specs and run each mutant that loads "
                        "through perft (depth 2), short solves and the conformance suite (plans "
                        "for planning problems); only results and SpecErrors may come out "
                        "(about 1 to 3 mutants a second)")
    p.add_argument("--files", action="store_true",
                   help="instead: run every command that reads or writes a file with special files "
                        "(FIFO, /dev/zero link, a device node when root, socket, folder, dangling "
                        "link, link loop) as each input and output, and with oversized, non-UTF-8 "
                        "and deeply nested files and hostile option values; each must end in exit "
                        "status 0, 1 or 2 without a traceback (about 150 command lines, seconds)")
    p.add_argument("--differential", action="store_true",
                   help="instead: generate random well-typed game specs and compare each compiled "
                        "game with the reference interpreter (compiled_agrees_with_interpreter); "
                        "about 20 specs a second")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.files:
        return _files(args)
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        raise ValueError("plyspec fuzz draws its inputs with Hypothesis: pip install hypothesis") from None
    from framework.conformance.fuzz import FORMATS, KINDS, campaign, progress_line, report
    if args.inputs < 1:
        raise ValueError("--inputs must be at least 1")
    if args.differential:
        return _differential(args)
    if args.tools:
        return _tools(args)

    def progress(tally, news=None):
        print(news or progress_line(tally), file=sys.stderr, flush=True)
    tally = campaign(args.inputs, seed=args.seed, formats=args.format or FORMATS,
                     kinds=args.kind or KINDS, progress=progress)
    if args.json:
        print_json(tally.to_json())
    else:
        print(report(tally))
    return 1 if tally.findings and tally.finding_count > tally.slow else 0


def _files(args) -> int:
    from framework.cli.fuzz_files import report, sweep

    def progress(number, total, findings):
        if number % 25 == 0 or number == total:
            print(f"{number}/{total} command lines, {findings} finding(s)", file=sys.stderr, flush=True)
    result = sweep(progress)
    if args.json:
        print_json(result)
    else:
        print(report(result))
    return 1 if result["findings"] else 0


def _differential(args) -> int:
    from framework.conformance.differential import campaign

    def progress(tally, seconds):
        print(f"{tally['inputs']:,} specs, {tally['differs']} differ, {tally['refused']} refused, "
              f"{seconds:.0f} s", file=sys.stderr, flush=True)
    tally = campaign(args.inputs, seed=args.seed, progress=progress)
    if args.json:
        print_json(tally)
    else:
        print(f"{tally['inputs']:,} generated specs in {tally['seconds']} s: {tally['differs']} where the "
              f"compiled game differs from the interpreter, {tally['refused']} the checker refused")
        for kind, message, path, text in tally["findings"][:5]:
            print(f"\n{kind}: {message}\n  after: {' '.join(path) or '(the initial state)'}\n{text}")
    return 1 if tally["differs"] or tally["refused"] else 0


def _tools(args) -> int:
    from framework.conformance.fuzz import progress_line, report
    from framework.conformance.fuzz_tools import campaign

    def progress(tally, news=None):
        print(news or progress_line(tally), file=sys.stderr, flush=True)
    tally = campaign(args.inputs, seed=args.seed, progress=progress)
    if args.json:
        print_json(tally.to_json())
    else:
        print(report(tally).replace("every input loaded or was refused with a SpecError inside the input",
                                    "every mutant was refused with a SpecError or ran through perft, "
                                    "solve and test to a result or a SpecError"))
    return 1 if tally.findings else 0
