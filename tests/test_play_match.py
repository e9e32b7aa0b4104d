"""`plyspec match` and `plyspec play`: agents, seat rotation, reproducibility, results
that follow from the games' known values, and the terminal dialogue of `play`."""
import io
import json

import pytest

import framework
from framework.agents import parse_agent
from framework.cli import main
from framework.errors import SpecError
from framework.match import play_game, run_match
from tests.conftest import SPECS


def run_json(capsys, *argv):
    assert main([*argv, "--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def test_perfect_play_never_loses_tic_tac_toe(capsys):
    out = run_json(capsys, "match", str(SPECS / "tictactoe.yaml"), "--agent", "alphabeta",
                   "--agent", "random", "--games", "6", "--seed", "3")
    perfect, rnd = out["agents"]
    assert perfect["losses"] == 0 and perfect["wins"] + perfect["draws"] == 6
    assert (rnd["wins"], rnd["losses"]) == (perfect["losses"], perfect["wins"])
    assert [r["seats"][0] for r in out["results"]] == ["alphabeta", "random"] * 3
    assert all(sum(r["returns"]) == 0 for r in out["results"])


def test_the_first_player_of_a_won_nim_position_always_wins():
    # misère Nim (3,4,5): nim-sum 2 and a heap above 1, so the player to move wins (TRUTHS.md)
    game = framework.load(SPECS / "nim.yaml")
    tallies, records = run_match(game, [parse_agent("alphabeta"), parse_agent("random")], 4, seed=5)
    perfect_first = [r for r in records if r.seats[0] == 0]
    assert len(perfect_first) == 2
    assert all(r.returns == (1, -1) for r in perfect_first)
    assert tallies[0].wins >= 2


def test_a_match_replays_exactly_from_its_seed(capsys):
    argv = ("match", str(SPECS / "pig.yaml"), "--agent", "random", "--agent", "mcts:iterations=30",
            "--games", "3", "--set", "goal=12")
    first = run_json(capsys, *argv, "--seed", "11")
    again = run_json(capsys, *argv, "--seed", "11")
    other = run_json(capsys, *argv, "--seed", "12")
    assert first["results"] == again["results"]
    assert first["results"] != other["results"]


def test_three_players_rotate_through_the_seats():
    game = framework.load(SPECS / "tictactoe3.yaml")
    agents = [parse_agent(t) for t in ("maxn:depth=2", "random", "first")]
    tallies, records = run_match(game, agents, 3, seed=1)
    assert [r.seats for r in records] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    for t in tallies:
        assert t.games == 3 and t.wins + t.draws + t.losses == 3


def test_unfinished_games_are_counted_not_hung():
    game = framework.load(SPECS / "connect_four.yaml")
    tallies, records = run_match(game, [parse_agent("first"), parse_agent("random")], 2, max_plies=5)
    assert all(r.returns is None and r.plies == 5 for r in records)
    assert [t.unfinished for t in tallies] == [2, 2]


@pytest.mark.parametrize("argv,message", [
    (["--agent", "alphabeta"], "has 2 players but 1 --agent given"),
    (["--agent", "alphabet", "--agent", "random"], "unknown agent 'alphabet'"),
    (["--agent", "alphabeta:dept=3", "--agent", "random"], "agent 'alphabeta' has no option 'dept'"),
    (["--agent", "human", "--agent", "random"], "a match is between programs"),
    (["--agent", "random:seed", "--agent", "random"], "cannot read 'seed'"),
])
def test_bad_agents_are_refused(capsys, argv, message):
    assert main(["match", str(SPECS / "nim.yaml"), *argv]) == 2          # usage errors
    assert message in capsys.readouterr().err


def test_a_search_agent_without_budget_thinks_for_the_move_time():
    game = framework.load(SPECS / "connect_four.yaml")
    agent = parse_agent("alphabeta")
    action = agent.choose(game, game.initial_state(), move_time=0.2)
    assert action in game.initial_state().actions()
    assert agent.last.stats.time_s < 120 and not agent.last.complete   # a hang guard, not a timing


def play(monkeypatch, capsys, lines, *argv):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["play", *argv])
    return code, capsys.readouterr().out


def test_play_a_whole_game_against_the_first_legal_move(monkeypatch, capsys):
    moves = ["place(0,0)", "place(9,9)", "place(0,1)", "place(0,2)"]
    code, out = play(monkeypatch, capsys, ["?", *moves], str(SPECS / "tictactoe.yaml"), "--ai", "first")
    assert code == 0
    assert "legal: place(0,0)  place(1,0)" in out
    assert "`place(9,9)` is not a legal action here" in out
    assert "O plays place(1,0)" in out and "O plays place(2,0)" in out
    assert out.rstrip().endswith("X wins")


def test_play_labels_the_board_echoes_the_move_and_suggests_the_nearest_legal_ones(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["plce(0,1)", "place(0,1)", "quit"], str(SPECS / "tictactoe.yaml"),
                     "--ai", "first")
    assert code == 0
    assert "  0 1 2\n0 . . .\n1 . . .\n2 . . .\nX to move" in out      # x above the columns, y before the rows
    assert "`plce(0,1)` is not a legal action here; did you mean place(0,1)" in out
    assert "you (X) play place(0,1)" in out
    assert "1 X . ." in out                                              # place(x=0, y=1): row 1, column 0


def test_play_as_the_second_player_with_hints_and_quit(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["hint", "quit"], str(SPECS / "tictactoe.yaml"),
                     "--as", "O", "--ai", "alphabeta")
    assert code == 0 and "X plays place(0,0)" in out
    assert "hint: place(1,1)" in out          # the only move that draws after a corner
    assert "game abandoned" in out


def test_play_reports_chance_and_stops_at_end_of_input(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["roll"], str(SPECS / "pig.yaml"), "--ai", "random", "--seed", "2")
    assert code == 0 and "chance: " in out and "game abandoned" in out


def test_play_refuses_an_unknown_seat(capsys):
    assert main(["play", str(SPECS / "tictactoe.yaml"), "--as", "Z"]) == 2    # a usage error
    assert "has no player 'Z'" in capsys.readouterr().err


def test_agent_text_rejects_what_it_cannot_read():
    with pytest.raises(SpecError, match="has no option 'evaluate'"):
        parse_agent("alphabeta:evaluate=1")
    assert parse_agent("mcts:iterations=50,seed=4").options == {"iterations": 50, "seed": 4}
    assert parse_agent("maxn:time=0.5").options == {"time_limit": 0.5}


def test_chance_outcomes_have_a_canonical_text():
    pig = framework.load(SPECS / "pig.yaml")
    rolled = pig.initial_state().result("roll")
    assert [pig.outcome_text(rolled, o) for o, _ in rolled.chance_outcomes()] == [f"d={i}" for i in range(1, 7)]
    slippery = framework.load(SPECS / "slippery_isolation.yaml")
    state = slippery.initial_state()
    while not state.is_chance():
        state = state.result(state.actions()[0])
    texts = [slippery.outcome_text(state, o) for o, _ in state.chance_outcomes()]
    assert texts == [f"at=({c},{r})" for c, r in (o for o, _ in state.chance_outcomes())]


def test_repr_of_a_game_is_one_short_line():
    game = framework.load(SPECS / "tictactoe.yaml")
    text = repr(game)
    assert text.startswith("<Game 'Tic-tac-toe' players=['X', 'O'] options={'m': 3, 'n': 3, 'k': 3}")
    assert "\n" not in text and len(text) < 300 and "Generated" not in text


def _aima_minmax_decision(state, game):
    """AIMA's minmax_decision (games.py), written against its Game interface as course code is."""
    player = game.to_move(state)

    def max_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        return max(min_value(game.result(state, a)) for a in game.actions(state))

    def min_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        return min(max_value(game.result(state, a)) for a in game.actions(state))

    return max(game.actions(state), key=lambda a: min_value(game.result(state, a)))


def test_code_written_to_the_aima_game_interface_runs_unchanged():
    from framework.search import minimax
    game = framework.load(SPECS / "tictactoe.yaml")
    state = game.initial
    for text in ("place(0,0)", "place(1,1)", "place(2,2)", "place(0,2)"):   # X to move, 5 cells left
        state = game.result(state, game.parse_action(state, text))
    choice = _aima_minmax_decision(state, game)
    after = game.result(state, choice)
    assert game.to_move(state) == 0 and game.to_move(after) == 1
    exact = minimax.search(game, state)
    assert -minimax.search(game, after).value == exact.value == 1      # AIMA's choice keeps the win


def test_play_undo_takes_back_the_move_and_the_reply(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["undo", "place(0,0)", "undo", "place(2,2)", "quit"],
                     str(SPECS / "tictactoe.yaml"), "--ai", "alphabeta:depth=2")
    assert code == 0 and "nothing to undo" in out and "took back your last move" in out
    assert "you (X) play place(2,2)" in out
    # after the undo the board is empty again: the (0,0) mark is gone when (2,2) is played
    last_board = out.split("you (X) play place(2,2)")[0].rsplit("0 1 2", 1)[1]
    rows = [line for line in last_board.splitlines() if line[:1].isdigit()]
    assert len(rows) == 3 and not any("X" in r or "O" in r for r in rows)
    assert "(value" in out and "depth 2" in out


def test_play_draws_coordinates_with_a_space_as_a_symbol_and_on_the_final_board(monkeypatch, capsys, tmp_path):
    spec = tmp_path / "blank.yaml"
    spec.write_text((SPECS / "tictactoe.yaml").read_text().replace('empty: "."', 'empty: " "'))
    assert 'empty: " "' in spec.read_text()
    code, out = play(monkeypatch, capsys, ["place(0,0)", "quit"], str(spec), "--ai", "first")
    assert code == 0
    assert "  0 1 2\n0\n1\n2\nX to move" in out                # empty rows keep their line and label
    assert "  0 1 2\n0 X O\n1\n2\nX to move" in out
    moves = ["place(0,1)", "place(0,2)", "place(2,2)", "place(2,1)", "place(1,2)"]
    code, out = play(monkeypatch, capsys, moves, str(SPECS / "tictactoe.yaml"), "--ai", "first")
    final = out.rsplit("O plays", 1)[1]
    assert "  0 1 2\n0 O O O\n1 X . .\n2 X . X\ngame over" in final and out.rstrip().endswith("O wins")
