"""The execution layer (framework.parallel) and the commands on it: the same seeded answers
for any number of workers and on Ray, a dying / slow / memory-hungry task reported as that
task's failure, streamed results that resume, Ctrl-C that keeps the partial table."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, SPECS
import planners
from framework import load
from framework.cli import main
from framework.parallel import Failure, InProcess, make_executor
from framework.parallel.tournament import elo_difference, elo_ratings, interval


# task functions for the pool tests (workers import them as "test_parallel:NAME")
def square(x):
    return x * x


def die(code):
    os.kill(os.getpid(), signal.SIGKILL)


def sleep(seconds):
    time.sleep(seconds)
    return seconds


def hog(megabytes):
    return len(bytearray(megabytes * 1024 * 1024))


def fail(message):
    raise ValueError(message)


def _json_of(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def _without_times(value):
    if isinstance(value, dict):
        return {k: _without_times(v) for k, v in value.items() if k not in ("seconds_per_move", "time_s")}
    if isinstance(value, list):
        return [_without_times(v) for v in value]
    return value


def test_local_pool_reports_each_failure_as_that_tasks_and_goes_on():
    with make_executor(2, memory_mb=300) as pool:
        got = dict(pool.run("test_parallel:square", [(i, (i,)) for i in range(6)]))
        assert got == {i: i * i for i in range(6)}
        got = dict(pool.run("test_parallel:die", [("a", (0,))]))
        assert got["a"].kind == "died" and "SIGKILL" in got["a"].message
        got = dict(pool.run("test_parallel:sleep", [("slow", (300,)), ("quick", (0.01,))], timeout=5.0))
        assert got["slow"].kind == "timeout" and got["quick"] == 0.01
        got = dict(pool.run("test_parallel:hog", [("big", (2000,)), ("small", (1,))]))
        assert got["big"].kind == "memory" and got["small"] == 1024 * 1024
        got = dict(pool.run("test_parallel:fail", [("e", ("no",))]))
        assert got["e"] == Failure("error", "ValueError: no", got["e"].details)
        assert dict(pool.run("test_parallel:square", [(9, (9,))])) == {9: 81}   # workers replaced


def test_in_process_executor_matches():
    assert dict(InProcess().run("test_parallel:square", [(2, (2,))])) == {2: 4}


def test_tournament_is_the_same_for_any_number_of_workers(capsys):
    argv = ["tournament", str(SPECS / "tictactoe.yaml"), "--agent", "random", "--agent", "first",
            "--agent", "alphabeta:depth=1", "--games", "4", "--seed", "3", "--json"]
    runs = [_without_times(_json_of(capsys, argv + ["--workers", str(w)])) for w in (0, 1, 2)]
    assert runs[0] == runs[1] == runs[2]
    assert runs[0]["games_finished"] == 12 and not runs[0]["failures"]
    pairs = {(p["agent"], p["opponent"]): p for p in runs[0]["pairs"]}
    assert all(p["games"] == 4 and p["wins"] + p["draws"] + p["losses"] == 4 for p in pairs.values())


def test_match_is_the_same_in_process_and_on_workers(capsys):
    argv = ["match", str(SPECS / "pig.yaml"), "--agent", "expectimax:depth=1", "--agent", "random",
            "--games", "4", "--seed", "5", "--json", "--quiet"]
    assert _without_times(_json_of(capsys, argv + ["--workers", "0"])) == \
        _without_times(_json_of(capsys, argv + ["--workers", "2"]))


def test_perft_split_equals_the_sequential_count(capsys):
    argv = ["perft", str(SPECS / "connect_four.yaml"), "--set", "width=5", "--set", "height=4",
            "-d", "6", "--json"]
    plain = _json_of(capsys, argv)["counts"]
    assert _json_of(capsys, argv + ["--split", "2", "--workers", "2"])["counts"] == plain
    assert _json_of(capsys, argv + ["--workers", "0"])["counts"] == plain     # split chosen by itself


def test_solve_split_over_root_moves_gives_the_solved_value(capsys):
    out = _json_of(capsys, ["solve", str(SPECS / "tictactoe.yaml"), "--workers", "2", "--json"])
    assert out["value"] == 0 and set(out["root_moves"].values()) == {0} and len(out["pv"]) == 9
    stats = out["stats"]                      # the workers' statistics summed, not zeros
    assert out["values"] == [0, 0] and stats["nodes"] == out["nodes"] > 4084
    assert stats["expanded"] > 0 and stats["cutoffs"] > 0 and stats["evaluations"] > 0 and stats["depth"] == 9
    nim = ["solve", str(SPECS / "nim.yaml"), "--set", "heaps=[1,2,3]", "--json"]
    assert _json_of(capsys, nim + ["--workers", "2"])["value"] == _json_of(capsys, nim)["value"]


def test_alphabeta_split_shares_the_first_moves_value_as_a_bound(capsys):
    from framework.parallel.tasks import solve_move, spec_payload
    argv = ["solve", str(SPECS / "connect_four.yaml"), "--set", "width=4", "--set", "height=4",
            "--algo", "alphabeta", "--json"]
    plain = _json_of(capsys, argv)
    one, two = (_json_of(capsys, argv + ["--workers", str(n)]) for n in (1, 2))
    for key in ("value", "best_action", "root_moves", "root_upper_bounds"):
        assert one[key] == two[key]
    assert one["value"] == plain["value"] and one["stats"]["nodes"] == two["stats"]["nodes"]
    assert one["root_upper_bounds"]            # the bound cut some root moves short
    game = load(SPECS / "connect_four.yaml", width=4, height=4)
    payload = spec_payload(SPECS / "connect_four.yaml")
    full = [solve_move(payload, game.options, move, "alphabeta", {}) for move in one["root_moves"]]
    assert one["stats"]["nodes"] < 1 + sum(r["nodes"] for r in full)
    for r in full:                              # exact values above the bound, upper bounds below it
        shown = one["root_moves"][r["move"]]
        assert shown >= r["value"] if r["move"] in one["root_upper_bounds"] else shown == r["value"]


def test_conformance_over_workers_reports_the_same_as_one_worker(capsys):
    argv = ["test", str(SPECS / "nim.yaml"), str(SPECS / "tictactoe.game"), str(SPECS / "pig.yaml"),
            "--examples", "10", "--json"]
    one = _json_of(capsys, argv + ["--workers", "1"])
    assert one == _json_of(capsys, argv + ["--workers", "2"])
    assert [s["spec"] for s in one["specs"]] == argv[1:4] and one["ok"]


def test_results_stream_to_a_file_and_an_interrupted_run_resumes(tmp_path, capsys):
    out = tmp_path / "t.jsonl"
    argv = ["tournament", str(SPECS / "nim.yaml"), "--agent", "random", "--agent", "first",
            "--games", "6", "--json", "--workers", "0", "-o", str(out)]
    full = _without_times(_json_of(capsys, argv))
    lines = out.read_text().splitlines()
    assert len(lines) == 1 + 6 and json.loads(lines[0])["header"]["games"] == 6
    out.write_text("\n".join(lines[:4]) + "\n" + lines[4][:10])          # cut off mid-line
    assert main(argv) == 1 and "exists" in capsys.readouterr().err       # no silent overwrite
    assert _without_times(_json_of(capsys, argv + ["--resume"])) == full
    assert len(out.read_text().splitlines()) == 7
    other = [a if a != "6" else "7" for a in argv]
    assert main(other + ["--resume"]) == 1 and "different run" in capsys.readouterr().err
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "elsewhere")
    assert main(argv[:-1] + [str(link), "--force"]) == 1 and "symbolic link" in capsys.readouterr().err


def test_ctrl_c_stops_the_workers_and_prints_the_partial_table(tmp_path):
    out = tmp_path / "t.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "framework", "tournament", "game_specs/connect_four.yaml",
                                "--agent", "alphabeta:depth=4", "--agent", "mcts:iterations=300",
                                "--games", "40", "--workers", "2", "-o", str(out), "--json"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 2):
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=300)    # a hang guard: the exit status says how it ended
    assert process.returncode == 130, stderr
    summary = json.loads(stdout)
    assert summary["interrupted"] and 1 <= summary["games_finished"] < 80
    assert "Traceback" not in stderr
    assert len(out.read_text().splitlines()) == 1 + summary["games_finished"]


def test_ray_gives_the_same_tournament(capsys):
    pytest.importorskip("ray", reason="Ray is part of the test extra; install plyspec[test]")
    argv = ["tournament", str(SPECS / "tictactoe.yaml"), "--agent", "random", "--agent", "first",
            "--games", "3", "--seed", "1", "--json"]
    assert _without_times(_json_of(capsys, argv + ["--ray", "--workers", "2"])) == \
        _without_times(_json_of(capsys, argv + ["--workers", "0"]))


def test_statistics():
    assert interval([1.0, 0.0, 0.5, 0.5])[0] == 0.5
    mean, low, high = interval([1.0] * 10 + [0.0] * 10)
    assert mean == 0.5 and 0.26 < low < 0.28 and 0.72 < high < 0.74
    assert elo_difference(0.5) == 0 and round(elo_difference(0.75)) == 191
    equal = elo_ratings(2, [(0, 1, 5.0, 10)])
    assert abs(equal[0] - equal[1]) < 1e-6 and abs(sum(equal) / 2 - 1500) < 1e-6
    strong = elo_ratings(3, [(0, 1, 9.0, 10), (1, 2, 9.0, 10), (0, 2, 10.0, 10)])
    assert strong[0] > strong[1] > strong[2]


def test_a_planning_sweep_is_the_same_on_any_number_of_workers(capsys):
    folder = planners.PDDL_DIR.resolve() / "gripper"   # the shipped sample
    argv = ["plan", str(folder / "domain.pddl"), *(str(folder / f"task0{i}.pddl") for i in (1, 2, 3)),
            "--algo", "gbfs", "--json"]

    def run(workers):
        assert main(argv + ["--workers", workers]) == 0
        out = json.loads(capsys.readouterr().out)
        return [{k: r[k] for k in ("task", "status", "length", "cost")} for r in out["tasks"]], out["solved"]
    one, two = run("0"), run("2")
    assert one == two and one[1] == 3


def _children(pid) -> set:
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.add(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


def _gone(pids, seconds=15) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(os.path.exists(f"/proc/{p}") and "Z" not in open(f"/proc/{p}/stat").read().rsplit(")", 1)[1][:3]
                   for p in pids):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs Linux /proc to find the worker processes")
@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGKILL, -9)])
def test_workers_stop_when_the_parent_is_terminated_or_killed(sig, code):
    process = subprocess.Popen([sys.executable, "-m", "framework", "perft", "game_specs/connect_four.yaml",
                                "-d", "12", "--split", "2", "--workers", "2"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 600
    workers = set()
    while time.monotonic() < deadline and len(workers) < 2:     # both workers started
        time.sleep(0.2)
        workers = {p for p in _children(process.pid)
                   if "multiprocessing" in open(f"/proc/{p}/cmdline").read()}
    assert len(workers) >= 2, "the workers did not start"
    time.sleep(1.0)                                             # tasks are running
    process.send_signal(sig)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == code, stderr
    assert _gone(workers), "a worker outlived its parent"
    if sig == signal.SIGTERM:
        assert "Traceback" not in stderr and "terminated" in stderr


def test_a_sweep_over_a_suite_folder_plans_every_domain_folder_in_it(tmp_path, capsys):
    import shutil
    sample = ROOT / "planners" / "data" / "pddl" / "either-transport"
    for name in ("a", "b"):
        shutil.copytree(sample, tmp_path / "suite" / name)
    assert main(["plan", str(tmp_path / "suite"), "--workers", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    tasks = [Path(r["task"]) for r in out["tasks"]]
    assert out["solved"] == out["total"] == 2 * len(list(sample.glob("task*.pddl"))) > 0
    assert {t.parent.name for t in tasks} == {"a", "b"}
