"""Microseconds per state of h_max, h_add and h_FF (`planners.heuristics.relaxation.Relaxation`)
against a baseline version of the same module taken from git (default: `main`),
interleaved in one process on the same states, with every value compared: the two
versions must agree exactly (h_FF and its preferred operators included).  The states
are the first `--states` of a breadth-first exploration of each task and as many ends of
random walks (with `--lama`: the states lama-first's search evaluates first, in its
order: consecutive states are mostly siblings, which the exploration exploits); each
round times the baseline then the current code on every heuristic,
and the median ratio over `--repeat` rounds is printed (times are the process's CPU time:
on a loaded machine a fast heuristic's few milliseconds per round are otherwise swamped by
waits for a core).  The C accelerator (`_plyspec_relax`) is used where it is importable
(the baseline's code too, if it has one); PLYSPEC_PURE=1 times the pure code.  `--unit` counts every operator
as 1, as lama-first does.

    python benchmarks/bench_relaxed.py                 # depot, blocks, logistics, elevators
    python benchmarks/bench_relaxed.py --baseline main --states 300 --repeat 5
    python benchmarks/bench_relaxed.py --unit --only h_ff_preferred DOMAIN.pddl TASK.pddl ...
    python benchmarks/bench_relaxed.py --unit --lama --states 600 DOMAIN.pddl TASK.pddl
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import planners  # noqa: E402
from framework.search import lazy_gbfs  # noqa: E402
from planners.configurations import lama  # noqa: E402
from tests.lmcut_reference import first_states  # noqa: E402
from tests.relaxation_reference import walk_ends  # noqa: E402
from planners.heuristics.relaxation import Relaxation  # noqa: E402

IPC = Path("/work/ipc21/benchmarks")
DEFAULT = [("depot", 5), ("blocks", 10), ("logistics", 5), ("elevators", 3)]
HEURISTICS = ("h_max", "h_add", "h_ff", "h_ff_preferred")


def git_source(revision: str, path: str, before_layout: str) -> str:
    """The text of `path` as of git `revision`, or of `before_layout` (where the module
    was before planners/ had sub-packages), with the old module names of its imports
    updated."""
    for name in (path, before_layout):
        done = subprocess.run(["git", "-C", str(ROOT), "show", f"{revision}:{name}"],
                              capture_output=True, text=True)
        if done.returncode == 0:
            return done.stdout.replace("from planners.lmcut import", "from planners.heuristics.lmcut import")
    raise SystemExit(f"{path} not found at {revision}")


def module_from_source(name: str, text: str):
    """The module of source `text`, imported as `name` from a temporary folder."""
    path = Path(tempfile.mkdtemp()) / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def baseline_module(revision: str):
    """`planners/heuristics/relaxation.py` as of git `revision`, imported under another name."""
    return module_from_source("baseline_heuristics", git_source(
        revision, "planners/heuristics/relaxation.py", "planners/heuristics.py"))


def lama_states(task, count: int) -> list[int]:
    """The first `count` states lama-first's h_FF evaluates, in its order."""
    relaxation, lmcount = lama.evaluators(task)
    states = []

    def evaluate(state, parent=None):
        states.append(state)
        return relaxation.evaluate(state, parent)

    lazy_gbfs.search(task, heuristic=[SimpleNamespace(evaluate=evaluate), lmcount],
                     node_limit=count)
    return states[:count]


def timed(function, states) -> tuple[float, list]:
    """Microseconds of this process's CPU time per state (time spent waiting for a core on
    a loaded machine does not count), and the values."""
    start = time.process_time()
    values = [function(s) for s in states]
    return (time.process_time() - start) * 1e6 / len(states), values


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="DOMAIN TASK pairs")
    parser.add_argument("--baseline", default="main", help="git revision to compare with")
    parser.add_argument("--states", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--unit", action="store_true", help="unit costs (lama-first's)")
    parser.add_argument("--only", choices=HEURISTICS, help="time this heuristic alone")
    parser.add_argument("--lama", action="store_true", help="lama-first's states, in order")
    args = parser.parse_args(argv)
    pairs = list(zip(args.files[::2], args.files[1::2])) or [
        (IPC / d / "domain.pddl", IPC / d / f"task{n:02d}.pddl") for d, n in DEFAULT]
    old_module = baseline_module(args.baseline)
    print(f"{'task':<32}{'heuristic':<16}{'baseline us':>12}{'now us':>10}{'ratio':>8}")
    for domain, problem in pairs:
        task = planners.ground(planners.load(domain, problem))
        old, new = old_module.Relaxation(task, args.unit), Relaxation(task, args.unit)
        states = (lama_states(task, args.states) if args.lama else
                  first_states(task, args.states) + walk_ends(task, args.states))
        for name in [args.only] if args.only else HEURISTICS:
            ratios, before, after = [], [], []
            for _ in range(args.repeat):
                t_old, v_old = timed(getattr(old, name), states)
                t_new, v_new = timed(getattr(new, name), states)
                if v_old != v_new:
                    raise SystemExit(f"{problem}: {name} differs from the baseline")
                ratios.append(t_old / t_new)
                before.append(t_old)
                after.append(t_new)
            print(f"{problem.parent.name + '/' + problem.stem:<32}{name:<16}"
                  f"{statistics.median(before):>12.0f}{statistics.median(after):>10.0f}"
                  f"{statistics.median(ratios):>7.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
