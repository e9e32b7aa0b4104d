"""Broken, hostile and huge inputs: each gets a clear, positioned error or a correct result,
never a traceback, a hang or a silently wrong game.  Reproducers live in tests/robustness/."""
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, SPECS
from framework import load, load_text
from framework.cli import main
from framework.conformance import check_spec
from framework.errors import NoLegalActions, SpecError, SpecRuntimeError
from framework.perft import perft

CASES = Path(__file__).with_name("robustness")
TICTACTOE = (SPECS / "tictactoe.yaml").read_text()


def _run(*argv, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "framework", *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("name, where, words", [
    ("nim_heap_past_the_end.yaml", (8, 14), "index 3 is outside `heap`"),
    ("nim_heap_minus_one.yaml", (8, 14), "index -1 is outside `heap`"),     # never the last element
])
def test_an_index_off_a_list_is_a_positioned_spec_error(name, where, words):
    game = load(CASES / name)
    with pytest.raises(SpecRuntimeError) as err:
        perft(game.initial_state(), 2)
    assert words in err.value.message and (err.value.line, err.value.col) == where
    for command in (["perft", "-d", "2"], ["solve"]):
        done = _run(command[0], str(CASES / name), *command[1:])
        assert done.returncode == 1 and words in done.stderr and "Traceback" not in done.stderr
    report = check_spec(CASES / name, examples=10)
    assert report.failed and report.outcome("playing_raises_no_error").status == "failed"


def test_a_state_without_actions_is_reported_not_searched():
    game = load(CASES / "centre_never_playable.yaml")
    report = check_spec(CASES / "centre_never_playable.yaml", examples=10)
    assert report.outcome("actions_exist_exactly_at_nonterminal_states").status == "failed"
    assert report.outcome("actions_exist_exactly_at_nonterminal_states").counterexample
    done = _run("solve", str(CASES / "centre_never_playable.yaml"))
    assert done.returncode == 1 and "not terminal has no legal action" in done.stderr
    assert "Traceback" not in done.stderr and "inf" not in done.stdout
    state = game.initial_state()
    for text in ("place(0,0)", "place(2,0)", "place(1,0)", "place(0,1)", "place(2,1)", "place(1,2)",
                 "place(0,2)", "place(2,2)"):
        state = state.result(game.parse_action(state, text))
    if not state.terminal_test():
        with pytest.raises(NoLegalActions):
            state.actions()


def test_division_by_zero_in_an_effect_names_the_expression():
    text = TICTACTOE.replace("then: board[c] = mover", "then: board[c] = mover; z = 6 // (col(c) - col(c))")
    text = text.replace("actions:", "state:\n  z: {type: 0..9, initial: 0}\nactions:")
    game = load_text(text, file="div.yaml")
    with pytest.raises(SpecRuntimeError) as err:
        game.initial_state().result((0, 0))
    assert "division by zero" in err.value.message and err.value.file == "div.yaml"


def test_a_yaml_alias_bomb_is_refused_at_once():
    start = time.perf_counter()
    with pytest.raises(SpecError) as err:
        load(CASES / "alias_bomb.yaml")
    assert time.perf_counter() - start < 5 and "aliases" in err.value.message and err.value.line


@pytest.mark.parametrize("rule, ok", ids=["or-chain-250", "not-300", "parentheses-500", "not-1500"], argvalues=[
    (" or ".join(["count(board, X) > 9"] * 250), True),         # a long chain compiles
    ("not " * 300 + "full(board)", True),
    ("(" * 500 + "full(board)" + ")" * 500, True),
    ("not " * 1500 + "full(board)", False),                     # a positioned error
])
def test_deep_rules_compile_or_are_refused_with_a_position(rule, ok):
    text = TICTACTOE.replace("terminal: ", f"terminal: ({rule}) or ")
    if ok:
        game = load_text(text)
        assert perft(game.initial_state(), 2) == [9, 72]
    else:
        with pytest.raises(SpecError) as err:
            load_text(text, file="deep.yaml")
        assert "nested too deeply" in err.value.message and err.value.line == 9


def test_long_conditional_chains_and_deep_effects():
    chain = "".join("X if full(board) else " for _ in range(300)) + "none"
    text = TICTACTOE.replace("winner: X if line(board, k, X) else O if line(board, k, O) else none",
                             f"winner: {chain}")
    assert perft(load_text(text).initial_state(), 2) == [9, 72]
    deep = TICTACTOE.replace("then: board[c] = mover", "then: " + "if true then " * 120 + "board[c] = mover")
    with pytest.raises(SpecError) as err:
        load_text(deep, file="deep.yaml")
    assert "nested more than" in err.value.message and err.value.line == 8


@pytest.mark.parametrize("agent, words", [
    ("alphabeta:depth=x", "expected a whole number"),
    ("alphabeta:depth=3.5", "expected a whole number"),
    ("mcts:iterations=abc", "expected a whole number"),
    ("alphabeta:depth=-2", "must be at least 1"),
    ("mcts:iterations=10**400", "expected a whole number"),
    ("alphabeta:ordering=maybe", "expected true or false"),
    ("alphabta:depth=2", "did you mean `alphabeta`?"),
])
def test_agent_options_are_validated_with_exit_2(capsys, agent, words):
    assert main(["match", str(SPECS / "nim.yaml"), "--agent", agent, "--agent", "random", "--workers", "0"]) == 2
    assert words in capsys.readouterr().err


def test_test_and_fuzz_leave_nothing_behind(tmp_path):
    for argv in (["test", str(SPECS / "nim.yaml"), "--examples", "5"],
                 ["fuzz", "--inputs", "30"], ["fuzz", "--differential", "--inputs", "5"]):
        done = _run(*argv, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_huge_domains_are_refused_before_work_starts():
    text = TICTACTOE.replace("terminal: line(board, k, X)", '"terminal": "(exists q in 0..999999999: q < 0) or line(board, k, X)')
    text = text.replace("or full(board)\n", 'or full(board)"\n', 1)
    with pytest.raises(SpecError) as err:
        load_text(text, file="big.yaml")
    assert "too large" in err.value.message and err.value.line == 9
    moving = text.replace("0..999999999", "0..count(board, X) * 99999999")
    game = load_text(moving, file="big.yaml")
    with pytest.raises(SpecRuntimeError) as err:
        game.initial_state().result((0, 0))
    assert "more than 100,000 values" in err.value.message


def test_files_are_written_atomically_never_through_links_and_not_over_user_files(tmp_path, capsys):
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me")
    golden = tmp_path / "golden.json"
    golden.symlink_to(victim)
    assert main(["perft", str(SPECS / "nim.yaml"), "-d", "1", "--write-golden", str(golden)]) == 1
    assert victim.read_text() == "keep me" and "symbolic link" in capsys.readouterr().err
    book = tmp_path / "book.json"
    book.write_text("mine")
    args = ["book", str(SPECS / "tictactoe.yaml"), "-o", str(book), "--games", "5"]
    assert main(args) == 1 and book.read_text() == "mine" and "--force" in capsys.readouterr().err
    assert main(args + ["--force"]) == 0 and book.read_text().startswith("{")
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]


def test_malformed_golden_and_book_files_are_clear_errors(tmp_path, capsys):
    spec = tmp_path / "nim.yaml"
    spec.write_text((SPECS / "nim.yaml").read_text())
    (tmp_path / "golden").mkdir()
    (tmp_path / "golden" / "nim.perft.json").write_text('{"default": [1, 2,')
    report = check_spec(spec, examples=5)
    assert report.outcome("perft_matches_golden").status == "failed"
    assert "not JSON" in report.outcome("perft_matches_golden").detail
    book = tmp_path / "book.json"
    book.write_text("[1, 2]")
    assert main(["solve", str(SPECS / "tictactoe.yaml"), "--book", str(book)]) == 2
    assert "not a plyspec opening book" in capsys.readouterr().err


def test_a_false_symmetry_claim_is_a_failing_property(tmp_path):
    """symmetries_preserve_rules: a declared symmetry must map terminal states to terminal
    states and legal actions onto legal actions (found on the first state where it does not)."""
    report = check_spec(CASES / "false_symmetry.yaml", examples=10)
    bad = report.outcome("symmetries_preserve_rules")
    assert bad.status == "failed" and "is not terminal, unlike this state" in bad.detail
    assert bad.counterexample == ["place(0,0)"]
    assert not [o for o in report.outcomes if o.status == "failed" and o is not bad]
    corner = tmp_path / "corner.yaml"                  # (0,0) never playable: actions differ
    corner.write_text(TICTACTOE.replace("if: board[c] == empty", "if: board[c] == empty and c != (0, 0)"))
    bad = check_spec(corner, examples=10).outcome("symmetries_preserve_rules")
    assert bad.status == "failed" and "legal actions are not mapped onto legal actions" in bad.detail
    assert bad.counterexample == []                    # already at the initial state
    fine = check_spec(SPECS / "tictactoe.yaml", examples=10).outcome("symmetries_preserve_rules")
    assert fine.status == "passed"
