"""The reference interpreter and the property that compares every compiled game with it."""
import json

import pytest

from conftest import SPECS
from framework import load_text
from framework.checker import check
from framework.conformance.differential import agrees_with_interpreter, find_difference
from framework.interpreter import InterpretedGame, interpret, interpret_text
from test_compiler_soundness import CAPTURE, CONDITIONAL_STORE, NESTED

SHIPPED = sorted(SPECS.glob("*.yaml")) + sorted(SPECS.glob("*.game"))


def _perft(state, depth):
    counts = [0] * depth

    def walk(s, d):
        if d == depth or s.terminal_test():
            return
        for a in s.actions():
            counts[d] += 1
            walk(s.result(a), d + 1)
    walk(state, 0)
    return counts


@pytest.mark.parametrize("spec", SHIPPED, ids=lambda p: p.name)
def test_the_interpreter_counts_the_golden_perft(spec):
    gold = json.loads((SPECS / "golden" / f"{spec.stem}.perft.json").read_text())
    counts = gold.get("default") or next(iter(gold.values()))
    counts = counts if isinstance(counts, list) else counts["counts"]
    depth = 3 if counts[1] < 200 else 2
    assert _perft(interpret(spec).initial_state(), depth) == counts[:depth]


def test_the_interpreter_is_hygienic_by_construction(monkeypatch):
    import framework.checker
    game = interpret_text(CAPTURE)
    assert sorted(game.initial_state().actions()) == ["go(0)", "go(1)"]
    assert _perft(interpret_text(NESTED).initial_state(), 4) == _perft(load_text(NESTED).initial_state(), 4)
    # an inliner that captures (the old bug) is caught by the property, without any golden file
    monkeypatch.setattr(framework.checker.symbols, "bound_name", lambda name, n: name)
    difference = find_difference(load_text(CAPTURE), InterpretedGame(check(load_text(CAPTURE).spec, {})))
    assert difference is not None and "go(2)" in difference.message


def test_a_store_that_loses_the_players_value_is_caught(monkeypatch):
    from framework.compiler import Compiler
    assert _perft(interpret_text(CONDITIONAL_STORE).initial_state(), 3) == [2, 2, 0]

    def old_value(self, node, env):                 # the compiler before the fix
        code = self.expr(node, env)
        if self.types.get(id(node)) == "player":
            const = self.const_value(node)
            return str(const) if const is not None else f"PLAYER_VALUE[{code}]"
        return code
    monkeypatch.setattr(Compiler, "value", old_value)
    outcome = agrees_with_interpreter(load_text(CONDITIONAL_STORE))
    assert outcome.status == "failed" and outcome.counterexample == ["put(0,0)"]


def test_a_broken_compiled_result_is_reported_with_its_sequence():
    game = load_text((SPECS / "tictactoe.yaml").read_text())
    igame = interpret(SPECS / "tictactoe.yaml")
    original = game.state_class.result

    def broken(state, action):                      # the centre is never written
        child = original(state, action)
        return state if action == (1, 1) else child
    game.state_class.result = broken
    try:
        difference = find_difference(game, igame)
    finally:
        game.state_class.result = original
    assert difference is not None and difference.path[-1] == "place(1,1)"
