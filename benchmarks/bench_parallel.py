"""Scale-out benchmark: the same work on 1 and N workers (and on a local Ray runtime), whole
commands timed, results compared (they must be identical).

    python benchmarks/bench_parallel.py                 # tournament + perft split + test --all
    python benchmarks/bench_parallel.py --games 200 --ray

Prints one row per run: wall seconds, the speed-up over 1 worker, and whether the results
equal the 1-worker run.  On a machine with N idle cores the ideal speed-up is N.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(argv) -> tuple[float, dict]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "framework", *argv], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return time.perf_counter() - start, json.loads(done.stdout)


def comparable(result: dict) -> dict:
    drop = ("seconds_per_move", "seconds", "time_s", "nodes", "stats")
    if isinstance(result, dict):
        return {k: comparable(v) for k, v in result.items() if k not in drop}
    if isinstance(result, list):
        return [comparable(v) for v in result]
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="tournament games (default 200)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--ray", action="store_true", help="also run on a local Ray runtime")
    parser.add_argument("--plan-suite", default="miconic,gripper,logistics",
                        help="domains of ../shared/pddl (or planners/data/pddl) for the planning sweep")
    parser.add_argument("--only", help="run only the jobs whose name contains this text")
    args = parser.parse_args()
    jobs = {
        f"tournament, 2 agents x {args.games} games (Connect Four 5x4)":
            ["tournament", "game_specs/connect_four.yaml", "--set", "width=5", "--set", "height=4",
             "--agent", "alphabeta:depth=4", "--agent", "mcts:iterations=150", "--games", str(args.games),
             "--json"],
        "perft Connect Four 7x6 depth 8, split at ply 3":
            ["perft", "game_specs/connect_four.yaml", "-d", "8", "--split", "3", "--json"],
        "test --all (every shipped spec)": ["test", "--all", "--examples", "50", "--json"],
    }
    suite = _planning_suite(args.plan_suite)
    if suite:
        jobs[f"plan sweep, GBFS + hFF, every task of {args.plan_suite}"] = \
            ["plan", *suite, "--algo", "gbfs", "--time", "60", "--json"]
    if args.only:
        jobs = {k: v for k, v in jobs.items() if args.only in k}
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
    for name, argv in jobs.items():
        base_time, base = run(argv + ["--workers", "1"])
        print(f"\n{name}\n  1 worker   {base_time:8.2f} s")
        runs = [(f"{args.workers} workers", argv + ["--workers", str(args.workers)])]
        if args.ray:
            runs.append(("Ray local", argv + ["--ray", "--workers", str(args.workers)]))
        for label, full in runs:
            seconds, result = run(full)
            same = comparable(result) == comparable(base)
            print(f"  {label:<10} {seconds:8.2f} s  speed-up {base_time / seconds:4.2f}x  "
                  f"results {'identical' if same else 'DIFFER'}")
    return 0


def _planning_suite(domains: str) -> list:
    """The folders of the named domains, from ../shared/pddl when present, else the samples
    shipped in planners/data/pddl: one sweep over all their tasks, short and long mixed."""
    folders = []
    for name in filter(None, domains.split(",")):
        for base in (ROOT.parent / "shared" / "pddl", ROOT / "planners" / "data" / "pddl"):
            if (base / name / "domain.pddl").exists():
                folders.append(str(base / name))
                break
    return folders


if __name__ == "__main__":
    sys.exit(main())
