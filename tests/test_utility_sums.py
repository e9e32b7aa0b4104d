"""Utility sums: `constant_sum` declared in either syntax, `max_utility_sum` inferred, and
max-n shallow pruning switched on by them (exactly the plain max-n vector, fewer nodes)."""
import random

import pytest

import framework
from framework import SpecError
from framework.frontend.game_format import load_game_spec
from framework.frontend.printer import spec_fields, to_game
from framework.search import maxn
from tests.conftest import SPECS

THREE = """game: Three
players: [A, B, C]
state:
  left: {type: 0..4, initial: 4}
actions:
  take(n in 1..2):
    if: n <= left
    then: left = left - n
terminal: left == 0
utility: "0 if me == mover else 1"
"""


def error_of(text):
    with pytest.raises(SpecError) as info:
        framework.load_text(text, file="t.yaml")
    return info.value


def terminal_returns(game, playouts=300, seed=1):
    rng = random.Random(seed)
    for _ in range(playouts):
        state = game.initial_state()
        while not state.terminal_test():
            state = state.result(rng.choice(state.actions()))
        yield state.returns()


def test_the_sums_the_shipped_games_declare_or_imply():
    ttt3 = framework.load(SPECS / "tictactoe3.yaml")
    assert (ttt3.constant_sum, ttt3.max_utility_sum, ttt3.utility_bounds) == (None, 1, (0, 1))
    iso3 = framework.load(SPECS / "isolation3.yaml", size=3)
    assert (iso3.constant_sum, iso3.max_utility_sum) == (2, 2)
    assert {sum(r) for r in terminal_returns(iso3)} == {2}
    assert {sum(r) for r in terminal_returns(ttt3)} <= {0, 1}
    assert framework.load(SPECS / "tictactoe.yaml").max_utility_sum == 0


def test_without_a_declaration_the_sum_bound_comes_from_the_utility_bounds():
    game = framework.load_text(THREE)
    assert game.constant_sum is None and game.max_utility_sum == 3
    declared = framework.load_text(THREE + "constant_sum: 2\n")
    assert declared.constant_sum == declared.max_utility_sum == 2
    assert declared.describe()["constant_sum"] == 2


def test_per_player_utilities_add_their_own_bounds():
    text = THREE.replace('utility: "0 if me == mover else 1"',
                         "utility: {A: 0, B: \"1 if left == 0 else 0\", C: 1}")
    game = framework.load_text(text)
    assert game.utility_bounds == (0, 1) and game.max_utility_sum == 2


@pytest.mark.parametrize("line,message,hint", [
    ("constant_sum: 5", "3 utilities within [0, 1] cannot sum to 5", "utility_bounds"),
    ("constant_sum: true", "constant_sum must be a number", "constant_sum: 1"),
    ("constant_sum: [1, 2]", "constant_sum must be a number", "constant_sum: 1"),
    ("constant_sum: -1", "cannot sum to -1", None),
])
def test_impossible_declarations_are_refused_at_their_line(line, message, hint):
    error = error_of(THREE + line + "\n")
    assert message in error.message
    assert (error.line, error.col) == (11, 1)
    assert error.source_line == line
    if hint:
        assert hint in error.hint


def test_zero_sum_and_a_different_constant_sum_conflict():
    two = THREE.replace("[A, B, C]", "[A, B]").replace('"0 if me == mover else 1"', "1 if mover == B else -1")
    assert framework.load_text(two + "constant_sum: 0\n").constant_sum == 0
    error = error_of(two + "constant_sum: 1\n")
    assert "sum to 0, not 1" in error.message and error.line == 11


def test_game_syntax_reads_and_writes_constant_sum():
    spec = framework.parse_spec(SPECS / "isolation3.yaml")
    text = to_game(spec)
    assert "\nconstant_sum 2\n" in text
    back = load_game_spec(text, "i.game")
    assert back.constant_sum == 2 and spec_fields(back) == spec_fields(spec)
    game = framework.load_text(text, fmt="game", size=3)
    assert game.constant_sum == 2


@pytest.mark.parametrize("spec,options,plies", [
    ("tictactoe3.yaml", {}, 2), ("isolation3.yaml", {"size": 3}, 0), ("isolation3.yaml", {"size": 4}, 4),
])
def test_shallow_pruning_uses_the_sum_and_keeps_the_plain_max_n_vector(spec, options, plies):
    game = framework.load(SPECS / spec, **options)
    rng = random.Random(7)
    state = game.initial_state()
    for _ in range(plies):
        state = state.result(rng.choice(state.actions()))
    plain = maxn.search(game, state, prune=False)
    pruned = maxn.search(game, state, prune=True)
    assert pruned.extra["pruning"] == "shallow"
    assert pruned.values == plain.values and pruned.best_action == plain.best_action
    assert pruned.stats.nodes < plain.stats.nodes
