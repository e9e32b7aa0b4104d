"""The reference interpreter and the property that compares every compiled game with it."""
import json

import pytest

from conftest import SPECS
from framework import load_text
from framework.checker import check
from framework.conformance.differential import agrees_with_interpreter, find_difference
from framework.interpreter import InterpretedGame, interpret, interpret_text
from test_checker_passes import _nodes
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


# every kind of node of framework/ast.py, every section and every builtin, in one game
EVERY_CONSTRUCT = """game: Every construct
players: [A, B]
options: {k: 2, sizes: [1, 2]}
board: {width: 3, height: 2, cells: [empty, A, B, W]}
directions: {step: [[1, 0], [0, 1]]}
state:
  mood: {type: [calm, wild, done], initial: calm}
  n: {type: 0..20, initial: 0}
  flag: {type: bool, initial: false}
  who: {type: player, initial: B}
  spot: {type: cell, initial: none}
  marks: {type: cellset}
  score: {type: 0..20, per: player, initial: 0}
  heap: {type: 0..9, size: 2, initial: "[1, 2]"}
define:
  mine(p): cells(board, p)
  busy: count(board, A) + count(board, B)
  near(c, p): "exists d in neighbors(c, orthogonal): board[d] == p"
init:
  - board[(2, 1)] = W
  - turn = B
actions:
  place(c in cell, m in mood):
    if: board[c] == empty and m != done and n < 18 and not full(board)
    then: "board[c] = mover; spot = c; marks = (marks | neighbors(c, orthogonal)) - column_cells(2) if not flag else marks & cells(board, empty); let t = col(c) + row(c); t += 1; score[mover] += min(t, 3); mood = m; if near(c, next(mover)) then { flag = true } else { flag = false }; n += 1"
  sweep(v in 0..1):
    if: "n < 18 and heap[v] > 0 and (sum x in 0..1: heap[x]) > 0 and (max x in 0..1: heap[x]) >= 1 and (min x in 0..1: heap[x]) >= 0 and (count x in 0..1: heap[x] > 0) >= 1 and [1, 2][v] > 0 and (forall p in player: score[p] >= 0)"
    then: "heap[v] -= 1; n += 1; for d in cells(board, W) do { if size(slide(board, d, step, empty)) >= 0 and size(between(board, d, queen, A, B)) >= 0 then { marks = marks | group(board, d, orthogonal) | region(d, orthogonal, cells(board, W)) } }; who = opponent(who); turn = prev(mover) if abs(-1) == 1 else mover"
  hop(c in row_cells(0)):
    if: "n < 18 and board[c] == mover and size(liberties(board, c, orthogonal)) > 0 and connected(board, row_cells(0), row_cells(1), orthogonal, mover)"
    then: "board[c] = empty; n += 1; continue land(c)"
  roll:
    if: n < 18 and len(sizes) == 2 and sum(sizes) == 3
    chance: d in 1..2
    probability: d / 3
    then: "n += d; heap[0] = max(heap[0], d); board[cell(d, 1)] = W if board[cell(d, 1)] == empty and drop(board, 0) != none else board[cell(d, 1)]"
steps:
  land(a in cell, b in neighbors(a, hex)):
    if: board[b] == empty
    then: "board[b] = mover"
turn: next(mover)
pass: true
terminal: "busy > 5 or size(mine(A)) > 4 or n >= 18 or line(board, k + 1, A) or line(board, k + 1, B) or not can_move(mover) or moves(next(mover)) < 0"
utility: "score[A] - score[B] + (1 if mood == wild else 0) + (0 if who == A else 0)"
utility_bounds: [-21, 21]
evaluation:
  lead: {weight: 0.5, value: "score[me] - score[next(me)]"}
max_moves: 30
"""
# a graph board's constructs (framework.graph): its lines, point and line names, `links`, `in_line`
EVERY_GRAPH_CONSTRUCT = """game: Every graph construct
players: [A, B]
board:
  cells: [empty, A, B]
  points: [[a, b, c], [d, e]]
  links: [[a, b, c], [a, d, e], [b, e]]
  lines: {top: [a, b, c], side: [a, d, e]}
actions:
  place(p in cells(board, empty)):
    if: size(top & neighbors(p, links)) >= 0 or in_line(board, p, empty)
    then: "board[p] = mover; if in_line(board, p, mover) then board[side - group(board, p, links)] = empty"
terminal: in_line(board, a, A) or line(board, 2, B) or full(board)
winner: A if in_line(board, a, A) else B if line(board, 2, B) else none
"""
EXPRESSIONS = {"Num", "Name", "Call", "Index", "TupleExpr", "ListExpr", "Unary", "Binary", "Cond", "Range", "Quant"}
EFFECTS = {"Assign", "IfEffect", "ForEffect", "LetEffect", "ContinueEffect"}
DECLARATIONS = {"TypeRef", "Option", "Board", "GraphLine", "Directions", "Variable", "Define", "Param", "ChanceVar",
                "ChanceSpec", "Action", "Feature", "EndRule", "GameSpec"}   # facts the checker reads


def test_the_interpreter_evaluates_every_construct_the_checker_accepts(monkeypatch):
    """Every AST node kind is classified here; the games EVERY_CONSTRUCT and
    EVERY_GRAPH_CONSTRUCT (a graph board) hold each, the interpreter evaluates every
    expression and effect kind and builtin in them (none is skipped), and each compiled game
    agrees with it state by state."""
    import dataclasses
    from framework import ast, builtins
    from framework.interpreter.evaluate import Evaluator
    kinds = {name for name, obj in vars(ast).items() if isinstance(obj, type) and dataclasses.is_dataclass(obj)
             and obj.__module__ == "framework.ast" and name != "Pos"}
    assert kinds == EXPRESSIONS | EFFECTS | DECLARATIONS, "classify the new node kind here and add it to EVERY_CONSTRUCT"
    games = [load_text(EVERY_CONSTRUCT), load_text(EVERY_GRAPH_CONSTRUCT)]
    assert {type(node).__name__ for game in games for node in _nodes(game.spec)} == kinds
    calls = {node.func for game in games for node in _nodes(game.spec) if isinstance(node, ast.Call)} \
        - {d.name for game in games for d in game.spec.defines}
    assert calls == set(builtins.names()), f"EVERY_CONSTRUCT misses {set(builtins.names()) - calls}"
    evaluated = set()
    eval_, effect, domain = Evaluator.eval, Evaluator.effect, Evaluator.domain

    def eval_spy(self, node, s, env):
        evaluated.add(type(node).__name__)
        if isinstance(node, ast.Call):
            evaluated.add(node.func)
        return eval_(self, node, s, env)

    def effect_spy(self, e, *args):
        evaluated.add(type(e).__name__)
        return effect(self, e, *args)

    def domain_spy(self, node, s, env):
        evaluated.add(type(node).__name__)
        return domain(self, node, s, env)
    monkeypatch.setattr(Evaluator, "eval", eval_spy)
    monkeypatch.setattr(Evaluator, "effect", effect_spy)
    monkeypatch.setattr(Evaluator, "domain", domain_spy)
    for game in games:
        assert find_difference(game, InterpretedGame(check(game.spec, {})), bfs_states=300) is None
    assert EXPRESSIONS | EFFECTS <= evaluated, f"never evaluated: {(EXPRESSIONS | EFFECTS) - evaluated}"
    assert calls <= evaluated, f"builtins never evaluated: {calls - evaluated}"


ENUMERATION = """game: Moods
players: [A, B]
state:
  mood: {type: [calm, wild, done], initial: calm}
  n: {type: 0..4, initial: 0}
actions:
  set(m in mood):
    if: n < 4 and m != mood
    then: mood = m; n += 1
  toss:
    if: n < 4 and mood == wild
    chance: m in mood
    then: mood = m; n += 1
terminal: n == 4 or mood == done
winner: "A if mood == done and (count m in mood: m != calm) == 2 else none"
"""


def test_a_spec_with_an_enumeration_variable_passes_plyspec_test(tmp_path, capsys):
    from framework.cli import main
    spec = tmp_path / "moods.yaml"
    spec.write_text(ENUMERATION)
    igame = interpret(spec)
    start = igame.initial_state()
    assert sorted(start.actions()) == ["set(done)", "set(wild)"]
    roll = start.result("set(wild)").result("toss")
    assert sorted(o for o, _ in roll.chance_outcomes()) == ["calm", "done", "wild"]
    assert main(["test", str(spec), "--examples", "20"]) == 0, capsys.readouterr().out
    assert "passed  compiled_agrees_with_interpreter" in capsys.readouterr().out


SECOND_STARTS = """game: Second starts
players: [X, O]
board: {width: 3, height: 1, cells: [empty, X, O]}
init:
  - board[(0, 0)] = mover
  - turn = O
actions:
  place(c in cell):
    if: board[c] == empty and (mover == O or col(c) == 2)
    then: board[c] = mover
terminal: full(board) or board[(2, 0)] == O
winner: O if board[(1, 0)] == O else X
"""
SECOND_STARTS_GAME = """game "Second starts"
players X, O
board 3 x 1 of empty, X, O
init
    board[(0, 0)] = mover
    turn = O
action place(c in cell)
    if board[c] == empty and (mover == O or col(c) == 2)
    then board[c] = mover
terminal full(board) or board[(2, 0)] == O
winner O if board[(1, 0)] == O else X
"""


@pytest.mark.parametrize("text, fmt", [(SECOND_STARTS, "yaml"), (SECOND_STARTS_GAME, "game")])
def test_turn_in_init_makes_the_second_player_start(text, fmt):
    """`init` still runs with the first player as `mover` (X's piece on (0, 0)); then O moves
    first: O may take either empty cell (X could take only (2, 0)); O on (2, 0) ends the
    game, else X takes (2, 0)."""
    from framework.perft import perft
    game, igame = load_text(text, fmt), interpret_text(text, fmt)
    for start in (game.initial_state(), igame.initial_state()):
        assert start.player() == 1
    assert sorted(igame.initial_state().actions()) == ["place(1,0)", "place(2,0)"]
    assert perft(game.initial_state(), 2) == _perft(igame.initial_state(), 2) == [2, 1]
    assert find_difference(game, InterpretedGame(check(game.spec, {}))) is None
