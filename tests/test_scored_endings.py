"""Scored history endings and repetition over part of the state (issue 30 items 2 and 3):
`repetition` / `max_moves` with `winner: EXPR` or `utility: EXPR`, and `repetition: {...,
over: [...]}` (positional superko included), in both syntaxes, the checker's errors, the
compiled rules against a brute force written here from the rules and against the reference
interpreter, and the editor's hover on the names `over` lists."""
from __future__ import annotations

import functools
import random
from collections import Counter
from pathlib import Path

import pytest

import framework
from framework.conformance.differential import find_difference
from framework.errors import SpecError
from framework.frontend.printer import to_game, to_yaml
from framework.interpreter import interpret_text
from framework.loader import parse_text
from framework.lsp.analysis import analyse
from framework.search.registry import searcher

HERE = Path(__file__).resolve().parent

# Misère Nim on heaps [1, 2] allowing `take 0` (a pass), with a ply counter that makes every
# whole state distinct: only a rule `over` the heaps and the mover sees repetitions.
NIM = """game: Nim with a ply counter
players: [P1, P2]
options: {heaps: [1, 2]}
state:
  heap: {type: 0..2, size: 2, initial: heaps}
  ply: {type: 0..60, initial: 0}
actions:
  take(h in 0..1, n in 0..2):
    if: n <= heap[h]
    then: heap[h] -= n; ply += 1
terminal: sum(heap) == 0
winner: mover
"""


def nim(rule: str) -> str:
    return NIM + rule + "\n"


def children(heaps):
    return [heaps[:h] + (heaps[h] - n,) + heaps[h + 1:] for h in range(len(heaps)) for n in range(heaps[h] + 1)]


def reference_value(count=2, limit=None, on_repeat=None, at_limit=None, forbidden=False, key=lambda h, m: (h, m)):
    """P1's minimax value over whole histories, written from the rules: a position (its
    `key`) reached for the count-th time scores `on_repeat(heaps, mover)` (or, `forbidden`,
    is not a legal move; a player left without moves draws), the limit-th move scores
    `at_limit`; the player to move at the end (taking the last object loses) wins."""
    @functools.lru_cache(maxsize=None)
    def value(heaps, mover, seen, moves):
        counts, results = Counter(dict(seen)), []
        for child in children(heaps):
            nxt = 1 - mover
            if sum(child) == 0:
                results.append(1 if nxt == 0 else -1)
                continue
            k = key(child, nxt)
            if on_repeat is not None or forbidden:
                if counts[k] + 1 >= count:
                    if not forbidden:
                        results.append(on_repeat(child, nxt))
                    continue
            if limit is not None and moves + 1 >= limit:
                results.append(at_limit(child, nxt))
                continue
            counts[k] += 1
            results.append(value(child, nxt, frozenset(counts.items()), moves + 1))
            counts[k] -= 1
        if not results:
            return 0
        return max(results) if mover == 0 else min(results)
    start = ((1, 2), 0)
    return value(*start, frozenset({(key(*start), 1)}), 0)


P1_IF_FIRST_EMPTY = lambda heaps, mover: 1 if heaps[0] == 0 else -1     # noqa: E731
DIFFERENCE = lambda heaps, mover: heaps[0] - heaps[1]                  # noqa: E731
CASES = [
    ("repetition: {winner: 'P1 if heap[0] == 0 else P2', over: [heap, mover]}",
     dict(on_repeat=P1_IF_FIRST_EMPTY)),
    ("repetition: {winner: 'P1 if heap[0] == 0 else P2', count: 3, over: [mover, heap]}",
     dict(count=3, on_repeat=P1_IF_FIRST_EMPTY)),
    ("repetition: {utility: 'heap[0] - heap[1]', over: [heap]}",
     dict(on_repeat=DIFFERENCE, key=lambda h, m: h)),
    ("repetition: {result: forbidden, over: [heap]}", dict(forbidden=True, key=lambda h, m: h)),
    ("repetition: {result: draw, over: [heap, mover]}", dict(on_repeat=lambda h, m: 0)),
    ("max_moves: {limit: 4, utility: 'heap[0] - heap[1]'}\nrepetition: {result: forbidden, over: [heap, mover]}",
     dict(limit=4, at_limit=DIFFERENCE, forbidden=True)),
]


@pytest.mark.parametrize("rule, reference", CASES)
def test_alphabeta_equals_a_brute_force_written_from_the_rules(rule, reference):
    game = framework.load_text(nim(rule))
    assert searcher("alphabeta")(game).value == reference_value(**reference)


@pytest.mark.parametrize("rule", [rule for rule, _ in CASES])
def test_the_compiled_rules_agree_with_the_interpreter(rule):
    text = nim(rule)
    assert find_difference(framework.load_text(text), interpret_text(text), bfs_states=300) is None
    game_text = to_game(parse_text(text, "n.yaml", "yaml"))
    assert find_difference(framework.load_text(game_text, "game"), interpret_text(text), bfs_states=100) is None


def test_the_differential_test_sees_a_wrong_part_of_the_state():
    compiled = framework.load_text(nim("repetition: {result: draw, over: [heap]}"))
    wrong = interpret_text(nim("repetition: {result: draw, over: [heap, mover]}"))
    assert find_difference(compiled, wrong) is not None


def test_without_over_the_counter_hides_every_repetition():
    whole = framework.load_text(nim("repetition: draw"))
    state = whole.initial_state().result((0, 0)).result((0, 0))       # both pass: heaps and mover as at the start
    assert not state.terminal_test()
    part = framework.load_text(nim("repetition: {utility: 'heap[0] - heap[1]', over: [heap, mover]}"))
    state = part.initial_state().result((0, 0)).result((0, 0))
    assert state.terminal_test() and state.returns() == (-1, 1) and "repetition rule" in str(state)


def test_positional_superko_forbids_recreating_any_earlier_board():
    superko = framework.load_text(nim("repetition: {result: forbidden, over: [heap]}"))
    start = superko.initial_state()
    assert {(0, 0), (1, 0)}.isdisjoint(start.actions()) and (1, 1) in start.actions()   # a pass recreates the board
    situational = framework.load_text(nim("repetition: {result: forbidden, over: [heap, mover]}"))
    after_pass = situational.initial_state().result((0, 0))
    assert {(0, 0), (1, 0)}.isdisjoint(after_pass.actions()) and (0, 1) in after_pass.actions()
    with pytest.raises(ValueError, match="repeats a position"):
        after_pass.result((0, 0))


def test_a_scored_move_limit_scores_the_final_position():
    game = framework.load_text(nim("max_moves: {limit: 2, winner: 'P2 if heap[1] == 2 else none'}"))
    state = game.initial_state().result((0, 0)).result((0, 0))
    assert state.terminal_test() and state.returns() == (-1, 1)
    assert game.initial_state().result((0, 0)).result((1, 1)).returns() == (0, 0)


# ----------------------------------------------------------------- the language
@pytest.mark.parametrize("yaml_rule, game_rule", [
    ("repetition: {result: draw, count: 3, over: [heap, mover]}", "repetition draw 3 over heap, mover"),
    ("repetition: {winner: 'P1 if heap[0] == 0 else P2', count: 3}", "repetition winner P1 if heap[0] == 0 else P2 count 3"),
    ("repetition: {utility: 'heap[0]', over: [heap]}", "repetition utility heap[0] over heap"),
    ("max_moves: {limit: 9, winner: next(mover)}", "max_moves 9 winner next(mover)"),
    ("max_moves: {limit: 9, utility: 'heap[0] - 1'}", "max_moves 9 utility heap[0] - 1"),
])
def test_both_syntaxes_say_the_same_and_print_back(yaml_rule, game_rule):
    spec = parse_text(nim(yaml_rule), "n.yaml", "yaml")
    key = yaml_rule.split(":")[0]
    assert game_rule in to_game(spec)
    from_game = parse_text(to_game(spec), "n.game", "game")
    again = parse_text(to_yaml(spec), "m.yaml", "yaml")
    assert getattr(from_game, key) == getattr(again, key) == getattr(spec, key)


@pytest.mark.parametrize("rule, message, col", [
    ("repetition: {result: draw, over: [heap, turn]}", "`turn` is not a part of the state", 41),
    ("repetition: {result: draw, over: [heap, heap]}", "`heap` is named twice in `over`", 41),
    ("repetition: {result: draw, over: []}", "`over` names no part of the state", 34),
    ("repetition: {winner: P1, result: draw}", "not both `winner` and `result`", 26),
    ("max_moves: {limit: 3, over: [heap]}", "unknown key `over` in max_moves", 23),
    ("repetition: {utility: 'heap[0] if me == P1 else 0'}", "the utilities always sum to 0", 24),
    ("repetition: {winner: 'heap[0]'}", "repetition winner", 23),
])
def test_bad_rules_are_spec_errors_at_their_place(rule, message, col):
    with pytest.raises(SpecError) as info:
        framework.load_text(nim(rule))
    error = info.value
    assert message in str(error) and (error.line, error.col) == (NIM.count("\n") + 1, col), str(error)


def test_game_syntax_errors_point_at_the_name():
    text = to_game(parse_text(nim("repetition: {result: draw, over: [heap, mover]}"), "n.yaml", "yaml"))
    with pytest.raises(SpecError) as info:
        framework.load_text(text.replace("over heap, mover", "over heap, ply, hepa"), "game")
    line = text.splitlines().index("repetition draw over heap, mover") + 1
    assert "`hepa` is not a part" in str(info.value) and "did you mean `heap`" in str(info.value)
    assert (info.value.line, info.value.col) == (line, len("repetition draw over heap, ply, ") + 1)


def test_retrograde_refuses_a_repetition_over_part_of_the_state():
    game = framework.load_text(nim("repetition: {result: draw, over: [heap, mover]}"))
    with pytest.raises(ValueError, match="over part of the state"):
        searcher("retrograde")(game)


def test_the_editor_hovers_the_names_over_lists():
    text = nim("repetition: {winner: 'P1 if heap[0] == 0 else P2', over: [heap, mover]}")
    result = analyse("n.yaml", text)
    line = NIM.count("\n") + 1
    found = {o.name: o for o in result.occurrences if o.line == line}
    assert result.declaration(found["heap"]).detail.startswith("state variable `heap`")
    assert {"heap", "mover", "P1", "P2"} <= set(found)


@pytest.mark.parametrize("rule", [rule for rule, _ in CASES] + ["repetition: {result: loss, count: 3}\nmax_moves: 9"])
def test_the_history_kernel_agrees_with_the_course_interface(rule):
    """Every rule on the kernel (framework/history_kernel.py): the same moves, children,
    terminal tests and returns as the course interface, state by state on seeded random
    games, and the same perft."""
    from framework.perft import perft
    from tests.test_kernel import _agree
    game = framework.load_text(nim(rule))
    kernel = game.kernel
    assert kernel is not None and type(game.initial_state())._kernel is kernel
    rng = random.Random(rule)
    for _ in range(30):
        state = game.initial_state()
        packed = tuple(state)
        while True:
            raw = _agree(kernel, state, packed)
            assert kernel.terminal(packed) == state.terminal_test() == (not raw)
            if not raw:
                assert kernel.returns(packed) == state.returns()
                break
            move = rng.choice(raw)
            state, packed = state.result(kernel.action(move)), kernel.apply(packed, move)
            assert kernel.view(packed) == state
    fast = perft(game.initial_state(), 8)
    type(game.initial_state())._kernel = None
    try:
        assert perft(game.initial_state(), 8) == fast
    finally:
        type(game.initial_state())._kernel = kernel
