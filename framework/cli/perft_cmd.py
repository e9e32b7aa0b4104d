"""`plyspec perft SPEC --depth N`: count nodes per ply (every edge a ply, terminals not expanded)."""
from __future__ import annotations

import sys
import time

from framework.cli import COMMANDS
from framework.cli.common import add_set_option, parse_sets, print_json
from framework.conformance.golden import golden_path, options_key, write_golden


def add_parser(sub):
    p = sub.add_parser("perft", help=COMMANDS["perft"],
                       description="Count the nodes exactly 1..N plies below the initial state. "
                                   "Every edge is a ply (a forced pass too); a terminal node is "
                                   "counted at its depth and not expanded.")
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--depth", "-d", type=int, required=True, help="deepest ply to count")
    add_set_option(p)
    p.add_argument("--json", action="store_true",
                   help='print {"counts": [...], "depth": N, "nodes": total, "time_s": T}')
    p.add_argument("--write-golden", metavar="FILE", nargs="?", const="",
                   help="add the counts (under the --set options) to a golden file for review "
                        "(default: golden/STEM.perft.json next to SPEC, read by `plyspec test`)")
    p.set_defaults(func=run)


def run(args) -> int:
    from framework import load
    from framework.perft import perft
    if args.depth < 1:
        raise ValueError("--depth must be at least 1")
    options = parse_sets(args.set)
    game = load(args.spec, **options)
    start = time.perf_counter()
    counts = perft(game.initial_state(), args.depth)
    elapsed = time.perf_counter() - start
    if args.write_golden is not None:
        target = write_golden(args.write_golden or golden_path(args.spec), options, counts)
        print(f"wrote {target} ({options_key(options)}: {len(counts)} plies)", file=sys.stderr)
    if args.json:
        print_json({"spec": args.spec, "depth": args.depth, "counts": counts, "nodes": sum(counts),
                    "time_s": round(elapsed, 6), "options": game.options})
    else:
        for ply, count in enumerate(counts, 1):
            print(f"ply {ply:>3}: {count:>12,}")
        print(f"total {sum(counts):,} nodes in {elapsed:.2f} s ({sum(counts) / max(elapsed, 1e-9):,.0f} nodes/s)")
    return 0
