"""The 8-puzzle as a 1-player game spec with a goal: TRUTHS.md optimum and state count."""
import framework
from framework.search.registry import searcher
from framework.search.problem import GameProblem
from tests.conftest import ROOT

SPEC = ROOT / "planners" / "data" / "problems" / "eight_puzzle.yaml"


def test_shortest_solution_is_26_moves():
    result = searcher("bfs")(GameProblem(framework.load(SPEC)))
    assert len(result.pv) == 26


def test_181440_reachable_states():
    start = framework.load(SPEC).initial_state()
    seen, stack = {start}, [start]
    while stack:
        s = stack.pop()
        for a in s.actions():
            t = s.result(a)
            if t not in seen:
                seen.add(t)
                stack.append(t)
    assert len(seen) == 181_440
