"""Broken, hostile and huge inputs: each gets a clear, positioned error or a correct result,
never a traceback, a hang or a silently wrong game.  Reproducers live in tests/robustness/."""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, SPECS
from framework import load, load_text
from framework.cli import main
from framework.conformance import check_spec

# a proof that no plan exists: the whole space searched, or an admissible heuristic
# (LM-cut, the default's) that finds the goal relaxed-unreachable from the start
NO_PLAN = re.compile(r"no plan: (no plan exists|the heuristic proves the start a dead end)")
from framework.errors import NoChanceOutcomes, NoLegalActions, SpecError, SpecRuntimeError
from framework.perft import perft

CASES = Path(__file__).with_name("robustness")
TICTACTOE = (SPECS / "tictactoe.yaml").read_text()


def _run(*argv, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "framework", *argv], cwd=cwd, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})


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
    assert time.perf_counter() - start < 120 and "aliases" in err.value.message and err.value.line



@pytest.mark.parametrize("text", ["a: &a [*a, *a, *a, *a, *a, *a, *a, *a]\n",
                                  "game: x\nplayers: [A, B]\nstate: &s\n  x: {type: 0..3, initial: 0}\n  y: *s\n"])
def test_a_yaml_alias_inside_its_own_anchor_is_refused_not_followed_forever(text, tmp_path):
    """An alias inside the node its anchor names makes an endless document: the
    expansion count once went round it for ever; game and planning specs refuse it."""
    spec = tmp_path / "cycle.yaml"
    spec.write_text(text)
    with pytest.raises(SpecError, match="refers to itself") as err:
        load(spec)
    assert err.value.line >= 1
    import planners
    with pytest.raises(SpecError, match="refers to itself"):
        planners.load(spec)


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
    assert "nim.perft.json:1:19: error: golden file is not valid JSON" in report.outcome("perft_matches_golden").detail
    book = tmp_path / "book.json"
    book.write_text("[1, 2]")
    assert main(["solve", str(SPECS / "tictactoe.yaml"), "--book", str(book)]) == 1
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


# ------------------------------------------------------------ classes found by the second audit
def test_a_chance_node_without_outcomes_is_a_positioned_error_and_a_failing_property(capsys):
    game = load(CASES / "pig_empty_chance.yaml")
    state = game.initial_state().result("roll")          # total is 0: 1..total is empty
    with pytest.raises(NoChanceOutcomes) as err:
        state.chance_outcomes()
    assert (err.value.line, err.value.col) == (11, 3)
    bad = check_spec(CASES / "pig_empty_chance.yaml", examples=5).outcome("chance_outcomes_well_formed")
    assert bad.status == "failed" and bad.counterexample == ["roll"]
    for argv in (["solve", "--algo", "mcts", "--iterations", "50"], ["solve", "--algo", "expectimax"]):
        assert main([argv[0], str(CASES / "pig_empty_chance.yaml"), *argv[1:]]) == 1
        assert "no outcome of positive probability" in capsys.readouterr().err


def test_an_empty_list_of_cell_values_is_a_positioned_error():
    with pytest.raises(SpecError) as err:
        load_text(TICTACTOE.replace("cells: [empty, X, O]", "cells: []"), file="cells.yaml")
    assert "at least two cell values" in err.value.message and err.value.line == 4


def test_a_typed_action_without_parentheses_is_asked_again():
    game = load(SPECS / "pig.yaml")
    with pytest.raises(SpecError) as err:                 # was ValueError: substring not found
        game.parse_action(game.initial_state(), "rol")
    assert "not a legal action" in err.value.message


def _pddl(tmp_path, precondition, goal="(q)"):
    domain = tmp_path / "domain.pddl"
    domain.write_text("(define (domain d) (:requirements :strips :negative-preconditions)\n"
                      f"(:predicates (p) (q))\n(:action a :parameters () :precondition {precondition}\n"
                      " :effect (q)))\n")
    problem = tmp_path / "problem.pddl"
    problem.write_text(f"(define (problem x) (:domain d) (:objects) (:init (p)) (:goal {goal}))\n")
    return domain, problem


@pytest.mark.parametrize("opening, depth, solvable", [
    ("(and ", 2000, True), ("(not ", 1000, True), ("(not ", 1001, False), ("(not (and ", 800, True)])
def test_deep_pddl_formulas_ground_without_recursion(tmp_path, capsys, opening, depth, solvable):
    closing = ")" * (depth * opening.count("("))
    domain, problem = _pddl(tmp_path, opening * depth + "(p)" + closing)
    assert main(["plan", str(domain), str(problem)]) == 0
    out = capsys.readouterr().out
    assert ("validated: yes" in out) if solvable else NO_PLAN.search(out)


def test_an_unreachable_goal_is_no_plan_not_an_empty_one(tmp_path, capsys):
    """(not (p)) with p static and true: the goal (q) is unreachable; grounding used to
    drop its bit, so the empty plan seemed to reach the goal."""
    domain, problem = _pddl(tmp_path, "(not (p))")
    assert main(["plan", str(domain), str(problem)]) == 0
    assert NO_PLAN.search(capsys.readouterr().out)


def test_grounding_obeys_the_time_budget_and_bounds_its_tries(monkeypatch, tmp_path):
    import planners
    from framework.search import result as result_module
    from framework.search.result import Budget, BudgetExceeded
    clock = iter(range(1000, 10**9))                     # a clock that moves 1 s per reading
    monkeypatch.setattr(result_module.time, "perf_counter", lambda: float(next(clock)))
    problem = planners.load(ROOT / "planners" / "data" / "problems" / "gripper.yaml")
    with pytest.raises(BudgetExceeded):
        planners.ground(problem, budget=Budget(5))      # stopped within a few readings
    monkeypatch.undo()
    objects = " ".join(f"o{i}" for i in range(60))
    domain = tmp_path / "domain.pddl"
    domain.write_text("(define (domain d) (:requirements :strips :equality) (:predicates (q ?a ?b ?c))\n"
                      "(:action a :parameters (?a ?b ?c) :precondition (= ?a ?b) :effect (q ?a ?b ?c)))\n")
    problem_file = tmp_path / "problem.pddl"
    problem_file.write_text(f"(define (problem x) (:domain d) (:objects {objects}) (:init) (:goal (q o1 o1 o1)))\n")
    with pytest.raises(SpecError) as err:                # 216,000 tries for 3,600 operators
        planners.ground(planners.load(domain, problem_file), max_operators=1000)
    assert "tries more than 10,000 bindings" in err.value.message and err.value.line == 2


def test_the_budget_reads_the_clock_often_enough_for_slow_nodes(monkeypatch):
    """Each tick takes 'one second' here: the budget notices the deadline within a tick or
    two, not 256 ticks later (A* with LM-cut on a large task)."""
    from framework.search import result as result_module
    from framework.search.result import Budget, BudgetExceeded
    now = [0.0]

    def clock():
        return now[0]
    monkeypatch.setattr(result_module.time, "perf_counter", clock)
    budget = Budget(time_limit=10)
    ticks = 0
    with pytest.raises(BudgetExceeded):
        while True:
            now[0] += 1.0
            budget.tick()
            ticks += 1
    assert ticks <= 10


@pytest.mark.parametrize("argv", [
    ["solve", "nim", "--time", "-1"], ["solve", "nim", "--time", "nan"], ["solve", "nim", "--time", "inf"],
    ["solve", "nim", "--nodes", "0"], ["solve", "nim", "--algo", "mcts", "--iterations", "-5"],
    ["solve", "nim", "--tt-mb", "1e400"], ["solve", "nim", "--algo", "mcts", "--exploration", "nan"],
    ["solve", "nim", "--depth", "-3"], ["perft", "nim", "-d", "10**400"], ["plan", "hanoi", "--time", "-1"],
    ["plan", "hanoi", "--max-operators", "-1"], ["test", "nim", "--examples", "0"],
    ["tree", "nim", "--depth", "-1"], ["play", "nim", "--as", "P3"], ["solve", "nim", "--set", "heaps"],
    ["solve", "nim", "--set", "heaps=[1,"], ["match", "nim", "--move-time", "-1"],
    ["book", "nim", "-o", "b.json", "--plies", "-1"]])
def test_every_numeric_flag_is_checked_with_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as code:              # argparse's own exit, or main's return
        raise SystemExit(main(argv))
    assert code.value.code == 2 and "Traceback" not in capsys.readouterr().err


def test_ctrl_c_inside_a_search_stops_the_command_unless_it_asked_for_the_best_so_far():
    """An agent's search (match, play, book, the conformance suite) that Ctrl-C stops
    raises KeyboardInterrupt again, so the command stops; `solve` and `plan` ask for the
    best result so far instead."""
    from framework.search import mcts
    from framework.search.result import best_so_far_on_interrupt
    game = load(SPECS / "tictactoe.yaml")
    original = mcts.UCTSearch._playout
    calls = {"n": 0}

    def interrupted(self, state):
        calls["n"] += 1
        if calls["n"] == 20:
            raise KeyboardInterrupt
        return original(self, state)
    mcts.UCTSearch._playout = interrupted
    try:
        with pytest.raises(KeyboardInterrupt):
            mcts.search(game, iterations=100, seed=1)
        calls["n"] = 0
        with best_so_far_on_interrupt():
            result = mcts.search(game, iterations=100, seed=1)
        assert result.extra["interrupted"] and result.best_action in game.initial_state().actions()
    finally:
        mcts.UCTSearch._playout = original


def test_parallel_commands_take_shipped_names(capsys):
    assert main(["perft", "connect_four", "-d", "2", "--workers", "0"]) == 0
    assert "ply   2:           49" in capsys.readouterr().out


def test_fuzzing_past_the_loaders_finds_nothing_and_leaves_nothing(tmp_path, monkeypatch):
    """plyspec fuzz --tools: mutants that load go through perft, solve and the conformance
    suite; only results and SpecErrors come out, and the temporary folder is removed."""
    import tempfile

    from framework.conformance import fuzz, fuzz_tools
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    tally = fuzz_tools.campaign(16, seed=3)
    assert tally.inputs == 16 and tally.loaded + tally.refused == 16 and not tally.findings
    assert tally.loaded >= 1
    fuzz.campaign(12, formats=("yaml", "pddl-domain"), kinds=("mutations",))
    assert list(tmp_path.iterdir()) == []


def test_a_number_too_large_for_a_float_is_a_spec_error_at_the_rule():
    text = (SPECS / "pig.yaml").read_text()
    huge = " * ".join(["(score[me] + 99999999999999999999)"] * 20)
    text = text.replace('lead: "(score[me] - score[next(me)] + (total if mover == me else -total)) / goal"',
                        f'lead: "{huge} / goal"')
    game = load_text(text, file="overflow.yaml")
    with pytest.raises(SpecRuntimeError) as err:
        game.evaluate(game.initial_state(), 0)
    assert "grew too large" in err.value.message and err.value.line == 19     # `evaluation:`


def test_a_slow_heuristic_is_stopped_between_children_not_after_the_node(monkeypatch):
    """A* reads the clock between the heuristic evaluations of one node's children (LM-cut
    on a large task overshot --time by seconds when only expansions were counted)."""
    import planners
    from framework.search import result as result_module
    from framework.search.registry import searcher
    task = planners.ground(planners.load(ROOT / "planners" / "data" / "problems" / "gripper.yaml"))
    now = [0.0]
    monkeypatch.setattr(result_module.time, "perf_counter", lambda: now[0])
    calls = []

    def slow(state):                     # every evaluation takes "one second"
        now[0] += 1.0
        calls.append(state)
        return 0
    result = searcher("astar")(task, time_limit=5.5, heuristic=slow)
    assert result.extra["reason"] == "time limit" and len(calls) <= 8
