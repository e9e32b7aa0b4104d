"""plyspec, pyperplan 2.1 and Fast Downward (the `up-fast-downward` wheel) on IPC tasks, each
planner a whole process (subprocess, wall clock, one task at a time, the same time and memory
limit), in two modes: satisficing (tasks 01-05; plyspec --algo gbfs --heuristic hff by default,
pyperplan gbf+hff, FD --alias lama-first) and optimal (tasks 01-03; A* with LM-cut everywhere).
Every plan of every planner is replayed by plyspec's lifted validator (planners/lifted/validate.py);
the optimal costs of the planners are compared.  Results stream to a JSON-lines file (a rerun
skips what it holds, so Ctrl-C loses nothing) from which the Markdown report is written.

    python benchmarks/bench_ipc.py --benchmarks /work/ipc21/benchmarks      # 60 s per task
    python benchmarks/bench_ipc.py --benchmarks DIR --time 20 --sat-tasks 1-2 --opt-tasks 1-2
    python benchmarks/bench_ipc.py --suite collection --benchmarks downward-benchmarks \
        --sat-tasks 2-5 --time 30 --domains-from FILE   # Fast Downward's collection, its layout
    python benchmarks/bench_ipc.py --suite collection --benchmarks downward-benchmarks \
        --planners plyspec,fd --modes sat --sat-tasks 2-5 --time 30 --plyspec-sat '--config lama-first' \
        --sweep -o benchmarks/collection-sat-2-5-RUN.jsonl   # a new sweep, its rows winning
    python benchmarks/bench_ipc.py --report-only        # rewrite docs/planning-benchmarks.md

The report, docs/planning-benchmarks.md, is written from the committed results files alone:
a section per suite (`--suite`: the 21 IPC domains, Fast Downward's benchmark collection, its
gaps run again), each from its own results file, the two admissible heuristics side by side,
then the hand-written notes (docs/notes/planning-benchmarks.md, verbatim) with the section of
the tasks 02-05 sweep of the collection (benchmarks/sweep_report.py: the files listed in
benchmarks/collection-sweep.txt, the last file's row of a task winning).  With `-o FILE` not
one of those files, the report is FILE's section alone, written to `--report` (default FILE
with `.md`), never over the whole report.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ipc_report import SUITES, load_rows, write_report
from sweep_report import MANIFEST, add_file, sweep_files, tail

ROOT = Path(__file__).resolve().parents[1]
PLANNERS = ("plyspec", "pyperplan", "fd")
DEFAULT_SAT = "--algo gbfs --heuristic hff"
DEFAULT_OPT = "--algo astar --heuristic lmcut"
RESULTS = {"ipc21": ROOT / "benchmarks" / "ipc-results.jsonl",
           "collection": ROOT / "benchmarks" / "collection-results.jsonl",
           "recheck": ROOT / "benchmarks" / "collection-recheck.jsonl"}
# optimal runs with `--heuristic lmcp` and, at the same time limit, with LM-cut and Fast
# Downward (None: the suite's own results file), for the report's side-by-side sections
HEURISTIC_RESULTS = {"ipc21": (ROOT / "benchmarks" / "opt-lmcp-ipc21.jsonl",
                               ROOT / "benchmarks" / "opt-lmcut-ipc21.jsonl"),
                     "collection": (ROOT / "benchmarks" / "opt-lmcp-collection.jsonl", None)}


def task_range(text: str) -> list[int]:
    """`1-5` or `1,3,4` -> task numbers."""
    numbers = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        numbers.extend(range(int(low), int(high or low) + 1))
    return numbers


def domain_file(task: Path) -> Path | None:
    """The domain file of a task of Fast Downward's benchmark collection, by its driver's
    naming rules (domain.pddl, p01-domain.pddl, domain_p01.pddl, ...)."""
    for name in ("domain.pddl", f"{task.stem}-domain.pddl", f"{task.name[:3]}-domain.pddl",
                 f"domain_{task.name}", f"domain-{task.name}"):
        if (task.parent / name).exists():
            return task.parent / name
    return None


def domain_tasks(domain: Path) -> dict[int, tuple[Path, Path]]:
    """Task number -> (domain file, task file) in one domain folder: pyperplan's layout
    (taskNN.pddl beside domain.pddl or domainNN.pddl) or, without taskNN files, Fast
    Downward's benchmark collection (the problem files in name order, numbered from 1)."""
    found = {}
    for task in sorted(domain.glob("task[0-9][0-9].pddl")):
        n = int(task.stem[4:])
        for candidate in (domain / f"domain{n:02d}.pddl", domain / "domain.pddl"):
            if candidate.exists():
                found[n] = (candidate, task)
                break
    if found:
        return found
    problems = sorted(p for p in domain.glob("*.pddl") if "domain" not in p.name)
    return {n: (domain_file(task), task) for n, task in enumerate(problems, 1)
            if domain_file(task)}


def find_tasks(folders: list[Path], numbers: list[int], only: set | None) -> list[tuple]:
    """(domain name, domain file, task file) for each wanted task number of each domain folder,
    the first folder holding a domain name winning."""
    seen, tasks = set(), []
    for folder in folders:
        for domain in sorted(p for p in folder.iterdir() if p.is_dir()):
            if domain.name in seen or (only and domain.name not in only):
                continue
            seen.add(domain.name)
            numbered = domain_tasks(domain)
            tasks.extend((domain.name, *numbered[n]) for n in numbers if n in numbered)
    return tasks


def fast_downward_script() -> Path:
    import importlib.util
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("up-fast-downward is not installed: pip install up-fast-downward")
    return Path(spec.submodule_search_locations[0]) / "downward" / "fast-downward.py"


def command(planner: str, mode: str, domain: Path, task: Path, work: Path, args) -> list[str]:
    """The command line of one planner on one task; plans land in `work`."""
    if planner == "plyspec":
        config = args.plyspec_sat if mode == "sat" else args.plyspec_opt
        return [sys.executable, "-m", "framework.cli", "plan", str(domain), str(task), "--json",
                "--time", str(max(args.time - 1, args.time / 2)), *shlex.split(config)]
    if planner == "pyperplan":                 # writes TASK.soln beside the task: use a copy
        shutil.copy(domain, work / "domain.pddl")
        shutil.copy(task, work / "task.pddl")
        search = ["-s", "gbf", "-H", "hff"] if mode == "sat" else ["-s", "astar", "-H", "lmcut"]
        return [sys.executable, "-m", "pyperplan", "-l", "warning", *search,
                str(work / "domain.pddl"), str(work / "task.pddl")]
    config = ["--alias", "lama-first"] if mode == "sat" else ["--search", "astar(lmcut())"]
    plan_file = ["--plan-file", str(work / "sas_plan")]
    if mode == "sat":
        return [sys.executable, str(fast_downward_script()), *plan_file, *config, str(domain), str(task)]
    return [sys.executable, str(fast_downward_script()), *plan_file, str(domain), str(task), *config]


def config_name(planner: str, mode: str, args) -> str:
    if planner == "plyspec":
        return args.plyspec_sat if mode == "sat" else args.plyspec_opt
    if planner == "pyperplan":
        return "-s gbf -H hff" if mode == "sat" else "-s astar -H lmcut"
    return "--alias lama-first" if mode == "sat" else "--search astar(lmcut())"


def read_plan(planner: str, stdout: str, work: Path) -> list[str] | None:
    """The plan a planner wrote (action texts), or None when it wrote none."""
    if planner == "plyspec":
        try:
            out = json.loads(stdout)
        except json.JSONDecodeError:
            return None
        return out["plan"] if out.get("solved") else None
    path = work / ("task.pddl.soln" if planner == "pyperplan" else "sas_plan")
    if not path.exists():
        return None
    return [line.strip() for line in path.read_text().splitlines()
            if line.strip() and not line.startswith(";")]


def _children_cpu() -> float:
    """User + system CPU seconds of this process's waited-for children so far (a planner
    killed at its time limit counts up to then; Fast Downward's own children only once
    its driver waited for them)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_one(planner: str, mode: str, domain: Path, task: Path, args) -> dict:
    """Runs one planner on one task as a whole process and validates the plan it wrote."""
    memory = args.memory_mb * 2**20

    def limits():
        if args.memory_mb:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    with tempfile.TemporaryDirectory(prefix="bench_ipc_") as tmp:
        work = Path(tmp)
        cmd = command(planner, mode, domain, task, work, args)
        env = dict(os.environ, PYTHONHASHSEED="0")
        start, cpu = time.perf_counter(), _children_cpu()
        proc = subprocess.Popen(cmd, cwd=ROOT if planner == "plyspec" else work, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=limits, start_new_session=True)
        try:
            stdout, stderr = proc.communicate(timeout=args.time)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)      # FD's driver has children: the whole group
            stdout, stderr = proc.communicate()
            timed_out = True
        except KeyboardInterrupt:                    # its own session: Ctrl-C did not reach it
            os.killpg(proc.pid, signal.SIGKILL)
            raise
        seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
        plan = None if timed_out else read_plan(planner, stdout, work)
    row = {"planner": planner, "mode": mode, "domain": task.parent.name, "task": task.name,
           "time_limit": args.time, "wall_s": round(seconds, 4), "cpu_s": round(cpu, 3),
           "exit": proc.returncode,
           "config": config_name(planner, mode, args)}
    row.update(statistics(planner, stdout))
    if timed_out:
        return {**row, "status": "timeout", "solved": False}
    if plan is None and row.get("reason", "").startswith("time limit"):
        return {**row, "status": "timeout", "solved": False}
    if plan is None:
        memory_out = "MemoryError" in stderr or (planner == "fd" and proc.returncode in (20, 22)) \
            or (planner == "plyspec" and '"reason": "memory limit' in stdout)
        status = "memory" if memory_out else "unsolved" if proc.returncode in (0, 11, 12) \
            else "error"
        return {**row, "status": status, "solved": False,
                "stderr": stderr.strip().splitlines()[-8:] if stderr.strip() else []}
    return {**row, "status": "solved", "solved": True, **validate(domain, task, plan)}


STATISTICS = ("expanded", "facts", "operators", "ground_time_s", "time_s", "reason")


def statistics(planner: str, stdout: str) -> dict:
    """What plyspec's JSON result says of its run (also of a run that stopped without a
    plan: it gives up a second before the limit to say it): the states it expanded, the
    task's size, the grounding and search times, why it stopped."""
    if planner != "plyspec":
        return {}
    try:
        out = json.loads(stdout)
    except json.JSONDecodeError:
        return {}
    return {name: out[name] for name in STATISTICS if out.get(name) is not None}


def validate(domain: Path, task: Path, plan: list[str]) -> dict:
    import planners
    from planners.lifted.validate import validate_plan
    try:
        check = validate_plan(planners.load(domain, task), plan)
    except Exception as error:                   # a plan the validator cannot read
        return {"valid": False, "length": len(plan), "cost": None, "message": str(error)}
    return {"valid": check.valid, "length": len(plan), "cost": check.cost,
            "message": check.message}


def key(row: dict) -> tuple:
    return row["planner"], row["mode"], row["domain"], row["task"]


def run_id() -> str:
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "framework", "planners"],
                               cwd=ROOT, capture_output=True, text=True).stdout.strip()
        return commit + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def jobs(args, folders: list[Path], only: set | None) -> list[tuple]:
    """(mode, domain name, domain file, task file), task 01 of every domain in both modes
    first, then task 02, ...: a run stopped early still covers every domain."""
    numbers = {mode: task_range(args.sat_tasks if mode == "sat" else args.opt_tasks)
               for mode in args.modes.split(",")}
    out = []
    for n in sorted(set().union(*numbers.values())):
        for mode, wanted in numbers.items():
            if n in wanted:
                out.extend((mode, *found) for found in find_tasks(folders, [n], only))
    return out


def _whole_report(parser, args) -> bool:
    """Whether the run writes the whole report (no `-o`, or `-o` one of the report's files, or
    `--sweep`) or only the section of its `-o FILE`; sets args.output and args.report, and
    refuses a section alone written over the whole report, or a sweep outside the clone."""
    report = ROOT / "docs" / "planning-benchmarks.md"
    given = args.output
    args.output = (given or RESULTS[args.suite]).resolve()
    own = {*RESULTS.values(), *(f for pair in HEURISTIC_RESULTS.values() for f in pair if f),
           *(ROOT / name for name in sweep_files())}
    whole = given is None or args.output in {f.resolve() for f in own} or args.sweep
    if args.sweep and (given is None or not args.output.is_relative_to(ROOT)):
        parser.error("--sweep needs -o FILE inside the clone (benchmarks/...): the report "
                     "lists it by its path there")
    if not whole and args.report and args.report.resolve() == report.resolve():
        parser.error(f"-o {given} is not one of the report's results files: its section alone "
                     f"would replace {report.relative_to(ROOT)} (give another --report, or "
                     "--sweep for a sweep of tasks 02-05 of the collection)")
    args.report = args.report or (report if whole else args.output.with_suffix(".md"))
    return whole


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--benchmarks", action="append", type=Path,
                        help="a folder of IPC domain folders (repeatable; default ../shared/pddl)")
    parser.add_argument("--domains", help="comma-separated domain names (default: all)")
    parser.add_argument("--domains-from", type=Path, metavar="FILE",
                        help="the domain names to run, one a line (with --domains: both)")
    parser.add_argument("--suite", choices=sorted(SUITES), default="ipc21",
                        help="which section of the report the runs belong to, and its default "
                             "results file (default ipc21: the 21 IPC domains; collection: "
                             "Fast Downward's benchmark collection; recheck: its gaps run again)")
    parser.add_argument("--tasks-from", type=Path, metavar="FILE",
                        help="only these tasks, one `MODE DOMAIN TASK-FILE` a line (for example "
                             "benchmarks/collection-gaps.txt)")
    parser.add_argument("--modes", default="sat,opt", help="sat, opt or both (default)")
    parser.add_argument("--planners", default=",".join(PLANNERS))
    parser.add_argument("--sat-tasks", default="1-5", help="task numbers (default 1-5)")
    parser.add_argument("--opt-tasks", default="1-3", help="task numbers (default 1-3)")
    parser.add_argument("--time", type=float, default=60.0, help="seconds per task (default 60)")
    parser.add_argument("--memory-mb", type=int, default=4096,
                        help="address-space limit per planner process (default 4096; 0: none)")
    parser.add_argument("--plyspec-sat", default=DEFAULT_SAT,
                        help=f"plyspec's satisficing options (default: {DEFAULT_SAT!r})")
    parser.add_argument("--plyspec-opt", default=DEFAULT_OPT,
                        help=f"plyspec's optimal options (default: {DEFAULT_OPT!r})")
    parser.add_argument("-o", "--output", type=Path, default=None,
                        help="the results file to add to (default: the suite's in benchmarks/; "
                             "the report then has every suite's section, else this file's)")
    parser.add_argument("--report", type=Path, default=None,
                        help="where the report goes (default docs/planning-benchmarks.md, the "
                             "whole report; with -o FILE not one of its files, FILE.md)")
    parser.add_argument("--report-only", action="store_true", help="write the report, run nothing")
    parser.add_argument("--sweep", action="store_true",
                        help="-o FILE is a new sweep of tasks 02-05 of the collection: list it "
                             f"last in {MANIFEST.relative_to(ROOT)} (its rows win) and write "
                             "the whole report")
    parser.add_argument("--run", help="what plyspec code this is (default: its git commit)")
    args = parser.parse_args(argv)
    whole = _whole_report(parser, args)
    folders = args.benchmarks or [ROOT.parent / "shared" / "pddl"]
    missing = [f for f in folders if not f.is_dir()]
    if missing and not args.report_only:
        print(f"bench_ipc.py needs IPC domain folders: {missing[0]} does not exist (../shared/pddl "
              "beside the clone; --benchmarks DIR names another)", file=sys.stderr)
        return 2
    if not args.report_only:
        import compileall                        # as pip install does: no compiling per run
        for package in ("framework", "planners"):
            compileall.compile_dir(ROOT / package, quiet=1)
        only = set(args.domains.split(",")) if args.domains else set()
        if args.domains_from:
            only |= {line.strip() for line in args.domains_from.read_text().splitlines()
                     if line.strip() and not line.startswith("#")}
        done = {key(r) for r in load_rows(args.output)}
        for r in load_rows(args.output):
            if r["time_limit"] != args.time or r["config"] != config_name(r["planner"], r["mode"], args):
                raise SystemExit(f"{args.output} holds runs with other settings ({r['planner']} "
                                 f"{r['config']!r}, {r['time_limit']:g} s): give a new -o FILE")
        header = {"suite": args.suite, "run": args.run or run_id(), "machine": machine(),
                  "time_limit": args.time,
                  "memory_mb": args.memory_mb, "command": "python benchmarks/bench_ipc.py "
                  + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))}
        wanted = [p for p in args.planners.split(",") if p]
        picked = None
        if args.tasks_from:
            picked = {tuple(line.split()) for line in args.tasks_from.read_text().splitlines()
                      if line.strip() and not line.startswith("#")}
        with args.output.open("a") as out:
            for mode, domain_name, domain, task in jobs(args, folders, only):
                if picked is not None and (mode, domain_name, task.name) not in picked:
                    continue
                for planner in wanted:
                    if (planner, mode, domain_name, task.name) in done:
                        continue
                    row = {**run_one(planner, mode, domain, task, args), **header,
                           "load": round(os.getloadavg()[0], 2)}
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    print(f"{mode} {domain_name}/{task.name} {planner:<9} {row['status']:<8}"
                          f" {row['wall_s']:7.2f} s  cost {row.get('cost')}"
                          + ("" if row.get("valid", True) else "  INVALID"), flush=True)
    if whole:
        if args.sweep:
            add_file(args.output.resolve().relative_to(ROOT).as_posix())
        suites = {s: load_rows(f) for s, f in RESULTS.items()}
        heuristics = {s: (load_rows(lmcp), load_rows(lmcut or RESULTS[s]))
                      for s, (lmcp, lmcut) in HEURISTIC_RESULTS.items()}
        write_report(suites, args.report, heuristics, tail())
    else:
        write_report({args.suite: load_rows(args.output)}, args.report)
    print(f"wrote {args.report}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
