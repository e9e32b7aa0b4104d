"""Alpha-beta's table over states that carry their history (framework/search/history_table.py):
keyed by the position with a guard on the history, it must give exactly what the search
without a table and minimax give, at every fixed depth, from positions reached with a
history, and it must join transpositions (the point of it)."""
import random
from pathlib import Path

import pytest

import framework
from framework.search import alphabeta, minimax
from framework.search.tt import TranspositionTable

HERE = Path(__file__).resolve().parent
SPECS = HERE.parent / "game_specs"
NORTHCOTT = (SPECS / "northcott.yaml").read_text()
RULE = "repetition: {result: draw, count: 3}"
NIM0 = (HERE / "robustness" / "nim_take_zero.yaml").read_text().replace("heaps: [3, 4, 5]", "heaps: [1, 2]")


def northcott(rule=RULE, **options):
    options = options or {"width": 4, "white": [0, 0], "black": [3, 2]}
    return framework.load_text(NORTHCOTT.replace(RULE, rule), **options)


def positions(game, rng, count):
    """The start and `count` positions reached by random lines (each with its history)."""
    found = [game.initial_state()]
    while len(found) <= count:
        state = game.initial_state()
        for _ in range(rng.randrange(1, 9)):
            state = state.result(rng.choice(state.actions()))
            if state.terminal_test():
                break
        if not state.terminal_test():
            found.append(state)
    return found


def assert_agree(game, depths, rng, count=3):
    for state in positions(game, rng, count):
        for depth in depths:
            switches = {"ordering": rng.random() < .8, "pvs": rng.random() < .8, "aspiration": rng.random() < .5}
            with_table = alphabeta.search(game, state, depth=depth, **switches)
            without = alphabeta.search(game, state, depth=depth, tt=False)
            assert with_table.value == without.value == minimax.search(game, state, depth=depth).value, \
                (state, depth, switches)


@pytest.mark.parametrize("rule", [RULE, "repetition: {result: draw, count: 2}",
                                  "repetition: {result: loss, count: 3}", "repetition: {result: draw, count: 4}"])
def test_northcott_with_the_table_equals_without_and_minimax_at_fixed_depths(rule):
    assert_agree(northcott(rule), range(1, 9), random.Random(rule))


@pytest.mark.parametrize("rule", ["repetition: {result: draw, count: 2}", "repetition: {result: draw, count: 3}",
                                  "repetition: {result: loss, count: 2}", "repetition: {result: loss, count: 3}",
                                  "repetition: {result: draw, count: 3}\nmax_moves: {limit: 7, result: loss}"])
def test_a_game_where_repetitions_decide_the_value(rule):
    """Misère Nim with `take 0` (a pass): without the rule play is endless; the value with it
    depends on the count and the result (tests/test_repetition.py checks it from the rules)."""
    game = framework.load_text(NIM0 + rule + "\n")
    assert_agree(game, range(1, 8), random.Random(rule), count=4)
    assert alphabeta.search(game).value == alphabeta.search(game, tt=False).value


def test_the_table_joins_transpositions_under_the_rule():
    """Northcott 3x6 to depth 8: with the position-keyed table the ruled search visits about as
    many states as the rule-free one (11,130 and 10,909); keyed by the whole state it visited
    45,535."""
    options = {"width": 6, "white": [0, 0, 0], "black": [5, 4, 3]}
    ruled, free = northcott(**options), northcott("", **options)
    nodes = {name: alphabeta.search(game, depth=8, **switches).stats.nodes
             for name, game, switches in (("ruled", ruled, {}), ("free", free, {}),
                                          ("whole state", ruled, {"tt": TranspositionTable(200_000)}))}
    assert nodes["ruled"] <= 1.1 * nodes["free"] and nodes["whole state"] > 3 * nodes["ruled"], nodes


def test_an_unguarded_table_passed_in_is_keyed_by_the_whole_state():
    game, table = northcott(), TranspositionTable(10_000)
    first = alphabeta.search(game, depth=6, tt=table)
    assert first.value == alphabeta.search(game, depth=6, tt=False).value
    assert table.guards is None                                             # no guard array at all
    guarded = TranspositionTable(10_000, guarded=True)
    assert alphabeta.search(game, depth=6, tt=guarded).value == first.value
    assert any(guard is not None for guard in guarded.guards)
