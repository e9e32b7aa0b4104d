"""The `.game` front-end, the printer and `plyspec convert`.

The `.game` versions of the zoo equal their YAML versions (AST and perft); every spec
converts to the other format and back unchanged; syntax errors point at the spot; and
Hypothesis checks that printed expressions and effects parse back to the same AST and
that no text makes the front-end fail with anything but a positioned SpecError.
"""
import argparse
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import framework
from framework import ast
from framework.cli import convert_cmd
from framework.files import write_atomic
from framework.errors import SpecError, split_lines
from framework.frontend.expressions import parse_effects, parse_expression, text_origin
from framework.frontend.game_format import load_game_spec
from framework.frontend.printer import effects_text, expression_text, spec_fields, to_game, to_yaml
from framework.frontend.yaml_spec import load_yaml_spec
from framework.loader import parse_spec
from framework.perft import perft
from tests.conftest import SPECS

GAMES = ["tictactoe", "mini_isolation", "connect_four"]
ALL_SPECS = sorted(SPECS.glob("*.yaml")) + sorted(SPECS.glob("*.game"))
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEWER = settings(FAST, max_examples=60)        # for the costlier strategies

MINIMAL = 'game "T"\nplayers X, O\naction a\nterminal true\n'


def error_of(text):
    with pytest.raises(SpecError) as info:
        load_game_spec(text, "t.game")
    return info.value


# ---------------------------------------------------------------------------- the zoo
@pytest.mark.parametrize("name", GAMES)
def test_game_version_equals_yaml_version(name):
    game, yaml_spec = parse_spec(SPECS / f"{name}.game"), parse_spec(SPECS / f"{name}.yaml")
    assert spec_fields(game) == spec_fields(yaml_spec)
    assert set(game.positions) == set(yaml_spec.positions)


@pytest.mark.parametrize("name,depth", [("tictactoe", 4), ("mini_isolation", 6), ("connect_four", 4)])
def test_game_version_has_the_same_perft(name, depth):
    counts = [perft(framework.load(SPECS / f"{name}.{ext}").initial_state(), depth) for ext in ("yaml", "game")]
    assert counts[0] == counts[1]


@pytest.mark.parametrize("name,most", [("tictactoe", 15), ("connect_four", 30)])
def test_game_versions_are_short(name, most):
    lines = [line for line in (SPECS / f"{name}.game").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert len(lines) <= most


@pytest.mark.parametrize("path", ALL_SPECS, ids=lambda p: p.name)
def test_every_spec_converts_there_and_back(path):
    spec = parse_spec(path)
    as_game = load_game_spec(to_game(spec), "t.game")
    assert spec_fields(as_game) == spec_fields(spec)
    back = load_yaml_spec(to_yaml(as_game), "t.yaml")
    assert spec_fields(back) == spec_fields(spec)
    assert set(as_game.positions) == set(spec.positions) == set(back.positions)


# ---------------------------------------------------------------------------- sections
EVERY_SECTION = '''game "Everything"
players A, B
option size = 4, heaps = [3, 4, -5], rate = 0.5
option on = true
board size x size + 1 of empty, a, b initial a
state score : 0..10 per player = 0
state heap : 0..7 size 3 = [3, 4, 5]
state phase : {setup, play}
state where : cell per player
define mine(c) = board[c] == mover
define total = sum p in player: score[p]
action roll
    chance d in 1..6 probability 1/6
    then if d == 1 then score[mover] = 0
         else score[mover] += d
action move(c in cell, n in 1..3)
    if board[c] == empty
       and n <= 2
    noisy count x in cell: mine(x)
    then
        board[c] = mover   # effects, one per line
        for x in neighbors(c) do { board[x] = empty; heap[0] -= n }

action hold
init score[A] = 1; score[B] = 2
turn next(mover)
pass
terminal total >= 10
utility A: score[A] - score[B],
        B: score[B] - score[A]
winner none
utility_bounds -10, 10
zero_sum
constant_sum 0
evaluation mobility weight -2: count c in cell: mine(c)
evaluation material: score[me]
display empty ".", a "#", b "\\"b\\""
symmetries rotate, reflect
max_length 100
'''


def test_every_section_reads_into_the_ast():
    spec = load_game_spec(EVERY_SECTION, "e.game")
    assert [o.default for o in spec.options] == [4, (3, 4, -5), 0.5, True]
    assert spec.board.initial == "a" and spec.board.values == ("empty", "a", "b")
    score, heap, phase, where = spec.variables
    assert score.per_player and score.type == ast.TypeRef("int", ast.Num(0), ast.Num(10))
    assert heap.size == ast.Num(3) and phase.type.values == ("setup", "play")
    assert where.type.kind == "cell" and where.initial is None
    assert spec.defines[1].params == ()
    roll, move, hold = spec.actions
    assert roll.chance.var == "d" and roll.params == ()
    assert len(roll.effects) == 1 and roll.effects[0].else_, "`else` on its own line continues the `if`"
    assert move.precondition.op == "and" and move.noisy.kind == "count"
    assert len(move.effects) == 2 and len(move.effects[1].body) == 2
    assert hold.effects == () and hold.precondition is None
    assert len(spec.init) == 2 and spec.pass_rule and spec.zero_sum is True
    assert spec.constant_sum == 0
    assert set(spec.utility) == {"A", "B"} and spec.utility_bounds == (-10, 10)
    assert [(f.name, f.weight) for f in spec.evaluation] == [("mobility", -2), ("material", 1)]
    assert spec.display[2] == ("b", '"b"') and spec.symmetries == ("rotate", "reflect")
    assert spec.positions["utility_keys"]["B"].line == 30
    assert spec.positions["display_keys"]["a"].col == 20
    assert spec_fields(load_yaml_spec(to_yaml(spec))) == spec_fields(spec)
    assert spec_fields(load_game_spec(to_game(spec))) == spec_fields(spec)


def test_positions_are_in_the_file():
    spec = load_game_spec(EVERY_SECTION, "e.game")
    move = spec.actions[1]
    assert (move.pos.line, move.pos.col) == (16, 8)
    assert (move.precondition.pos.file, move.precondition.pos.line) == ("e.game", 17)
    assert move.effects[0].pos.source_line == "        board[c] = mover   # effects, one per line"
    assert spec.positions["actions"].line == 12 and spec.positions["options"].line == 3
    assert [p.col for p in spec.positions["players_items"]] == [9, 12]
    assert spec.positions["board_initial"].col == 46


def test_line_structure():
    spec = load_game_spec('''game "T"   # comments anywhere
players X, O

# a comment at the start of a line, and blank lines, change nothing
action a
    then
        x = 1 +
            2
        y = (3
             + 4)
        z = 5
          - 6
terminal x ==
    1
''')
    assert effects_text(spec.actions[0].effects) == "x = 1 + 2; y = 3 + 4; z = 5 - 6"
    assert expression_text(spec.terminal) == "x == 1"


def test_windows_line_ends():
    assert spec_fields(load_game_spec(MINIMAL.replace("\n", "\r\n"))) == spec_fields(load_game_spec(MINIMAL))


def test_keywords_are_names_inside_expressions():
    spec = load_game_spec(MINIMAL + "state x : bool\nwinner x if of else board\nmax_length size + weight\n")
    assert expression_text(spec.winner) == "x if of else board"
    spec = load_game_spec('game "T"\nplayers x, of\noption x = 2\nboard x x x of x, of\naction a\nterminal true\n')
    assert spec.board.width == ast.Name("x") and spec.board.values == ("x", "of")


# ---------------------------------------------------------------------------- errors
@pytest.mark.parametrize("text,message,line,col,hint", [
    (MINIMAL + "termnal x\n", "unknown section `termnal`", 5, 1, "did you mean `terminal`?"),
    (MINIMAL + "terminal x\n", "duplicate section `terminal`", 5, 1, "first given at line 4"),
    (MINIMAL.replace("action a", "action a\n    if x =="), "the line ends too early", 4, 12, "expected an expression"),
    (MINIMAL.replace("action a", "action a\nif x"), "a section cannot start with `if`", 4, 1, "indent"),
    (MINIMAL.replace("X, O", "X O"), "unexpected `O`", 2, 11, "expected `,` or the end of the line"),
    (MINIMAL.replace("true", "x $ y"), "unexpected character '$'", 4, 12, "an operator"),
    (MINIMAL.replace('"T"', '"T\\q"'), "cannot read the string", 1, 6, None),
    (MINIMAL.replace("action a", "action a\n    then x = 1\n    then y = 2"), "two `then` clauses", 5, 5, None),
    (MINIMAL + "action a\n", "duplicate action `a`", 5, 8, "first given at line 3"),
    (MINIMAL + "option k = 1, k = 2\n", "duplicate option `k`", 5, 15, "first given at line 5"),
    (MINIMAL + "state v : bool\nstate v : bool\n", "duplicate state variable `v`", 6, 7, None),
    (MINIMAL + "utility X: 1, X: 2\n", "duplicate player `X` in utility", 5, 15, None),
    (MINIMAL + 'display e ".", e "x"\n', "duplicate cell value `e` in display", 5, 16, None),
    (MINIMAL.replace("true", "x +"), "the spec ends too early", 4, 13, "expected an expression"),
    (MINIMAL.replace("players X, O\n", ""), "missing section `players`", 1, 1, None),
    (MINIMAL.replace("terminal true\n", ""), "missing section `terminal`", 1, 1, "goal"),
    ("", "the spec is empty", 1, 1, "game"),
    (MINIMAL.replace("action a", "action a\n    if x ==\n    then y = 1"), "unexpected `then`", 5, 5,
     "expected an expression"),
    (MINIMAL.replace("X, O", "X, if"), "unexpected `if`", 2, 12, "expected a name"),
    (MINIMAL.replace("true", "9" * 5000), "cannot read this number", 4, 10, None),
], ids=lambda value: value[:30] if isinstance(value, str) else None)
def test_syntax_errors_point_at_the_spot(text, message, line, col, hint):
    error = error_of(text)
    assert error.file == "t.game"
    if message:
        assert message in error.message
    if line:
        assert (error.line, error.col) == (line, col)
    if hint:
        assert hint in error.hint
    rendered = str(error).split("\n")
    assert rendered[0].startswith(f"t.game:{error.line}:{error.col}: error: ")
    assert rendered[1] == "    " + text.split("\n")[error.line - 1]
    assert rendered[2].index("^") == 4 + error.col - 1


def test_the_examples_in_the_documentation_load():
    examples = re.findall(r"```\n(.*?)```", (SPECS.parent / "docs" / "game_format.md").read_text(), re.S)
    specs = [text for text in examples if text.startswith(("game ", "# "))]
    assert len(specs) == 2
    for text in specs:
        assert framework.load_text(text, fmt="game").initial_state().actions()


def test_deep_nesting_is_an_error_not_a_crash():
    error = error_of(MINIMAL.replace("true", "not " * 3000 + "x"))
    assert "nested too deeply" in error.message


def check_position(text):
    try:
        load_game_spec(text, "t.game")
    except SpecError as error:
        lines = split_lines(text)          # the line ends of every front-end
        assert error.file == "t.game"
        assert 1 <= error.line <= len(lines)
        assert 1 <= error.col <= len(lines[error.line - 1]) + 1


@FAST
@given(st.text(max_size=200))
def test_any_text_loads_or_raises_a_positioned_spec_error(text):
    check_position(text)


FRAGMENTS = ["game", "players", "action", "terminal", "state", "board", "option", "utility", "then",
             "if", "else", "for", "do", "in", "x", "of", "a", "X", "1", "-", "..", "(", ")", "[", "]",
             "{", "}", ",", ":", ";", "=", "==", "+=", '"s"', "\n", "\n    ", " ", "#c", "count"]


@FAST
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map(" ".join))
def test_any_token_soup_loads_or_raises_a_positioned_spec_error(text):
    check_position(text)


@FAST
@given(st.data())
def test_mutated_spec_loads_or_raises_a_positioned_spec_error(data):
    i = data.draw(st.integers(0, len(EVERY_SECTION) - 1))
    j = data.draw(st.integers(i, min(len(EVERY_SECTION), i + 10)))
    check_position(EVERY_SECTION[:i] + data.draw(st.sampled_from(FRAGMENTS + [""])) + EVERY_SECTION[j:])


# ---------------------------------------------------------------------------- printer
NAMES = st.sampled_from(["a", "b", "mover", "board", "x", "of", "size", "cell", "weight", "true", "X"])
QUANTIFIERS = ["exists", "forall", "count", "sum", "min", "max"]
OPERATORS = ["or", "and", "==", "!=", "<", "<=", ">", ">=", "in", "notin", "|", "&",
             "+", "-", "*", "/", "//", "%"]
NUMBERS = st.integers(-10**12, 10**12) | st.floats(-1e6, 1e6, allow_nan=False).map(lambda f: round(f, 4))


def domains(exprs):
    return st.builds(ast.Range, exprs, exprs) | exprs


def extend(exprs):
    args = st.lists(exprs, max_size=3).map(tuple)
    return st.one_of(
        st.builds(ast.Call, NAMES | st.sampled_from(QUANTIFIERS), args),
        st.builds(ast.Index, exprs, exprs),
        st.lists(exprs, min_size=1, max_size=3).map(lambda items: ast.TupleExpr(tuple(items))),
        args.map(ast.ListExpr),
        st.builds(ast.Unary, st.just("-"), exprs.filter(lambda e: not isinstance(e, ast.Num))),
        st.builds(ast.Unary, st.just("not"), exprs),
        st.builds(ast.Binary, st.sampled_from(OPERATORS), exprs, exprs),
        st.builds(ast.Cond, exprs, exprs, exprs),
        st.builds(ast.Quant, st.sampled_from(QUANTIFIERS), NAMES, domains(exprs), exprs),
    )


LEAVES = NAMES.map(ast.Name) | NUMBERS.map(ast.Num)
EXPRESSIONS = st.recursive(LEAVES, extend, max_leaves=10)
SMALL_EXPRESSIONS = st.recursive(LEAVES, extend, max_leaves=3)       # inside effects
TARGETS = st.recursive(NAMES.map(ast.Name), lambda t: st.builds(ast.Index, t, SMALL_EXPRESSIONS), max_leaves=2)


def extend_effects(effects):
    bodies = st.lists(effects, max_size=3).map(tuple)
    return st.one_of(st.builds(ast.IfEffect, SMALL_EXPRESSIONS, bodies, bodies),
                     st.builds(ast.ForEffect, NAMES, domains(SMALL_EXPRESSIONS), bodies))


ASSIGNMENTS = st.builds(ast.Assign, TARGETS, st.sampled_from(["=", "+=", "-="]), SMALL_EXPRESSIONS)
EFFECTS = st.lists(st.recursive(ASSIGNMENTS, extend_effects, max_leaves=5), min_size=1, max_size=3).map(tuple)


@FAST
@given(EXPRESSIONS)
def test_printed_expressions_parse_back(expr):
    text = expression_text(expr)
    assert parse_expression(text, text_origin(text)) == expr


@FEWER
@given(EFFECTS)
def test_printed_effects_parse_back(effects):
    text = effects_text(effects)
    assert parse_effects(text, text_origin(text)) == effects


def test_minimal_parentheses():
    cases = ["a - (b - c)", "(a or b) and not c", "-a[1]", "(-3)[x]", "a - -3", "(a if b else c) + 1",
             "count x in 1..n: x > 0", "f(a if b else c, (d,))", "(a == b) == c", "a not in b | c"]
    for text in cases:
        assert expression_text(parse_expression(text, text_origin(text))) == text


@FEWER
@given(EXPRESSIONS, EFFECTS)
def test_specs_with_any_rules_convert_there_and_back(expr, effects):
    spec = load_game_spec(MINIMAL)
    spec.terminal, spec.init = expr, effects
    spec.actions = (ast.Action("a", (), expr, effects),)
    spec.utility = {"X": expr, "O": expr}
    assert spec_fields(load_game_spec(to_game(spec))) == spec_fields(spec)
    assert spec_fields(load_yaml_spec(to_yaml(spec))) == spec_fields(spec)


def test_long_rules_are_broken_into_lines_that_read_back():
    spec = load_game_spec(MINIMAL)
    chain = " or ".join(f"line(board, k, player_{i})" for i in range(8))
    spec.terminal = parse_expression(chain, text_origin(chain))
    cond = " else ".join(f"player_{i} if line(board, k, player_{i})" for i in range(6)) + " else none"
    spec.winner = parse_expression(cond, text_origin(cond))
    text = to_game(spec)
    assert max(map(len, text.split("\n"))) <= 100
    assert "\n    or line(board, k, player_7)\n" in text and "\n    else none\n" in text
    assert spec_fields(load_game_spec(text)) == spec_fields(spec)


# ---------------------------------------------------------------------------- convert
def convert(*argv):
    parser = argparse.ArgumentParser()
    convert_cmd.add_parser(parser.add_subparsers())
    args = parser.parse_args(["convert", *map(str, argv)])
    return args.func(args)


def test_convert_to_stdout(capsys):
    assert convert(SPECS / "tictactoe.yaml", "--to", "game") == 0
    out = capsys.readouterr().out
    assert out.startswith('game "Tic-tac-toe"\nplayers X, O\n')
    assert spec_fields(load_game_spec(out)) == spec_fields(parse_spec(SPECS / "tictactoe.yaml"))


def test_convert_to_a_file_and_back(tmp_path):
    game, back = tmp_path / "c4.game", tmp_path / "c4.yaml"
    assert convert(SPECS / "connect_four.yaml", "--to", "game", "-o", game) == 0
    assert convert(game, "--to", "yaml", "-o", back) == 0
    assert spec_fields(parse_spec(back)) == spec_fields(parse_spec(SPECS / "connect_four.yaml"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c4.game", "c4.yaml"]


def test_convert_refuses_to_overwrite_its_input(tmp_path, capsys):
    spec = tmp_path / "t.yaml"
    spec.write_text((SPECS / "tictactoe.yaml").read_text())
    assert convert(spec, "--to", "yaml", "-o", spec) == 2
    assert "refusing to overwrite the input" in capsys.readouterr().err
    assert spec.read_text() == (SPECS / "tictactoe.yaml").read_text()


def test_convert_error_leaves_no_file(tmp_path):
    bad, out = tmp_path / "bad.game", tmp_path / "out.yaml"
    bad.write_text(MINIMAL.replace("true", "x +"))
    with pytest.raises(SpecError, match="ends too early"):
        convert(bad, "--to", "yaml", "-o", out)
    out.write_text("old")
    spec = load_game_spec(MINIMAL)
    spec.players = ("X", "not a name")
    with pytest.raises(ValueError, match="not a name"):
        write_atomic(out, convert_cmd.convert(spec, "game"), force=True)
    assert out.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["bad.game", "out.yaml"]
