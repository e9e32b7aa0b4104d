"""Repetition and move-limit rules (issue 12 item 5, issue 13 item 3): the language, the
checker, the compiled games against plain-Python computations written here from the rules
(a retrograde analysis, brute-force searches over histories, perft with the rule), the
reference interpreter, the conformance property and `solve`."""
from __future__ import annotations

import functools
import pickle
from collections import Counter
from pathlib import Path

import pytest

import framework
from framework.cli import main
from framework.conformance.cycles import NAME as CYCLES, positions_do_not_repeat
from framework.conformance.differential import find_difference
from framework.conformance.games import path_text
from framework.conformance.report import FAILED, NOT_APPLICABLE, PASSED
from framework.errors import SpecError
from framework.frontend.printer import to_game, to_yaml
from framework.interpreter import interpret_text
from framework.loader import parse_text
from framework.perft import perft
from framework.search.registry import searcher

HERE = Path(__file__).resolve().parent
SPECS = HERE.parent / "game_specs"
NIM0 = (HERE / "robustness" / "nim_take_zero.yaml").read_text().replace("heaps: [3, 4, 5]", "heaps: [1, 2]")


def nim0(rule: str) -> str:
    """Misère Nim on heaps [1, 2] allowing `take 0` (a pass), with `rule` appended."""
    return NIM0 + rule + "\n"


# ----------------------------------------------------------------- plain-Python references
def nim_children(heaps):
    return [heaps[:h] + (heaps[h] - n,) + heaps[h + 1:] for h in range(len(heaps)) for n in range(heaps[h] + 1)]


def nim_history_value(rule, count=2, limit=None):
    """Negamax over whole histories, from the rules: the value for the first player."""
    @functools.lru_cache(maxsize=None)
    def value(heaps, mover, seen, moves):
        if sum(heaps) == 0:
            return 1                                    # the other player took the last object
        counts = Counter(dict(seen))
        best, allowed = None, 0
        for child in nim_children(heaps):
            position = (child, 1 - mover)
            if sum(child) == 0:
                v = -1
            elif rule and counts[position] + 1 >= count:
                if rule == "forbidden":
                    continue
                v = 0 if rule == "draw" else -1
            elif limit is not None and moves + 1 >= limit:
                v = 0 if rule_at_limit[0] == "draw" else -1
            else:
                counts[position] += 1
                v = -value(child, 1 - mover, frozenset(counts.items()), moves + 1)
                counts[position] -= 1
            allowed += 1
            best = v if best is None else max(best, v)
        return 0 if allowed == 0 else best              # every move forbidden: a draw
    rule_at_limit = [rule or "draw"]
    if limit is not None:
        rule_at_limit[0], rule = rule, None
    start = ((1, 2), 0)
    return value((1, 2), 0, frozenset({(start, 1)}), 0)


def retrograde(start, children, terminal_value):
    """Win (+1) / draw (0) / loss (-1) for the player to move at `start`, by the textbook
    fixpoint: won if some move reaches a lost position, lost if every move reaches a won
    one, a draw when neither ever holds (endless play).  `terminal_value(p)` is the value of
    a terminal position for its player to move, None for the others."""
    positions, todo = {start}, [start]
    while todo:
        p = todo.pop()
        for child in ([] if terminal_value(p) is not None else children(p)):
            if child not in positions:
                positions.add(child)
                todo.append(child)
    value = {p: terminal_value(p) for p in positions if terminal_value(p) is not None}
    changed = True
    while changed:
        changed = False
        for p in positions:
            if p in value:
                continue
            results = [value.get(c) for c in children(p)]
            if -1 in results:
                value[p], changed = 1, True
            elif all(r == 1 for r in results):
                value[p], changed = -1, True
    return value.get(start, 0)


def northcott_children(position, width):
    rows, mover = position
    out = []
    for r, (a, b) in enumerate(rows):
        targets = [x for x in range(b) if x != a] if mover == 0 else [x for x in range(a + 1, width) if x != b]
        for x in targets:
            row = (x, b) if mover == 0 else (a, x)
            out.append((rows[:r] + (row,) + rows[r + 1:], 1 - mover))
    return out


def northcott_start(white, black):
    return tuple(zip(white, black)), 0


# ----------------------------------------------------------------- the language
def test_both_syntaxes_read_the_rules_and_the_printer_writes_them_back():
    yaml_spec = parse_text(nim0("repetition: {result: loss, count: 3}\nmax_moves: {limit: 2 * 20, result: draw}"),
                           "n.yaml", "yaml")
    assert (yaml_spec.repetition.result, yaml_spec.max_moves.result) == ("loss", "draw")
    for text, fmt in ((to_yaml(yaml_spec), "yaml"), (to_game(yaml_spec), "game")):
        again = parse_text(text, "again", fmt)
        assert (again.repetition, again.max_moves) == (yaml_spec.repetition, yaml_spec.max_moves)
    short = parse_text(nim0("repetition: forbidden\nmax_moves: 12"), "n.yaml", "yaml")
    assert (short.repetition.result, short.repetition.count, short.max_moves.result) == ("forbidden", None, "draw")
    assert "repetition draw 3" in (SPECS / "northcott.game").read_text()
    assert to_game(parse_text((SPECS / "northcott.game").read_text(), "n.game", "game")).count("repetition draw 3") == 1


@pytest.mark.parametrize("rule, message", [
    ("repetition: drwa", "unknown repetition result `drwa`"),
    ("repetition: {result: draw, count: 1}", "repetition count is 1; it must be from 2"),
    ("max_moves: 0", "max_moves limit is 0"),
    ("max_moves: {limit: 10, result: forbidden}", "unknown max_moves result `forbidden`"),
    ("repetition: {result: draw, cout: 3}", "unknown key `cout` in repetition"),
])
def test_bad_rules_are_spec_errors_at_their_line(rule, message):
    with pytest.raises(SpecError) as info:
        framework.load_text(nim0(rule))
    assert message in str(info.value) and info.value.line == NIM0.count("\n") + 1


def test_a_loss_needs_two_players_and_a_winner():
    three = (SPECS / "tictactoe3.yaml").read_text() + "repetition: loss\n"
    with pytest.raises(SpecError, match="needs two players and a `winner`"):
        framework.load_text(three)


# ----------------------------------------------------------------- the meaning, checked independently
@pytest.mark.parametrize("rule, count", [("draw", 2), ("draw", 3), ("loss", 2), ("loss", 3),
                                         ("forbidden", 2), ("forbidden", 3)])
def test_alphabeta_over_histories_equals_a_brute_force_written_from_the_rules(rule, count):
    game = framework.load_text(nim0(f"repetition: {{result: {rule}, count: {count}}}"))
    assert searcher("alphabeta")(game).value == nim_history_value(rule, count)


@pytest.mark.parametrize("result", ["draw", "loss"])
def test_a_move_limit_ends_the_game_as_declared(result):
    game = framework.load_text(nim0(f"max_moves: {{limit: 5, result: {result}}}"))
    assert searcher("alphabeta")(game).value == nim_history_value(result, limit=5)
    assert max(len(perft(game.initial_state(), 8)), 0) == 8 and perft(game.initial_state(), 6)[5] == 0


def test_a_draw_by_repetition_has_the_retrograde_value():
    """Where endless play is a draw the value is the retrograde one (the winner's
    strategy never repeats a position), whatever the count."""
    expected = retrograde(((1, 2), 0), lambda p: [(c, 1 - p[1]) for c in nim_children(p[0])],
                          lambda p: 1 if sum(p[0]) == 0 else None)     # misère: the mover has won
    assert expected == nim_history_value("draw", 2) == 0              # passing escapes the loss
    for count in (2, 3, 4):
        game = framework.load_text(nim0(f"repetition: {{result: draw, count: {count}}}"))
        assert searcher("retrograde")(game).value == expected == searcher("alphabeta")(game).value


@pytest.mark.parametrize("white, black, width", [((0, 0), (3, 2), 4), ((0, 0), (3, 3), 4),
                                                 ((0, 1), (4, 3), 5), ((0, 0), (4, 4), 5)])
def test_northcott_value_is_the_retrograde_value_and_the_nim_rule(white, black, width):
    expected = retrograde(northcott_start(white, black), lambda p: northcott_children(p, width),
                          lambda p: None if northcott_children(p, width) else -1)
    gaps = 0
    for a, b in zip(white, black):
        gaps ^= b - a - 1
    assert expected == (1 if gaps else -1)               # the gaps play as Nim heaps
    game = framework.load(SPECS / "northcott.yaml", width=width, white=list(white), black=list(black))
    result = searcher("retrograde")(game)
    assert result.value == expected and result.complete
    state = game.initial_state()                         # the line shown is legal and ends
    for action in result.pv:
        state = state.result(action)
    assert state.terminal_test() and state.utility(0) == expected


def test_northcott_perft_with_the_threefold_rule_is_counted_independently():
    width, start = 4, northcott_start((0, 0), (3, 2))
    counts = [0] * 10

    def walk(position, seen, ply):
        for child in northcott_children(position, width):
            counts[ply] += 1
            if ply + 1 == len(counts) or not northcott_children(child, width) or seen[child] + 1 >= 3:
                continue
            seen[child] += 1
            walk(child, seen, ply + 1)
            seen[child] -= 1
    walk(start, Counter({start: 1}), 0)
    for spec in ("northcott.yaml", "northcott.game"):
        assert perft(framework.load(SPECS / spec).initial_state(), 10) == counts


# ----------------------------------------------------------------- compiled = interpreted
@pytest.mark.parametrize("rule", ["repetition: draw", "repetition: {result: loss, count: 3}",
                                  "repetition: forbidden", "max_moves: {limit: 7, result: loss}",
                                  "repetition: draw\nmax_moves: 6"])
def test_the_compiled_rules_agree_with_the_interpreter(rule):
    text = nim0(rule)
    assert find_difference(framework.load_text(text), interpret_text(text), bfs_states=400) is None


def test_the_differential_test_sees_a_wrong_count():
    compiled = framework.load_text(nim0("repetition: {result: draw, count: 2}"))
    wrong = interpret_text(nim0("repetition: {result: draw, count: 3}"))
    difference = find_difference(compiled, wrong)
    assert difference is not None and difference.path == ["take(0,0)", "take(0,0)"]


def test_states_with_history_pickle_hash_and_print():
    game = framework.load_text(nim0("repetition: draw"))
    state = game.initial_state().result((0, 0)).result((0, 0))
    assert state.terminal_test() and state.returns() == (0, 0) and "repetition rule" in str(state)
    assert hash(game.initial_state().result((1, 1))) == hash(game.initial_state().result((1, 1)))
    northcott = framework.load(SPECS / "northcott.yaml")
    state = northcott.initial_state()
    for text in ("slide(0,0,1,0)", "slide(3,0,2,0)", "slide(1,0,0,0)"):
        state = state.result(northcott.parse_action(state, text))
    assert pickle.loads(pickle.dumps(state)) == state and len(state[1]) == 4


# ----------------------------------------------------------------- the conformance property
def test_the_property_flags_a_cycle_without_a_rule_and_passes_with_one():
    outcome = positions_do_not_repeat(framework.load_text(NIM0), path_text, seed=1)
    assert outcome.status == FAILED and outcome.counterexample == ["take(0,0)", "take(0,0)"]
    assert "repetition: draw" in outcome.detail
    assert "the last 2 actions return to the initial position" in outcome.detail    # not "after the first 0"
    for rule in ("repetition: loss", "repetition: forbidden", "max_moves: 30"):
        outcome = positions_do_not_repeat(framework.load_text(nim0(rule)), path_text, seed=1)
        assert outcome.status == PASSED and rule.split(":")[0] in outcome.detail, rule
    assert positions_do_not_repeat(framework.load(SPECS / "pig.yaml"), path_text).status == NOT_APPLICABLE


def test_plyspec_test_runs_the_property():
    from framework.conformance.games import PROPERTIES          # (the shipped specs' reports
    assert CYCLES in PROPERTIES                                 #  list every property in order)


# ----------------------------------------------------------------- solve
def test_solve_refuses_a_game_whose_positions_repeat_without_a_rule(capsys, tmp_path):
    spec = tmp_path / "nim0.yaml"
    spec.write_text(NIM0)
    assert main(["solve", str(spec)]) == 1
    err = capsys.readouterr().err
    assert "can repeat (take(0,0) take(0,0): the last 2 actions return to the initial position)" in err
    assert "repetition: draw" in err
    assert main(["solve", str(spec), "--depth", "4", "--json"]) == 0      # bounded: allowed
    spec.write_text(nim0("repetition: draw"))
    capsys.readouterr()
    assert main(["solve", str(spec), "--json"]) == 0
    assert '"algorithm": "retrograde"' in capsys.readouterr().out


def test_retrograde_refuses_rules_that_make_the_history_part_of_the_game():
    for rule in ("repetition: loss", "max_moves: 9"):
        with pytest.raises(ValueError, match="use alphabeta"):
            searcher("retrograde")(framework.load_text(nim0(rule)))
    game = framework.load_text(nim0("repetition: draw"))
    with pytest.raises(ValueError, match="without history"):
        searcher("retrograde")(game, game.initial_state().result((0, 1)))


def test_retrograde_without_a_rule_counts_endless_play_as_a_draw():
    expected = retrograde(((1, 2), 0), lambda p: [(c, 1 - p[1]) for c in nim_children(p[0])],
                          lambda p: 1 if sum(p[0]) == 0 else None)
    result = searcher("retrograde")(framework.load_text(NIM0))
    assert result.value == expected == 0 and result.complete and result.extra["positions"] == 2 * 3 * 2   # heaps (0..1, 0..2), mover
    plain_nim = framework.load(SPECS / "nim.yaml", heaps=[1, 2, 3])        # no cycles: = alpha-beta
    assert searcher("retrograde")(plain_nim).value == searcher("alphabeta")(plain_nim).value == -1
