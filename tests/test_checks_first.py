"""Every check before any work: an output that cannot be written, a results file to resume
that is missing, `--resume` without `-o` are refused before a game is played or a node
searched (the work itself is replaced here by a function that fails the test if called)."""
import os

import pytest

import framework
from framework.cli import main, tournament_cmd


def _no_work(*args, **kwargs):
    raise AssertionError("the command started its work before checking its outputs")


def test_tournament_refuses_an_existing_csv_before_playing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(tournament_cmd, "executor", _no_work)
    csv = tmp_path / "c4.csv"
    csv.write_text("kept\n")
    journal = tmp_path / "run.jsonl"
    argv = ["tournament", "tictactoe", "--agent", "random", "--agent", "first", "--games", "2",
            "--csv", str(csv), "-o", str(journal), "--workers", "0"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"{csv} exists" in err and "--force" in err
    assert csv.read_text() == "kept\n" and not journal.exists()


def test_tournament_resume_checks_its_files_before_playing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(tournament_cmd, "executor", _no_work)
    base = ["tournament", "tictactoe", "--agent", "random", "--agent", "first", "--workers", "0"]
    assert main([*base, "--resume"]) == 2                                  # no -o to resume
    assert "give -o" in capsys.readouterr().err
    assert main([*base, "--resume", "-o", str(tmp_path / "none.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main([*base, "--csv", str(tmp_path / "no" / "such" / "t.csv")]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_tournament_resume_with_force_replaces_the_csv(tmp_path, capsys):
    csv, journal = tmp_path / "t.csv", tmp_path / "t.jsonl"
    base = ["tournament", "tictactoe", "--agent", "random", "--agent", "first", "--games", "2",
            "--workers", "0", "-o", str(journal), "--csv", str(csv)]
    assert main(base) == 0
    assert main([*base, "--resume"]) == 1 and "exists" in capsys.readouterr().err
    assert main([*base, "--resume", "--force"]) == 0
    assert csv.read_text().startswith("agent,opponent,games")


def test_book_refuses_an_existing_output_before_building(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("framework.search.book.OpeningBook.build", _no_work)
    out = tmp_path / "book.json"
    out.write_text("{}")
    assert main(["book", "tictactoe", "-o", str(out)]) == 1
    assert "exists" in capsys.readouterr().err and out.read_text() == "{}"


@pytest.mark.parametrize("argv", [
    ["solve", "tictactoe", "--tree", "{missing}/t.txt"],
    ["tree", "tictactoe", "-o", "{existing}"],
    ["tree", "tictactoe", "-o", "{link}"],
])
def test_solve_and_tree_check_their_output_before_loading(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(framework, "load", _no_work)
    existing = tmp_path / "t.svg"
    existing.write_text("<svg/>")
    os.symlink(tmp_path / "elsewhere.svg", tmp_path / "link.svg")
    paths = {"missing": tmp_path / "no" / "such", "existing": existing, "link": tmp_path / "link.svg"}
    assert main([a.format(**paths) for a in argv]) == 1
    err = capsys.readouterr().err
    assert any(word in err for word in ("exists", "does not exist", "symbolic link")), err


def test_perft_checks_the_golden_file_before_counting(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("framework.perft.perft", _no_work)
    golden = tmp_path / "bad.perft.json"
    golden.write_text("not json")
    assert main(["perft", "tictactoe", "-d", "3", "--write-golden", str(golden)]) == 1
    assert "not valid JSON" in capsys.readouterr().err


@pytest.mark.parametrize("script, argv", [
    ("bench_planning.py", ["--shared", "{empty}"]),
    ("bench_startup.py", ["--shared", "{empty}"]),
    ("bench_ipc.py", ["--benchmarks", "{empty}/pddl"]),
])
def test_a_benchmark_without_the_shared_ipc_tasks_says_so_and_exits_2(script, argv, tmp_path):
    import subprocess
    import sys
    from conftest import ROOT
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script),
                           *[a.format(empty=tmp_path) for a in argv]], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1 and "needs" in done.stderr
