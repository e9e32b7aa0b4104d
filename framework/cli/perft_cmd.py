"""`plyspec perft SPEC --depth N`: count nodes per ply (every edge a ply, terminals not expanded)."""
from __future__ import annotations

import json
import time
from pathlib import Path

from framework.cli.common import add_set_option, parse_sets, print_json


def add_parser(sub):
    p = sub.add_parser("perft", help="count the positions at each depth",
                       description="Count the nodes exactly 1..N plies below the initial state. "
                                   "Every edge is a ply (a forced pass too); a terminal node is "
                                   "counted at its depth and not expanded.")
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--depth", "-d", type=int, required=True, help="deepest ply to count")
    add_set_option(p)
    p.add_argument("--json", action="store_true",
                   help='print {"counts": [...], "depth": N, "nodes": total, "time_s": T}')
    p.add_argument("--write-golden", metavar="FILE", nargs="?", const="",
                   help="write the counts as a golden file (default: SPEC with .perft.json) for review")
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
        target = Path(args.write_golden or Path(args.spec).with_suffix(".perft.json"))
        golden = json.loads(target.read_text()) if target.exists() else {}
        key = json.dumps(options, sort_keys=True) if options else "default"
        golden[key] = counts
        tmp = target.with_suffix(".tmp")
        tmp.write_text(json.dumps(golden, indent=1) + "\n")
        tmp.replace(target)
    if args.json:
        print_json({"spec": args.spec, "depth": args.depth, "counts": counts, "nodes": sum(counts),
                    "time_s": round(elapsed, 6), "options": game.options})
    else:
        for ply, count in enumerate(counts, 1):
            print(f"ply {ply:>3}: {count:>12,}")
        print(f"total {sum(counts):,} nodes in {elapsed:.2f} s ({sum(counts) / max(elapsed, 1e-9):,.0f} nodes/s)")
    return 0
