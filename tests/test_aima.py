"""framework.aima.as_aima against aima-python's calling conventions.

aima-python is not a dependency: the searchers below are written here in aima's shape
(games.py: `minmax_decision` alternates MAX and MIN by depth and asks `game.to_move`
once, at the root; `expect_minmax` follows every move by `game.chances`, applies
`game.outcome` to the state the previous chance produced, reads `state.to_move` as an
attribute and weights by `game.probability(chance)`; `play_game` loops over the players
in order), and compared with plyspec's own searchers.  Where aima's published code differs
from a correct search (it divides an expectation by the number of chances and never tests
`terminal_test` after `outcome`), the helpers here do the correct thing and the README says
what the published code does."""
from __future__ import annotations

import math
import random

import pytest

import framework
from framework import IllegalAction, UnknownPlayer
from framework.aima import NO_CHANCE, PASS, AimaGame, AimaStochasticGame, ChanceNode, as_aima
from framework.search import alphabeta, expectimax


# ---------------------------------------------------------------- aima-shaped searchers
def minmax_value(game, state, player, maximise):
    """aima's max_value/min_value pair: MAX and MIN alternate by depth."""
    if game.terminal_test(state):
        return game.utility(state, player)
    values = [minmax_value(game, game.result(state, a), player, not maximise) for a in game.actions(state)]
    return max(values) if maximise else min(values)


def minmax_move_values(game, state):
    """{move: value} at the root as aima's minmax_decision computes them."""
    player = game.to_move(state)
    return {a: minmax_value(game, game.result(state, a), player, False) for a in game.actions(state)}


def expect_value(game, state, player):
    """aima's max_value / min_value of expect_minmax (terminal states scored)."""
    if game.terminal_test(state):
        return game.utility(state, player)
    values = [chance_value(game, state, a, player) for a in game.actions(state)]
    return max(values) if state.to_move == player else min(values)


def chance_value(game, state, action, player):
    """aima's chance_node: result, then every chance applied, as aima does, to the state
    the previous chance produced; the probability-weighted sum."""
    res_state = game.result(state, action)
    if game.terminal_test(res_state):
        return game.utility(res_state, player)
    total = 0
    for chance in game.chances(res_state):
        res_state = game.outcome(res_state, chance)
        total += expect_value(game, res_state, player) * game.probability(chance)
    return total


def aima_play_game(game, *players):
    """aima's Game.play_game: the players in turn, a move each."""
    state = game.initial
    while True:
        for player in players:
            state = game.result(state, player(game, state))
            if game.terminal_test(state):
                return game.utility(state, game.to_move(game.initial))


def random_player(rng):
    return lambda game, state: rng.choice(game.actions(state))


# ---------------------------------------------------------------- references
def exact_values(game, state):
    """{move: value for the player to move} from plyspec's alpha-beta (exact, to the end)."""
    me = state.player()
    out = {}
    for a in state.actions():
        child = state.result(a)
        if child.terminal_test():
            out[a] = child.utility(me)
        else:
            value = alphabeta.search(game, child).value
            out[a] = value if child.player() == me else -value
    return out


def test_tictactoe_runs_unchanged_and_agrees():
    game = framework.load("game_specs/tictactoe.yaml")
    aima = as_aima(game)
    assert isinstance(aima, AimaGame) and not hasattr(aima, "chances")
    state = aima.result(aima.result(aima.initial, (1, 1)), (0, 0))
    assert state.to_move == aima.to_move(state) == "X"
    assert minmax_move_values(aima, state) == exact_values(game, state.state)


def test_kalah_extra_turns_become_forced_passes():
    """aima's alternation by depth on Kalah: right through the adapter (a player who
    sows again gives the other a forced pass), wrong on the plain states."""
    game = framework.load("game_specs/kalah.yaml", houses=3, seeds=2)
    assert not game.alternating
    aima = as_aima(game)
    again = aima.result(aima.initial, 1)        # South's last seed lands in its store
    assert again.to_move == "North" and aima.actions(again) == [PASS]
    for root in (aima.initial, aima.result(again, PASS)):
        truth = exact_values(game, root.state)
        assert minmax_move_values(aima, root) == truth
    assert root.to_move == "South" and truth == {0: 0, 2: 1}     # South wins by sowing house 2
    me = root.state.player()
    plain = {a: minmax_value(game, root.state.result(a), me, False) for a in root.state.actions()}
    assert plain == {0: 0, 2: -1}   # the same loop over plyspec's own states takes the extra turn for MIN's
    with pytest.raises(IllegalAction, match="North must pass here"):
        aima.result(again, 0)
    assert aima.result(again, PASS).state == again.state


def test_pig_expect_minmax_conventions_and_value():
    game = framework.load("game_specs/pig.yaml", goal=6, sides=3, turn_limit=3)
    aima = as_aima(game)
    assert isinstance(aima, AimaStochasticGame)
    root = aima.initial
    player = aima.to_move(root)
    values = {a: chance_value(aima, root, a, player) for a in aima.actions(root)}
    reference = expectimax.search(game, root.state)
    assert math.isclose(max(values.values()), reference.value, abs_tol=1e-12)
    assert max(values, key=values.get) == reference.best_action
    rolled = aima.result(root, "roll")
    assert rolled.to_move is None and rolled.state.is_chance()
    chances = aima.chances(rolled)
    assert [c.outcome for c in chances] == [1, 2, 3]
    assert math.isclose(sum(aima.probability(c) for c in chances), 1)
    assert aima.chances(root) == [NO_CHANCE] and aima.outcome(root, NO_CHANCE) is root
    # aima applies each chance to the previous chance's state: the same node is resolved
    first = aima.outcome(rolled, chances[0])
    assert aima.outcome(first, chances[1]) == aima.outcome(rolled, chances[1])
    with pytest.raises(ChanceNode, match="resolve it with game.outcome"):
        aima.actions(rolled)
    with pytest.raises(IllegalAction):
        aima.outcome(root, chances[0])        # a decision node has no such chance


def test_play_game_follows_to_move():
    for spec, options in (("kalah.yaml", {"houses": 3, "seeds": 2}), ("pig.yaml", {"goal": 10}),
                          ("tictactoe3.yaml", {})):
        game = framework.load(f"game_specs/{spec}", **options)
        aima = as_aima(game)
        seen = []

        def recording(i, rng=random.Random(5)):
            def play(g, state):
                assert state.to_move == game.player_names[i]
                seen.append(i)
                return rng.choice(g.actions(state))
            return play
        players = [recording(i) for i in range(game.num_players)]
        outcome = aima.play_game(*players, rng=random.Random(7))
        assert outcome in (-1, 0, 1) and seen
        if not game.chance:                   # aima's own loop runs unchanged on the rotation
            assert aima_play_game(aima, *[random_player(random.Random(3))] * game.num_players) in (-1, 0, 1)


def test_player_names_and_refusals():
    game = framework.load("game_specs/tictactoe.yaml")
    aima = as_aima(game)
    s = aima.initial
    for a in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]:
        s = aima.result(s, a)
    assert aima.terminal_test(s) and aima.utility(s, "X") == aima.utility(s, 0) == 1
    with pytest.raises(UnknownPlayer):
        aima.utility(s, "Q")
    with pytest.raises(IllegalAction, match="the game is over"):
        aima.result(s, (2, 2))
    assert aima.actions(s) == []


def test_course_port_reads_moves_from_input(monkeypatch, capsys):
    """Course code ported as a new user would: a move typed as "col,row" becomes a tuple
    and goes to game.result (AIMA's form); an illegal one is refused and asked again.
    Before the contract, the repeated (1,1) made a cell both X and O, and X moved twice."""
    game = framework.load("game_specs/tictactoe.yaml")
    typed = iter(["1,1", "1,1", "0,0", "9,9", "x", "2,2", "0,1", "2,0", "0,2"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))

    def ask(state):
        while True:
            text = input(f"{game.player_names[game.to_move(state)]} to move: ")
            try:
                move = tuple(int(x) for x in text.split(","))
            except ValueError:
                print("type col,row")
                continue
            try:
                return game.result(state, move)
            except IllegalAction as err:
                print(f"illegal move: {err}")
    state = game.initial
    while not game.terminal_test(state):
        state = ask(state)
    out = capsys.readouterr().out
    assert "illegal move: place(1,1) is not a legal action of O here" in out
    assert "illegal move: place(9,9) is not a legal action of X here" in out
    assert out.count("illegal move") == 2 and out.count("type col,row") == 1
    assert game.utility(state, "O") == 1        # O's column 0: (0,0) (0,1) (0,2)
