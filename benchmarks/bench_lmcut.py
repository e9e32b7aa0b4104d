"""Milliseconds per state of LM-cut (issue 14) beside the LM-cut the issue measured:
`Relaxation.h_lmcut` of commit d6cea71 (h_max recomputed from scratch for every cut),
loaded from git, not kept in the tree.  Both run in one process, interleaved on the same
states (the first `--states` a breadth-first search reaches); each total is the best of
`--repeat` passes.  Before timing, today's values are asserted equal to the from-scratch
reference of tests/lmcut_reference.py on the first `--check` states.  With `--baseline
REV` the other side is the `LandmarkCut` of git revision REV instead, and both give the
same value on every state; with `--baseline-accelerator FILE` it is today's `LandmarkCut`
on another build of the C accelerator (a `_plyspec_relax*.so`, for example one built from
an older commit's planners/heuristics/_plyspec_relax.c), again with the same values.
With `--orders` it times today's `LandmarkCut` alone under each tie-breaking order
(lowest index, highest index, Fast Downward's settled last), interleaved on the same
states, each checked against the reference, with each order's sum of values.  Times are
the process's CPU time (waits for a core on a loaded machine do not count); the C
accelerator (`_plyspec_relax.Cut`) is used where it is importable, PLYSPEC_PURE=1 times
the pure code.

    python benchmarks/bench_lmcut.py          # scanalyzer, elevators 01-03 (IPC 21-domain
                                              # collection), depot, freecell 01-03 (shared)
    python benchmarks/bench_lmcut.py --states 50 DOMAIN.pddl TASK.pddl ...
    python benchmarks/bench_lmcut.py --baseline e63a618 DOMAIN.pddl TASK.pddl ...
    python benchmarks/bench_lmcut.py --baseline-accelerator OLD/_plyspec_relax.so ...
    python benchmarks/bench_lmcut.py --orders DOMAIN.pddl TASK.pddl ...
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import planners  # noqa: E402
from planners.heuristics.relaxation import Relaxation  # noqa: E402
from planners.heuristics.lmcut import ORDERS, LandmarkCut  # noqa: E402
from benchmarks.bench_relaxed import git_source, module_from_source  # noqa: E402
from tests.lmcut_reference import first_states, reference_lmcut  # noqa: E402

OLD = "d6cea71"                # the LM-cut issue 14 measured
NUMBERS = ("01", "02", "03")


def default_tasks() -> list[Path]:
    """DOMAIN TASK pairs: scanalyzer and elevators from the IPC collection
    ($PLYSPEC_IPC21, else an ancestor's ipc21/benchmarks), depot and freecell from the
    shared folder ($PLYSPEC_SHARED/pddl, else ../shared/pddl)."""
    ipc = os.environ.get("PLYSPEC_IPC21")
    ipc = Path(ipc) if ipc else next((p / "ipc21" / "benchmarks" for p in ROOT.parents
                                      if (p / "ipc21" / "benchmarks").is_dir()), None)
    shared = Path(os.environ.get("PLYSPEC_SHARED") or ROOT.parent / "shared") / "pddl"
    pairs = []
    for folder, domains in ((ipc, ("scanalyzer", "elevators")), (shared, ("depot", "freecell"))):
        for domain in domains:
            for number in NUMBERS:
                task = folder / domain / f"task{number}.pddl" if folder else None
                if task is None or not task.exists():
                    print(f"skipped {domain} task{number}: not found", file=sys.stderr)
                    continue
                own = task.with_name(f"domain{number}.pddl")
                pairs += [own if own.exists() else task.with_name("domain.pddl"), task]
    return pairs


def old_heuristics():
    """planners/heuristics.py (today's planners/heuristics/relaxation.py) as of commit OLD,
    imported under another name."""
    return module_from_source("old_heuristics", git_source(OLD, "planners/heuristics.py",
                                                           "planners/heuristics.py"))


def baseline_lmcut(revision: str):
    """planners/heuristics/lmcut.py as of git `revision` (planners/lmcut.py before the
    planners/ layout), imported under another name."""
    return module_from_source("baseline_lmcut", git_source(
        revision, "planners/heuristics/lmcut.py", "planners/lmcut.py"))


def accelerator_from(path: Path):
    """The C accelerator module built as `path` (beside the one imported by name)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("_plyspec_relax", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="DOMAIN TASK pairs")
    parser.add_argument("--states", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", type=int, default=10,
                        help="states checked against the reference (default 10)")
    parser.add_argument("--baseline", metavar="REV",
                        help=f"compare with the LandmarkCut of git revision REV (values "
                             f"asserted equal) instead of the LM-cut of {OLD}")
    parser.add_argument("--baseline-accelerator", type=Path, metavar="FILE",
                        help="compare with today's LandmarkCut on this build of the C "
                             "accelerator (values asserted equal)")
    parser.add_argument("--orders", action="store_true",
                        help="time today's LandmarkCut under each tie-breaking order")
    args = parser.parse_args(argv)
    if args.orders:
        return by_order(args.files or default_tasks(), args)
    other = args.baseline_accelerator and accelerator_from(args.baseline_accelerator)
    old = baseline_lmcut(args.baseline) if args.baseline else None if other else \
        old_heuristics()
    files = args.files or default_tasks()
    print(f"{'task':22} {'ops':>5} {'states':>6} {'old ms':>8} {'new ms':>8} {'old/new':>7}"
          f" {'sum h old':>9} {'sum h new':>9}")
    ratios = []
    for domain, problem in zip(files[::2], files[1::2]):
        task = planners.ground(planners.load(domain, problem))
        relaxation = Relaxation(task)
        # one fixed tie-breaking order (the default samples both on its first states)
        new = LandmarkCut(relaxation, False)
        if other:
            relaxed = Relaxation(task)
            relaxed.accelerator = other
            previous = LandmarkCut(relaxed, False)
        else:
            previous = (old.LandmarkCut(relaxation, False) if args.baseline else
                        old.Relaxation(task).h_lmcut)
        states = first_states(task, args.states)
        for state in states[:args.check]:
            assert new(state) == reference_lmcut(relaxation, state), (problem, state)
        if args.baseline or other:
            assert list(map(previous, states)) == list(map(new, states)), problem
        best = {new: float("inf"), previous: float("inf")}
        best = timed((previous, new), states, args.repeat)
        ratio = best[previous] / best[new]
        ratios.append(ratio)
        print(f"{problem.parent.name + '/' + problem.stem:22} {len(task.operators):5} "
              f"{len(states):6} {best[previous] * 1000 / len(states):8.2f} "
              f"{best[new] * 1000 / len(states):8.2f} {ratio:7.1f} "
              f"{sum(map(previous, states)):9} {sum(map(new, states)):9}", flush=True)
    if ratios:
        print(f"old/new: min {min(ratios):.1f}, geometric mean "
              f"{_geomean(ratios):.1f}, max {max(ratios):.1f}")
    return 0


def timed(heuristics, states, repeat: int) -> dict:
    """CPU seconds of each heuristic over `states`, interleaved state by state, the best
    of `repeat` passes."""
    best = dict.fromkeys(heuristics, float("inf"))
    for _ in range(repeat):
        spent = dict.fromkeys(best, 0.0)
        for state in states:
            for h in heuristics:
                start = time.process_time()
                h(state)
                spent[h] += time.process_time() - start
        best = {h: min(best[h], spent[h]) for h in best}
    return best


def by_order(files, args) -> int:
    """Milliseconds per state and sum of values of each tie-breaking order."""
    names = ("lowest", "highest", "last")
    print(f"{'task':22} {'ops':>5} {'states':>6} " + " ".join(f"{n + ' ms':>9}" for n in names)
          + " " + " ".join(f"{'sum ' + n:>11}" for n in names))
    for domain, problem in zip(files[::2], files[1::2]):
        task = planners.ground(planners.load(domain, problem))
        relaxation = Relaxation(task)
        each = [LandmarkCut(relaxation, order) for order in ORDERS]
        states = first_states(task, args.states)
        for state in states[:args.check]:
            for order, h in zip(ORDERS, each):
                assert h(state) == reference_lmcut(relaxation, state, order), (problem, state)
        best = timed(each, states, args.repeat)
        print(f"{problem.parent.name + '/' + problem.stem:22} {len(task.operators):5} "
              f"{len(states):6} " + " ".join(f"{best[h] * 1000 / len(states):9.2f}" for h in each)
              + " " + " ".join(f"{sum(map(h, states)):11}" for h in each), flush=True)
    return 0


def _geomean(values):
    product = 1.0
    for value in values:
        product *= value
    return product ** (1 / len(values))


if __name__ == "__main__":
    raise SystemExit(main())
