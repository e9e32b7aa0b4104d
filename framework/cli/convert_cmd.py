"""`plyspec convert SPEC [PROBLEM.pddl] --to yaml|game|plan|pddl [-o OUT]`: write a game
spec or a planning problem in another format.

Game specs (`--to yaml|game`) are parsed (syntax only: a spec with, say, an unknown name
still converts, so it can be fixed in either format) and printed by
`framework.frontend.printer`.  Planning problems (a YAML or `.plan` planning spec, or a
PDDL domain and problem; `--to yaml|plan|pddl`) are loaded and checked and printed by
`planners.formats.convert`: YAML and `.plan` into each other as written (options and generators
kept, `--set` values becoming the defaults), to or from PDDL with the options at their
values and the generators expanded.  Before anything is written the output is read back and compared with
the input (the same game; the same grounded task), so a conversion never changes what
the file describes; what the target format cannot say is refused with its position.
Comments and layout are not carried over.

Without `-o` the result goes to stdout.  With `-o OUT` it is written atomically: to a
temporary file beside OUT, renamed over OUT once complete, so an error never leaves a
half-written file; an existing OUT is replaced only with `--force`.  `--to pddl` writes
OUT/domain.pddl and OUT/problem.pddl (OUT is a folder, created if needed).  OUT may not be
an input.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from framework.cli import COMMANDS
from framework.cli.common import add_set_option, parse_sets
from framework.errors import UsageError
from framework.files import check_output, write_atomic
from framework.frontend.printer import spec_fields, to_game, to_yaml
from framework.loader import parse_spec, parse_text, planning_kind, read_text

USAGE_ERROR = 2
PRINTERS = {"yaml": to_yaml, "game": to_game}
PLANNING = ("yaml", "plan", "pddl")


EXAMPLES = [
    'plyspec convert game_specs/tictactoe.yaml --to game -o tictactoe.game   # YAML -> .game text',
    'plyspec convert my_game.game --to yaml -o my_game.yaml',
    'plyspec convert planners/data/problems/briefcase.yaml --to plan              # planning: YAML -> .plan',
    'plyspec convert planners/data/problems/briefcase.plan --to pddl -o briefcase  # -> briefcase/domain.pddl, problem.pddl',
    'plyspec convert planners/data/pddl/lamps/domain.pddl planners/data/pddl/lamps/task01.pddl --to yaml',
]


def add_parser(sub):
    p = sub.add_parser(
        "convert", help=COMMANDS["convert"],
        description="Write SPEC in the format given by --to: a game spec (.yaml, .yml or "
                    ".game) as yaml or game; a planning problem (a YAML or .plan planning "
                    "spec, or DOMAIN.pddl PROBLEM.pddl) as yaml, plan or pddl (YAML and .plan "
                    "keep options and generators; to or from PDDL they are expanded).  The result is read back and "
                    "checked to describe the same game / grounded task before it is written.  "
                    "Comments are not carried over.")
    p.add_argument("spec", metavar="SPEC", help="the spec to convert (a PDDL domain: with its problem)")
    p.add_argument("problem", metavar="PROBLEM", nargs="?",
                   help="the PDDL problem file, when SPEC is a PDDL domain")
    p.add_argument("--to", required=True, choices=["game", "pddl", "plan", "yaml"],
                   help="the output format")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="write to this file (atomically) instead of stdout; with --to pddl a "
                        "folder for domain.pddl and problem.pddl; never an input")
    p.add_argument("--force", action="store_true", help="with -o: replace OUT if it exists")
    add_set_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from framework.conformance.discover import pddl_sample, resolve
    args.named = " ".join([args.spec] + ([args.problem] if args.problem else []))   # as given, for the header
    if not args.problem and not resolve(args.spec).exists() and pddl_sample(args.spec):
        args.spec, args.problem = map(str, pddl_sample(args.spec))    # a shipped PDDL sample by name
    elif not args.problem:
        args.spec = str(resolve(args.spec))                            # a shipped spec by name
    inputs = [args.spec] + ([args.problem] if args.problem else [])
    if args.output and any(Path(args.output).exists() and os.path.samefile(args.output, f)
                           for f in inputs):
        print(f"error: refusing to overwrite the input {args.output}; choose another -o",
              file=sys.stderr)
        return USAGE_ERROR
    if args.output and args.to != "pddl":
        check_output(args.output, force=args.force)    # refused before anything is converted
    if planning_kind(args.spec) is not None or args.to in ("plan", "pddl"):
        return _run_planning(args, inputs)
    if args.problem or args.set:
        raise UsageError("a game spec converts alone, without PROBLEM or --set",
                         hint="plyspec convert SPEC --to yaml|game")
    text = convert(parse_spec(args.spec), args.to)
    _write(args.output, text, args.force)
    return 0


def _run_planning(args, inputs) -> int:
    import planners
    from planners.formats.convert import convert as convert_problem
    if args.to not in PLANNING:
        raise UsageError(f"{args.spec} is a planning problem; it converts to yaml, plan or pddl",
                         hint="a .game file describes games only")
    if args.to == "pddl" and not args.output:
        raise UsageError("--to pddl writes two files: give a folder with -o",
                         hint="e.g. plyspec convert problem.yaml --to pddl -o problem-pddl")
    options = parse_sets(args.set)
    problem = planners.load(*inputs, **options)
    source = {".plan": "plan", ".pddl": "pddl"}.get(Path(args.spec).suffix.lower(), "yaml")
    header = f"converted by plyspec from {args.named}"
    if source != "pddl" and args.to != "pddl":       # spec to spec: options and generators kept
        from planners.formats.convert import convert_spec
        text = convert_spec(read_text(args.spec), str(args.spec), source, args.to, options, header)
        _write(args.output, text, args.force)
        return 0
    settings = ", ".join(f"{k}={v}" for k, v in problem.options.items())
    if settings:
        header += f" with {settings} (options and generators expanded)"
    outputs = convert_problem(problem, args.to, header)
    if args.to == "pddl":
        folder = Path(args.output)
        folder.mkdir(parents=True, exist_ok=True)
        for name in outputs:                     # refused before either file is written
            check_output(folder / name, force=args.force)
        for name, text in outputs.items():
            write_atomic(folder / name, text, force=True)
        print(f"wrote {folder / 'domain.pddl'} and {folder / 'problem.pddl'}")
    else:
        _write(args.output, outputs[""], args.force)
    return 0


def _write(output, text: str, force: bool):
    if output:
        write_atomic(output, text, force=force)
    else:
        sys.stdout.write(text)


def convert(spec, fmt: str) -> str:
    """`spec` as text in `fmt` ('yaml' or 'game'), checked to read back to the same game."""
    text = PRINTERS[fmt](spec)
    back = parse_text(text, f"<{fmt} output>", fmt)
    if spec_fields(back) != spec_fields(spec):
        raise ValueError(f"converting {spec.file} to {fmt} would change the game; "
                         "please report this as a bug")
    return text
