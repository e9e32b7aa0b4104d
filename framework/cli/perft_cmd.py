"""`plyspec perft SPEC --depth N`: count nodes per ply (every edge a ply, terminals not expanded)."""
from __future__ import annotations

import sys
import time

from framework.cli import COMMANDS
from framework.cli.common import (add_set_option, nonnegative_int,
                                    parse_sets, perft_depth, print_json)
from framework.cli.parallel_options import add_parallel_options
from framework.conformance.golden import check_golden, golden_path, options_key, write_golden


EXAMPLES = [
    'plyspec perft tictactoe -d 9',
    'plyspec perft connect_four -d 8 --split 3 --workers 2   # subtrees on 2 cores',
    'plyspec perft othello -d 5 --json',
]


def add_parser(sub):
    p = sub.add_parser("perft", help=COMMANDS["perft"],
                       description="Count the nodes exactly 1..N plies below the initial state. "
                                   "Every edge is a ply (a forced pass too); a terminal node is "
                                   "counted at its depth and not expanded.")
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--depth", "-d", type=perft_depth, required=True, help="deepest ply to count")
    add_set_option(p)
    p.add_argument("--json", action="store_true",
                   help='print {"counts": [...], "depth": N, "nodes": total, "time_s": T}')
    p.add_argument("--write-golden", metavar="FILE", nargs="?", const="",
                   help="add the counts (under the --set options) to a golden file for review "
                        "(default: golden/STEM.perft.json next to SPEC, read by `plyspec test`)")
    p.add_argument("--split", type=nonnegative_int, metavar="PLY",
                   help="count the subtrees below the positions at PLY in parallel (with --workers or "
                        "--ray; default PLY: the first ply with enough positions for the workers)")
    add_parallel_options(p, results=False)
    p.set_defaults(func=run)


def run(args) -> int:
    from framework import load
    from framework.perft import perft
    if args.depth < 1:
        raise ValueError("--depth must be at least 1")
    options = parse_sets(args.set)
    game = load(args.spec, **options)
    golden = None
    if args.write_golden is not None:
        golden = args.write_golden or golden_path(args.spec)
        check_golden(golden)                           # before counting, not after
    start = time.perf_counter()
    if args.split is None and args.workers is None and args.ray is None:
        counts = perft(game.initial_state(), args.depth, progress=_progress_line(start))
    else:
        counts = _split_perft(args, game, options)
    elapsed = time.perf_counter() - start
    if args.write_golden is not None:
        target = write_golden(golden, options, counts)
        print(f"wrote {target} ({options_key(options)}: {len(counts)} plies)", file=sys.stderr)
    if args.json:
        print_json({"spec": args.spec, "depth": args.depth, "counts": counts, "nodes": sum(counts),
                    "time_s": round(elapsed, 6), "options": game.options})
    else:
        for ply, count in enumerate(counts, 1):
            print(f"ply {ply:>3}: {count:>12,}")
        print(f"total {sum(counts):,} nodes in {elapsed:.2f} s ({sum(counts) / max(elapsed, 1e-9):,.0f} nodes/s)")
    return 0


def _progress_line(start):
    """A progress callback writing `root move i/n, elapsed` on a terminal's stderr (else None)."""
    from framework.terminal import beneath
    if not sys.stderr.isatty():
        return None

    def show(done, total):
        end = "\n" if done == total else ""
        print(f"\rperft: root move {done}/{total}, {time.perf_counter() - start:.1f} s", end=end,
              file=beneath(sys.stderr), flush=True)        # (its own \r: not escaped)
    return show


def _split_perft(args, game, options) -> list:
    """Perft with the subtrees below one ply counted by workers (see framework.parallel)."""
    import os
    from framework.cli.parallel_options import drive, executor
    from framework.parallel import Failure
    from framework.parallel.tasks import perft_frontier, spec_payload
    if args.split is not None and not 1 <= args.split < args.depth:
        raise ValueError(f"--split must be between 1 and {args.depth - 1} (below --depth)")
    pool = executor(args, start=True)              # workers boot while the frontier is built
    wanted = 4 * (args.workers or os.cpu_count() or 1)
    ply = args.split or 1
    frontier, counts = perft_frontier(game, ply)
    while args.split is None and len(frontier) < wanted and ply < args.depth - 1:
        ply += 1
        frontier, counts = perft_frontier(game, ply)
    payload = spec_payload(args.spec)
    tasks = [(i, (payload, options, list(path), args.depth - ply)) for i, (path, _) in enumerate(frontier)]
    results, interrupted = drive(args, "framework.parallel.tasks:perft_below", tasks, label="subtrees", pool=pool)
    if interrupted:
        raise KeyboardInterrupt
    counts = counts + [0] * (args.depth - ply)
    for i, (path, paths) in enumerate(frontier):
        result = results[i]
        if isinstance(result, Failure):
            raise ValueError(f"the subtree below {' '.join(path)} failed ({result.kind}): {result.message}")
        for d, c in enumerate(result, ply):
            counts[d] += c * paths
    return counts
