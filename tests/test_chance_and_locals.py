"""Chance nodes of several variables, local variables in effects (`let`), `prev(p)`, and a
chance outcome that ends the game: each checked against a plain-Python computation."""
import itertools
from fractions import Fraction

import pytest

from conftest import SPECS
from framework import load, load_text
from framework.conformance.differential import find_difference
from framework.errors import SpecError
from framework.interpreter import interpret, interpret_text
from tests import kalah_reference


def _pig2_after(score, total, mover, a, b, goal):
    """Two-dice Pig by hand: (score, total, player to move) after rolling (a, b)."""
    score = list(score)
    if a == 1 and b == 1:
        score[mover], total = 0, 0
        return tuple(score), 0, 1 - mover
    if a == 1 or b == 1:
        return tuple(score), 0, 1 - mover
    return tuple(score), total + a + b, mover


@pytest.mark.parametrize("load_game", [load, interpret])
def test_two_dice_are_one_chance_node_with_the_product_of_the_dice(load_game):
    game = load_game(SPECS / "pig2.yaml", goal=20)
    roll = game.initial_state().result("roll")
    outcomes = dict(roll.chance_outcomes())
    assert sorted(outcomes) == sorted(itertools.product(range(1, 7), repeat=2))
    assert all(p == pytest.approx(1 / 36) for p in outcomes.values())
    assert sum(outcomes.values()) == pytest.approx(1)
    for (a, b) in outcomes:
        after = roll.result((a, b))
        score, total, mover = _pig2_after((0, 0), 0, 0, a, b, 20)
        assert after.player() == mover
        assert not after.terminal_test()
    assert game.outcome_text(roll, (2, 5)) == "a=2,b=5"


@pytest.mark.parametrize("load_game", [load, interpret])
def test_a_chance_outcome_can_end_the_game(load_game):
    game = load_game(SPECS / "pig2.yaml", goal=10)
    state = game.initial_state().result("roll").result((5, 6))        # 11 >= 10 on one roll
    assert state.terminal_test() and state.returns() == (1, -1)
    state = game.initial_state().result("roll").result((2, 3))
    assert not state.terminal_test() and state.player() == 0


def test_pig2_win_probability_of_rolling_once_matches_a_hand_count():
    """P(reaching 8 on the first roll) = P(no 1 and a + b >= 8): counted by hand (15/36)
    and by expectimax on the spec with the second player never moving again."""
    hand = Fraction(sum(1 for a in range(2, 7) for b in range(2, 7) if a + b >= 8), 36)
    game = load(SPECS / "pig2.yaml", goal=8)
    roll = game.initial_state().result("roll")
    p = sum(prob for o, prob in roll.chance_outcomes() if roll.result(o).terminal_test())
    assert hand == Fraction(15, 36) and p == pytest.approx(float(hand))


WEIGHTED = """game: Coins
players: [A]
state:
  total: {type: 0..10, initial: 0}
  done: {type: bool, initial: false}
actions:
  toss:
    chance: a in 0..1, b in 1..3
    probability: "(3 if a == 1 else 1) / 4, b / 6"     # a biased coin, a die weighted by b
    then: "total = 2 * b + a; done = true"
terminal: done
utility: {A: total}
"""


@pytest.mark.parametrize("load_game", [load_text, interpret_text])
def test_per_variable_probabilities_are_multiplied(load_game):
    start = load_game(WEIGHTED).initial_state()
    node = start.result(start.actions()[0])
    got = dict(node.chance_outcomes())
    expected = {(a, b): (3 / 4 if a else 1 / 4) * b / 6 for a in (0, 1) for b in (1, 2, 3)}
    assert got.keys() == expected.keys()
    assert all(got[k] == pytest.approx(v) for k, v in expected.items())
    joint = WEIGHTED.replace('"(3 if a == 1 else 1) / 4, b / 6"', '"(a + b) / 15"')
    start = load_game(joint).initial_state()
    node = start.result(start.actions()[0])
    assert dict(node.chance_outcomes()) == pytest.approx({(a, b): (a + b) / 15 for a in (0, 1) for b in (1, 2, 3)})


def test_the_game_format_reads_several_chance_variables():
    text = ('game "Coins"\nplayers A\nstate total : 0..10 = 0\nstate done : bool = false\n'
            'action toss\n    chance a in 0..1, b in 1..3 probability (3 if a == 1 else 1) / 4, b / 6\n'
            '    then total = 2 * b + a; done = true\nterminal done\nutility A: total\n')
    yaml_game, game = load_text(WEIGHTED), load_text(text, fmt="game")
    assert game.spec.actions[0].chance == yaml_game.spec.actions[0].chance
    assert find_difference(game, interpret_text(text, fmt="game")) is None


@pytest.mark.parametrize("houses, seeds, depth", [(6, 4, 6), (3, 3, 8)])
def test_kalah_perft_matches_an_independent_implementation(houses, seeds, depth):
    pits, mover = kalah_reference.initial(houses, seeds)
    expected = [kalah_reference.perft(pits, mover, d) for d in range(1, depth + 1)]
    game = load(SPECS / "kalah.yaml", houses=houses, seeds=seeds)
    assert _perft(game.initial_state(), depth) == expected
    if houses == 3:
        assert _perft(interpret(SPECS / "kalah.game", houses=3, seeds=3).initial_state(), 6) == expected[:6]


def test_kalah_plays_as_the_reference_to_the_end():
    game = load(SPECS / "kalah.yaml")
    state, (pits, mover) = game.initial_state(), kalah_reference.initial()
    for ply in range(300):
        assert state[0] == pits and state.player() == mover or state.terminal_test(), ply
        legal = kalah_reference.moves(pits, mover)
        assert sorted(state.actions()) == legal
        if not legal:
            break
        move = legal[(ply * 7) % len(legal)]
        state, (pits, mover) = state.result(move), kalah_reference.play(pits, mover, move)
    assert state.terminal_test() and sum(state[0]) == 48


def _count(state, depth):
    """Leaf count: a terminal state counts where it is and is not expanded."""
    if depth == 0 or state.terminal_test():
        return 1
    if depth == 1 and not state.is_chance():
        return len(state.actions())
    return sum(_count(state.result(a), depth - 1) for a in state.actions())


def _perft(state, depth):
    return [_count(state, d) for d in range(1, depth + 1)]


ROUND = """game: Round
players: [A, B, C]
state:
  n: {type: 0..6, initial: 0}
  last: {type: player, initial: A}
actions:
  go: "n += 1; last = prev(mover); if n % 2 == 1 then turn = prev(mover)"
terminal: n >= 6
winner: last
"""


@pytest.mark.parametrize("load_game", [load_text, interpret_text])
def test_prev_is_the_player_before_in_turn_order(load_game):
    state = load_game(ROUND).initial_state()
    order = []
    while not state.terminal_test():
        order.append(state.player())
        state = state.result(state.actions()[0])
    # n odd after the move: the turn goes back one player; even: on to the next
    assert order == [0, 2, 0, 2, 0, 2]
    assert state.returns() == (0, 1, 0)          # the sixth move is C's: prev(C) is B


SOWING = """game: Sow
players: [A, B]
state:
  pits: {type: 0..20, size: 5, initial: 1}
actions:
  sow(h in 0..4):
    if: pits[h] > 0
    then: |
      let pos = h
      let hand = pits[h]
      pits[h] = 0
      for k in 1..hand do {
        pos = (pos + 1) % 5
        pits[pos] += 1
      }
      if pos == 0 then { let bonus = 1; pits[0] += bonus }
terminal: pits[0] >= 8
winner: none
"""


@pytest.mark.parametrize("load_game", [load_text, interpret_text])
def test_let_variables_live_to_the_end_of_their_block_and_can_change(load_game):
    game = load_game(SOWING)
    state = game.initial_state().result(game.parse_action(game.initial_state(), "sow(4)")
                                        if hasattr(game, "parse_action") else "sow(4)")
    values = state[0] if isinstance(state, tuple) else state.s.get("pits")
    assert tuple(values) == (3, 1, 1, 1, 0)      # the seed lands in pit 0, and the bonus too
    assert find_difference(load_text(SOWING), interpret_text(SOWING)) is None


LOCALS = """game: Locals
players: [A]
state:
  pits: {type: 0..20, size: 5, initial: 1}
actions:
  go: %s
terminal: pits[0] >= 8
utility: {A: 0}
"""


@pytest.mark.parametrize("effects, message", [
    ('"if pits[0] > 0 then { let x = 1 }; pits[0] = x"', "unknown name `x`"),
    ('"let x = 1; let x = 2"', "`x` is already a local variable here"),
    ('"let pits = 1"', "`pits` is already a state variable"),
    ('"let x = 1; x = true"', "value for `x` must be a whole number, not a condition"),
    ('"let x += 1"', "so it takes `=`, not `+=`"),
])
def test_misused_locals_say_so(effects, message):
    load_text(LOCALS % '"let x = 1; x += 1; pits[0] += x"')
    with pytest.raises(SpecError) as info:
        load_text(LOCALS % effects)
    assert message in info.value.message and info.value.line == 6
