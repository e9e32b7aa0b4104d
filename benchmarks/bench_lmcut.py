"""Milliseconds per state of the LM-cut heuristic on IPC tasks (issue 14): the first
`--states` states of a breadth-first exploration of each task are evaluated and timed.

    python benchmarks/bench_lmcut.py                      # depot task03, parcprinter task03
    python benchmarks/bench_lmcut.py DOMAIN.pddl TASK.pddl ...
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import planners  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "pddl"
DEFAULT = [SHARED / "depot" / "domain.pddl", SHARED / "depot" / "task03.pddl",
           SHARED / "parcprinter" / "domain03.pddl", SHARED / "parcprinter" / "task03.pddl"]


def states_of(task, count: int) -> list[int]:
    """The first `count` states a breadth-first search reaches."""
    seen, queue = {task.initial}, deque([task.initial])
    while queue and len(seen) < count:
        for _, child, _ in task.successors(queue.popleft()):
            if child not in seen and len(seen) < count:
                seen.add(child)
                queue.append(child)
    return list(seen)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="DOMAIN TASK pairs")
    parser.add_argument("--states", type=int, default=200)
    args = parser.parse_args(argv)
    files = args.files or DEFAULT
    for domain, problem in zip(files[::2], files[1::2]):
        task = planners.ground(planners.load(domain, problem))
        h = task.heuristic("lmcut")
        states = states_of(task, args.states)
        start = time.perf_counter()
        values = [h(s) for s in states]
        ms = (time.perf_counter() - start) * 1000 / len(states)
        print(f"{problem.parent.name}/{problem.name}: {len(task.operators)} operators, "
              f"{len(states)} states, {ms:.2f} ms per state, sum of h {sum(values)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
