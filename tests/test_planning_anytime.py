"""Anytime LAMA (`--config lama`), lazy weighted A* under a cost bound, tie-breaking that
does not depend on the order of the successors, and the memory bound of `plan --memory`
(issue 29)."""
from __future__ import annotations

import gc
import json
import random
import subprocess
import sys

import pytest

import planners
from conftest import ROOT
from framework.search import lazy_gbfs
from framework.search.registry import searcher
from planners.configurations.lama import evaluators
from planners.lifted.validate import validate_plan

SAMPLES = planners.PDDL_DIR


def _sample(name: str, number: int = 1):
    folder = SAMPLES / name
    problem = planners.load(folder / "domain.pddl", folder / f"task{number:02d}.pddl")
    return problem, planners.ground(problem)


def _shuffled(task, seed: int):
    """`task` with each successor list in a random order."""
    rng, generate = random.Random(seed), task.successors

    def successors(state):
        out = generate(state)
        rng.shuffle(out)
        return out
    task.successors = successors
    return task


@pytest.mark.parametrize("name,number", [("blocks", 4), ("logistics", 3), ("gripper", 3),
                                         ("scanalyzer", 1), ("miconic-fulladl", 2)])
def test_lama_first_does_not_depend_on_the_successor_order(name, number):
    """The same expansions and plan whatever order the successor function lists the
    successors in (ties go to the parent expanded first, then the smaller operator)."""
    _, task = _sample(name, number)
    runs = []
    for seed in (None, 1, 2, 3):
        task = _sample(name, number)[1]
        if seed is not None:
            _shuffled(task, seed)
        result = searcher("lama-first")(task)
        runs.append((result.pv, result.stats.expanded, result.stats.nodes))
    assert runs[0][0] and all(run == runs[0] for run in runs)


def _cheapest(task) -> float:
    return searcher("astar")(task, heuristic="lmcut").cost


@pytest.mark.parametrize("name,number", [("blocks", 2), ("scanalyzer", 1), ("gripper", 1)])
def test_lazy_weighted_astar_finds_only_plans_under_its_bound(name, number):
    """With the bound at the cheapest cost there is no plan (proved: complete); one above
    it, every plan found is cheapest."""
    _, task = _sample(name, number)
    best = _cheapest(task)
    for weight in (1, 3):
        none = lazy_gbfs.search(task, heuristic=evaluators(task), weight=weight, bound=best)
        assert not none.extra["solved"] and none.complete
        assert none.extra["reason"] == f"no plan cheaper than {best:g} exists"
        found = lazy_gbfs.search(task, heuristic=evaluators(task), weight=weight,
                                 bound=best + 0.5)
        assert found.extra["solved"] and found.cost == best


@pytest.mark.parametrize("name,number", [("blocks", 3), ("scanalyzer", 1), ("openstacks-adl", 1),
                                         ("gripper", 1)])
def test_lama_improves_its_plan_until_it_is_proved_cheapest(name, number):
    """Without a time limit `lama` ends when weighted A* with W = 1 finds nothing cheaper:
    its last plan costs what A* with LM-cut finds; every plan is cheaper than the one
    before and valid."""
    problem, task = _sample(name, number)
    seen = []
    result = searcher("lama")(task, on_plan=lambda r, label, s: seen.append((r.cost, r.pv, label)))
    assert result.extra["proved_cheapest"] and result.complete
    assert result.cost == _cheapest(task) == seen[-1][0]
    costs = [cost for cost, _, _ in seen]
    assert costs == sorted(set(costs), reverse=True)
    assert [p["cost"] for p in result.extra["plans"]] == costs
    first = searcher("lama-first")(_sample(name, number)[1])
    assert (seen[0][1], seen[0][2]) == (first.pv, "lazy greedy search"
                                        + ("" if task.unit_cost else ", unit costs"))
    for _, plan, _ in seen:
        assert validate_plan(problem, [task.action_text(a) for a in plan]).valid


def test_lama_on_a_cost_task_runs_the_phases_of_lama_2011():
    """On a task with action costs: unit costs first, then costs + 1."""
    from planners.configurations.lama_anytime import phases
    _, task = _sample("scanalyzer")
    assert not task.unit_cost
    assert [label for label, _ in phases(task)] == [
        "lazy greedy search, unit costs", "lazy greedy search, costs + 1",
        "lazy weighted A*, w=5, costs + 1", "lazy weighted A*, w=3, costs + 1",
        "lazy weighted A*, w=2, costs + 1", "lazy weighted A*, w=1, costs + 1"]
    _, unit = _sample("blocks")
    assert [label for label, _ in phases(unit)] == ["lazy greedy search"] + [
        f"lazy weighted A*, w={w}" for w in (5, 3, 2, 1)]


def test_lama_keeps_its_best_plan_when_the_node_budget_ends():
    _, task = _sample("logistics", 4)
    first = searcher("lama-first")(_sample("logistics", 4)[1])
    result = searcher("lama")(task, node_limit=first.stats.expanded + 5)
    assert result.extra["solved"] and not result.complete
    assert result.extra["reason"] == "node limit" and result.cost <= first.cost


def _plan(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "framework", "plan", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def test_cli_lama_prints_each_better_plan_validated():
    folder = SAMPLES / "scanalyzer"
    out = _plan(str(folder / "domain.pddl"), str(folder / "task01.pddl"), "--config", "lama")
    assert out.returncode == 0, out.stderr
    headers = [line for line in out.stdout.splitlines() if line.startswith("plan ")]
    assert headers and all(line.endswith("validated: yes") for line in headers)
    assert "no cheaper plan exists" in out.stdout
    data = json.loads(_plan(str(folder / "domain.pddl"), str(folder / "task01.pddl"),
                            "--config", "lama", "--json").stdout)
    assert data["proved_cheapest"] and all(p["valid"] for p in data["plans"])
    assert data["cost"] == data["plans"][-1]["cost"] and len(data["plans"]) == len(headers)


def test_memory_bound_ends_the_search_with_its_statistics():
    """A tiny bound: the search stops with a clear reason and reports its lists, exit 0."""
    out = _plan(str(planners.PROBLEMS_DIR / "hanoi.plan"), "--set", "disks=10", "--algo", "bfs",
                "--memory", "1")
    assert out.returncode == 0 and not out.stderr
    assert "no plan: memory limit" in out.stdout
    assert "of 1 MB added by the search" in out.stdout and "states closed" in out.stdout
    data = json.loads(_plan(str(planners.PROBLEMS_DIR / "hanoi.plan"), "--set", "disks=10",
                            "--algo", "bfs", "--memory", "1", "--json").stdout)
    assert data["reason"] == "memory limit" and not data["solved"]
    assert data["memory_mb"] >= 1 and data["memory_limit_mb"] == 1 and data["closed"] > 1000


def test_a_memory_error_ends_the_search_like_the_bound(monkeypatch):
    _, task = _sample("gripper", 2)
    calls = [0]
    generate = task.successors

    def successors(state):
        calls[0] += 1
        if calls[0] > 20:
            raise MemoryError
        return generate(state)
    task.successors = successors
    result = searcher("lama-first")(task)
    assert not result.extra["solved"] and not result.complete
    assert result.extra["reason"] == "memory limit (MemoryError)"
    assert result.extra["closed"] > 0


def test_memory_bound_is_refused_in_a_sweep():
    out = _plan(str(SAMPLES / "gripper"), "--memory", "5")
    assert out.returncode == 2 and "--memory applies to one task" in out.stderr



@pytest.mark.parametrize("where,phase", [("planners.ground", "grounding"),
                                         ("planners.configurations.lama.evaluators",
                                          "preparing the heuristics")])
def test_running_out_of_memory_before_the_search_is_a_clear_message(monkeypatch, capsys,
                                                                    where, phase):
    """A MemoryError while grounding or making the heuristics (the process's own address
    space limit): a message, exit 0, no traceback."""
    import importlib
    from framework.cli import main
    module, name = where.rsplit(".", 1)

    def out_of_memory(*args, **kw):
        raise MemoryError
    monkeypatch.setattr(importlib.import_module(module), name, out_of_memory)
    assert main(["plan", "gripper", "--config", "lama-first"]) == 0
    assert f"no plan: memory limit (while {phase})" in capsys.readouterr().out


@pytest.mark.parametrize("name,number", [("blocks", 4), ("logistics", 4), ("gripper", 3),
                                         ("miconic", 5), ("either-transport", 2),
                                         ("psr-middle", 1), ("openstacks-adl", 1)])
def test_lama_first_evaluates_states_in_fast_downwards_lazy_search_order(name, number):
    """lama-first (batched lists) evaluates the same states in the same order as a plain
    transcription of Fast Downward's lazy greedy search (tests/lazy_reference.py)."""
    from lazy_reference import evaluation_order
    _, task = _sample(name, number)
    seen = []

    class Recorder:
        path_dependent = True

        def __init__(self, inner, first):
            self.inner, self.first = inner, first

        def evaluate(self, state, parent):
            if self.first:          # (h_FF, asked first: landmark count is not asked
                seen.append(state)  # about the states h_FF proves dead ends)
            return self.inner.evaluate(state, parent)

    result = lazy_gbfs.search(task, heuristic=[Recorder(e, i == 0)
                                               for i, e in enumerate(evaluators(task))])
    expected = evaluation_order(planners.ground(_sample(name, number)[0]),
                                evaluators(task))
    assert result.extra["valid"] and len(expected) > 10
    assert seen + [expected[-1]] == expected


DEAD_ENDS_DOMAIN = """(define (domain strand)
  (:requirements :strips)
  (:predicates (at ?c) (road ?a ?b) (free) (painted ?c))
  (:action coat :parameters (?c) :precondition (and (at ?c) (free))
    :effect (and (painted ?c) (not (free))))
  (:action move :parameters (?a ?b) :precondition (and (at ?a) (road ?a ?b) (free))
    :effect (and (at ?b) (not (at ?a)))))"""

DEAD_ENDS_TASK = """(define (problem strand1) (:domain strand)
  (:objects c0 c1 c2 c3)
  (:init (at c0) (free) (road c0 c1) (road c1 c2) (road c2 c3))
  (:goal (painted c3)))"""


def test_a_state_h_ff_proves_dead_is_dropped_before_landmark_count_is_asked(tmp_path):
    """Coating a cell ends all moves: coating any cell but c3 is a dead end h_FF proves; the
    search drops those states without asking landmark count (Fast Downward's open list
    stops at the first infinite estimate) and still plans as the reference does."""
    from lazy_reference import evaluation_order
    (tmp_path / "domain.pddl").write_text(DEAD_ENDS_DOMAIN)
    (tmp_path / "task.pddl").write_text(DEAD_ENDS_TASK)
    problem = planners.load(tmp_path / "domain.pddl", tmp_path / "task.pddl")
    task = planners.ground(problem)
    hff, lmcount = evaluators(task)
    dead, asked = set(), []

    class First:
        def evaluate(self, state, parent):
            value, preferred = hff.evaluate(state, parent)
            if value == float("inf"):
                dead.add(state)
            return value, preferred

    class Second:
        path_dependent = True

        def evaluate(self, state, parent):
            asked.append(state)
            return lmcount.evaluate(state, parent)

    result = lazy_gbfs.search(task, heuristic=[First(), Second()])
    assert result.extra["valid"] and len(result.pv) == 4
    assert gc.isenabled()               # (off during the search only)
    assert dead and not dead & set(asked)
    expected = evaluation_order(planners.ground(problem), evaluators(task))
    assert [s for s in expected if s not in dead][:-1] == asked
