"""The checker as passes (framework/checker/): names are resolved once into symbol tables,
bound variables get unique names when they are declared, and the package stays in rooms
of one job each."""
from __future__ import annotations

import ast as pyast
import dataclasses

import pytest

from conftest import ROOT
from framework import ast, load_text
from framework.checker import BOUND_MARK, Checker, Scope, check
from framework.errors import SpecError
from framework.loader import parse_text
from test_compiler_soundness import CAPTURE, NESTED


def parse_yaml(text, file):
    return parse_text(text, file, "yaml")


def _nodes(value):
    """Every AST node under a checked value (dataclasses, tuples, lists, dicts)."""
    if isinstance(value, (list, tuple)):
        for v in value:
            yield from _nodes(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _nodes(v)
    elif dataclasses.is_dataclass(value) and not isinstance(value, (type, ast.Pos)):
        yield value
        for f in dataclasses.fields(value):
            if f.name not in ("pos", "spec"):
                yield from _nodes(getattr(value, f.name))


def _program(checked):
    return (checked.actions, checked.init, checked.turn, checked.terminal, checked.goal,
            checked.winner, checked.utility, checked.features)


def test_bound_variables_are_unique_and_every_use_is_bound_to_its_own():
    checked = check(parse_yaml(NESTED, "<nested>"))
    quants = [n for n in _nodes(_program(checked)) if isinstance(n, ast.Quant)]
    names = [q.var for q in quants]
    assert len(quants) >= 4 and len(set(names)) == len(names)      # `touches` is expanded twice
    assert all(BOUND_MARK in v for v in names)
    for q in quants:
        uses = [n for n in _nodes(q.body) if isinstance(n, ast.Name) and n.id == q.var]
        assert uses and all(checked.kinds[id(n)] == ("quant", q.var) for n in uses)


def test_a_definitions_quantifier_cannot_meet_the_callers_argument():
    checked = check(parse_yaml(CAPTURE, "<capture>"))
    (go,) = checked.actions
    (quant,) = [n for n in _nodes(go.precondition) if isinstance(n, ast.Quant)]
    caller = [n for n in _nodes(quant.body) if isinstance(n, ast.Name) and checked.kinds.get(id(n), ("",))[0] == "param"]
    assert quant.var != "t" and quant.var.startswith("t" + BOUND_MARK)
    assert [n.id for n in caller] == ["t"]                          # the action's parameter, kept apart


def test_every_name_is_resolved_once_and_typing_reads_the_binding():
    checker = Checker(parse_yaml(NESTED, "<nested>"), {})
    checked = checker.run()
    names = [n for n in _nodes(_program(checked)) if isinstance(n, ast.Name) and n.id not in ("cell", "player")]
    assert names and all(id(n) in checker.bindings for n in names)
    assert all(checked.kinds[id(n)][0] == checker.binding(n).kind for n in names)
    resolved = checked.terminal
    assert checker.resolve(resolved, Scope()) is resolved            # resolving twice changes nothing


def test_a_parameter_shadows_an_option_in_its_action_only():
    spec = parse_yaml("""
game: Shadow
players: [A, B]
options: {k: 7}
state:
  n: {type: 0..9, initial: 0}
actions:
  set(k in 1..2):
    if: n == 0
    then: n = k
terminal: n > 0
utility: {A: k, B: n}
""", "<shadow>")
    checked = check(spec)
    (action,) = checked.actions
    value = action.effects[0].value
    assert isinstance(value, ast.Name) and checked.kinds[id(value)] == ("param", "k")
    assert checked.utility[1][0] == ast.Num(7)                       # outside it, the option's value


def test_the_checker_package_is_in_small_rooms():
    for path in sorted((ROOT / "framework" / "checker").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = pyast.parse(text)
        assert len(text.splitlines()) <= 400, path.name
        assert pyast.get_docstring(tree), f"{path.name} says what it owns"
        for node in tree.body:
            if isinstance(node, pyast.ClassDef):
                assert node.end_lineno - node.lineno < 300, f"{path.name}: {node.name}"


def test_an_argument_is_resolved_once_in_the_callers_scope():
    # the parameter `n` hides the definition `n` at the call; the old inliner re-read the
    # argument inside `positive` and found the definition (1 > 0: every move legal)
    game = load_text("""
game: Hidden
players: [A, B]
define:
  n: "1"
  positive(x): "x > 0"
state:
  done: {type: bool, initial: false}
actions:
  go(n in 0..2):
    if: positive(n) and not done
    then: done = true
terminal: done
winner: none
""")
    assert sorted(game.initial_state().actions()) == [n for n in range(3) if n > 0]


def test_an_error_at_a_definitions_bound_variable_points_at_its_use():
    text = """game: Bad
players: [A, B]
define:
  odd: "exists t in 0..1: true and t"
state:
  done: {type: bool, initial: false}
actions:
  go:
    if: odd
    then: done = true
terminal: done
winner: none
"""
    with pytest.raises(SpecError) as caught:
        load_text(text)
    line = text.splitlines()[3]
    assert (caught.value.line, caught.value.col) == (4, line.index("t\"") + 1)
    assert "`and` needs conditions on both sides, not a whole number" in caught.value.message
