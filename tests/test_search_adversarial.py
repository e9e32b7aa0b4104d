"""Minimax and alpha-beta against facts: Knuth & Moore's leaf counts, the published values
of tic-tac-toe, misère Nim, mini-Isolation and small Connect Four boards (each re-derived by
an independent solver written here, not through our compiler), exact agreement of every
alpha-beta enhancement with minimax, budgets, deep games, the opening book and the CLI."""
from __future__ import annotations

import functools
import itertools
import json
import math
import operator
import random
import signal
import subprocess
import sys
import time

import pytest

from explicit_tree import explicit_tree_game, negamax_value, uniform_tree
from framework.errors import SpecError
from framework.search import alphabeta, minimax
from framework.search.book import OpeningBook
from framework.search.ordering import MoveOrderer
from framework.search.tt import EXACT, LOWER, UPPER, TranspositionTable, usable
from framework.search.twoplayer import declares_noisy

try:
    from framework import load as load_spec
except ImportError:          # the spec compiler has not landed yet
    load_spec = None

from conftest import ROOT, SPECS

needs_specs = pytest.mark.skipif(load_spec is None, reason="framework.load is not available yet")


@functools.lru_cache(maxsize=None)
def _load_cached(path, frozen_options):
    return load_spec(path, **{name: json.loads(value) for name, value in frozen_options})


def load(path, **options):
    """`framework.load`, compiled once per spec and options (searches never change a game)."""
    return _load_cached(str(path), tuple(sorted((k, json.dumps(v)) for k, v in options.items())))

SWITCHES = ("tt", "ordering", "killers", "history", "id", "aspiration", "pvs", "quiescence")
PLAIN = dict.fromkeys(SWITCHES, False)
CONFIGS = ([PLAIN, dict.fromkeys(SWITCHES, True)]
           + [{**PLAIN, name: True} for name in SWITCHES]
           + [{**dict.fromkeys(SWITCHES, True), name: False} for name in SWITCHES])


def config_id(config):
    on = [name for name in SWITCHES if config[name]]
    return "plain" if not on else "all" if len(on) == len(SWITCHES) else "+".join(on)


# --- explicit trees ------------------------------------------------------------------

@pytest.mark.parametrize("branching,depth", [(3, 4), (2, 5), (4, 3)])
def test_knuth_moore_leaf_counts(branching, depth):
    minimal = branching ** math.ceil(depth / 2) + branching ** (depth // 2) - 1
    for order, expected in (("best", minimal), ("worst", branching ** depth)):
        tree = uniform_tree(branching, depth, order)
        game = explicit_tree_game(tree)
        result = alphabeta.search(game, **PLAIN)
        assert result.value == negamax_value(tree)
        assert result.stats.evaluations == expected, order
        assert game.leaf_visits == expected, order


TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]          # AIMA figure 5.2: value 3, move 0


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_textbook_tree(config):
    result = alphabeta.search(explicit_tree_game(TEXTBOOK), **config)
    assert (result.value, result.best_action, result.pv) == (3, 0, [0, 0])
    assert result.values == (3, -3) and result.complete


def test_minimax_counts_every_state_and_leaf():
    result = minimax.search(explicit_tree_game(TEXTBOOK))
    assert (result.value, result.best_action) == (3, 0)
    assert result.stats.nodes == 13 and result.stats.evaluations == 9


def test_depth_limit_uses_the_evaluation_and_prefers_terminal_utility():
    # MAX's move 0 leads to an inner node estimated at 10 (really worth 1); move 1 ends
    # the game at 5.  At depth 1 the estimate wins; searched fully, the terminal 5 wins.
    tree = [(10, [[1, 2], [1, 3]]), 5]
    game = explicit_tree_game(tree)
    for search in (minimax.search, alphabeta.search):
        shallow = search(game, depth=1)
        assert (shallow.value, shallow.best_action) == (10, 0)
        full = search(game)
        assert (full.value, full.best_action) == (5, 1)
    estimate = lambda state, player: 0
    assert minimax.search(game, depth=1, evaluate=estimate).value == 5


def test_quiescence_extends_noisy_moves_only():
    # MAX's move 0 reaches, at the cut-off, MIN's node estimated at 8 for MAX whose noisy
    # move 0 drops MAX to -4 (its quiet move 1 gives 9); move 1 reaches a quiet 3.
    trap = (8, [(-4, [-4]), (9, [9])], {0})
    game = explicit_tree_game([trap, (3, [[3]])])
    assert minimax.search(game, depth=1).value == 8
    reference = minimax.search(game, depth=1, quiescence=True)
    assert (reference.value, reference.best_action) == (3, 1)
    for config in CONFIGS:
        result = alphabeta.search(game, depth=1, **config)
        assert result.value == (3 if config["quiescence"] else 8), config_id(config)


def test_refuses_games_it_cannot_search():
    game = explicit_tree_game(TEXTBOOK)
    game.player_names = ("A", "B", "C")
    for search in (minimax.search, alphabeta.search):
        with pytest.raises(ValueError, match="needs 2 player"):
            search(game)
    game = explicit_tree_game(TEXTBOOK)
    game.chance = True
    with pytest.raises(ValueError, match="chance"):
        alphabeta.search(game)


def test_non_zero_sum_games_are_searched_on_the_utility_difference():
    game = explicit_tree_game(TEXTBOOK)
    game.zero_sum, game.constant_sum = False, None
    for search in (minimax.search, alphabeta.search):
        result = search(game)
        assert (result.value, result.best_action, result.values) == (6, 0, None)


def test_a_terminal_root_has_its_utility_and_no_move():
    for search in (minimax.search, alphabeta.search):
        result = search(explicit_tree_game(-7))
        assert (result.value, result.best_action, result.pv, result.complete) == (-7, None, [], True)


def test_constant_sum_values_are_split_around_the_constant():
    game = explicit_tree_game(TEXTBOOK)
    game.zero_sum, game.constant_sum = False, 0
    result = alphabeta.search(game)
    assert (result.value, result.values) == (6, (3, -3))


def test_node_budget_returns_the_best_fully_searched_root_move():
    tree = uniform_tree(3, 6, "best")
    game = explicit_tree_game(tree)
    result = minimax.search(game, node_limit=400)
    assert not result.complete and result.best_action == 0
    result = alphabeta.search(game, node_limit=60)
    assert not result.complete and result.best_action is not None


def test_transposition_table_bounds_replacement_and_size_limit():
    table = TranspositionTable(capacity=4)
    table.new_search()
    table.store("a", 3, EXACT, 1.0, "x", False)
    table.store("a", 2, LOWER, 5.0, "y", False)          # shallower, same search: kept out
    assert table.probe("a")[:4] == (3, EXACT, 1.0, "x")
    table.new_search()
    table.store("a", 1, UPPER, -2.0, "z", True)          # an older search's entry is replaced
    assert table.probe("a")[:4] == (1, UPPER, -2.0, "z")
    for key in "bcdef":
        table.store(key, 1, EXACT, 0.0, None, False)
    assert len(table) <= 4 and table.probe("f") is not None      # fixed size, newest kept
    assert sum(table.probe(key) is not None for key in "abcdef") == len(table)
    entry = (3, EXACT, 0, None, False, 0)
    assert usable(entry, 3) and not usable(entry, 4) and not usable(entry, 2)
    proven = (3, EXACT, 0, None, True, 0)                # no horizon below: good for any depth >= 3
    assert usable(proven, 5) and not usable(proven, 2)


def test_a_tiny_table_still_gives_exact_values():
    tree = uniform_tree(3, 5, "worst")
    for size in (2, 8, 64):
        assert alphabeta.search(explicit_tree_game(tree), tt_size=size).value == negamax_value(tree)


@needs_specs
def test_a_table_kept_between_searches_is_reused_and_stays_exact():
    game = load(SPECS / "connect_four.yaml")
    table = TranspositionTable()
    state = game.initial_state()
    for _ in range(3):
        kept = alphabeta.search(game, state, depth=5, tt=table)
        fresh = alphabeta.search(game, state, depth=5)
        assert kept.value == fresh.value == minimax.search(game, state, depth=5).value
        state = state.result(kept.best_action)
    assert kept.stats.tt_hits > fresh.stats.tt_hits


def test_move_ordering_puts_hint_noisy_killers_then_history_first():
    game = explicit_tree_game([(0, [1, 2, 3, 4, 5], {4})])
    orderer = MoveOrderer(game, noisy_hints=True)
    state = game.initial_state().result(0)
    orderer.record_cutoff(1, ply=2, mover=1, depth=3)
    orderer.record_cutoff(2, ply=0, mover=1, depth=1)
    assert orderer.order(state, [0, 1, 2, 3, 4], ply=0, mover=1, hint=None) == [4, 2, 1, 0, 3]
    assert orderer.order(state, [0, 1, 2, 3, 4], ply=0, mover=1, hint=3) == [3, 4, 2, 1, 0]
    assert MoveOrderer(game, killers=False, history=False, noisy_hints=False).order(
        state, [0, 1, 2, 3, 4], ply=0, mover=1, hint=None) == [0, 1, 2, 3, 4]


# --- tic-tac-toe ---------------------------------------------------------------------

@needs_specs
def test_tictactoe_minimax_visits_the_full_tree_and_draws():
    game = load(SPECS / "tictactoe.yaml")
    result = minimax.search(game)
    assert result.value == 0 and result.complete
    assert result.stats.nodes == 549_946
    assert result.stats.evaluations == 255_168          # complete games = leaves


@needs_specs
def test_tictactoe_every_first_move_draws():
    game = load(SPECS / "tictactoe.yaml")
    start = game.initial_state()
    assert alphabeta.search(game).value == 0
    for action in start.actions():
        child = start.result(action)
        assert alphabeta.search(game, child).values == (0, 0), game.action_text(action)
        assert alphabeta.search(game, child, **PLAIN).values == (0, 0)


# --- misère Nim ----------------------------------------------------------------------

def misere_mover_wins(heaps) -> bool:
    """TRUTHS.md: with every heap <= 1 the mover loses iff the count of non-empty heaps is
    odd; otherwise the mover loses iff the XOR of the heaps is 0."""
    if all(h <= 1 for h in heaps):
        return sum(heaps) % 2 == 0
    return functools.reduce(operator.xor, heaps) != 0


@needs_specs
def test_misere_nim_values_follow_the_rule_for_every_small_configuration():
    # Every configuration of up to 3 heaps of up to 4 objects is a position of the game
    # with heaps (4, 4, 4) (empty heaps play no part); it is reached by taking objects.
    game = load(SPECS / "nim.yaml", heaps=[4, 4, 4])
    start = game.initial_state()
    checked = 0
    for heaps in itertools.product(range(5), repeat=3):
        if not any(heaps):
            continue
        state = start
        for index, size in enumerate(heaps):
            if size < 4:
                state = state.result(game.parse_action(state, f"take({index},{4 - size})"))
        result = alphabeta.search(game, state)
        assert (result.value > 0) == misere_mover_wins(heaps), heaps
        checked += 1
    assert checked == 124
    for heaps, wins in (([1, 1, 1], False), ([1, 1], True), ([1], False), ([2, 2], False),
                        ([3, 4, 5], True), ([1, 2, 3], False)):
        nim = load(SPECS / "nim.yaml", heaps=heaps)
        assert (minimax.search(nim).value > 0) == wins, heaps
        assert (alphabeta.search(nim).value > 0) == wins, heaps


@needs_specs
def test_misere_nim_full_tree_sizes():
    assert minimax.search(load(SPECS / "nim.yaml", heaps=[2, 2])).stats.nodes == 33
    assert minimax.search(load(SPECS / "nim.yaml", heaps=[1, 2, 3])).stats.nodes == 447


@needs_specs
def test_a_5000_ply_game_does_not_overflow_the_stack():
    # plain alpha-beta takes one object at a time down the first line: 5,000 plies deep
    game = load(SPECS / "nim.yaml", heaps=[5000])
    result = alphabeta.search(game, depth=5000, node_limit=5010, **PLAIN)
    assert result.stats.nodes == 5011 and result.stats.expanded >= 5000
    assert result.best_action is not None and not result.complete


# --- mini-Isolation ------------------------------------------------------------------

def mini_isolation_winning_first_moves():
    """Player 1's winning first cells on the 3x2 board with (2,1) blocked, by exhaustive
    search over TRUTHS.md's rules: first move anywhere open, then queen slides through
    open cells; visited cells stay blocked; the game ends as soon as either player has no
    move, and that player loses (the mover, if both have none)."""
    cells = [(c, r) for r in range(2) for c in range(3)]
    rays = [(dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0)]

    def moves(blocked, token):
        if token is None:
            return [c for c in cells if c not in blocked]
        out = []
        for dc, dr in rays:
            c, r = token[0] + dc, token[1] + dr
            while 0 <= c < 3 and 0 <= r < 2 and (c, r) not in blocked:
                out.append((c, r))
                c, r = c + dc, r + dr
        return out

    def mover_wins(blocked, tokens, mover):
        mine, theirs = moves(blocked, tokens[mover]), moves(blocked, tokens[1 - mover])
        if not mine:
            return False
        if not theirs:
            return True
        for cell in mine:
            after = list(tokens)
            after[mover] = cell
            if not mover_wins(blocked | {cell}, tuple(after), 1 - mover):
                return True
        return False

    start = frozenset({(2, 1)})
    return {cell for cell in moves(start, None)
            if not mover_wins(start | {cell}, (cell, None), 1)}


@needs_specs
def test_mini_isolation_winning_first_moves_match_brute_force():
    game = load(SPECS / "mini_isolation.yaml")
    start = game.initial_state()
    by_minimax = {action for action in start.actions()
                  if minimax.search(game, start.result(action)).values[0] > 0}
    assert by_minimax == mini_isolation_winning_first_moves()
    assert minimax.search(game).stats.nodes == 205
    assert alphabeta.search(game).value == minimax.search(game).value


# --- Connect Four --------------------------------------------------------------------

def connect_four_value(width, height):
    """First player's value (+1 / 0 / -1) of the empty board: an exhaustive negamax with
    alpha-beta over Tromp-style bitboards (a column is height+1 bits) and a table of
    proven bounds, independent of the spec compiler."""
    column_bits = height + 1
    full = sum(((1 << height) - 1) << (c * column_bits) for c in range(width))
    centre_first = sorted(range(width), key=lambda c: abs(2 * c - (width - 1)))
    bounds = {}

    def four(stones):
        for shift in (1, column_bits, column_bits - 1, column_bits + 1):
            pairs = stones & (stones >> shift)
            if pairs & (pairs >> 2 * shift):
                return True
        return False

    def solve(mine, occupied, alpha, beta):
        if four(occupied ^ mine):                 # the opponent's last stone won
            return -1
        if occupied == full:
            return 0
        low, high = bounds.get((mine, occupied), (-1, 1))
        if low >= beta or high <= alpha:
            return low if low >= beta else high
        alpha_in, beta_in = alpha, beta
        alpha, beta = max(alpha, low), min(beta, high)
        best = -1
        for c in centre_first:
            column = ((1 << height) - 1) << (c * column_bits)
            if occupied & column == column:
                continue
            stone = (occupied + (1 << (c * column_bits))) & column & ~occupied
            best = max(best, -solve(mine ^ occupied, occupied | stone, -beta, -alpha))
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        if best <= alpha_in:
            bounds[(mine, occupied)] = (low, min(high, best))
        elif best >= beta_in:
            bounds[(mine, occupied)] = (max(low, best), high)
        else:
            bounds[(mine, occupied)] = (best, best)
        return best

    return solve(0, 0, -1, 1)


@needs_specs
@pytest.mark.parametrize("width,height,options", [(4, 4, {}), (5, 4, {"killers": False})])
def test_connect_four_small_boards_match_an_exhaustive_solver(width, height, options):
    expected = connect_four_value(width, height)
    assert expected == 0                                   # TRUTHS.md: both are draws
    game = load(SPECS / "connect_four.yaml", width=width, height=height)
    result = alphabeta.search(game, id=False, **options)
    assert result.value == expected and result.complete


@needs_specs
def test_connect_four_7x6_fixed_depth_is_the_same_with_every_combination():
    game = load(SPECS / "connect_four.yaml")
    depth = 5
    reference = minimax.search(game, depth=depth)
    start = game.initial_state()
    scores = [-minimax.search(game, start.result(a), depth=depth - 1).value for a in start.actions()]
    assert scores.count(max(scores)) == 1, "the best move must be unique to compare moves"
    for flags in itertools.product((False, True), repeat=len(SWITCHES)):
        config = dict(zip(SWITCHES, flags))
        result = alphabeta.search(game, depth=depth, **config)
        assert (result.value, result.best_action) == (reference.value, reference.best_action), config


# --- alpha-beta == minimax on every two-player spec ----------------------------------

def two_player_specs():
    if load_spec is None:
        return []
    return sorted(path.name for path in SPECS.glob("*.yaml")
                  if (lambda g: g.num_players == 2 and not g.chance)(load(path)))


def random_positions(game, count, rng):
    positions = []
    while len(positions) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(0, 12)):
            if state.terminal_test():
                break
            state = state.result(rng.choice(state.actions()))
        if not state.terminal_test():
            positions.append(state)
    return positions


def assert_alphabeta_equals_minimax(game, rng, positions=3):
    """On random reachable positions, at depths 1..4 while the minimax reference stays
    small, alpha-beta with every configuration returns minimax's value (with quiescence
    compared against minimax's quiescence)."""
    settings = (False, True) if declares_noisy(game) else (False,)
    for state in random_positions(game, positions, rng):
        for depth in range(1, 5):
            # deeper only while the reference stays small (Othello's states are slow)
            references = {quiescence: minimax.search(game, state, depth=depth, quiescence=quiescence,
                                                     node_limit=6000, time_limit=0.5)
                          for quiescence in settings}
            if not all(reference.complete for reference in references.values()):
                break
            for config in CONFIGS:
                expected = references[config["quiescence"] and len(settings) == 2].value
                value = alphabeta.search(game, state, depth=depth, **config).value
                assert value == expected, (game.name, str(state), depth, config_id(config))


@needs_specs
@pytest.mark.parametrize("spec", two_player_specs() or ["(no specs)"])
def test_alphabeta_equals_minimax_with_each_enhancement_on_and_off(spec):
    assert_alphabeta_equals_minimax(load(SPECS / spec), random.Random(spec))


@needs_specs
def test_quiescence_on_a_spec_with_noisy_moves(tmp_path):
    # Connect Four whose centre-column drops are marked noisy
    text = (SPECS / "connect_four.yaml").read_text()
    rule = "    then: board[drop(board, column)] = mover\n"
    assert rule in text
    path = tmp_path / "connect_four_noisy.yaml"
    path.write_text(text.replace(rule, rule + "    noisy: column == width // 2\n"))
    game = load_spec(path, width=5, height=4)
    assert declares_noisy(game)
    quiet = minimax.search(game, depth=1, quiescence=True)
    assert quiet.value != minimax.search(game, depth=1).value      # the extension matters here
    assert alphabeta.search(game, depth=1).value == quiet.value
    assert_alphabeta_equals_minimax(game, random.Random(7), positions=4)


# --- budgets -------------------------------------------------------------------------

class SteppingClock:
    """A clock that advances 1 ms per reading: budgets become deterministic to test.

    Work done after the deadline shows as readings past it, independent of how loaded
    the machine is (a wall-clock margin in a unit test fails on a busy CI runner)."""

    def __init__(self, step=0.001):
        self.now, self.step = 1000.0, step

    def __call__(self):
        self.now += self.step
        return self.now


@pytest.fixture
def stepping_clock(monkeypatch):
    clock = SteppingClock()
    monkeypatch.setattr(time, "perf_counter", clock)
    monkeypatch.setattr(alphabeta, "perf_counter", clock)
    monkeypatch.setattr(minimax, "perf_counter", clock)
    return clock


@needs_specs
@pytest.mark.parametrize("spec", ["connect_four.yaml", "othello.yaml"])
def test_iterative_deepening_stops_at_the_deadline(spec, stepping_clock):
    game = load(SPECS / spec)
    budget = 0.3
    start = stepping_clock.now
    result = alphabeta.search(game, time_limit=budget)
    overshoot = stepping_clock.now - start - budget
    assert overshoot <= 0.005            # at most a handful of clock readings after the deadline
    assert result.best_action in game.initial_state().actions()
    assert not result.complete and result.stats.depth >= 1
    fixed = alphabeta.search(game, depth=result.stats.depth)
    assert fixed.value == result.value


@needs_specs
def test_iterative_deepening_keeps_a_real_time_budget():
    game = load(SPECS / "othello.yaml")
    start = time.perf_counter()
    result = alphabeta.search(game, time_limit=0.3)
    assert time.perf_counter() - start < 120     # a hang guard, not a timing (the budget is 0.3 s)
    assert not result.complete and result.best_action is not None


# --- opening book --------------------------------------------------------------------

@needs_specs
def test_opening_book_merges_symmetries_and_answers_alphabeta(tmp_path):
    game = load(SPECS / "tictactoe.yaml")
    book = OpeningBook.build(game, plies=2, games=400, seed=1)
    start = game.initial_state()
    # the empty board's nine moves are three up to symmetry: corner, edge, centre
    assert len(book.positions[book.key(start)]) == 3
    path = tmp_path / "ttt.book.json"
    book.save(path)
    loaded = OpeningBook.load(path, game)
    assert loaded.positions == json.loads(json.dumps(book.positions))
    hit = loaded.lookup(start)
    result = alphabeta.search(game, book=str(path))
    assert result.best_action == hit.action and result.extra["book"]["games"] == hit.games
    assert result.stats.nodes == 1
    deep = start
    for action in ((0, 0), (1, 1), (2, 2)):
        deep = deep.result(action)
    assert alphabeta.search(game, deep, book=loaded).extra.get("book") is None
    with pytest.raises(SpecError, match="book for"):
        OpeningBook.load(path, load(SPECS / "tictactoe.yaml", m=4, n=4, k=3))


# --- command line --------------------------------------------------------------------

def plyspec(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "framework", *args], cwd=ROOT,
                          capture_output=True, text=True, **{"timeout": 600, **kwargs})


@needs_specs
def test_cli_solve_json_contract():
    done = plyspec("solve", "game_specs/tictactoe.yaml", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["value"] == 0 and out["values"] == [0, 0] and out["complete"]
    assert out["best_action"] == out["pv"][0] and len(out["pv"]) == 9
    assert out["nodes"] == out["stats"]["nodes"] > 0 and out["time_s"] >= 0
    done = plyspec("solve", "game_specs/nim.yaml", "--set", "heaps=[1,2,3]", "--algo", "minimax",
                   "--no-tt", "--json")
    out = json.loads(done.stdout)
    assert out["value"] == -1 and out["nodes"] == 447 and "--no-tt" in done.stderr
    done = plyspec("solve", "game_specs/connect_four.yaml", "--depth", "4", "--no-pvs", "--no-id")
    assert done.returncode == 0 and "best action" in done.stdout
    done = plyspec("solve", "game_specs/connect_four.yaml", "--depth", "3", "--progress", "--json")
    assert [line.split()[:2] for line in done.stderr.splitlines()] == [
        ["depth", "1"], ["depth", "2"], ["depth", "3"]]
    done = plyspec("solve", "game_specs/pig.yaml", "--algo", "alphabeta")
    assert done.returncode == 2 and "chance" in done.stderr            # a usage error


@needs_specs
def test_cli_book_then_solve_from_it(tmp_path):
    path = tmp_path / "c4.json"
    done = plyspec("book", "game_specs/connect_four.yaml", "--set", "width=5", "--set", "height=4",
                   "-o", str(path), "--plies", "2", "--games", "50", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["positions"] >= 1
    done = plyspec("solve", "game_specs/connect_four.yaml", "--set", "width=5", "--set", "height=4",
                   "--book", str(path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["book"]["games"] >= 1


@needs_specs
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_cli_ctrl_c_prints_the_best_result_so_far():
    # SIGINT at its default in the child: a test run started in the background of a
    # non-interactive shell inherits SIGINT ignored, and Python then never sees Ctrl-C
    process = subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "framework", "solve",
                                "game_specs/othello.yaml", "--json", "--progress"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    first_iteration = process.stderr.readline()          # the search is under way
    assert first_iteration.startswith("depth   1"), first_iteration
    process.send_signal(signal.SIGINT)
    try:
        stdout, stderr = process.communicate(timeout=300)
    except subprocess.TimeoutExpired:                    # show where every thread is
        process.send_signal(signal.SIGABRT)
        stdout, stderr = process.communicate(timeout=60)
        pytest.fail("no answer 300 s after Ctrl-C; stderr ends with:\n" + stderr[-4000:])
    assert process.returncode == 130, stderr
    out = json.loads(stdout)
    assert out["complete"] is False and out["interrupted"] is True and out["best_action"]
    assert out["stats"]["depth"] >= 1


@needs_specs
def test_minimax_keeps_its_time_and_node_budgets():
    game = load(SPECS / "connect_four.yaml")
    start = time.perf_counter()
    result = minimax.search(game, time_limit=0.3)
    assert time.perf_counter() - start < 120      # a hang guard, not a timing (the budget is 0.3 s)
    assert not result.complete and result.stats.nodes > 0
    result = minimax.search(game, node_limit=1000)
    assert not result.complete and 1000 <= result.stats.nodes <= 1000 + 7
    full = minimax.search(game, depth=3)
    assert full.stats.nodes == 1 + 7 + 49 + 343 and full.stats.expanded == 1 + 7 + 49
    assert full.stats.evaluations == 343


# --- tree recording ------------------------------------------------------------------

def test_the_recorded_tree_shows_the_textbook_cut_offs():
    from framework.search.trace import TreeTrace
    trace = TreeTrace()
    game = explicit_tree_game(TEXTBOOK)
    result = alphabeta.search(game, trace=trace, **PLAIN)
    recording = trace.to_dict(game)
    assert not recording["truncated"] and len(recording["iterations"]) == 1
    root = recording["iterations"][0]["tree"]
    assert (root["value"], root["bound"], root["player"]) == (result.value, "exact", "MAX")
    assert [child["score"] for child in root["children"]] == [3, 2, 2]
    first, second, third = root["children"]
    assert [leaf["score"] for leaf in first["children"]] == [-3, -12, -8]   # MIN's view
    assert second["pruned"] == 2 and second["children"][0]["cutoff"] and second["bound"] == "lower"
    assert "pruned" not in third and len(third["children"]) == 3
    leaves = sum(len(child["children"]) for child in root["children"])
    assert leaves == result.stats.evaluations == 7
    assert "CUT-OFF" in trace.to_text(game) and "2 move(s) pruned" in trace.to_text(game)


def test_the_tree_recording_is_bounded_and_follows_iterations():
    from framework.search.trace import TreeTrace
    game = explicit_tree_game(uniform_tree(3, 4, "worst"))
    small = TreeTrace(max_nodes=5)
    alphabeta.search(game, trace=small, **PLAIN)
    assert small.kept == 5 and small.seen > 5 and small.to_dict(game)["truncated"]
    deep = TreeTrace()
    result = alphabeta.search(game, depth=4, trace=deep, **{**PLAIN, "id": True, "tt": True})
    depths = [iteration["depth"] for iteration in deep.iterations]
    assert depths == [1, 2, 3, 4] and deep.iterations[-1]["tree"]["value"] == result.value
    solve = TreeTrace()                  # no depth and no budget: the depth doubles
    assert alphabeta.search(game, trace=solve, **{**PLAIN, "id": True}).value == result.value
    assert [iteration["depth"] for iteration in solve.iterations] == [1, 2, 4]


@needs_specs
def test_the_recorded_tree_counts_match_the_statistics():
    from framework.search.trace import TreeTrace
    game = load(SPECS / "tictactoe.yaml")
    trace = TreeTrace(max_nodes=100_000)
    result = alphabeta.search(game, depth=5, trace=trace)

    def count(record, kind):
        own = 1 if record.get("kind") == kind else 0
        return own + sum(count(child, kind) for child in record.get("children", ()))

    trees = [iteration["tree"] for iteration in trace.iterations]
    assert not trace.to_dict(game)["truncated"]
    assert sum(count(tree, "table") for tree in trees) == result.stats.tt_hits > 0
    assert trees[-1]["value"] == result.value
    # every visited state is recorded once, the root once per iteration (without PVS and
    # aspiration, which search some states twice)
    trace = TreeTrace(max_nodes=100_000)
    result = alphabeta.search(game, depth=5, trace=trace, pvs=False, aspiration=False)
    assert trace.seen == trace.kept == result.stats.nodes + len(trace.iterations) - 1


@needs_specs
def test_cli_writes_the_explored_tree(tmp_path):
    path = tmp_path / "tree.json"
    done = plyspec("solve", "game_specs/tictactoe.yaml", "--depth", "2", "--tree", str(path),
                   "--json")
    assert done.returncode == 0, done.stderr
    recording = json.loads(path.read_text())
    assert recording["format"] == "plyspec-tree/1" and recording["game"] == "Tic-tac-toe"
    assert [it["depth"] for it in recording["iterations"]][:2] == [1, 2]
    assert recording["iterations"][0]["tree"]["children"][0]["move"] == "place(0,0)"
    text = tmp_path / "tree.txt"
    done = plyspec("solve", "game_specs/tictactoe.yaml", "--depth", "2", "--tree", str(text),
                   "--tree-nodes", "10")
    assert done.returncode == 0 and "truncated after 10 nodes" in text.read_text()
    done = plyspec("solve", "game_specs/tictactoe.yaml", "--algo", "minimax", "--depth", "1",
                   "--tree", str(text), "--json")
    assert "--tree; ignored" in done.stderr


@needs_specs
def test_each_enhancement_in_the_benchmark_order_cuts_nodes_on_connect_four():
    # bench_adversarial.py's claim, at depth 8: table, its move, iterative deepening (the
    # shallower iterations leave table moves, killers and history to the deepest one),
    # killers, history, aspiration and PVS each visit fewer nodes than the row before
    game = load(SPECS / "connect_four.yaml")
    config = dict.fromkeys(SWITCHES, False)
    nodes = [alphabeta.search(game, depth=8, **config).stats.nodes]
    for step in ("tt", "ordering", "id", "killers", "history", "aspiration", "pvs"):
        config[step] = True
        nodes.append(alphabeta.search(game, depth=8, **config).stats.nodes)
    assert all(later < earlier for earlier, later in zip(nodes, nodes[1:])), nodes
    assert nodes[3] * 2 < nodes[2]          # iterative deepening with the table move: > 2x


@needs_specs
def test_minimax_stops_within_one_check_interval_of_the_deadline(stepping_clock):
    game = load(SPECS / "connect_four.yaml")
    start = stepping_clock.now
    result = minimax.search(game, time_limit=0.05)
    assert stepping_clock.now - start - 0.05 <= 0.005
    assert not result.complete and result.best_action is not None


def test_solve_prints_the_depth_it_reached():
    """An exact solve deepens 1, 2, 4, 8, 16, but tic-tac-toe ends by ply 9: the depth is 9;
    a searcher without iterations (paranoid, retrograde) searched every line to its end."""
    import contextlib
    import io
    from framework.cli import main

    def solve(*argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["solve", *argv]) == 0
        return out.getvalue()
    assert json.loads(solve("tictactoe", "--json"))["stats"]["depth"] == 9
    assert json.loads(solve("connect_four", "--depth", "5", "--json"))["stats"]["depth"] == 5
    for argv in (["tictactoe3", "--algo", "paranoid"], ["northcott"]):
        depth = [line for line in solve(*argv).splitlines() if "depth" in line]
        assert len(depth) == 1 and "to the end" in depth[0], depth
