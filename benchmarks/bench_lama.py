"""Coverage and time of `plyspec plan --config lama-first` beside GBFS with h_FF on the
21-domain IPC collection (tasks 01-05 of each domain): every task runs in a process of
its own (`python -m framework plan ... --json`, so times are whole-process), one at a
time, the configurations interleaved task by task; a plan counts only when the plan
command validated it (its JSON field `valid`).  Rows are appended to --out as JSON lines
(an interrupted run resumes where it stopped); a summary is printed at the end.

    nice python benchmarks/bench_lama.py --out lama.jsonl            # ~30 min, 60 s per task
    python benchmarks/bench_lama.py --out lama.jsonl --summary        # the table again
"""
from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IPC = Path("/work/ipc21/benchmarks")
CONFIGS = {"lama-first": ["--config", "lama-first"],
           "gbfs-hff": ["--algo", "gbfs", "--heuristic", "hff"]}


def tasks(collection: Path, last: int):
    for domain in sorted(d for d in collection.iterdir() if d.is_dir()):
        for n in range(1, last + 1):
            task = domain / f"task{n:02d}.pddl"
            own = domain / f"domain{n:02d}.pddl"
            yield (own if own.exists() else domain / "domain.pddl"), task


def run(domain: Path, task: Path, config: str, seconds: float) -> dict:
    argv = [sys.executable, "-m", "framework", "plan", str(domain), str(task),
            *CONFIGS[config], "--time", str(seconds), "--json"]
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True,
                              timeout=2 * seconds + 30)
        out = json.loads(done.stdout)
        row = {k: out.get(k) for k in ("solved", "valid", "length", "cost", "expanded",
                                       "reason", "time_s")}
    except (subprocess.TimeoutExpired, ValueError) as error:
        row = {"solved": False, "valid": False, "reason": f"{type(error).__name__}"}
    return {**row, "config": config, "task": f"{task.parent.name}/{task.stem}",
            "wall_s": round(time.perf_counter() - start, 3)}


def summary(rows: list) -> None:
    by = {}
    for r in rows:
        by.setdefault(r["config"], {})[r["task"]] = r
    for config, done in by.items():
        good = [t for t, r in done.items() if r["solved"] and r["valid"]]
        print(f"{config}: coverage {len(good)}/{len(done)}; invalid: "
              f"{[t for t, r in done.items() if r['solved'] and not r['valid']]}; unsolved: "
              f"{[(t, r.get('reason')) for t, r in done.items() if not r['solved']]}")
    if len(by) == 2:
        a, b = by
        both = [t for t in by[a] if t in by[b] and by[a][t]["valid"] and by[b][t]["valid"]]
        for key in ("wall_s", "time_s", "length"):
            means = [math.exp(sum(math.log(max(by[c][t][key], 1e-3)) for t in both) / len(both))
                     for c in (a, b)]
            print(f"geometric mean {key} over the {len(both)} tasks both solve: "
                  f"{a} {means[0]:.3f}, {b} {means[1]:.3f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, appended")
    parser.add_argument("--collection", type=Path, default=IPC)
    parser.add_argument("--last", type=int, default=5, help="tasks 01..LAST of each domain")
    parser.add_argument("--time", type=float, default=60, help="seconds per task")
    parser.add_argument("--configs", default=",".join(CONFIGS))
    parser.add_argument("--summary", action="store_true", help="only print the summary")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in args.out.read_text().splitlines()] \
        if args.out.exists() else []
    if not args.summary:
        done = {(r["config"], r["task"]) for r in rows}
        with args.out.open("a") as out:
            for domain, task in tasks(args.collection, args.last):
                for config in args.configs.split(","):
                    if (config, f"{task.parent.name}/{task.stem}") in done:
                        continue
                    rows.append(run(domain, task, config, args.time))
                    out.write(json.dumps(rows[-1]) + "\n")
                    out.flush()
    summary(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
