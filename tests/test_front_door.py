"""Games and planning problems know each other: a game command given a planning problem,
or `plan` given a game, says what the file is and which command takes it (exit 2); `check`
checks both kinds."""
from __future__ import annotations

import pytest

from conftest import ROOT, SPECS
from framework.cli import main

PLANNING = [ROOT / "planners" / "data" / "problems" / "gripper.yaml", ROOT / "planners" / "data" / "problems" / "hanoi.plan",
            ROOT / "planners" / "data" / "pddl" / "blocks" / "domain.pddl"]


@pytest.mark.parametrize("command", ["solve", "perft", "play", "check-as-game"])
@pytest.mark.parametrize("path", PLANNING, ids=lambda p: p.name)
def test_a_game_command_points_a_planning_problem_to_plan(command, path, capsys):
    if command == "check-as-game":
        from framework import load
        from framework.errors import UsageError
        with pytest.raises(UsageError, match="planning problem"):
            load(path)
        return
    argv = [command, str(path)] + (["-d", "1"] if command == "perft" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "this is a planning problem" in err and "plyspec plan" in err and "Traceback" not in err


@pytest.mark.parametrize("spec", ["tictactoe.yaml", "pig.yaml", "connect_four.game"])
def test_plan_points_a_game_to_solve_and_play(spec, capsys):
    assert main(["plan", str(SPECS / spec)]) == 2
    err = capsys.readouterr().err
    assert "not a planning problem" in err and "plyspec solve" in err and "plyspec play" in err


def test_check_checks_games_and_planning_problems_alike(capsys, tmp_path):
    pddl = ROOT / "planners" / "data" / "pddl" / "blocks"
    argv = ["check", "tictactoe", str(PLANNING[0]), str(PLANNING[1]), str(pddl / "domain.pddl"),
            str(pddl / "task01.pddl")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.count(": ok: ") == 4 and "planning problem Gripper" in out and "blocks-4-0" in out
    broken = tmp_path / "broken.yaml"
    broken.write_text(PLANNING[0].read_text().replace("goal:", "gaol:", 1))
    assert main(["check", str(broken)]) == 1
    assert "broken.yaml:" in capsys.readouterr().err


def test_a_one_player_puzzle_is_still_planned(capsys):
    assert main(["plan", str(ROOT / "planners" / "data" / "problems" / "eight_puzzle.yaml"), "--time", "60"]) == 0
    assert "not a planning problem" not in capsys.readouterr().err


def test_commands_that_run_on_workers_take_a_shipped_spec_by_name(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)                       # from any folder
    assert main(["tournament", "tictactoe", "--agent", "random", "--agent", "first", "--games", "2",
                 "--workers", "0"]) == 0
    out = capsys.readouterr().out
    assert "random" in out and "…" not in out         # a piped table is not cut
    assert main(["perft", "tictactoe", "-d", "3", "--split", "1", "--workers", "0"]) == 0
    assert "504" in capsys.readouterr().out


def test_an_unknown_option_lists_the_options_with_their_defaults(capsys):
    assert main(["perft", "nim", "-d", "1", "--set", "heap=4"]) == 1
    err = capsys.readouterr().err
    assert "unknown option `heap`" in err and "did you mean `heaps`?" in err and "heaps=[3,4,5]" in err
    assert main(["perft", "tictactoe", "-d", "1", "--set", "q=4"]) == 1
    assert "options (with their defaults): m=3, n=3, k=3" in capsys.readouterr().err
