"""Node counts repeat exactly from process to process.

A transposition table's slot is the state's hash modulo its size, so two processes fill
the same slots only if every state hashes the same in both.  CPython 3.11 hashes `None`
by its address (different in each process whatever PYTHONHASHSEED says) and strings by
the hash seed: a state holding either would make the table lose different entries in
each run, and the node count drift (Pig at depth 11 gave 33,225, 33,224, 33,219, ...).
Here the same searches run in five processes with different hash seeds and must
print the same node counts: an expectimax search of Pig, alpha-beta on tic-tac-toe and
Connect Four, and alpha-beta on Northcott's game (a history game: its states carry the
positions seen) with a table small enough that slots collide.
"""
import json
import os
import subprocess
import sys

import framework
from conftest import ROOT

SEARCHES = {
    "pig": ["pig", "--depth", "11", "--no-star2"],
    "tictactoe": ["tictactoe"],
    "connect_four": ["connect_four", "--depth", "7"],
    "northcott": ["northcott", "--algo", "alphabeta", "--depth", "12", "--tt-mb", "0.001"],
}

# one process runs every search through the command line's own code and prints the counts
_SCRIPT = """
import contextlib, io, json, sys
from framework.cli import main
counts = {}
for name, argv in json.loads(sys.argv[1]).items():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["solve", *argv, "--json"]) == 0
    counts[name] = json.loads(out.getvalue())["nodes"]
print(json.dumps(counts))
"""


def _counts(seed: str) -> dict:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _SCRIPT, json.dumps(SEARCHES)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_node_counts_are_the_same_in_processes_with_different_hash_seeds():
    runs = [_counts(seed) for seed in ("0", "1", "2", "3", "4242")]          # five processes
    assert all(run == runs[0] for run in runs), runs
    assert runs[0]["tictactoe"] == 4084            # the figure README.md and docs/search.md quote


def test_no_state_of_a_shipped_game_holds_none_or_a_string():
    """What the hash of a state is made of: ints, bools and tuples, frozensets or history
    lines (framework.history_line: the positions' keys) of them (the states of every
    shipped game along a few random playouts)."""
    import random
    from framework.history_line import Line

    def atoms(value):
        if isinstance(value, (tuple, frozenset, Line)):
            for x in value:
                yield from atoms(x)
        else:
            yield value

    rng = random.Random(7)
    for spec in sorted((ROOT / "game_specs").glob("*.yaml")):
        game = framework.load(str(spec))
        for _ in range(3):
            state = game.initial_state()
            for _ in range(60):
                odd = [x for x in atoms(state) if type(x) not in (int, bool)]
                assert not odd, f"{spec.name}: a state holds {odd[:3]}: {state!r}"
                if state.terminal_test():
                    break
                if state.is_chance():
                    outcomes = state.chance_outcomes()
                    state = state.result(rng.choice(outcomes)[0])
                else:
                    state = state.result(rng.choice(state.actions()))
