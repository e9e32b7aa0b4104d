"""plyspec's planners beside pyperplan 2.1, in one process, on the IPC tasks of
../shared/pddl: breadth-first search on gripper task04, blocks task10 and logistics
task01, and greedy best-first search with h_FF on every task with a known shortest plan
(TRUTHS.md).  Both planners parse and ground outside the timed part; the table shows the
search time (median of --repeat runs), expanded states, plan length and the time ratio.

    pip install -e .[bench]          # pyperplan==2.1
    python benchmarks/bench_planning.py [--repeat 3] [--shared ../shared]
"""
from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import planners  # noqa: E402
from framework.search import bfs, gbfs  # noqa: E402

BFS_TASKS = [("gripper", 4), ("blocks", 10), ("logistics", 1)]
GBFS_TASKS = [("gripper", n) for n in (1, 2, 3, 4)] + [("blocks", n) for n in (1, 4, 7, 10)] + [
    ("logistics", 1), ("logistics", 2)] + [("miconic", n) for n in (2, 3, 4, 5)] + [
    ("depot", 1), ("satellite", 1), ("rovers", 1)]


class _ExpansionCounter(logging.Handler):
    """Reads pyperplan's "N Nodes expanded" log line."""

    def __init__(self):
        super().__init__(logging.INFO)
        self.expanded = None

    def emit(self, record):
        match = re.match(r"(\d+) Nodes expanded", record.getMessage())
        if match:
            self.expanded = int(match.group(1))


def _median_time(run, repeat: int):
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def pyperplan_row(domain_file, task_file, algorithm: str, repeat: int):
    from pyperplan.heuristics.relaxation import hFFHeuristic
    from pyperplan.planner import _ground, _parse
    from pyperplan.search import breadth_first_search, greedy_best_first_search

    logging.disable(logging.INFO)          # quiet parsing and grounding
    task = _ground(_parse(str(domain_file), str(task_file)))
    logging.disable(logging.DEBUG)         # keep the "N Nodes expanded" line
    counter = _ExpansionCounter()
    root = logging.getLogger()
    saved = root.handlers, root.level
    root.handlers, root.level = [counter], logging.INFO
    try:
        if algorithm == "bfs":
            seconds, plan = _median_time(lambda: breadth_first_search(task), repeat)
        else:
            seconds, plan = _median_time(
                lambda: greedy_best_first_search(task, hFFHeuristic(task)), repeat)
    finally:
        root.handlers, root.level = saved
    return seconds, counter.expanded, len(plan) if plan is not None else None


def plyspec_row(domain_file, task_file, algorithm: str, repeat: int):
    task = planners.ground(planners.load(domain_file, task_file))
    if algorithm == "bfs":
        seconds, result = _median_time(lambda: bfs.search(task), repeat)
    else:
        seconds, result = _median_time(lambda: gbfs.search(task, heuristic="hff"), repeat)
    assert result.extra["valid"]
    return seconds, result.stats.expanded, len(result.pv)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (median)")
    parser.add_argument("--shared", default=os.environ.get("PLYSPEC_SHARED"),
                        help="the shared folder holding pddl/ (default: ../shared)")
    args = parser.parse_args(argv)
    shared = Path(args.shared) if args.shared else Path(__file__).resolve().parents[2] / "shared"
    folder = shared / "pddl"
    if not folder.is_dir():
        print(f"bench_planning.py needs the IPC tasks in {folder} (../shared/pddl beside the clone; "
              "--shared DIR or $PLYSPEC_SHARED names another)", file=sys.stderr)
        return 2
    if importlib.util.find_spec("pyperplan") is None:
        print("pyperplan is not installed: pip install -e .[bench]", file=sys.stderr)
        return 1
    logging.disable(logging.DEBUG)
    header = (f"{'task':<14} {'search':<8} {'pyperplan s':>11} {'plyspec s':>10} {'speed-up':>8}"
              f" {'expanded pp/ours':>18} {'length pp/ours':>15}")
    print(header)
    print("-" * len(header))
    for algorithm, tasks in (("bfs", BFS_TASKS), ("gbfs-hff", GBFS_TASKS)):
        for domain, number in tasks:
            task_file = folder / domain / f"task{number:02d}.pddl"
            domain_file = folder / domain / "domain.pddl"
            theirs = pyperplan_row(domain_file, task_file, algorithm, args.repeat)
            ours = plyspec_row(domain_file, task_file, algorithm, args.repeat)
            ratio = theirs[0] / ours[0] if ours[0] > 0 else float("inf")
            print(f"{domain + ' ' + format(number, '02d'):<14} {algorithm:<8} {theirs[0]:>11.3f}"
                  f" {ours[0]:>10.3f} {ratio:>7.1f}x {f'{theirs[1]}/{ours[1]}':>18}"
                  f" {f'{theirs[2]}/{ours[2]}':>15}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
