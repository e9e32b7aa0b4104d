"""The Game/State contract, over every shipped spec in both syntaxes, compiled and
interpreted: `result` refuses every action that is not legal in its state (IllegalAction
naming the action in the game's text and the player to move), `utility` and the methods
taking a player read an index or a name and refuse anything else (UnknownPlayer), and
`game.alternating` says whether the players strictly take turns.  The searchers' unchecked
path is the generated method (`_result`), never the checked one."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import framework
from framework import IllegalAction, UnknownPlayer
from framework.aima import as_aima
from framework.interpreter import interpret
from framework.perft import perft

SPECS = sorted(str(p) for p in Path("game_specs").glob("*.yaml")) + \
    sorted(str(p) for p in Path("game_specs").glob("*.game"))
SLOW_INTERPRETED = {"draughts", "brazilian_draughts"}     # seconds per playout in the interpreter:
                                                          # their first 16 plies (the compiled sweep plays to the end)
LONG = {"chess"}        # random games of hundreds of plies, each move tested by `legal_after`:
                        # their first 60 plies compiled, 16 interpreted
BAD_PLAYERS = (-1, "Q", "", True, False, None, 1.5, (0,))     # and num_players, num_players + 1
SAMPLED = 40            # earlier actions tried per state (amazons has hundreds)


def playout(game, seed, cap=400):
    """The states of one seeded random game (terminal, or `cap` plies)."""
    rng = random.Random(seed)
    state, states = game.initial_state(), []
    states.append(state)
    while not state.terminal_test() and len(states) <= cap:
        state = state.result(rng.choice(state.actions()))
        states.append(state)
    return states


def assert_refused(game, aima, state, action, text):
    """result(action) raises IllegalAction through the state, the game's AIMA-level
    result (compiled games have it) and the AIMA adapter; the message names the action as
    the game writes it (when it is a move, not a chance outcome) and the player to move."""
    calls = [lambda: state.result(action), lambda: aima.result(aima.wrap(state), action)]
    if isinstance(game, framework.Game):
        calls.append(lambda: game.result(state, action))
    for apply in calls:
        with pytest.raises(IllegalAction) as err:
            apply()
        message = str(err.value)
        if not state.is_chance():
            assert text in message and game.player_names[state.player()] in message, message


def sweep(game, text_of, seeds, cap=400):
    """Actions legal at an earlier state of a playout but not at this one (all of them, or
    SAMPLED drawn at random), at the end too, are refused; the legal ones are accepted and
    give the same state through every interface."""
    aima = as_aima(game)
    reached_end = False
    for seed in seeds:
        seen, rng = {}, random.Random(seed)
        for state in playout(game, seed, cap):
            legal = state.actions()
            gone = sorted(set(seen) - set(legal), key=repr)
            for action in rng.sample(gone, min(SAMPLED, len(gone))):
                if not state.is_chance() or not seen[action]:     # a move, or an outcome
                    assert_refused(game, aima, state, action, text_of(action))
            for action in legal[:3]:
                child = state.result(action)
                assert aima.result(aima.wrap(state), action).state == child if not state.is_chance() \
                    else aima.outcome(aima.wrap(state), next(c for c in aima.chances(aima.wrap(state))
                                                             if c.outcome == action)).state == child
                if isinstance(game, framework.Game):
                    assert game.result(state, action) == child
            for action in legal:
                seen.setdefault(action, state.is_chance())
        reached_end |= state.terminal_test()
        assert state.actions() == [] or not state.terminal_test()
    assert reached_end or cap < 400, f"{game.name}: no playout reached the end"


@pytest.mark.parametrize("spec", SPECS)
def test_compiled_result_refuses_every_illegal_action(spec):
    game = framework.load(spec)
    sweep(game, game.action_text, seeds=(1, 2), cap=60 if Path(spec).stem in LONG else 400)


@pytest.mark.parametrize("spec", SPECS)
def test_interpreted_result_refuses_every_illegal_action(spec):
    game = interpret(spec)
    sweep(game, game.action_text, seeds=(1,), cap=16 if Path(spec).stem in SLOW_INTERPRETED | LONG else 400)


def test_refusal_messages():
    g = framework.load("game_specs/tictactoe.yaml")
    s = g.initial_state().result((0, 0))
    with pytest.raises(IllegalAction, match=r"^place\(0,0\) is not a legal action of O here \(legal: place\(1,0\)"):
        s.result((0, 0))
    with pytest.raises(IllegalAction, match=r"^\[1, 1\] is not a legal action of O"):   # reads as place(1,1)
        s.result([1, 1])
    for a in [(0, 1), (1, 0), (1, 1), (2, 0)]:
        s = s.result(a)
    assert s.terminal_test()
    with pytest.raises(IllegalAction, match=r"^place\(2,2\): the game is over .*O would be to move"):
        s.result((2, 2))
    pig = framework.load("game_specs/pig.yaml")
    node = pig.initial_state().result("roll")
    with pytest.raises(IllegalAction, match=r"^7 is not an outcome of this chance node \(outcomes: d=1, "):
        node.result(7)
    with pytest.raises(IllegalAction, match="'hold' is not an outcome"):
        node.result("hold")
    assert isinstance(IllegalAction("x"), ValueError) and isinstance(UnknownPlayer("x"), ValueError)


class _BadRepr:
    def __repr__(self):
        raise RuntimeError("no repr")


@pytest.mark.parametrize("spec", ["game_specs/northcott.yaml", "game_specs/northcott.game",
                                  "game_specs/amazons.yaml", "game_specs/chess.yaml"])
def test_a_refused_value_that_is_no_action_is_shown_as_given_and_short(spec):
    """A value shaped like no action of the game is shown as the caller gave it, never read
    as one (northcott's ('bogus',) used to read as slide(b,o)), and cut short: a long string,
    a long list, an int too long to print, a repr that raises."""
    for load in (framework.load, interpret):
        state = load(spec).initial_state()
        for action, shown in [(("bogus",), "('bogus',) is not"), (("slide", "ab"), "('slide', 'ab') is not"),
                              ((("x", "y"), (0, 0)), "(('x', 'y'), (0, 0)) is not"),
                              ("x" * 10**6, "'xxx"), ([1] * 10**6, "[1, 1, 1"),
                              (10**5000, "<int> is not"), (_BadRepr(), "<_BadRepr instance at ")]:
            with pytest.raises(IllegalAction) as err:
                state.result(action)
            message = str(err.value)
            assert message.startswith(shown), message
            assert len(message) < 1000 and "(b,o)" not in message and "(x,y" not in message


LADDER = """
game: Ladder
players: [A, B]
state: {x: {type: 0..2}}
actions:
  up: {if: "x < 2", then: "x += 1"}
  down: {if: "x > 0", then: "x -= 1"}
terminal: x == 2
winner: mover
repetition: forbidden
"""


def test_forbidden_repetition_is_refused_with_its_reason():
    from framework.interpreter import interpret_text
    for game in (framework.load_text(LADDER), interpret_text(LADDER)):
        state = game.initial_state().result("up")
        assert state.actions() == ["up"]               # down would repeat the start
        with pytest.raises(IllegalAction, match=r"^down is not a legal action of B here "
                                                r"\(it repeats a position, which the rules forbid\) \(legal: up\)"):
            state.result("down")


@pytest.mark.parametrize("spec", SPECS)
def test_players_by_index_or_name(spec):
    game = framework.load(spec)
    for seed in (1, 2):
        end = playout(game, seed)[-1]
        if end.terminal_test():
            break
    assert end.terminal_test()
    for i, name in enumerate(game.player_names):
        assert end.utility(name) == end.utility(i) == game.utility(end, name) == end.returns()[i]
        assert game.player_index(name) == game.player_index(i) == i
    middle = playout(game, 1)[1]
    for bad in BAD_PLAYERS + (game.num_players, game.num_players + 1, "x" + game.player_names[0]):
        for call in (lambda: end.utility(bad), lambda: game.utility(end, bad),
                     lambda: game.evaluate(middle, bad), lambda: game.player_index(bad)):
            with pytest.raises(UnknownPlayer, match=r"is not a player of this game: give an index 0\.\."):
                call()


@pytest.mark.parametrize("spec", ["game_specs/tictactoe.yaml", "game_specs/kalah.game", "game_specs/northcott.yaml"])
def test_interpreted_players_by_index_or_name(spec):
    game = interpret(spec)
    end = playout(game, 1)[-1]
    assert end.terminal_test()
    for i, name in enumerate(game.player_names):
        assert end.utility(name) == end.utility(i) == end.returns()[i]
    for bad in BAD_PLAYERS + (game.num_players,):
        with pytest.raises(UnknownPlayer):
            end.utility(bad)


@pytest.mark.parametrize("spec, alternating", [
    ("tictactoe.yaml", True), ("tictactoe.game", True), ("connect_four.yaml", True),
    ("draughts.yaml", True),        # a multi-jump is one compound move: the turn still passes
    ("tictactoe3.yaml", True),      # three players in turn
    ("kalah.yaml", False), ("kalah.game", False),     # `turn = mover`: another sow
    ("pig.yaml", False), ("pig.game", False),         # chance, and `turn = mover`
    ("slippery_isolation.yaml", False),               # chance only
])
def test_alternating(spec, alternating):
    assert framework.load(f"game_specs/{spec}").alternating is alternating


def test_alternating_is_a_fact_of_play():
    """Where `alternating` is true, every move of three playouts passes the turn to the
    next player; where it is false, one of them shows a player moving again or chance."""
    for spec in SPECS:
        game = framework.load(spec)
        broken = False
        for seed in (1, 2, 3):
            states = playout(game, seed)
            for before, after in zip(states, states[1:]):
                broken |= before.is_chance() or after.is_chance() or (
                    not after.terminal_test() and after.player() != (before.player() + 1) % game.num_players)
        assert broken is not game.alternating, spec


def test_searchers_use_the_unchecked_path(monkeypatch):
    """perft on the course interface (a game without a kernel: compound moves and a
    history) and the kernel-less searchers never call the checked result()."""
    game = framework.load("game_specs/draughts.yaml")
    expected = perft(game.initial_state(), 3)
    inner = type(game.initial_state()[0])

    def forbidden(self, action):
        raise AssertionError("a searcher called the checked result()")
    monkeypatch.setattr(inner, "result", forbidden)
    monkeypatch.setattr(type(game.initial_state()), "result", forbidden)
    assert perft(game.initial_state(), 3) == expected == [7, 49, 302]
    from framework.search import alphabeta, mcts
    alphabeta.search(game, game.initial_state(), depth=2)
    mcts.search(game, game.initial_state(), iterations=30, seed=1)


SECOND_STARTS = """
game: Second starts
players: [X, O]
board: {width: 3, height: 3, cells: [empty, X, O]}
init: "turn = O"
actions:
  place(c in cell):
    if: board[c] == empty
    then: board[c] = mover
terminal: line(board, 3, X) or line(board, 3, O) or full(board)
winner: X if line(board, 3, X) else O if line(board, 3, O) else none
"""


def test_a_game_whose_second_player_starts():
    """Written as a new user would (`turn = O` in init): O moves first, the players still
    alternate, and the contract and the AIMA view name O as the first mover."""
    from framework.interpreter import interpret_text
    game = framework.load_text(SECOND_STARTS)
    assert game.initial_state().player() == interpret_text(SECOND_STARTS).initial_state().player() == 1
    assert game.alternating
    after = game.initial_state().result((1, 1))
    assert after.player() == 0
    with pytest.raises(IllegalAction, match=r"^place\(1,1\) is not a legal action of X here"):
        after.result((1, 1))
    aima = as_aima(game)
    assert aima.to_move(aima.initial) == aima.initial.to_move == "O"
