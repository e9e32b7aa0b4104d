"""What plyspec's cache folder (framework/cache.py: the analysed Lark parsers, HMAC-checked)
saves at start-up: `plyspec check game_specs/tictactoe.yaml` as whole processes, with a warm
trusted cache folder and with none (PLYSPEC_CACHE naming a regular file, so nothing is loaded
or stored), interleaved round by round; best and median wall-clock and CPU (user + system)
times.  CPU time varies less than wall-clock time on a loaded machine.

    python benchmarks/bench_cache.py [--repeat 15]

Measured 2026-11-27 (2 cores shared with other jobs, --repeat 15), CPU best / median:
warm cache 215 / 258 ms, no cache 373 / 411 ms (load average 6.7); 262 / 325 against
417 / 607 ms (load 8.7); at load 0.5 the wall clock gave 216 / 258 ms against 346 / 404 ms.  The record-template cache that
framework/records.py kept before (marshalled code) saved nothing measurable: 213 vs 219 ms
best wall clock of 20, medians 275 vs 270 ms; it was removed.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_once(cache: str) -> tuple:
    """(wall seconds, CPU seconds) of one `plyspec check` with PLYSPEC_CACHE=cache."""
    env = dict(os.environ, PLYSPEC_CACHE=cache, PYTHONPATH=str(ROOT))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "framework", "check", str(ROOT / "game_specs" / "tictactoe.yaml")],
                   env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        warm = os.path.join(work, "cache")
        none = os.path.join(work, "not-a-folder")
        Path(none).write_text("")
        runs = {"warm cache": warm, "no cache": none}
        for cache in runs.values():        # fills the warm cache; both byte-compile
            run_once(cache)
        times = {name: [] for name in runs}
        for _ in range(args.repeat):
            for name, cache in runs.items():
                times[name].append(run_once(cache))
    print(f"plyspec check game_specs/tictactoe.yaml, {args.repeat} runs each, load average "
          f"{os.getloadavg()[0]:.1f}")
    for name, samples in times.items():
        wall, cpu = [s[0] * 1000 for s in samples], [s[1] * 1000 for s in samples]
        print(f"  {name:10}  wall best {min(wall):4.0f} ms median {statistics.median(wall):4.0f} ms"
              f"   cpu best {min(cpu):4.0f} ms median {statistics.median(cpu):4.0f} ms")


if __name__ == "__main__":
    main()
