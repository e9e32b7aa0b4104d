"""Limits: sizes a spec may not exceed give clear SpecErrors, a playout has a length limit,
deep games (a 5,000-ply line, a Nim heap of 5,000) raise no RecursionError in any searcher
of the registry, in perft or through the CLI, every searcher honours its time and node
budgets, and Ctrl-C during `plyspec plan` exits cleanly with what it has (for `solve`,
see test_search_adversarial)."""
from __future__ import annotations

import json

import pytest

import framework
from framework.cli import main
from framework.conformance import FAILED, check_text
from framework.errors import SpecError
from framework.perft import perft, tree_size
from framework.search.problem import GameProblem
from framework.search.registry import GAME_SEARCHERS, PLANNING_SEARCHERS, searcher
from tests.conftest import SPECS
from tests.test_spec_errors import GOOD


@pytest.mark.parametrize("old,new,message", [
    ("width: 3, height: 3", "width: 65, height: 64", "too large (at most 4096)"),
    ("place(c in cell)", "place(c in cell, n in 0..100000)", "too large (at most 100000 values)"),
    ("game: T", "game: T\noptions: {k: 3, z" + "z" * 70 + ": 1}", "at most 64"),
])
def test_size_limits_are_spec_errors_with_a_position(old, new, message):
    text = GOOD.replace("options: {k: 3}\n", "") if "options" in new else GOOD
    with pytest.raises(SpecError) as info:
        framework.load_text(text.replace(old, new), file="t.yaml")
    assert message in info.value.message and info.value.line is not None


COUNTDOWN = """game: Countdown
players: [A, B]
options: {n: 5000}
state:
  left: {type: 0..n, initial: n}
actions:
  take: left -= 1
terminal: left == 0
winner: mover
"""


def test_a_declared_max_length_is_the_playout_limit():
    report = check_text(COUNTDOWN.replace("5000", "30") + "max_length: 20\n", examples=3)
    bad = report.outcome("playouts_terminate")
    assert bad.status == FAILED and "after 20 plies (limit: the spec's max_length)" in bad.detail
    assert bad.counterexample == ["take"] * 20
    assert not check_text(COUNTDOWN.replace("5000", "30") + "max_length: 30\n", examples=3).failed


@pytest.mark.parametrize("name", sorted(GAME_SEARCHERS))
def test_every_game_searcher_survives_a_5000_ply_line(name):
    game = framework.load_text(COUNTDOWN)
    kw = {"node_limit": 30} if name == "mcts" else {"depth": 5000, "id": False} if name == "alphabeta" else {}
    result = searcher(name)(game, **kw)
    assert game.action_text(result.best_action) == "take"
    if name != "mcts":
        assert result.value == 1 and len(result.pv) == 5000


# iddfs: quadratic; lama-first and lama plan grounded tasks only (its heuristics read the
# operators): it walks a chain task longer than the recursion limit in the next test
@pytest.mark.parametrize("name", sorted(set(PLANNING_SEARCHERS) - {"iddfs", "lama-first", "lama"}))
def test_every_single_agent_searcher_survives_a_5000_step_plan(name):
    solo = framework.load_text(COUNTDOWN.replace("[A, B]", "[A]").replace("winner: mover", "goal: left == 0")
                               .replace("terminal: left == 0\n", ""))
    result = searcher(name)(GameProblem(solo))
    assert result.extra["valid"] and len(result.pv) == 5000


def test_lama_first_survives_a_plan_longer_than_the_recursion_limit(tmp_path):
    """1,500 steps (each evaluation is linear in the task, so a chain costs quadratic time:
    5,000 steps took 3 minutes)."""
    import planners
    n = 1500
    (tmp_path / "d.pddl").write_text(
        "(define (domain chain) (:predicates (at ?x) (next ?x ?y))\n"
        " (:action step :parameters (?x ?y) :precondition (and (at ?x) (next ?x ?y))"
        " :effect (and (at ?y) (not (at ?x)))))")
    objects = " ".join(f"c{i}" for i in range(n + 1))
    links = " ".join(f"(next c{i} c{i + 1})" for i in range(n))
    (tmp_path / "p.pddl").write_text(f"(define (problem p) (:domain chain) (:objects {objects})\n"
                                     f" (:init (at c0) {links}) (:goal (at c{n})))")
    task = planners.ground(planners.load(tmp_path / "d.pddl", tmp_path / "p.pddl"))
    result = searcher("lama-first")(task)
    assert result.extra["valid"] and len(result.pv) == n


def test_perft_and_tree_size_are_iterative():
    start = framework.load_text(COUNTDOWN).initial_state()
    assert perft(start, 5000)[-1] == 1 and tree_size(start) == (5001, 1)




@pytest.mark.parametrize("algo", ["alphabeta", "minimax", "expectimax", "maxn", "paranoid"])
def test_a_search_past_the_ply_limit_is_a_limit_error_exit_1(algo, tmp_path, monkeypatch, capsys):
    """A line longer than MAX_SEARCH_PLIES (set low here) searched without a depth limit
    stops with a LimitError naming the limit and --depth: exit 1, never a RecursionError.
    (The recursion limit gives each ply room for two frames; the searchers use one, so the
    line is made longer than twice the limit.)"""
    from framework.search import twoplayer
    monkeypatch.setattr(twoplayer, "MAX_SEARCH_PLIES", 3000)
    spec = tmp_path / "long.yaml"
    spec.write_text(COUNTDOWN.replace("5000", "20000"))
    assert main(["solve", str(spec), "--algo", algo]) == 1
    err = capsys.readouterr().err
    assert f"{algo} went deeper than 3,000 plies" in err and "--depth N" in err
    assert "Recursion" not in err


@pytest.mark.slow
def test_a_500000_ply_line_solves_and_perfts(capsys):
    """The issue's deep line: every depth-first searcher and perft follow 500,000 plies
    (the recursion limit is sized to MAX_SEARCH_PLIES, 1,000,000)."""
    game = framework.load_text(COUNTDOWN, n=500_000)
    assert perft(game.initial_state(), 500_000)[-1] == 1
    for algo, kw in (("minimax", {}), ("alphabeta", {"id": False}), ("expectimax", {})):
        result = searcher(algo)(game, **kw)
        assert result.value == 1 and len(result.pv) == 500_000, algo


def test_a_nim_heap_of_5000_through_the_cli(capsys):
    nim = str(SPECS / "nim.yaml")
    assert main(["perft", nim, "--set", "heaps=[5000]", "-d", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"] == [5000]
    for algo in ("minimax", "alphabeta", "expectimax", "maxn", "paranoid"):
        assert main(["solve", nim, "--set", "heaps=[5000]", "--algo", algo, "--depth", "1",
                     "--json"]) == 0, algo
        assert json.loads(capsys.readouterr().out)["best_action"] is not None


def test_a_planning_generator_over_100000_items_is_a_spec_error(tmp_path):
    import planners
    spec = tmp_path / "grid.yaml"
    spec.write_text("problem: Grid\noptions: {n: 400}\nobjects: {cell: ['C{i} for i in 1..n']}\n"
                    "predicates: [Next(a - cell, b - cell)]\nactions: {}\n"
                    "init: ['Next(C{i}, C{j}) for i in 1..n for j in 1..n']\ngoal: []\n")
    with pytest.raises(SpecError, match="more than 100,000 items") as info:
        planners.load(spec)
    assert info.value.line == 6


@pytest.mark.parametrize("name", sorted(GAME_SEARCHERS))
def test_every_game_searcher_honours_time_and_node_budgets(name):
    import time
    game = framework.load(SPECS / ("pig.yaml" if name == "expectimax" else
                                   "isolation3.yaml" if name in ("maxn", "paranoid") else "othello.yaml"))
    start = time.perf_counter()
    result = searcher(name)(game, time_limit=0.3)
    assert time.perf_counter() - start < 120 and result.best_action is not None   # a hang guard, not a timing
    result = searcher(name)(game, node_limit=500)
    assert result.stats.nodes <= 501 and result.best_action is not None


@pytest.mark.parametrize("name", sorted(PLANNING_SEARCHERS))
def test_every_single_agent_searcher_honours_a_node_budget(name):
    import planners
    task = planners.ground(planners.load(SPECS.parent / "planners" / "data" / "problems" / "hanoi.yaml", disks=8))
    result = searcher(name)(task, node_limit=300)
    assert not result.complete and result.stats.nodes <= 300 + len(task.operators)


@pytest.mark.skipif(__import__("sys").platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_plan_exits_cleanly_with_what_it_has():
    import signal
    import subprocess
    import sys
    # SIGINT at its default in the child: a test run started in the background of a
    # non-interactive shell inherits SIGINT ignored, and the child would never see Ctrl-C
    process = subprocess.Popen([sys.executable, "-m", "framework", "plan", "planners/data/problems/hanoi.yaml",
                                "--set", "disks=14", "--algo", "bfs", "--progress", "--json"], cwd=SPECS.parent,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    first = process.stderr.readline()                     # the search is under way
    assert first.startswith("[bfs] expanded"), first
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=300)
    assert process.returncode == 130, stderr
    out = json.loads(stdout)
    assert out["solved"] is False and out["reason"] == "interrupted" and out["expanded"] > 0
