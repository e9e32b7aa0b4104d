"""Which path each shipped game takes, and that the two paths agree.

`plyspec perft` and alpha-beta run on a compiled game's function-level kernel
(framework/kernel.py) or on the course interface (the State methods).  Every shipped game
is on the kernel, compound moves (draughts, Brazilian draughts, Amazons) and `prefer`
included, except the games listed in ON_THE_COURSE_INTERFACE (and, for alpha-beta,
ALPHABETA_ON_THE_COURSE_INTERFACE) with the reason; the kernel
agrees with the course interface node by node (moves, successors, terminal test,
utilities, move counts one and two plies below) breadth-first and on seeded random
playouts of every shipped game, on the positions inside the states of a game with history
rules (framework.conformance.kernel_check)."""
import pytest

import framework
from framework import perft as perft_module
from framework.conformance.discover import shipped_specs, spec_kind
from framework.conformance.kernel_check import walk_difference
from framework.history import position
from framework.search import alphabeta
from tests.conftest import SPECS, by_cost, costly

GAMES = [p for p in shipped_specs() if spec_kind(p) == "game"]

# The games that play perft and alpha-beta on the course interface, with the reason: none
# (history rules run on framework/history_kernel.py around the kernel of the positions).
ON_THE_COURSE_INTERFACE = {}
# Alpha-beta's further exceptions: a game with `noisy` moves searches its quiescence on the
# State objects (framework.search.alphabeta: the noisy test takes a State).
ALPHABETA_ON_THE_COURSE_INTERFACE = {"othello": "it declares `noisy` moves (quiescence search on the State objects)"}


def _paths(monkeypatch, game):
    """(perft's path, alpha-beta's path): "kernel" or "course", as each runs from the start."""
    seen = {}
    real_kernel_perft, real_functions = perft_module._kernel_perft, alphabeta.state_functions

    def kernel_perft(*args):
        seen["perft"] = "kernel"
        return real_kernel_perft(*args)

    def functions(root, kernel):
        seen["alphabeta"] = "course" if kernel is None else "kernel"
        return real_functions(root, kernel)

    monkeypatch.setattr(perft_module, "_kernel_perft", kernel_perft)
    monkeypatch.setattr(alphabeta, "state_functions", functions)
    root = game.initial_state()
    perft_module.perft(root, 1)
    if game.num_players == 2 and not root.is_chance() and not game.chance:
        alphabeta.search(game, root, depth=1, tt=False)
    return seen.get("perft", "course"), seen.get("alphabeta")


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_each_shipped_game_runs_perft_and_alphabeta_on_the_path_named_here(monkeypatch, path):
    game = framework.load(path)
    perft_path, search_path = _paths(monkeypatch, game)
    expected = "course" if path.stem in ON_THE_COURSE_INTERFACE or game.chance else "kernel"
    assert perft_path == expected, f"{path.stem}: perft on the {perft_path} path"
    if path.stem in ALPHABETA_ON_THE_COURSE_INTERFACE:
        expected = "course"
    assert search_path in (None, expected), f"{path.stem}: alpha-beta on the {search_path} path"
    assert type(position(game.initial_state()))._kernel is not None, f"{path.stem}: its positions have no kernel"


def test_the_games_named_off_the_kernel_are_shipped():
    assert set(ON_THE_COURSE_INTERFACE) | set(ALPHABETA_ON_THE_COURSE_INTERFACE) <= {p.stem for p in GAMES}


@pytest.mark.parametrize("path", by_cost("node_by_node", GAMES), ids=lambda p: p.stem)
def test_the_kernel_agrees_with_the_course_interface_node_by_node(path):
    game = framework.load(path)
    assert walk_difference(game, bfs_states=20, playouts=2, plies=60, seed=path.stem) is None


@pytest.mark.parametrize("path", [p for p in GAMES if costly("node_by_node", p)], ids=lambda p: p.stem)
def test_the_kernel_agrees_node_by_node_on_fewer_states_for_a_costly_game(path):
    """The default run's check of a game whose 20 breadth-first states are costly on the
    course interface (tests/conftest.py COSTLY kind `node_by_node`): 5 of them, the same playouts."""
    game = framework.load(path)
    assert walk_difference(game, bfs_states=5, playouts=2, plies=60, seed=path.stem) is None


@pytest.mark.parametrize("spec, depth, counts", [
    ("draughts.yaml", 5, [7, 49, 302, 1469, 7361]),
    ("brazilian_draughts.yaml", 4, [7, 49, 302, 1469]),
    ("amazons.yaml", 2, [206, 32484]),
])
def test_compound_games_count_the_published_perft_on_the_kernel(spec, depth, counts):
    root = position(framework.load(SPECS / spec).initial_state())
    assert type(root)._kernel is not None
    assert perft_module.perft(root, depth) == counts
