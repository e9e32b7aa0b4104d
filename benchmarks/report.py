"""Re-measure docs/performance.md in one run and rewrite its measured section.

    nice python benchmarks/report.py [--repeat 5] [--cpu] [--quick] [--no-write]

Runs, in this process and in this order: the rows of benchmarks/bench_pyspiel.py (perft,
alpha-beta, minimax and expectimax against pyspiel and OpenSpiel's Python searchers; the
compound-move games and the specs strangers wrote (issue 28); kernel perft nodes/s by
depth, transposition-table and MCTS memory, peak RSS), the memory of the expectimax table,
the history-rule table of benchmarks/bench_adversarial.py (Northcott with `repetition draw
3` against the rule removed; after `gc.freeze()`, so that the heap the rows before it leave
is not collected over and over during that allocating search, as in a fresh process), and benchmarks/bench_startup.py when it is there
(whole-process start-up against `python -c pass` and pyperplan).  Everything printed is
echoed; the part of docs/performance.md between the two `measured` markers is then replaced
by a table of the ratios (never absolute times: the machine is shared) with each row's
target, the other lines as printed, the machine and the command (`--no-write` leaves the
file alone).
"""
from __future__ import annotations

import argparse
import contextlib
import datetime
import gc
import io
import os
import pathlib
import platform
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DOC = ROOT / "docs" / "performance.md"
BEGIN = "<!-- measured: begin (written by benchmarks/report.py; edit that, not this) -->"
END = "<!-- measured: end -->"
HISTORY_DEPTH = 8     # Northcott's alpha-beta depth in the history-rule table (issue 28)


class _Tee(io.StringIO):
    """Keeps what is printed and shows it as it comes."""

    def write(self, text):
        sys.__stdout__.write(text)
        sys.__stdout__.flush()
        return super().write(text)


def _captured(fn, *args) -> list:
    """The lines `fn(*args)` prints (shown as well)."""
    out = _Tee()
    with contextlib.redirect_stdout(out):
        fn(*args)
    return out.getvalue().splitlines()


def expectimax_table_memory() -> str:
    """Bytes an entry of expectimax's transposition table takes (tracemalloc, Pig): the
    slots of a table with room for every entry of a plain search, and what the search
    leaves allocated with it (the principal lines the entries refer to), per entry filled."""
    import tracemalloc
    from framework import load
    from framework.kernel import Rules
    from framework.search.expectimax import _Expectimax
    from framework.search.exact_table import ExactTable
    game = load(ROOT / "benchmarks" / "pig_openspiel.yaml", goal=20, horizon=7)
    rules = Rules(game, game.initial_state())
    tracemalloc.start()               # a plain search keeping every exact value: no pruning
    table = ExactTable(8_192)
    slots = tracemalloc.get_traced_memory()[0] / table.capacity
    searcher = _Expectimax(rules, 0, -1, 1, "off", None, None, table)
    searcher.run(game.initial_state(), None)
    used = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    entries = len(table)
    lines = (used - slots * table.capacity) / entries
    return (f"memory: expectimax table {slots + lines:.0f} bytes/entry ({slots:.0f} a slot, {lines:.0f} for "
            f"the lines an entry keeps; {entries:,} entries in {table.capacity:,} slots; bounded by tt_size= "
            "slots or --tt-mb, one slot per hash, the newest entry kept)")


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import pyspiel
    return (f"{os.cpu_count()} cores ({model}), {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}, pyspiel {getattr(pyspiel, '__version__', '?')}")


def verdict(work: str, ratio: float, target) -> str:
    """A row against its issue's target (bench_pyspiel.ISSUE_15 or ISSUE_28): 2x for perft
    and the kernel searchers of the tuned games (the course-interface search rows are shown
    for comparison only); 1x, stretch 2x, for the games issue 28 names; None: measured only
    (the other games of issue 28's table)."""
    if target is None:
        return "(measured; no target)"
    if target >= 2:
        if "perft" not in work and not work.endswith(" kernel"):
            return ""
        return "2× reached" if ratio >= target else "2× **not reached**"
    if ratio >= 2 * target:
        return "1× met, stretch 2× met"
    return "1× met (stretch 2×: not yet)" if ratio >= target else "1× **not met**"


def render(rows, lines, startup, command, load_before, load_after, cpu=False, history=()) -> str:
    """The measured section of docs/performance.md."""
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [BEGIN, "",
           f"Measured {when} by `{command}`, on {machine()}; load average "
           f"{load_before:.1f} before and {load_after:.1f} after (the cores are shared). "
           f"Ratio = pyspiel (or OpenSpiel's Python searcher) {'CPU ' if cpu else ''}time / "
           "plyspec time, best of the interleaved runs: above 1, plyspec is faster.", "",
           "| work | nodes (both sides) | plyspec vs pyspiel | target |", "|---|---|---|---|"]
    for work, nodes, ratio, target in rows:
        out.append(f"| {work.replace('|', '/')} | {nodes:,} | {ratio:.2f}× | {verdict(work, ratio, target)} |")
    out += ["", "Printed by the same run:", "", "```text"]
    out += [line for line in lines if line.strip()]
    out.append("```")
    if history:
        out += ["", *history]
    if startup:
        out += ["", "Start-up (benchmarks/bench_startup.py, whole processes, in the same run):", "",
                # `output`, not `text`: its lines name commands (tests/test_docs.py runs the
                # `plyspec ...` lines of text blocks)
                "```output", *[line for line in startup if line.strip()], "```"]
    else:
        out += ["", "Start-up: not measured (benchmarks/bench_startup.py needs ../shared/pddl/blocks)."]
    out += ["", END]
    return "\n".join(out)


def rewrite(section: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{DOC}: the markers {BEGIN!r} and {END!r} are missing")
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    DOC.write_text(head + section + tail, encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="runs per row; the best is kept (default 5)")
    ap.add_argument("--quick", action="store_true", help="smaller trees (a smoke test)")
    ap.add_argument("--cpu", action="store_true", help="time the rows in CPU time, not wall-clock")
    ap.add_argument("--no-write", action="store_true", help="print only; leave docs/performance.md alone")
    args = ap.parse_args(argv)
    from benchmarks import bench_pyspiel
    load_before = os.getloadavg()[0]
    pyspiel_args = ["--repeat", str(args.repeat)] + ["--quick"] * args.quick + ["--cpu"] * args.cpu
    printed = _captured(bench_pyspiel.main, pyspiel_args)
    rows = list(bench_pyspiel.ROWS)
    kept = [line for line in printed if not line.startswith(("work ", "python "))
            and not any(line.startswith(work) for work, *_ in rows)]
    kept.append(expectimax_table_memory())
    print(kept[-1])
    from benchmarks import bench_adversarial
    gc.collect()            # the rows above leave a large heap: the history search, which allocates per
    gc.freeze()             # node, would pay for collecting it (1.5x instead of 1.3x); a fresh process does not
    history = _captured(bench_adversarial.print_history_table, HISTORY_DEPTH - 2 * args.quick, args.repeat)
    startup = None
    if (ROOT.parent / "shared" / "pddl" / "blocks").is_dir():     # what bench_startup needs
        from benchmarks import bench_startup
        startup = _captured(bench_startup.main, ["--repeat", str(max(args.repeat, 9))])
    command = "nice python benchmarks/report.py" + (f" --repeat {args.repeat}" if args.repeat != 5 else "") \
        + (" --cpu" if args.cpu else "") + (" --quick" if args.quick else "")
    section = render(rows, kept, startup, command, load_before, os.getloadavg()[0], args.cpu, history)
    if not args.no_write:
        rewrite(section)
        print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
