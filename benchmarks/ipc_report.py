"""docs/planning-benchmarks.md from the JSON-lines results of `benchmarks/bench_ipc.py`, one
section per suite of tasks (the 21 IPC domains; Fast Downward's benchmark collection):
coverage per domain, geometric-mean whole-process times over the tasks every planner
solves (and over those Fast Downward needs >= 1 s for), plan costs compared, the targets of
the planning issue checked, and every run listed.  `python benchmarks/bench_ipc.py
--report-only` rewrites it without running anything."""
from __future__ import annotations

import json
import math
from pathlib import Path

PLANNERS = ("plyspec", "pyperplan", "fd")
NAMES = {"plyspec": "plyspec", "pyperplan": "pyperplan 2.1", "fd": "Fast Downward",
         "lmcp": "plyspec lmcp"}
MODES = (("sat", "Satisficing"), ("opt", "Optimal: A* with LM-cut"))
SUITES = {
    "ipc21": ("The 21 IPC domains",
              "tasks 01–05 (satisficing) and 01–03 (optimal) of the 21 IPC domains of "
              "pyperplan's benchmark collection (not shipped in this repository; the IPC 2008 "
              "domains have their action costs removed there)"),
    "collection": ("Fast Downward's benchmark collection (held out)",
                   "Fast Downward's benchmark collection (github.com/aibasel/downward-benchmarks, "
                   "147 domain folders, not shipped here and not used while building the "
                   "planners): in each folder the problem files in name order, numbered from "
                   "01; which numbers ran is in the commands below"),
    "recheck": ("Fast Downward's collection: the tasks Fast Downward solved and plyspec did "
                "not, run again",
                "the tasks of the section above that Fast Downward solved and plyspec did not "
                "(`benchmarks/collection-gaps.txt`: 64 satisficing, 20 optimal), and a sample "
                "of tasks both solved, run again with later plyspec code (each run's code is "
                "named below; Fast Downward's rows are those of the section above, copied, not "
                "run again)"),
}


def load_rows(path: Path) -> list[dict]:
    """The rows of a results file (none when it does not exist; a line cut by Ctrl-C is
    dropped: a rerun runs that task again)."""
    rows = []
    for line in path.read_text().splitlines() if path.exists() else []:
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return rows


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(max(v, 1e-3)) for v in values) / len(values))


def good(row: dict | None) -> bool:
    return bool(row and row["solved"] and row["valid"])


class _Mode:
    """The rows of one mode, by (planner, domain, task)."""

    def __init__(self, rows: list[dict], planners: list[str]):
        self.rows = {(r["planner"], r["domain"], r["task"]): r for r in rows}
        self.tasks = sorted({(r["domain"], r["task"]) for r in rows})
        self.planners = planners

    def get(self, planner, task):
        return self.rows.get((planner, *task))

    def coverage(self, planner) -> tuple[int, int]:
        ran = [self.get(planner, t) for t in self.tasks if self.get(planner, t)]
        return sum(1 for r in ran if good(r)), len(ran)

    def common(self, keep=lambda task: True) -> list:
        """The tasks every planner solved with a valid plan (and `keep`)."""
        return [t for t in self.tasks if all(good(self.get(p, t)) for p in self.planners)
                and keep(t)]

    def means(self, tasks) -> dict:
        return {p: geomean([self.get(p, t)["wall_s"] for t in tasks]) for p in self.planners}


def _coverage_table(m: _Mode) -> list[str]:
    lines = ["| domain | " + " | ".join(NAMES[p] for p in m.planners) + " |",
             "|---" * (len(m.planners) + 1) + "|"]
    for domain in sorted({d for d, _ in m.tasks}):
        cells = []
        for p in m.planners:
            ran = [m.get(p, t) for t in m.tasks if t[0] == domain and m.get(p, t)]
            bad = sum(1 for r in ran if r["solved"] and not r["valid"])
            cells.append(f"{sum(1 for r in ran if good(r))}/{len(ran)}"
                         + (f" ({bad} INVALID)" if bad else ""))
        lines.append(f"| {domain} | " + " | ".join(cells) + " |")
    totals = [m.coverage(p) for p in m.planners]
    lines.append("| **total** | " + " | ".join(f"**{a}/{b}**" for a, b in totals) + " |")
    return lines


def _status_table(m: _Mode) -> list[str]:
    kinds = ("solved", "INVALID", "unsolved", "timeout", "memory", "error")
    lines = ["| planner | " + " | ".join(kinds) + " |", "|---" * (len(kinds) + 1) + "|"]
    for p in m.planners:
        ran = [m.get(p, t) for t in m.tasks if m.get(p, t)]
        counts = {k: 0 for k in kinds}
        for r in ran:
            counts["INVALID" if r["solved"] and not r["valid"] else r["status"]] += 1
        lines.append(f"| {NAMES[p]} | " + " | ".join(str(counts[k]) for k in kinds) + " |")
    return lines


def _time_line(m: _Mode, label: str, tasks: list) -> str:
    if not tasks:
        return f"- {label}: no such task"
    means = m.means(tasks)
    text = ", ".join(f"{NAMES[p]} {means[p]:.3g} s" for p in m.planners)
    ratios = "; ".join(f"plyspec / {NAMES[p]} **{means['plyspec'] / means[p]:.2f}×**"
                       for p in m.planners if p != "plyspec")
    return f"- {label} ({len(tasks)} tasks): {text}; {ratios}"


def _slow_tasks(m: _Mode) -> list:
    return m.common(lambda t: m.get("fd", t)["wall_s"] >= 1) if "fd" in m.planners else []


def _pair_ratio(m: _Mode, other: str, least: float = 0.0) -> tuple[float, int]:
    """plyspec's geometric-mean time over `other`'s on the tasks both solve (where `other`
    needs at least `least` seconds), and how many tasks that is."""
    tasks = [t for t in m.tasks if good(m.get("plyspec", t)) and good(m.get(other, t))
             and m.get(other, t)["wall_s"] >= least]
    if not tasks:
        return math.nan, 0
    return (geomean([m.get("plyspec", t)["wall_s"] for t in tasks])
            / geomean([m.get(other, t)["wall_s"] for t in tasks])), len(tasks)


def _pair_lines(m: _Mode) -> list[str]:
    out = []
    for other in m.planners[1:]:
        for least, label in ((0.0, "tasks both solve"), (1.0, f"tasks both solve that {NAMES[other]} needs ≥ 1 s for")):
            ratio, n = _pair_ratio(m, other, least)
            out.append(f"- plyspec / {NAMES[other]}, {label} ({n} tasks): "
                       + (f"**{ratio:.2f}×**" if n else "no such task"))
    return out


def _cost_lines(m: _Mode, optimal: bool) -> list[str]:
    lines, agree, compared = [], 0, 0
    for t in m.tasks:
        costs = {p: m.get(p, t)["cost"] for p in m.planners if good(m.get(p, t))}
        if len(costs) >= 2:
            compared += 1
            if len(set(costs.values())) == 1:
                agree += 1
            elif optimal:
                lines.append(f"  - **DIFFERENT** {t[0]}/{t[1]}: " + ", ".join(
                    f"{NAMES[p]} {c:g}" for p, c in costs.items()))
    if optimal:
        return [f"- optimal plan costs: on {agree} of the {compared} tasks solved by two or "
                "more planners every planner's cost is the same"
                + (":" if lines else " (no difference)")] + lines
    common = m.common()
    sums = {p: sum(m.get(p, t)["cost"] for t in common) for p in m.planners}
    return [f"- plan cost summed over the {len(common)} tasks every planner solves: "
            + ", ".join(f"{NAMES[p]} {sums[p]:g}" for p in m.planners)
            + f"; the same cost on {agree} of {compared} tasks solved by two or more"]


def _targets(modes: dict, suite: str) -> list[str]:
    """The benchmark targets of the planning issues (14, 29), checked on this run."""
    out = []
    sat, opt = modes.get("sat"), modes.get("opt")
    if sat and "fd" in sat.planners:
        (ours, ran), (fd, _) = sat.coverage("plyspec"), sat.coverage("fd")
        out.append(f"- satisficing coverage ≥ Fast Downward's: plyspec {ours}, Fast Downward {fd}"
                   f" (of {ran} tasks) — " + ("**met**" if ours >= fd else "**not met**")
                   + ("" if ran >= 105 or suite != "ipc21" else " so far (run incomplete)"))
    if opt and suite == "ipc21":
        ours, ran = opt.coverage("plyspec")
        out.append(f"- A* + LM-cut coverage ≥ 60/63: {ours}/{ran}"
                   + (" — **met**" if ours >= 60 else " — **not met**" if ran >= 63 else
                      " (run incomplete)"))
    if opt and "fd" in opt.planners:
        both = [t for t in opt.tasks if good(opt.get("plyspec", t)) and good(opt.get("fd", t))]
        differ = [t for t in both if opt.get("plyspec", t)["cost"] != opt.get("fd", t)["cost"]]
        (ours, ran), (fd, _) = opt.coverage("plyspec"), opt.coverage("fd")
        out.append(f"- optimal: plyspec solved {ours}, Fast Downward {fd} (of {ran} tasks); "
                   f"costs equal to Fast Downward's on {len(both) - len(differ)} of the "
                   f"{len(both)} both solve — " + ("**met**" if not differ else "**not met**"))
    for key, m in modes.items():
        ratio, n = _pair_ratio(m, "fd", 1.0) if "fd" in m.planners else (math.nan, 0)
        if n:
            out.append(f"- {key}: geometric-mean time within 2× of Fast Downward's on the tasks "
                       f"both solve that Fast Downward needs ≥ 1 s for: {ratio:.2f}× over {n} "
                       "tasks — " + ("**met**" if ratio <= 2 else "**not met**"))
    return out


def _task_table(m: _Mode) -> list[str]:
    lines = ["| task | " + " | ".join(f"{NAMES[p]} s / cost" for p in m.planners) + " |",
             "|---" * (len(m.planners) + 1) + "|"]
    for t in m.tasks:
        cells = []
        for p in m.planners:
            r = m.get(p, t)
            cells.append("–" if r is None else f"{r['wall_s']:.2f} / {r['cost']:g}" if good(r)
                         else f"{r['status']} ({r['wall_s']:.0f} s)")
        lines.append(f"| {t[0]}/{t[1].removesuffix('.pddl')} | " + " | ".join(cells) + " |")
    return lines


def heuristics_section(suite: str, lmcp_rows: list[dict], lmcut_rows: list[dict]) -> list[str]:
    """Optimal coverage and times with both admissible heuristics beside Fast Downward's:
    `lmcp_rows` (plyspec `--heuristic lmcp`, shown as "plyspec lmcp") and `lmcut_rows`
    (plyspec with LM-cut, shown as "plyspec", and Fast Downward), on the tasks of
    `lmcp_rows`."""
    tasks = {(r["domain"], r["task"]) for r in lmcp_rows if r["mode"] == "opt"}
    rows = [{**r, "planner": "lmcp"} for r in lmcp_rows if r["mode"] == "opt"]
    rows += [r for r in lmcut_rows if r["mode"] == "opt" and (r["domain"], r["task"]) in tasks
             and r["planner"] in ("plyspec", "fd")]
    planners = [p for p in ("plyspec", "lmcp", "fd") if any(r["planner"] == p for r in rows)]
    m = _Mode(rows, planners)
    configs = "; ".join(f"{NAMES[p]} `{c}` ({t:g} s, run {run})" for p, c, t, run in sorted(
        {(r["planner"], r["config"], r["time_limit"], r.get("run", "?")) for r in rows}))
    loads = [r.get("load", 0) for r in rows] or [0]
    out = [f"### Optimal with either admissible heuristic: {SUITES[suite][0]}", "",
           "plyspec's A* with LM-cut (\"plyspec\") and with the landmark heuristic under uniform "
           "cost partitioning (\"plyspec lmcp\", `--heuristic lmcp`, docs/planning.md) beside "
           f"Fast Downward's A* with LM-cut. Configurations: {configs}. Load average "
           f"{min(loads):.1f}–{max(loads):.1f}; these runs: "
           + "; ".join(f"`{c}`" for c in sorted({r.get("command", "?") for r in rows})), "",
           "Coverage (validated plans / tasks run):", ""]
    coverage = _coverage_table(m)
    out += coverage if suite == "ipc21" else coverage[:2] + coverage[-1:] + [
        "", "<details><summary>Per domain</summary>", ""] + coverage + ["", "</details>"]
    out += ["", "Outcomes:", ""] + _status_table(m) + [
            "", "Whole-process time, geometric mean:", "",
            _time_line(m, "tasks every planner solves", m.common()),
            _time_line(m, "of those, tasks Fast Downward needs ≥ 1 s for", _slow_tasks(m)),
            "", "Plan costs:", ""] + _cost_lines(m, True)
    out += ["", "<details><summary>Every task</summary>", ""] + _task_table(m) + \
        ["", "</details>", ""]
    return out


def write_report(suites: dict, path: Path, heuristics: dict | None = None, tail: str = "") -> None:
    """The report of the results of each suite (key of SUITES -> its rows), and for the
    suites in `heuristics` (key -> (lmcp rows, LM-cut and Fast Downward rows)) the
    optimal runs with either admissible heuristic (`heuristics_section`); then `tail`
    (sweep_report.tail: the hand-written notes with the sweep section)."""
    out = ["# Planning benchmarks: plyspec, pyperplan 2.1 and Fast Downward", "",
           "Generated by `python benchmarks/bench_ipc.py --report-only` from the committed "
           "results files alone (no planning run): `benchmarks/ipc-results.jsonl` for the 21 "
           "IPC domains, `benchmarks/collection-results.jsonl` for Fast Downward's benchmark "
           "collection, `benchmarks/collection-recheck.jsonl` for the re-run of its gaps, "
           "`benchmarks/opt-lmcp-*.jsonl` and `benchmarks/opt-lmcut-ipc21.jsonl` for the two "
           "admissible heuristics, and the files listed in `benchmarks/collection-sweep.txt` "
           "for the last section's sweep; the hand-written sections come verbatim from "
           "`docs/notes/planning-benchmarks.md`.  Do not edit this file by hand: edit that one, "
           "or add rows, and run the command again (tests/test_docs.py checks this file is what "
           "it writes).  A new sweep of tasks 02–05 of the collection, its rows listed last "
           "(they win) and this file rewritten, is one command: `python benchmarks/bench_ipc.py "
           "--suite collection --benchmarks DIR --planners plyspec,fd --modes sat --sat-tasks 2-5 "
           "--time 30 --plyspec-sat '--config lama-first' --sweep -o "
           "benchmarks/collection-sat-2-5-RUN.jsonl` "
           "(with `--report-only` it only lists the file and rewrites this one).", "",
           "Each planner runs as a "
           "whole process (start-up, parsing, grounding, search, writing the plan), one process "
           "at a time, timed by the wall clock under the same time and memory limit; plyspec's "
           "modules are byte-compiled beforehand, as `pip install` does.  Every plan of every "
           "planner is replayed by plyspec's lifted validator (`planners/lifted/validate.py`): a "
           "task counts as solved only with a valid plan.", ""]
    for suite, rows in suites.items():
        if rows:
            out += _suite_section(suite, rows)
        lmcp_rows, lmcut_rows = (heuristics or {}).get(suite, ([], []))
        if lmcp_rows:
            out += heuristics_section(suite, lmcp_rows, lmcut_rows)
    text = "\n".join(out)
    path.write_text(text + ("\n" + tail if tail else ""), encoding="utf-8")


def _suite_section(suite: str, all_rows: list[dict]) -> list[str]:
    title, tasks = SUITES[suite]
    planners = [p for p in PLANNERS if any(r["planner"] == p for r in all_rows)]
    modes = {key: _Mode([r for r in all_rows if r["mode"] == key], planners)
             for key, _ in MODES if any(r["mode"] == key for r in all_rows)}
    loads = [r.get("load", 0) for r in all_rows] or [0]
    owners = {(r.get("run", "?"), r["planner"]) for r in all_rows}
    out = [f"## {title}", "",
           "- runs (the code of each, and whose rows it holds): " + "; ".join(
               f"{run} ({', '.join(NAMES[p] for p in planners if (run, p) in owners)})"
               for run in sorted({r.get("run", "?") for r in all_rows})),
           f"- machine: {all_rows[0]['machine']}; load average "
           f"{min(loads):.1f}–{max(loads):.1f} during the run (other work shared the machine: "
           "the ratios between planners, each task run by them in turn, are more telling "
           "than the seconds)",
           "- limits: " + ", ".join(f"{t:g} s" for t in sorted({r["time_limit"] for r in all_rows}))
           + " per task, " + ", ".join(f"{m} MB" for m in sorted({r.get("memory_mb") or 0 for r in all_rows}))
           + " of address space per process (0: none)",
           f"- tasks: {tasks}",
           "- reproduce: `python benchmarks/bench_ipc.py --benchmarks DIR` with DIR the folder of "
           "the domain folders (a rerun skips the tasks already in the results file; delete it, "
           "or give `-o`, to start afresh); these runs: "
           + "; ".join(f"`{c}`" for c in sorted({r.get("command", "?") for r in all_rows})),
           "", "### Targets of the planning issues", ""]
    out += _targets(modes, suite) + [""]
    for key, mode_title in MODES:
        if key not in modes:
            continue
        m = modes[key]
        configs = "; ".join(f"{NAMES[p]} `{c}`" for p, c in sorted(
            {(r["planner"], r["config"]) for r in m.rows.values()}))
        out += [f"### {mode_title}", "", f"Configurations: {configs}.", "",
                "Coverage (validated plans / tasks run):", ""]
        coverage = _coverage_table(m)
        if suite == "ipc21":
            out += coverage
        else:
            out += coverage[:2] + coverage[-1:] + ["", "<details><summary>Per domain</summary>", ""] + \
                coverage + ["", "</details>"]
        out += ["", "Outcomes:", ""] + _status_table(m) + [""]
        out += ["Whole-process time, geometric mean:", "",
                _time_line(m, "tasks every planner solves", m.common()),
                _time_line(m, "of those, tasks Fast Downward needs ≥ 1 s for", _slow_tasks(m))]
        out += ["", "Whole-process time, plyspec against each planner on the tasks both solve "
                "(geometric means):", ""] + _pair_lines(m) + ["", "Plan costs:", ""]
        out += _cost_lines(m, key == "opt")
        failures = [r for r in m.rows.values() if r["status"] in ("error", "memory")
                    or (r["solved"] and not r["valid"])]
        if failures:
            out += ["", "Errors, memory-outs and invalid plans:", ""]
            out += [f"- {NAMES[r['planner']]} {r['domain']}/{r['task']}: {r['status']}"
                    + (" INVALID " + r.get("message", "") if r["solved"] else
                       " " + " ".join(r.get("stderr", []))[:160]) for r in failures]
        out += ["", "<details><summary>Every task</summary>", ""] + _task_table(m) + \
            ["", "</details>", ""]
    return out
