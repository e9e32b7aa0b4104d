"""benchmarks/report.py, the one command that re-measures docs/performance.md: each row is
judged against its own issue's target (2x on the tuned games of issue 15; 1x, stretch 2x,
on the games issue 28 names), and the history-rule table lands in the measured section.
No benchmark runs here (pyspiel is an optional extra): the rendering alone."""
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.fixture()
def report(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    from benchmarks import report as module
    monkeypatch.setattr(module, "machine", lambda: "a test machine")
    return module


def test_each_row_is_judged_against_its_own_issues_target(report):
    from benchmarks.bench_pyspiel import ISSUE_15, ISSUE_28, NAMED, STRANGERS
    assert NAMED <= {row[0] for row in STRANGERS}          # each named game has its row
    rows = [("tic-tac-toe perft(9) `plyspec perft`", 549_945, 3.02, ISSUE_15),
            ("Othello perft(7) course interface", 65_004, 1.74, ISSUE_15),
            ("alpha-beta tic-tac-toe (value 0/0.0) course", 18_297, 1.27, ISSUE_15),
            ("Kalah perft(8) `plyspec perft`", 706_576, 1.21, ISSUE_28),
            ("Y n=4 perft(6) `plyspec perft`", 187_300, 2.05, ISSUE_28),
            ("Go 5x5 perft(4) `plyspec perft`", 377_368, 0.10, ISSUE_28),
            ("Oware perft(7) `plyspec perft`", 172_954, 0.70, None)]
    section = report.render(rows, ["peak RSS 1 MB"], None, "report.py", 1.0, 1.0, True,
                            ["| search | nodes |", "repetition draw 3 ...: 1.40x"])
    lines = {line.split(" |")[0][2:]: line for line in section.splitlines() if line.startswith("| ")}
    assert lines["tic-tac-toe perft(9) `plyspec perft`"].endswith("| 3.02× | 2× reached |")
    assert lines["Othello perft(7) course interface"].endswith("| 1.74× | 2× **not reached** |")
    assert lines["alpha-beta tic-tac-toe (value 0/0.0) course"].endswith("| 1.27× |  |")
    assert lines["Kalah perft(8) `plyspec perft`"].endswith("| 1.21× | 1× met (stretch 2×: not yet) |")
    assert lines["Y n=4 perft(6) `plyspec perft`"].endswith("| 2.05× | 1× met, stretch 2× met |")
    assert lines["Go 5x5 perft(4) `plyspec perft`"].endswith("| 0.10× | 1× **not met** |")
    assert lines["Oware perft(7) `plyspec perft`"].endswith("| 0.70× | (measured; no target) |")
    assert "repetition draw 3 ...: 1.40x" in section and "peak RSS 1 MB" in section
    assert section.startswith(report.BEGIN) and section.endswith(report.END)


def test_the_committed_doc_has_the_markers_the_report_rewrites(report):
    text = report.DOC.read_text(encoding="utf-8")
    assert text.count(report.BEGIN) == 1 and text.count(report.END) == 1
    assert text.index(report.BEGIN) < text.index(report.END)
