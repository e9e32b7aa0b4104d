"""`plyspec list`: one line per shipped spec, with the solved values of
game_specs/golden/solved.json; every value marked as solved here is re-solved and checked."""
import json

import pytest

from conftest import SPECS
from framework import load
from framework.cli import main
from framework.search import alphabeta

SOLVED = json.loads((SPECS / "golden" / "solved.json").read_text(encoding="utf-8"))


def test_every_solved_entry_names_a_shipped_game_and_a_source():
    for name, fact in SOLVED.items():
        assert (SPECS / f"{name}.yaml").is_file(), name
        assert fact["source"] and fact["says"] in ("draw", "first player wins", "second player wins")
        assert fact["says"] == {0: "draw", 1: "first player wins", -1: "second player wins"}[fact["value"]]


@pytest.mark.parametrize("name", [n for n, f in SOLVED.items() if "checked by tests/test_list_cmd.py" in f["source"]])
def test_values_solved_here_are_what_alphabeta_finds(name):
    game = load(SPECS / f"{name}.yaml")
    result = alphabeta.search(game)
    assert result.complete and result.value == SOLVED[name]["value"]


def test_list_shows_players_size_solved_value_and_perft(capsys):
    assert main(["list"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert "m=3 n=3 k=3" in lines["tictactoe"] and "solved: draw" in lines["tictactoe"]
    assert "perft 9, 72, 504, 3024" in lines["tictactoe"]
    assert "1 player;" in lines["eight_puzzle"] and "chance" in lines["pig"]
    assert "plyspec plan gripper" in lines["gripper"] and "objects" in lines["gripper"]
    assert main(["list", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)["specs"]}
    assert rows["nim"]["solved"]["value"] == 1 and rows["othello"]["solved"] is None
