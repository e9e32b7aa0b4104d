"""`plyspec plan`: text and JSON output, options, exit codes and error messages."""
from __future__ import annotations

import json

import pytest

import planners
from framework.cli import main
from tests.planning_support import require_pddl

MONKEY = str(planners.PROBLEMS_DIR / "monkey_bananas.yaml")
HANOI = str(planners.PROBLEMS_DIR / "hanoi.yaml")


def test_plan_prints_one_action_per_line_then_the_summary(capsys):
    assert main(["plan", MONKEY]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:4] == ["Move(A, C)", "PushBox(C, B)", "ClimbUp(B)", "TakeBananas(B)"]
    assert "length: 4" in out and "cost: 4" in out
    assert any(line.startswith("expanded: ") for line in out)
    assert any(line.startswith("validated: yes") for line in out)


def test_plan_json_has_the_contract_keys(capsys):
    assert main(["plan", HANOI, "--set", "disks=3", "--algo", "astar", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"plan", "length", "cost", "expanded", "valid", "time_s", "algorithm"} <= set(data)
    assert data["length"] == 7 and data["cost"] == 7 and data["valid"] is True
    assert data["algorithm"] == "astar" and data["heuristic"] == "hmax"
    assert data["options"] == {"disks": 3}


@pytest.mark.parametrize("algo", ["bfs", "dfs", "iddfs", "ucs", "astar", "gbfs"])
def test_every_algorithm_plans_ipc_pddl(algo, capsys):
    folder = require_pddl() / "blocks"
    argv = ["plan", str(folder / "domain.pddl"), str(folder / "task01.pddl"), "--algo", algo,
            "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] and data["plan"][0].startswith("(")


def test_budget_exhaustion_reports_no_plan(capsys):
    folder = require_pddl() / "gripper"
    argv = ["plan", str(folder / "domain.pddl"), str(folder / "task04.pddl"), "--nodes", "100",
            "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["plan"] == [] and not data["solved"] and data["reason"] == "node limit"


def test_time_covers_a_heuristics_set_up(monkeypatch, capsys):
    """--time bounds the whole run: a heuristic whose set-up outlasts it (a landmark graph
    of a large task, here a set-up that sleeps) is stopped at the deadline."""
    import time
    from planners.configurations import lama

    def slow_set_up(task):
        time.sleep(600)
    monkeypatch.setattr(lama, "evaluators", slow_set_up)
    folder = planners.PDDL_DIR / "gripper"
    started = time.perf_counter()
    assert main(["plan", str(folder / "domain.pddl"), str(folder / "task01.pddl"),
                 "--config", "lama-first", "--time", "1", "--json"]) == 0
    assert time.perf_counter() - started < 300       # stopped long before the 600 s set-up ends
    data = json.loads(capsys.readouterr().out)
    assert not data["solved"] and data["reason"] == "time limit (while preparing the heuristics)"


def test_a_search_out_of_time_reports_what_it_expanded(monkeypatch, capsys):
    """The search runs in what the set-up left of --time and stops at that deadline by its
    own budget, so the report is the search's ("time limit", states expanded), not the
    set-up's, even when ending the search takes a while (freeing a large search's memory:
    here a sleep; the alarm bounding the set-up fired again then and hid the result)."""
    import time
    from framework.search.problem import SearchRun
    from planners.configurations import lama
    real, real_no_plan = lama.evaluators, SearchRun.no_plan

    def slow_no_plan(run, **kw):
        result = real_no_plan(run, **kw)
        time.sleep(1.5)
        return result
    monkeypatch.setattr(SearchRun, "no_plan", slow_no_plan)

    def slow(task):
        time.sleep(0.5)
        evaluators = real(task)
        first = evaluators[0].evaluate

        def evaluate(state, parent=None):
            time.sleep(0.1)
            return first(state, parent)
        evaluators[0].evaluate = evaluate
        return evaluators
    monkeypatch.setattr(lama, "evaluators", slow)
    folder = planners.PDDL_DIR / "gripper"
    started = time.perf_counter()
    assert main(["plan", str(folder / "domain.pddl"), str(folder / "task03.pddl"),
                 "--config", "lama-first", "--time", "1.5", "--json"]) == 0
    spent = time.perf_counter() - started
    data = json.loads(capsys.readouterr().out)
    assert not data["solved"] and data["reason"] == "time limit", data
    assert data["expanded"] > 0 and spent < 120     # a hang guard, not a timing


def test_spec_errors_exit_1_with_a_position(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("predicates: [At(x)]\nactions: {}\ninit: [At(a)]\ngoal: [At(a)]\n")
    assert main(["plan", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:3:11: error: unknown object `a`")


def test_a_lone_pddl_file_is_a_usage_error(capsys):
    folder = require_pddl() / "blocks"
    assert main(["plan", str(folder / "domain.pddl")]) == 2                 # a usage error
    assert "DOMAIN.pddl PROBLEM.pddl" in capsys.readouterr().err


def test_emit_pddl_writes_domain_and_problem(tmp_path, capsys):
    assert main(["plan", MONKEY, "--emit-pddl", str(tmp_path)]) == 0
    assert main(["plan", str(tmp_path / "domain.pddl"), str(tmp_path / "problem.pddl"),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert data["length"] == 4


def test_progress_lines_go_to_stderr(capsys, monkeypatch):
    from framework.search.problem import SearchRun
    monkeypatch.setattr(SearchRun, "PROGRESS_EVERY", 0.0)
    folder = require_pddl() / "gripper"
    main(["plan", str(folder / "domain.pddl"), str(folder / "task02.pddl"), "--progress"])
    captured = capsys.readouterr()
    assert "[astar] expanded" in captured.err and "[astar]" not in captured.out


PUZZLE = """\
game: Reach seven
players: [solver]
state:
  n: {type: 0..10, initial: 0}
actions:
  add(k in 1..3):
    if: n + k <= 10
    then: n += k
goal: n == 7
"""


def test_plan_searches_one_player_game_specs(tmp_path, capsys):
    spec = tmp_path / "seven.yaml"
    spec.write_text(PUZZLE)
    assert main(["plan", str(spec), "--algo", "iddfs", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["length"] == 3 and data["valid"] and data["plan"][0].startswith("add(")


def test_plan_refuses_two_player_games(capsys):
    assert main(["plan", str(planners.PROBLEMS_DIR.parents[2] / "game_specs" / "nim.yaml")]) == 2
    assert "1-player" in capsys.readouterr().err


def test_shipped_pddl_samples_by_name_from_any_folder(capsys, monkeypatch, tmp_path):
    """`plan scanalyzer` (its first task) and `plan blocks/task02` from a folder outside the
    clone; a name a shipped problem has too stays that problem (`blocks` is blocks.yaml); a
    path that names nothing gets the game commands' hints."""
    monkeypatch.chdir(tmp_path)
    samples = planners.PDDL_DIR
    for name, files in (("scanalyzer", ["scanalyzer/domain.pddl", "scanalyzer/task01.pddl"]),
                        ("blocks/task02", ["blocks/domain.pddl", "blocks/task02.pddl"]),
                        ("blocks/task02.pddl", ["blocks/domain.pddl", "blocks/task02.pddl"])):
        assert main(["plan", name, "--json"]) == 0, name
        by_name = json.loads(capsys.readouterr().out)
        assert main(["plan", *[str(samples / f) for f in files], "--json"]) == 0
        by_path = json.loads(capsys.readouterr().out)
        assert by_name["solved"] and by_name["valid"] and by_name["plan"] == by_path["plan"], name
    assert main(["plan", "blocks", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["problem"] == planners.load("blocks").name
    assert main(["plan", "scanalyzr"]) == 1
    assert "cannot read scanalyzr" in (err := capsys.readouterr().err) and "did you mean `scanalyzer`?" in err
    assert main(["plan", "blocks/task99"]) == 1 and "did you mean `blocks/task0" in capsys.readouterr().err
    assert main(["plan", "nothing_here.yaml"]) == 1
    assert "a shipped PDDL sample (scanalyzer, scanalyzer/task01)" in capsys.readouterr().err
    assert main(["convert", "lamps/task01", "--to", "yaml"]) == 0
    assert capsys.readouterr().out.startswith("# converted by plyspec from lamps/task01")
