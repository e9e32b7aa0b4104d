"""Start-up of whole `plyspec` processes against their anchors, measured in one run: each
command runs --repeat times, the commands interleaved round by round (so a load change hits
them all alike), and the ratios of their best and median wall-clock times are printed:

- `plyspec plan` on blocks task01 (GBFS + h_FF), as `python -m framework.cli` and as the
  `plyspec` console script, against `pyperplan -s gbf -H hff` on the same task;
- `plyspec --help` against a bare `python -c pass`;
- `plyspec check game_specs/tictactoe.yaml` (and against `python -c pass`).

Beside wall-clock time the CPU time of each process (user + system, children included) is
reported: on a loaded machine it varies less than the wall clock.

plyspec's modules are byte-compiled first (as `pip install` does), so that a
PYTHONDONTWRITEBYTECODE environment does not charge plyspec for compiling its sources each run;
the console script runs this checkout's code (PYTHONPATH).

    python benchmarks/bench_startup.py [--repeat 20] [--shared ../shared]

Measured 2026-11-25 (2 cores shared with other jobs, `nice ... --repeat 20`), ratios as
wall-clock best / median / median CPU, two runs (load average 3.2 and 3.9):
- `plyspec plan` blocks01 / pyperplan: 1.04x / 0.94x / 1.00x and 1.00x / 0.89x / 0.95x
  (`python -m framework.cli`: 1.03x / 0.99x / 0.99x and 1.08x / 0.86x / 0.93x): level with
  pyperplan, the best wall-clock times within a few per cent either way.  Before
  `framework.records` (the AST, planning and result classes built without `dataclasses`;
  its templates were then cached on disk, a cache since removed: it saved nothing measurable) and without `typing`: 1.58x / 1.50x / 1.51x (load 1.6, same day);
- `plyspec --help` / `python -c pass`: 1.47x / 0.91x / 1.42x and 1.51x / 1.40x / 1.40x
  (target <= 3x);
- `plyspec check tictactoe`: 164-168 ms best wall, 5.8x `python -c pass` in CPU time
  (143 ms best, 161 ms median in a quieter run at load 1.6, where `python -c pass` took
  24 ms); before: 190 ms best, 231 ms median at load 1.6.
"""
from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def commands(blocks: Path, work: Path) -> dict[str, list[str]]:
    py = sys.executable
    script = shutil.which("plyspec") or str(Path(py).with_name("plyspec"))
    pyperplan = shutil.which("pyperplan") or str(Path(py).with_name("pyperplan"))
    shutil.copy(blocks / "domain.pddl", work / "domain.pddl")   # pyperplan writes TASK.soln
    shutil.copy(blocks / "task01.pddl", work / "task01.pddl")
    task = [str(blocks / "domain.pddl"), str(blocks / "task01.pddl"), "--algo", "gbfs",
            "--heuristic", "hff"]
    return {
        "python -c pass": [py, "-c", "pass"],
        "pyperplan blocks01": [py, pyperplan, "-s", "gbf", "-H", "hff",
                               str(work / "domain.pddl"), str(work / "task01.pddl")],
        "python -m framework.cli plan blocks01": [py, "-m", "framework.cli", "plan", *task],
        "plyspec plan blocks01": [py, script, "plan", *task],
        "plyspec --help": [py, script, "--help"],
        "plyspec check tictactoe": [py, script, "check", "game_specs/tictactoe.yaml"],
    }


def run(cmd: list[str], env: dict) -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds of the process and its children)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed (exit status {proc.returncode})")
    return wall, usage.ru_utime + usage.ru_stime


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20, help="runs of each command (default 20)")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared",
                        help="the folder holding pddl/blocks (default ../shared)")
    args = parser.parse_args(argv)
    if not (args.shared / "pddl" / "blocks").is_dir():
        print(f"bench_startup.py needs blocks task01 in {args.shared / 'pddl' / 'blocks'} "
              "(../shared/pddl beside the clone; --shared DIR names another)", file=sys.stderr)
        return 2
    for package in ("framework", "planners"):
        compileall.compile_dir(ROOT / package, quiet=1)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory(prefix="bench_startup_") as tmp:
        cmds = commands(args.shared / "pddl" / "blocks", Path(tmp))
        for cmd in cmds.values():                   # warm the file cache and parser caches
            run(cmd, env)
        walls = {name: [] for name in cmds}
        cpus = {name: [] for name in cmds}
        for _ in range(args.repeat):
            for name, cmd in cmds.items():
                wall, cpu = run(cmd, env)
                walls[name].append(wall)
                cpus[name].append(cpu)
    best = {name: min(t) for name, t in walls.items()}
    median = {name: statistics.median(t) for name, t in walls.items()}
    cpu = {name: statistics.median(t) for name, t in cpus.items()}
    print(f"{'command':<40} {'best ms':>8} {'median ms':>10} {'CPU ms':>7}")
    for name in cmds:
        print(f"{name:<40} {best[name] * 1000:8.0f} {median[name] * 1000:10.0f}"
              f" {cpu[name] * 1000:7.0f}")
    print(f"\nratios of wall-clock best / median and of median CPU time, {args.repeat} "
          f"interleaved runs, load average {os.getloadavg()[0]:.1f}:")
    for ours, anchor in (("python -m framework.cli plan blocks01", "pyperplan blocks01"),
                         ("plyspec plan blocks01", "pyperplan blocks01"),
                         ("plyspec --help", "python -c pass"),
                         ("plyspec check tictactoe", "python -c pass")):
        print(f"  {ours} / {anchor}: {best[ours] / best[anchor]:.2f}x / "
              f"{median[ours] / median[anchor]:.2f}x / CPU {cpu[ours] / cpu[anchor]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
