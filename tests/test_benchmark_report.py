"""docs/planning-benchmarks.md is what `python benchmarks/bench_ipc.py --report-only` writes
from the committed results files and notes (no planning run), and the sweep section's merge
rule: the last listed file's row of a task wins, over the first file's tasks."""
from __future__ import annotations

import pytest

from conftest import ROOT

DOC = ROOT / "docs" / "planning-benchmarks.md"


@pytest.fixture
def bench(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    import bench_ipc
    return bench_ipc


def test_the_committed_report_is_what_report_only_writes_from_the_committed_rows(bench, tmp_path):
    out = tmp_path / "report.md"
    assert bench.main(["--report-only", "--report", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == DOC.read_text(encoding="utf-8"), \
        "run `python benchmarks/bench_ipc.py --report-only` and commit docs/planning-benchmarks.md"


def test_the_hand_written_notes_are_in_the_report_verbatim_around_the_sweep(bench):
    import sweep_report
    notes = sweep_report.NOTES.read_text(encoding="utf-8")
    before, after = notes.split(sweep_report.MARKER)
    doc = DOC.read_text(encoding="utf-8")
    assert before in doc and after in doc and sweep_report.MARKER not in doc
    assert doc.index(before) < doc.index("## Fast Downward's collection, tasks 02-05: the newest rows") \
        < doc.index(after)


def row(planner, task, solved, run, domain="d"):
    return {"planner": planner, "mode": "sat", "domain": domain, "task": task, "solved": solved,
            "valid": solved, "cost": 1 if solved else None, "wall_s": 1.0, "config": "c",
            "status": "solved" if solved else "timeout", "time_limit": 30.0, "memory_mb": 4096,
            "run": run, "load": 1.0, "command": f"cmd {run}", "machine": "m"}


def test_the_last_file_holding_a_task_wins_over_the_first_files_tasks(bench):
    import sweep_report
    old = [row("plyspec", "t1", False, "a"), row("plyspec", "t2", True, "a"),
           row("fd", "t1", True, "a"), row("fd", "t2", True, "a")]
    new = [row("plyspec", "t1", True, "b"), row("plyspec", "t2", False, "b"),
           row("plyspec", "t9", True, "b")]                         # not a task of the first file
    kept, left_out = sweep_report.merge([("old", old), ("new", new)])
    assert left_out == 1 and len(kept) == 4
    assert [kept["plyspec", "d", t][1]["run"] for t in ("t1", "t2")] == ["b", "b"]
    assert kept["fd", "d", "t1"][0] == "old"
    text = "\n".join(sweep_report.sweep_section([("old", old), ("new", new)]))
    assert "| solved, plan validated (of 2) | **1** | **2** |" in text
    assert "| solved by the first file's rows alone (old) | 1 | 2 |" in text
    assert "- Fast Downward only (1): d/t2" in text and "(1 rows of other tasks left out)" in text
    assert "| `new` | b | plyspec | 2 | 1 | 1 |" in text and "- b: `cmd b`" in text


def test_a_results_file_of_its_own_never_replaces_the_whole_report(bench, tmp_path, capsys):
    other = tmp_path / "mine.jsonl"
    other.write_text("\n".join(__import__("json").dumps(r) for r in
                               [row("plyspec", "t1", True, "x")]) + "\n")
    before = DOC.read_text(encoding="utf-8")
    assert bench.main(["--report-only", "-o", str(other)]) == 0
    assert "## The 21 IPC domains" in (tmp_path / "mine.md").read_text(encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        bench.main(["--report-only", "-o", str(other), "--report", str(DOC)])
    assert stop.value.code == 2 and "would replace" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        bench.main(["--report-only", "--sweep", "-o", str(other)])
    assert stop.value.code == 2 and "inside the clone" in capsys.readouterr().err
    assert DOC.read_text(encoding="utf-8") == before


def test_a_new_sweep_is_listed_last_and_its_rows_win(tmp_path):
    """`--report-only --sweep -o FILE` (the one command after a new sweep), in a scratch copy
    of the clone's benchmarks/ and docs/: FILE is listed last in the manifest, its row of a
    task replaces the row that won before (a solved task of the newest file, now a timeout),
    and the report before the sweep section is unchanged."""
    import json
    import re
    import shutil
    import subprocess
    import sys
    import sweep_report
    clone = tmp_path / "clone"
    shutil.copytree(ROOT / "benchmarks", clone / "benchmarks", ignore=shutil.ignore_patterns("__pycache__", "specs"))
    shutil.copytree(ROOT / "docs", clone / "docs", ignore=shutil.ignore_patterns("*.png"))
    last = sweep_report.sweep_files()[-1]
    winner = next(r for r in sweep_report.load_rows(ROOT / last)
                  if r["planner"] == "plyspec" and r["mode"] == "sat" and r["solved"] and r["valid"])
    redone = {**winner, "solved": False, "status": "timeout", "run": "new run", "command": "new command"}
    (clone / "benchmarks" / "new.jsonl").write_text(json.dumps(redone) + "\n")
    done = subprocess.run([sys.executable, str(clone / "benchmarks" / "bench_ipc.py"), "--report-only", "--sweep",
                           "-o", str(clone / "benchmarks" / "new.jsonl")], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert (clone / "benchmarks" / "collection-sweep.txt").read_text().splitlines()[-1] == "benchmarks/new.jsonl"
    old, new = DOC.read_text(encoding="utf-8"), (clone / "docs" / "planning-benchmarks.md").read_text(encoding="utf-8")
    cut = "## Fast Downward's collection, tasks 02-05: the newest rows"
    assert new.split(cut)[0] == old.split(cut)[0]
    old, new = old.split(cut)[1], new.split(cut)[1]
    solved = r"\| solved, plan validated \(of (\d+)\) \| \*\*(\d+)\*\* \| \*\*(\d+)\*\* \|"
    tasks, ours, fd = map(int, re.search(solved, old).groups())
    assert re.search(solved, new).groups() == (str(tasks), str(ours - 1), str(fd))
    mine = rf"\| `{last}` \| {winner['run']} \| plyspec \| (\d+) \| (\d+) \|"
    kept, good = map(int, re.search(mine, old).groups())
    assert re.search(mine, new).groups() == (str(kept - 1), str(good - 1))
    assert "| `benchmarks/new.jsonl` | new run | plyspec | 1 | 0 | " in new and "- new run: `new command`" in new


def test_a_listed_results_file_that_is_missing_special_outside_or_cut_is_refused(bench, tmp_path):
    import os
    import sweep_report
    (tmp_path / "benchmarks").mkdir()
    os.mkfifo(tmp_path / "benchmarks" / "fifo.jsonl")
    (tmp_path / "benchmarks" / "cut.jsonl").write_text('{"planner": "plyspec"}\n{"planner": "pl\n')
    (tmp_path / "outside.jsonl").write_text("")
    manifest, notes = tmp_path / "benchmarks" / "sweep.txt", tmp_path / "notes.md"
    notes.write_text("notes\n")
    for name in ("benchmarks/nope.jsonl", "benchmarks/fifo.jsonl", "../outside.jsonl",
                 "benchmarks/cut.jsonl"):
        manifest.write_text(f"# files\n{name}\n")
        with pytest.raises(SystemExit, match=name.split("/")[-1]):
            sweep_report.tail(tmp_path / "benchmarks", manifest, notes)
