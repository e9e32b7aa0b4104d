"""`plyspec plan PROBLEM.yaml|.plan | DOMAIN.pddl PROBLEM.pddl | PUZZLE`: ground a planning
problem (or load a 1-player game spec), search it with a shared single-agent searcher,
validate and print the plan."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from framework.cli import COMMANDS
from framework.errors import SpecError, UsageError
from framework.cli.common import (add_set_option, parse_sets, perft_depth,
                                    positive_int, positive_number, print_json)
from framework.cli.parallel_options import add_parallel_options
from framework.cli.plan_output import out_of_time, plan_printer, print_result

ALGORITHMS = ["auto", "bfs", "dfs", "iddfs", "ucs", "astar", "wastar", "gbfs", "lazy-gbfs",
              "lama-first", "lama"]
LAMA = ("lama-first", "lama")           # configurations that choose their heuristics
HEURISTICS = ["blind", "hmax", "lmcut", "lmcp", "hadd", "hff"]
CONFIGS = {"lama-first": "lama-first", "lama": "lama", "optimal": "astar"}


def add_parser(sub):
    p = sub.add_parser(
        "plan", help=COMMANDS["plan"],
        description="Ground a planning problem (a YAML or .plan planning spec, or a PDDL "
                    "domain and problem file), search it, replay the plan from the initial state and print "
                    "it one action per line, then its length, cost, the states expanded, the "
                    "search time and whether it was validated.",
        epilog="examples:\n"
               "  plyspec plan ../shared/pddl/gripper --time 10 -o gripper.jsonl   # a sweep\n"
               "  plyspec plan ../shared/pddl --time 60 --workers 2   # every domain folder in it\n"
               "  plyspec plan planners/data/problems/monkey_bananas.yaml\n"
               "  plyspec plan planners/data/problems/hanoi.plan --set disks=5 --algo astar\n"
               "  plyspec plan domain.pddl task01.pddl --algo gbfs --heuristic hff --json\n"
               "  plyspec plan domain.pddl task01.pddl --config lama-first   # satisficing, no tuning\n"
               "  plyspec plan domain.pddl task01.pddl --config lama --time 60   # better plans until 60 s\n"
               "  plyspec plan domain.pddl task01.pddl --config optimal      # A* with LM-cut\n"
               "  plyspec plan domain.pddl task01.pddl --algo wastar --weight 3",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="PROBLEM.yaml or PROBLEM.plan, or DOMAIN.pddl PROBLEM.pddl, or a "
                        "1-player game spec (a puzzle with a goal); DOMAIN.pddl TASK.pddl TASK.pddl "
                        "... or folders of IPC tasks (or a folder of such folders) plans them all on the workers (a sweep)")
    p.add_argument("--algo", choices=ALGORITHMS, default="auto",
                   help="searcher: bfs (fewest steps), dfs, iddfs (fewest steps, little memory), "
                        "ucs (cheapest), astar (cheapest with an admissible heuristic), gbfs "
                        "(fast, not optimal), lazy-gbfs (lazy, with h_FF's preferred operators, "
                        "as LAMA's first search without landmarks), wastar (g + W*h, see --weight), "
                        "lama-first and lama (see --config); auto = astar with lmcut (cheapest plans: fewest "
                        "steps when actions have no costs; bfs on a puzzle) (default: auto)")
    p.add_argument("--config", choices=sorted(CONFIGS), default=None,
                   help="a ready configuration instead of --algo/--heuristic: lama-first "
                        "(satisficing: lazy greedy search with h_FF and landmark count in "
                        "alternation and both heuristics' preferred operators, as LAMA's first "
                        "search; finds plans fast on IPC tasks, not cheapest ones), lama (anytime: "
                        "lama-first's plan, then weighted A* with weights 5, 3, 2, 1 for ever "
                        "cheaper plans, each printed as found, until --time ends or no cheaper "
                        "plan exists), optimal (cheapest plans: astar with lmcut)")
    p.add_argument("--weight", type=_weight, default=None, metavar="W",
                   help="weight W >= 1 of h in wastar's g + W*h (default 2; 1 is A*)")
    p.add_argument("--heuristic", choices=HEURISTICS, default=None,
                   help="heuristic of astar, wastar, gbfs and lazy-gbfs: blind, hmax, lmcut and "
                        "lmcp (admissible; lmcut stronger and slower than hmax; lmcp: landmarks "
                        "with uniform cost partitioning, see docs/planning.md), hadd, hff (default: hmax for "
                        "astar, hff for the others)")
    p.add_argument("--time", type=positive_number, default=None, metavar="S",
                   help="give up after S seconds (reading, grounding, the heuristics' set-up "
                        "and the search together)")
    p.add_argument("--nodes", type=positive_int, default=None, metavar="N",
                   help="give up after expanding N states")
    p.add_argument("--memory", type=positive_number, default=None, metavar="MB",
                   help="give up once the search (its open and closed lists and per-state "
                        "data) has added MB megabytes to the process's resident memory; the "
                        "result says so and gives the statistics")
    p.add_argument("--depth", type=perft_depth, default=None, metavar="N",
                   help="longest plan to look for (bfs, dfs, iddfs, ...)")
    p.add_argument("--max-operators", type=positive_int, default=None, metavar="N",
                   help="refuse problems with more than N ground operators (default 1,000,000)")
    add_set_option(p)
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: plan, length, cost, expanded, valid, time_s, "
                        "algorithm, ...")
    p.add_argument("--progress", action="store_true",
                   help="report progress on stderr every second (default: only when stderr "
                        "is a terminal)")
    add_parallel_options(p)
    p.add_argument("--emit-pddl", metavar="DIR",
                   help="write the problem as DIR/domain.pddl and DIR/problem.pddl instead of "
                        "planning")
    p.set_defaults(func=run)


def _weight(text: str) -> float:
    value = positive_number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"a weight must be at least 1, not {text}")
    return value


def _choose(args):
    """Applies --config (which stands for an --algo and --heuristic) and checks --weight."""
    if args.config:
        if args.algo != "auto" or args.heuristic:
            raise UsageError(f"--config {args.config} chooses the search and heuristic itself; "
                             "drop --algo/--heuristic (or drop --config)")
        args.algo = CONFIGS[args.config]
        args.heuristic = "lmcut" if args.algo == "astar" else None
    if args.algo in LAMA and args.heuristic:
        raise UsageError(f"{args.algo} chooses its heuristics itself (h_FF and landmark count); "
                         "drop --heuristic")
    if args.weight is not None and args.algo != "wastar":
        raise UsageError("--weight is the weight of wastar; add --algo wastar")


def _is_game_spec(path: Path) -> bool:
    """A 1-player game spec (.game, or YAML with a `game:` key) rather than a planning spec."""
    if path.suffix.lower() == ".game":
        return True
    import yaml
    from framework.files import read_text
    try:
        data = yaml.safe_load(read_text(path))
    except (SpecError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and "game" in data


def _files(names) -> list:
    """The files `plan` reads: the paths given; a shipped problem by name (`gripper`); a
    shipped PDDL sample by name (`scanalyzer` for its first task, `scanalyzer/task02`; a
    shipped problem of the same name comes first: `blocks` is blocks.yaml).
    A path that names nothing is a SpecError with the hint the game commands give.
    Paths that exist are taken as they are, without importing the spec discovery (so that
    `plan DOMAIN.pddl TASK.pddl` loads none of the conformance package)."""
    if all(Path(f).exists() for f in names):
        return [Path(f) for f in names]
    from framework.conformance.discover import pddl_sample, pddl_sample_names, resolve, shipped_names
    from framework.errors import SpecError, did_you_mean
    files = [resolve(f) for f in names]               # a path as given, else a shipped problem
    if len(files) == 1 and not files[0].exists() and pddl_sample(names[0]):
        return list(pddl_sample(names[0]))
    for name, f in zip(names, files):
        if not f.exists():
            raise SpecError(f"cannot read {name}: No such file or directory", file=str(name),
                            hint=did_you_mean(str(name), shipped_names() + pddl_sample_names()) or
                            "give a problem file, a shipped problem by name (plyspec list) or a "
                            "shipped PDDL sample (scanalyzer, scanalyzer/task01)")
    return files


def _prepare(args, started: float) -> dict:
    """Loads (and grounds) what to plan for: the search problem, its name and options,
    the lifted validator of planning problems, and what grounding produced."""
    import planners
    from planners.lifted.validate import validate_plan

    files = _files(args.files)
    options = parse_sets(args.set)
    if len(files) > 2:
        raise ValueError("give PROBLEM.yaml, or DOMAIN.pddl PROBLEM.pddl")
    if len(files) == 1 and files[0].suffix.lower() == ".pddl":
        raise ValueError(f"{files[0]}: a PDDL file needs its partner: plyspec plan DOMAIN.pddl "
                         "PROBLEM.pddl")
    if len(files) == 1 and _is_game_spec(files[0]):
        from framework import load
        from framework.search.problem import GameProblem
        if args.heuristic not in (None, "blind") or args.emit_pddl or args.algo in LAMA:
            raise ValueError("--heuristic, --config and --emit-pddl apply to planning problems; "
                             "a 1-player game is searched blind")
        game = load(files[0], **options)
        if game.num_players != 1 or game.chance:
            raise UsageError(f"{args.files[0]} is a {game.num_players}-player game"
                             + (" with chance" if game.chance else "") + ", not a planning problem",
                             file=str(files[0]),
                             hint=f"solve it with `plyspec solve {args.files[0]}` or play it with "
                                  f"`plyspec play {args.files[0]}`; `plan` takes planning problems "
                                  "and 1-player puzzles")
        return {"name": game.name, "problem": GameProblem(game), "options": game.options,
                "validate": None, "info": {}}
    problem = planners.load(*files, **options)
    if args.emit_pddl:
        return {"name": problem.name, "lifted": problem}
    from framework.search.result import Budget
    start = time.perf_counter()
    kw = {} if args.max_operators is None else {"max_operators": args.max_operators}
    task = planners.ground(problem, budget=Budget(args.time and args.time - (start - started)), **kw)
    info = {"ground_time_s": round(time.perf_counter() - start, 6), "facts": len(task.facts),
            "operators": len(task.operators)}
    if args.time is not None:                 # --time covers reading, grounding and search
        args.time = max(args.time - (time.perf_counter() - started), 1e-9)
    return {"name": problem.name, "problem": task, "options": problem.options,
            "validate": lambda plan: validate_plan(problem, plan),
            "info": info}


def _emit_pddl(problem, folder: Path) -> int:
    from framework.files import write_atomic
    from planners.formats.export import to_pddl
    folder.mkdir(parents=True, exist_ok=True)
    domain_text, problem_text = to_pddl(problem)
    write_atomic(folder / "domain.pddl", domain_text, force=True)
    write_atomic(folder / "problem.pddl", problem_text, force=True)
    print(f"wrote {folder / 'domain.pddl'} and {folder / 'problem.pddl'}")
    return 0


def _progress_printer(algorithm: str):
    """A progress line redrawn in place on a terminal (plyspec's own \r and erase-line
    codes, written beneath the stream that shows control characters as escapes)."""
    from framework.terminal import beneath
    tty = sys.stderr.isatty()

    def report(stats):
        depth = f"depth {stats.depth}  " if stats.depth else ""
        line = (f"[{algorithm}] expanded {stats.expanded:,}  reached {stats.nodes:,}  "
                f"{depth}{stats.time_s:.1f} s")
        beneath(sys.stderr).write(("\r" + line + "\033[K") if tty else line + "\n")
        beneath(sys.stderr).flush()
    return report, tty


def run(args) -> int:
    from framework.search.registry import searcher
    from framework.search.result import best_so_far_on_interrupt, memory_bound
    _choose(args)
    if _is_sweep(args.files):
        if args.weight is not None:
            raise UsageError("--weight applies to one task; a sweep runs wastar with weight 2")
        if args.memory is not None:
            raise UsageError("--memory applies to one task; a sweep bounds each worker by "
                             "--time and --nodes")
        return _sweep(args)

    from framework.search.result import BudgetExceeded, alarm
    started = time.perf_counter()
    try:
        with alarm(args.time):               # --time covers reading and grounding the problem
            target = _prepare(args, started)
    except BudgetExceeded:
        return out_of_time(args, time.perf_counter() - started, "grounding")
    except MemoryError:                      # (the process's own limit, ulimit -v)
        return out_of_time(args, time.perf_counter() - started, "grounding", "memory limit")
    if args.emit_pddl:
        return _emit_pddl(target["lifted"], Path(args.emit_pddl))
    problem, info = target["problem"], target["info"]
    algorithm = args.algo
    heuristic = args.heuristic
    if algorithm == "auto":                  # a puzzle (a game spec) has no heuristic: bfs
        from planners import AUTO
        algorithm, auto_heuristic = AUTO if info else ("bfs", None)
        heuristic = heuristic or auto_heuristic
    if info and not heuristic:
        from planners import DEFAULT_HEURISTIC
        heuristic = DEFAULT_HEURISTIC.get(algorithm)
    progress, tty = (None, False)
    if args.progress or sys.stderr.isatty():
        progress, tty = _progress_printer(algorithm)
    more = {} if args.weight is None else {"weight": args.weight}
    found = []                            # the plans of an anytime search, as found
    if algorithm == "lama":
        more["on_plan"] = plan_printer(args, problem, target, found)
    # --time bounds the whole run: the search gets what grounding left (`_prepare` cut
    # args.time down); an alarm at that deadline stops a heuristic's set-up (a landmark
    # graph, say), and the search, whose budget takes the alarm's deadline over, stops by
    # itself then and reports what it expanded
    with best_so_far_on_interrupt():
        try:
            with alarm(args.time, search_keeps_result=True), memory_bound(args.memory):
                result = searcher(algorithm)(problem, depth=args.depth, time_limit=args.time,
                                             node_limit=args.nodes, heuristic=heuristic,
                                             progress=progress, **more)
        except BudgetExceeded:
            return out_of_time(args, time.perf_counter() - started, "preparing the heuristics")
        except MemoryError:
            return out_of_time(args, time.perf_counter() - started, "preparing the heuristics",
                               "memory limit")
    if tty:
        from framework.terminal import beneath
        beneath(sys.stderr).write("\r\033[K")
    valid = print_result(args, target, result, algorithm, heuristic, found)
    solved = result.extra.get("solved", False)
    if result.extra.get("reason") == "interrupted":
        return 130
    return 0 if (valid or not solved) else 1


def _is_sweep(files) -> bool:
    paths = [Path(f) for f in files]
    return (bool(paths) and all(p.is_dir() for p in paths)) or \
        (len(paths) > 2 and all(p.suffix.lower() == ".pddl" for p in paths))


def _sweep(args) -> int:
    """Every task planned on a worker; a coverage table (or JSON) at the end."""
    from framework.cli.parallel_options import drive
    from framework.loader import read_text
    from framework.parallel import Failure
    from framework.parallel.journal import spec_digest
    from framework.parallel.planning import REF, check_plan_record, suite
    pairs = suite(args.files)
    tasks = [(str(task), (read_text(domain), read_text(task), [domain.name, task.name], args.algo,
                          args.heuristic, args.time, args.nodes)) for domain, task in pairs]
    tasks.sort(key=lambda t: -len(t[1][1]))   # biggest problem first: the workers finish together
    header = {"command": "plan", "tasks": [str(t) for _, t in pairs],
              "tasks_sha256": spec_digest(*(text for _, a in tasks for text in a[:2])),
              "algo": args.algo, "heuristic": args.heuristic, "time": args.time, "nodes": args.nodes}
    files = {str(task): (domain, task) for domain, task in pairs}
    results, interrupted = drive(args, REF, tasks, header=header, label="tasks",
                                 check=lambda key, record, shape: check_plan_record(
                                     record, shape, *files[key]))
    rows = []
    for _, task in pairs:
        r = results.get(str(task))
        if r is None:
            rows.append({"task": str(task), "status": "not run"})
        elif isinstance(r, Failure) or "failure" in r:
            f = r if isinstance(r, Failure) else Failure(r["failure"], r["message"])
            rows.append({"task": str(task), "status": f.kind, "message": f.message})
        else:
            status = "solved" if r["solved"] and r["valid"] else "INVALID" if r["solved"] else \
                "unsolved"
            rows.append({"task": str(task), "status": status, **{k: r[k] for k in
                         ("length", "cost", "expanded", "seconds", "algorithm", "heuristic", "reason")}})
    solved = sum(1 for r in rows if r["status"] == "solved")
    if args.json:
        print_json({"tasks": rows, "solved": solved, "total": len(rows), "interrupted": interrupted})
    else:
        for r in rows:
            detail = (f"length {r['length']}, cost {r['cost']:g}, {r['expanded']:,} expanded, {r['seconds']:.2f} s"
                      if r["status"] == "solved" else r.get("message") or r.get("reason") or "")
            shown = Path(r["task"])
            print(f"{shown.parent.name + '/' + shown.name:<32} {r['status']:<9} {detail}")
        print(f"coverage: {solved}/{len(rows)}" + (" (interrupted)" if interrupted else ""))
    if interrupted:
        return 130
    return 0 if all(r["status"] in ("solved", "unsolved") for r in rows) else 1
