"""Chance and many-player searchers: expectimax (+ Star1/Star2), max-n (+ shallow
pruning), paranoid and MCTS, checked against independent computations written here, on
the hand-written games of `chance_games` and on the compiled specs."""
from __future__ import annotations

import functools
import math
from fractions import Fraction

import pytest

import framework
from conftest import SPECS
from chance_games import (TreeState, chain, coalition, dice_pig, pig_estimate,
                          random_chance_tree, random_vector_tree, tictactoe)
from framework.game import Game
from framework.perft import perft
from framework.search import expectimax, maxn, mcts, paranoid
from framework.search.registry import searcher

HALF = Fraction(1, 2)
PRUNING_MODES = [dict(star1=False, star2=False), dict(star1=True, star2=False),
                 dict(star1=True, star2=True)]


# ------------------------------------------------------------ independent computations
def piglet_value_iteration(goal, sweeps=200):
    """Neller & Presser's equations for Piglet, by value iteration: P[i, j, k] is the
    win probability of the player to move with score i, opponent score j, turn total k."""
    states = [(i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)]
    p = {s: 0.0 for s in states}
    for _ in range(sweeps):
        for i, j, k in states:
            heads = 1.0 if i + k + 1 >= goal else p[i, j, k + 1]
            flip = 0.5 * (1 - p[j, i, 0]) + 0.5 * heads
            hold = 1 - p[j, i + k, 0]
            p[i, j, k] = max(flip, hold)
    return p


def pig_win_probability(goal, faces, turn_limit):
    """First player's optimal win probability in turn-limited Pig, by a memoised
    recursion over (own score, opponent score, turn total, turns played)."""
    chance = Fraction(1, len(faces) + 1)

    @functools.cache
    def win(mine, theirs, total, turns):
        if turns >= turn_limit:
            return Fraction(1) if mine > theirs else Fraction(0) if mine < theirs else Fraction(1, 2)
        hold = 1 - win(theirs, mine + total, 0, turns + 1)
        roll = chance * (1 - win(theirs, mine, 0, turns + 1))
        for face in faces:
            roll += chance * (1 if mine + total + face >= goal else win(mine, theirs, total + face, turns))
        return max(roll, hold)

    return win(0, 0, 0, 0)


def expectimax_by_definition(state, depth, estimate):
    """Plain expectiminimax for player 0 (max) in a two-player zero-sum game."""
    if state.terminal_test():
        return state.utility(0)
    if depth == 0:
        return estimate(state, 0)
    if state.is_chance():
        return sum(p * expectimax_by_definition(state.result(o), depth - 1, estimate)
                   for o, p in state.chance_outcomes())
    values = [expectimax_by_definition(state.result(a), depth - 1, estimate)
              for a in state.actions()]
    return max(values) if state.player() == 0 else min(values)


def maxn_by_definition(state):
    if state.terminal_test():
        return tuple(state.returns())
    if state.is_chance():
        total = [0] * len(state.returns())
        for outcome, p in state.chance_outcomes():
            for i, v in enumerate(maxn_by_definition(state.result(outcome))):
                total[i] += p * v
        return tuple(total)
    mover = state.player()
    return max((maxn_by_definition(state.result(a)) for a in state.actions()),
               key=lambda vector: vector[mover])


def paranoid_by_definition(state, me):
    if state.terminal_test():
        return state.utility(me)
    values = [paranoid_by_definition(state.result(a), me) for a in state.actions()]
    return max(values) if state.player() == me else min(values)


def subtree_counts_consistent(node):
    """Every node's visits: its children's, plus one for the iteration that made it."""
    stack = [(node, True)]
    while stack:
        node, is_root = stack.pop()
        children = list(node.children.values()) if isinstance(node.children, dict) else (node.children or [])
        if children and node.visits != sum(c.visits for c in children) + (0 if is_root else 1):
            return False
        stack.extend((child, False) for child in children)
    return True


# --------------------------------------------------------------------------- Pig
def test_piglet_value_iteration_agrees_with_published_values():
    p = piglet_value_iteration(2)
    expected = {(0, 0, 0): Fraction(4, 7), (0, 0, 1): Fraction(5, 7), (0, 1, 0): Fraction(2, 5),
                (0, 1, 1): Fraction(3, 5), (1, 0, 0): Fraction(4, 5), (1, 1, 0): Fraction(2, 3)}
    for state, value in expected.items():
        assert p[state] == pytest.approx(float(value), abs=1e-12), state


def test_turn_limited_piglet_converges_to_the_value_iteration_answer():
    assert float(pig_win_probability(2, (1,), 80)) == pytest.approx(4 / 7, abs=1e-9)


@pytest.mark.parametrize("goal, faces, turn_limit", [(2, (1,), 6), (3, (1,), 5), (5, (2, 3), 4)])
@pytest.mark.parametrize("mode", PRUNING_MODES)
def test_expectimax_on_turn_limited_pig_equals_the_exhaustive_computation(goal, faces, turn_limit, mode):
    game = dice_pig(goal, faces, turn_limit)
    result = expectimax.search(game, **mode)
    assert result.value == pig_win_probability(goal, faces, turn_limit)
    assert result.values == (result.value, 1 - result.value)
    assert result.best_action in ("roll", "hold") and result.complete


def test_depth_limited_expectimax_on_pig_equals_the_definition():
    game = dice_pig(4, (1, 2), 6, evaluate=pig_estimate)
    expected = expectimax_by_definition(game.initial_state(), 7, pig_estimate)
    for mode in PRUNING_MODES:
        result = expectimax.search(game, depth=7, **mode)
        assert result.value == expected and result.extra["pruning"] == (
            "star2" if mode["star2"] else "star1" if mode["star1"] else "off")


def test_evaluation_outside_the_bounds_switches_pruning_off_and_stays_exact():
    def wild(state, player):              # still constant-sum, but up to 3 from 1/2
        return HALF + 6 * (pig_estimate(state, player) - HALF)

    game = dice_pig(4, (1, 2), 6, evaluate=wild)
    result = expectimax.search(game, depth=6)
    assert result.extra["pruning"].startswith("off: value")
    assert result.value == expectimax_by_definition(game.initial_state(), 6, wild)


# -------------------------------------------------------------- Star1 / Star2
@pytest.mark.parametrize("players", [1, 2])
def test_star_pruning_returns_the_plain_value_with_fewer_nodes(players):
    nodes = {"off": 0, "star1": 0, "star2": 0}
    for seed in range(40):
        game = random_chance_tree(seed, depth=7, players=players)
        plain = expectimax.search(game, star1=False, star2=False)
        for name, mode in (("star1", PRUNING_MODES[1]), ("star2", PRUNING_MODES[2])):
            pruned = expectimax.search(game, **mode)
            assert pruned.value == plain.value, (seed, name)
            assert pruned.best_action == plain.best_action, (seed, name)
            assert pruned.stats.nodes <= plain.stats.nodes, (seed, name)
            nodes[name] += pruned.stats.nodes
        nodes["off"] += plain.stats.nodes
        if players == 2:
            assert plain.value == expectimax_by_definition(game.initial_state(), 99, None)
    assert nodes["star1"] < nodes["off"] and nodes["star2"] < nodes["off"]


def test_star_pruning_is_exact_at_a_depth_limit():
    for seed in range(40):
        game = random_chance_tree(100 + seed, depth=8)
        root = game.initial_state()
        for depth in (3, 5):
            expected = expectimax_by_definition(root, depth, game.evaluate)
            for mode in PRUNING_MODES:
                assert expectimax.search(game, depth=depth, **mode).value == expected


def test_expectimax_refuses_games_it_cannot_search():
    with pytest.raises(ValueError, match="needs"):
        expectimax.search(random_vector_tree(0))
    with pytest.raises(ValueError, match="star2 builds on star1"):
        expectimax.search(dice_pig(), star1=False, star2=True)


def test_deep_games_do_not_overflow_the_stack():
    game = chain(15_000)
    assert expectimax.search(game).value == 1
    assert maxn.search(game).values == (1,)


@pytest.mark.parametrize("longest", [10_000, pytest.param(None, marks=pytest.mark.slow)])
def test_cycles_without_a_depth_limit_give_a_clear_error(longest, monkeypatch):
    """The error comes once the search is MAX_SEARCH_PLIES deep: the default run lowers it
    to 10,000 plies (the same code path); `-m slow` goes the full 1,000,000."""
    from framework.search import twoplayer
    if longest is not None:
        monkeypatch.setattr(twoplayer, "MAX_SEARCH_PLIES", longest)
    loop = TreeState(0, (0,))
    loop.children, loop.moves = [loop], [0]
    game = Game("loop", ("solo",), _initial=lambda: loop, utility_bounds=(0, 1))
    with pytest.raises(ValueError, match="cycles") as err:
        maxn.search(game)
    assert f"{twoplayer.MAX_SEARCH_PLIES:,} plies" in str(err.value)


def test_a_budget_deepens_iteratively_and_returns_the_last_complete_iteration():
    game = dice_pig(2, (1,), 4, evaluate=pig_estimate)
    result = expectimax.search(game, node_limit=300)
    assert not result.complete and result.stats.depth >= 2
    assert result.value == expectimax.search(game, depth=result.stats.depth).value
    exact = expectimax.search(game, node_limit=10 ** 5)
    assert exact.complete and exact.value == pig_win_probability(2, (1,), 4)


# ---------------------------------------------------------------------- max-n
@pytest.mark.parametrize("chance_share", [0.0, 0.3])
def test_shallow_pruning_returns_the_plain_maxn_vector(chance_share):
    plain_nodes = pruned_nodes = 0
    for seed in range(60):
        game = random_vector_tree(seed, depth=7, chance_share=chance_share)
        plain = maxn.search(game, prune=False)
        pruned = maxn.search(game)
        assert plain.values == maxn_by_definition(game.initial_state())
        assert pruned.values == plain.values and pruned.best_action == plain.best_action
        assert pruned.pv == plain.pv and pruned.extra["pruning"] == "shallow"
        plain_nodes += plain.stats.nodes
        pruned_nodes += pruned.stats.nodes
    assert pruned_nodes < plain_nodes


def test_shallow_pruning_is_exact_at_a_depth_limit():
    for seed in range(30):
        game = random_vector_tree(200 + seed, depth=8)
        for depth in (2, 4, 5):
            plain = maxn.search(game, depth=depth, prune=False)
            assert maxn.search(game, depth=depth).values == plain.values


def test_shallow_pruning_is_refused_without_non_negative_bounded_utilities():
    result = maxn.search(random_chance_tree(3))
    assert result.extra["pruning"].startswith("off: shallow pruning needs")
    assert result.values[0] == expectimax.search(random_chance_tree(3)).value
    game = tictactoe(3, "XO.......")
    game.constant_sum = None              # then the sum is only bounded by 3 x 1: no cut
    assert maxn.search(game).extra["pruning"].startswith("off: with utilities summing to at most 3")


def test_maxn_on_three_player_tictactoe_positions():
    plain_nodes = pruned_nodes = 0
    for board in ["XO.......", "XO.Y.....", "X.O.Y...."]:
        game = tictactoe(3, board)
        plain, pruned = maxn.search(game, prune=False), maxn.search(game)
        assert plain.values == pruned.values == maxn_by_definition(game.initial_state())
        assert pruned.best_action == plain.best_action
        plain_nodes += plain.stats.nodes
        pruned_nodes += pruned.stats.nodes
    assert pruned_nodes < plain_nodes


# ------------------------------------------------------------------- paranoid
def test_paranoid_equals_minimax_on_the_two_sided_reduction():
    alphabeta = searcher("alphabeta")
    for seed in range(40):
        game = random_vector_tree(seed, depth=7)
        result = paranoid.search(game)
        root = game.initial_state()
        assert result.value == paranoid_by_definition(root, 0)
        assert result.value == alphabeta(coalition(game, 0)).value
    for board in ["XO.Y.....", "X.O.Y...."]:
        game = tictactoe(3, board)
        me = game.initial_state().player()
        assert paranoid.search(game).value == paranoid_by_definition(game.initial_state(), me)


def test_paranoid_refuses_chance():
    with pytest.raises(ValueError, match="chance"):
        paranoid.search(dice_pig())


# ----------------------------------------------------------------------- MCTS
@pytest.mark.parametrize("board, winning", [
    ("XX.OO....", {(2, 0)}),              # X completes the top row
    ("X.O.X.O..", {(2, 2), (0, 1)}),      # O threatens; X wins on the diagonal at once
    ("X...O...X", None),
])
def test_mcts_finds_the_win_in_tictactoe(board, winning):
    game = tictactoe(2, board)
    if winning is None:                   # O must not lose: any edge cell holds
        result = mcts.search(game, iterations=3000, seed=1)
        assert result.best_action in {(1, 0), (0, 1), (2, 1), (1, 2)}
        return
    for seed in range(3):
        assert mcts.search(game, iterations=2000, seed=seed).best_action in winning


def test_mcts_statistics_sum_correctly():
    for game in [tictactoe(2), tictactoe(3), dice_pig(5, (1, 2), 8)]:
        tree = mcts.UCTSearch(game, seed=7)
        tree.run(iterations=1500)
        assert tree.root.visits == tree.iterations == 1500
        assert subtree_counts_consistent(tree.root)
        nodes = 0
        stack = [tree.root]
        while stack:
            node = stack.pop()
            nodes += 1
            kids = node.children.values() if isinstance(node.children, dict) else node.children or []
            stack.extend(kids)
        assert nodes == tree.nodes
        result = tree.result()
        assert result.extra["iterations"] == 1500 and result.stats.nodes == nodes
        assert sum(result.values) == pytest.approx(float(game.constant_sum))


def test_mcts_is_repeatable_with_a_seed_and_obeys_a_time_limit():
    game = dice_pig(6, (1, 2), 10)
    first = mcts.search(game, iterations=500, seed=3)
    second = mcts.search(game, iterations=500, seed=3)
    assert (first.best_action, first.value, first.stats.nodes) == (second.best_action, second.value, second.stats.nodes)
    timed = mcts.search(game, time_limit=0.2, seed=3)
    assert timed.extra["iterations"] > 0 and timed.stats.time_s < 120     # a hang guard, not a timing


def test_mcts_plays_piglet_sensibly():
    # at 1 : 0 with a turn total of 0, P(roll) = 4/5 beats P(hold) = 1 - P(0,1,0) = 3/5
    result = mcts.search(dice_pig(2, (1,), 40), iterations=4000, seed=5)
    assert result.best_action == "roll"


# ------------------------------------------------------------- compiled specs
def spec(name, **options):
    path = SPECS / name
    if not path.exists():
        pytest.skip(f"{name} not written yet")
    return framework.load(str(path), **options)


@pytest.mark.parametrize("goal, sides, turn_limit", [(4, 2, 5), (6, 3, 4), (8, 6, 3)])
def test_pig_spec_expectimax_equals_the_exhaustive_computation(goal, sides, turn_limit):
    game = spec("pig.yaml", goal=goal, sides=sides, turn_limit=turn_limit)
    expected = float(pig_win_probability(goal, tuple(range(2, sides + 1)), turn_limit))
    for mode in PRUNING_MODES:
        result = expectimax.search(game, **mode)
        assert (result.value + 1) / 2 == pytest.approx(expected, abs=1e-12)


def test_pig_spec_with_a_two_sided_die_is_piglet_doubled():
    game = spec("pig.yaml", goal=4, sides=2, turn_limit=7)
    piglet = expectimax.search(dice_pig(2, (1,), 7)).value
    assert (expectimax.search(game).value + 1) / 2 == pytest.approx(float(piglet), abs=1e-12)


def play(game, moves):
    state = game.initial_state()
    for move in moves:
        state = state.result(move)
    return state


def test_three_player_tictactoe_perft_matches_truths():
    game = spec("tictactoe3.yaml")
    assert perft(game.initial_state(), 9) == [9, 72, 504, 3024, 15120, 60480, 181440, 328320, 296352]


@pytest.mark.parametrize("moves", [[(0, 1), (1, 1)], [(0, 0), (1, 1), (2, 2)], [(1, 1), (0, 0)]])
def test_maxn_and_paranoid_on_the_three_player_tictactoe_spec(moves):
    game = spec("tictactoe3.yaml")
    state = play(game, moves)
    plain = maxn.search(game, state, prune=False)
    assert plain.values == maxn_by_definition(state)
    assert maxn.search(game, state).values == plain.values
    assert paranoid.search(game, state).value == paranoid_by_definition(state, state.player())


def test_three_player_isolation_spec():
    game = spec("isolation3.yaml", size=3)
    root = game.initial_state()
    plain = maxn.search(game, prune=False)
    assert maxn.search(game).values == plain.values and sorted(plain.values) == [0, 1, 1]
    assert paranoid.search(game).value == paranoid_by_definition(root, 0)
    limited = maxn.search(game, depth=4)
    assert limited.stats.evaluations > 0 and limited.values == maxn.search(game, depth=4, prune=False).values


def chance_nodes(state):
    stack = [state]
    while stack:
        state = stack.pop()
        if state.terminal_test():
            continue
        if state.is_chance():
            yield state
            stack.extend(state.result(outcome) for outcome, _ in state.chance_outcomes())
        else:
            stack.extend(state.result(action) for action in state.actions())


def test_slippery_isolation_spec():
    game = spec("slippery_isolation.yaml")
    root = game.initial_state()
    for node in chance_nodes(root):
        outcomes = node.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert all(p > 0 for _, p in outcomes) and len({o for o, _ in outcomes}) == len(outcomes)
    expected = expectimax_by_definition(root, 99, None)
    for mode in PRUNING_MODES:
        assert expectimax.search(game, **mode).value == pytest.approx(expected, abs=1e-12)
    certain = spec("slippery_isolation.yaml", hit=1)
    deterministic = searcher("alphabeta")(spec("mini_isolation.yaml")).value
    assert expectimax.search(certain).value == deterministic


@pytest.mark.parametrize("moves, winning", [
    ([(1, 2), (0, 0)], {(0, 2)}),                          # X forks
    ([(2, 1), (1, 2)], {(1, 1), (2, 2)}),
    ([(0, 1), (1, 2), (0, 2), (0, 0), (2, 2)], {(1, 0)}),  # O blocks and wins
])
def test_mcts_finds_the_forced_win_in_the_tictactoe_spec(moves, winning):
    game = spec("tictactoe.yaml")
    state = play(game, moves)
    alphabeta = searcher("alphabeta")
    assert {a for a in state.actions() if -alphabeta(game, state.result(a)).value == 1} == winning
    for seed in range(3):
        assert mcts.search(game, state, iterations=2000, seed=seed).best_action in winning


@pytest.mark.parametrize("moves, winning", [
    ([0, 0, 1, 1, 2, 2], {3}),                             # four in a row at once
    ([2, 2, 3, 3], {1, 4}),                                # an open three: wins in 3 plies
])
def test_mcts_finds_the_forced_win_in_the_connect_four_spec(moves, winning):
    game = spec("connect_four.yaml")
    state = play(game, moves)
    alphabeta = searcher("alphabeta")
    assert {a for a in state.actions()
            if -alphabeta(game, state.result(a), depth=4).value == 1} == winning
    for seed in range(2):
        assert mcts.search(game, state, iterations=6000, seed=seed).best_action in winning


@pytest.mark.parametrize("name", ["pig", "tictactoe3"])
def test_game_versions_equal_the_yaml_versions(name):
    from framework.frontend.printer import spec_fields
    from framework.loader import parse_spec
    assert spec_fields(parse_spec(SPECS / f"{name}.game")) == spec_fields(parse_spec(SPECS / f"{name}.yaml"))
    if name == "pig":
        values = [expectimax.search(spec(f"pig.{ext}", goal=6, sides=3, turn_limit=4)).value
                  for ext in ("yaml", "game")]
    else:
        values = [perft(spec(f"tictactoe3.{ext}").initial_state(), 5) for ext in ("yaml", "game")]
    assert values[0] == values[1]


# ------------------------------------------------- expectimax transposition table
def test_expectimax_table_changes_no_value_and_saves_nodes():
    # Pig revisits states (2 then 3 and 3 then 2 reach the same turn total); entries
    # searched above the horizon must not answer for deeper searches, or values drift
    game = spec("pig.yaml")
    for depth in range(1, 11):
        reference = expectimax.search(game, depth=depth, tt=False, star1=False, star2=False)
        for mode in PRUNING_MODES:
            with_table = expectimax.search(game, depth=depth, **mode)
            without = expectimax.search(game, depth=depth, tt=False, **mode)
            assert with_table.value == without.value == reference.value, (depth, mode)
            assert with_table.best_action == without.best_action, (depth, mode)
            if depth >= 6:
                assert with_table.stats.tt_hits > 0
                assert with_table.stats.nodes < without.stats.nodes, (depth, mode)
    limited = spec("pig.yaml", goal=6, sides=3, turn_limit=4)
    expected = float(pig_win_probability(6, (2, 3), 4))
    for mode in PRUNING_MODES:
        for tt in (False, True):
            result = expectimax.search(limited, tt=tt, **mode)
            assert (result.value + 1) / 2 == pytest.approx(expected, abs=1e-12)


def test_expectimax_table_on_random_chance_trees_and_under_a_budget():
    for seed in range(20):
        game = random_chance_tree(300 + seed, depth=7, players=2)
        for mode in PRUNING_MODES:
            assert (expectimax.search(game, **mode).value
                    == expectimax.search(game, tt=False, **mode).value)
    game = dice_pig(2, (1,), 4, evaluate=pig_estimate)
    result = expectimax.search(game, node_limit=200)
    assert result.value == expectimax.search(game, depth=result.stats.depth, tt=False).value


def test_expectimax_table_is_bounded_and_replaces_without_changing_a_value(monkeypatch):
    """The table has a fixed number of slots: `tt_mb` sets them (32 bytes each), and a
    table far too small for the search (entries replaced all the time) still gives the
    plain value and line; Fraction values come back exact, not as doubles."""
    from framework.search.exact_table import ExactTable
    made = []
    monkeypatch.setattr(ExactTable, "from_megabytes",
                        classmethod(lambda cls, mb: made.append(mb) or cls(max(1, int(mb * (1 << 20)) // 32))))
    game = spec("pig.yaml")
    for depth in (4, 8):
        reference = expectimax.search(game, depth=depth, tt=False, star1=False, star2=False)
        for mode in PRUNING_MODES:
            for size in ({"tt_size": 1}, {"tt_size": 61}, {"tt_mb": 0.01}):
                result = expectimax.search(game, depth=depth, **size, **mode)
                assert (result.value, result.pv) == (reference.value, reference.pv), (depth, mode, size)
    assert made == [0.01] * 2 * len(PRUNING_MODES)
    with pytest.raises(ValueError, match="tt_mb must be more than 0"):
        expectimax.search(game, depth=2, tt_mb=0)
    exact = dice_pig(5, (2, 3), 4)
    assert expectimax.search(exact, tt_size=8, star1=False, star2=False).value == pig_win_probability(5, (2, 3), 4)


# ------------------------------------------------- max-n reads the declared sum bound
def test_maxn_prunes_when_the_game_declares_a_bound_on_the_utility_sum(monkeypatch):
    game = spec("tictactoe3.yaml")        # the loader's cached Game: changes are undone below
    state = play(game, [(0, 1), (1, 1)])
    assert game.max_utility_sum == 1       # the checker's bound for a winner-takes-all game
    monkeypatch.setattr(game, "max_utility_sum", math.inf)           # as if nothing were known
    assert maxn.search(game, state).extra["pruning"].startswith("off: with utilities summing")
    monkeypatch.setattr(game, "max_utility_sum", 1)                  # the bound again
    plain = maxn.search(game, state, prune=False)
    pruned = maxn.search(game, state)
    assert pruned.extra["pruning"] == "shallow" and pruned.stats.cutoffs > 0
    assert pruned.values == plain.values == maxn_by_definition(state)
    assert pruned.best_action == plain.best_action
    assert pruned.stats.nodes < plain.stats.nodes
    monkeypatch.setattr(game, "utility_bounds", (-1, 1))      # negative utilities: never
    monkeypatch.setattr(game, "max_utility_sum", 1)
    assert maxn.search(game, state).extra["pruning"].startswith("off: shallow pruning needs")


def test_paranoid_for_a_chosen_player():
    game = spec("tictactoe3.yaml")
    state = play(game, [(0, 1), (1, 1)])
    for player in range(3):
        for given in (player, game.player_names[player], str(player)):
            result = paranoid.search(game, state, player=given)
            assert result.value == paranoid_by_definition(state, player)
            assert result.extra["player"] == game.player_names[player]
    with pytest.raises(ValueError, match="no player"):
        paranoid.search(game, state, player="Z")


# ------------------------------------------------------------------ command line
def solve_json(*args):
    import json
    import subprocess
    import sys
    from conftest import ROOT
    done = subprocess.run([sys.executable, "-m", "framework", "solve", *args, "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr


def test_cli_switches_of_the_chance_and_many_player_searchers():
    pig = ("game_specs/pig.yaml", "--set", "goal=6", "--set", "sides=3", "--set", "turn_limit=3")
    runs = {flags: solve_json(*pig, *flags)[0]
            for flags in ((), ("--no-star2",), ("--no-star1",), ("--no-star1", "--no-tt"))}
    assert [out["pruning"] for out in runs.values()] == ["star2", "star1", "off", "off"]
    assert len({out["value"] for out in runs.values()}) == 1
    assert runs[("--no-star1", "--no-tt")]["nodes"] > runs[("--no-star1",)]["nodes"]
    assert runs[("--no-star1", "--no-tt")]["stats"]["tt_hits"] == 0

    position = ("game_specs/tictactoe3.yaml", "--depth", "4", "--algo", "maxn")
    plain, _ = solve_json(*position, "--no-prune")
    default, _ = solve_json(*position)
    assert plain["pruning"] == "off" and default["pruning"] == "shallow"
    assert plain["values"] == default["values"]

    mcts_run = ("game_specs/tictactoe.yaml", "--algo", "mcts", "--iterations", "400", "--seed", "5")
    first, _ = solve_json(*mcts_run, "--exploration", "0.7")
    again, _ = solve_json(*mcts_run, "--exploration", "0.7")
    other, _ = solve_json(*mcts_run, "--exploration", "3")
    assert first["iterations"] == 400 and first["stats"]["nodes"] == again["stats"]["nodes"]
    assert (first["best_action"], first["value"]) == (again["best_action"], again["value"])
    assert (other["value"], other["stats"]["nodes"]) != (first["value"], first["stats"]["nodes"])

    out, _ = solve_json("game_specs/tictactoe3.yaml", "--algo", "paranoid", "--player", "Y",
                        "--depth", "3")
    assert out["player"] == "Y"
    out, note = solve_json("game_specs/tictactoe3.yaml", "--algo", "paranoid", "--depth", "2",
                           "--iterations", "5", "--no-prune")
    assert "--iterations; ignored" in note and "--no-prune; ignored" in note
