"""Shipped specs by name, from any folder (the zoo is package data), and `plyspec list`."""
import json

import framework
from framework.cli import main


def test_a_shipped_game_loads_by_name_from_another_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert framework.load("tictactoe").name == "Tic-tac-toe"
    assert framework.load("connect_four.game").name == "Connect Four"
    import planners
    assert planners.load("gripper").name


def test_commands_take_names_and_suggest_close_ones(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["perft", "nim", "-d", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"] == [12, 113]
    assert main(["solve", "tictactoo"]) == 1
    assert "did you mean `tictactoe`?" in capsys.readouterr().err


def test_list_shows_every_shipped_spec_with_what_is_known(capsys):
    assert main(["list", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)["specs"]}
    assert rows["tictactoe"]["perft"][:4] == [9, 72, 504, 3024] and rows["tictactoe"]["players"] == ["X", "O"]
    assert rows["gripper"]["kind"] == "planning" and rows["pig"]["chance"]


def test_version(capsys):
    try:
        main(["--version"])
    except SystemExit as done:
        assert done.code == 0
    assert capsys.readouterr().out.startswith("plyspec ")
