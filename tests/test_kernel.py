"""The function-level kernel (framework/compiler/kernel.py, framework/kernel.py) agrees
with the course interface it runs under: move by move on random playouts of every shipped
game that has one, and in perft against TRUTHS.md."""
import random

import pytest

import framework
from framework.conformance.discover import shipped_specs, spec_kind
from framework.kernel import kernel_of
from framework.perft import perft
from tests.conftest import SPECS

GAMES = [p for p in shipped_specs() if spec_kind(p) == "game"]


def _agree(kernel, state, packed):
    """The kernel's view of `packed` is the course interface's view of `state`."""
    assert packed == tuple(state) and hash(packed) == hash(state)
    assert kernel.terminal(packed) == state.terminal_test()
    assert kernel.returns(packed) == state.returns()
    assert [kernel.utility(packed, p) for p in range(len(state.returns()))] == list(state.returns())
    if state.terminal_test():
        assert kernel.actions(packed) == () and kernel.count(packed) == 0
        return []
    assert kernel.player(packed) == state.player()
    raw = list(kernel.actions(packed))
    actions = state.actions()
    assert [kernel.action(a) for a in raw] == actions
    assert kernel.count(packed) == len(actions)
    counts = [kernel.count(kernel.apply(packed, a)) for a in raw]
    assert kernel.leaves(packed) == sum(counts)
    return raw


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_kernel_agrees_with_the_course_interface_on_random_playouts(path):
    game = framework.load(path)
    kernel = game.kernel
    if kernel is None:
        assert game.chance or "def _walk" in game.python_source, f"{path}: no kernel, yet no chance or compound moves"
        return
    rng = random.Random(path.stem)
    for _ in range(4):
        state = game.initial_state()
        packed = tuple(state)
        for _ in range(120):
            raw = _agree(kernel, state, packed)
            if not raw:
                break
            a = rng.choice(raw)
            state, packed = state.result(kernel.action(a)), kernel.apply(packed, a)
            assert type(packed) is tuple and kernel.view(packed) == state


@pytest.mark.parametrize("spec, per_ply", [
    ("tictactoe.yaml", [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]),
    ("connect_four.yaml", [7, 49, 343, 2401, 16807, 117649]),
    ("othello.yaml", [4, 12, 56, 244, 1396, 8200]),
])
def test_perft_runs_on_the_kernel_and_matches_truths(spec, per_ply):
    state = framework.load(SPECS / spec).initial_state()
    assert kernel_of(state) is not None
    assert perft(state, len(per_ply)) == per_ply
    seen = []
    perft(state, 3, progress=lambda i, n: seen.append((i, n)))
    assert seen == [(i, per_ply[0]) for i in range(1, per_ply[0] + 1)]


def test_states_of_other_kinds_keep_the_course_path():
    class Wrapped(tuple):
        pass
    assert kernel_of(Wrapped()) is None
    assert framework.load(SPECS / "pig.yaml").kernel is None        # chance: no kernel


def _without_kernel(monkeypatch, game):
    monkeypatch.setattr(game.state_class, "_kernel", None)


@pytest.mark.parametrize("spec, depth, moves", [
    ("tictactoe.yaml", None, 0), ("connect_four.yaml", 5, 2), ("othello.yaml", 3, 3), ("kalah.yaml", 4, 1),
    ("nim.yaml", None, 0)])
def test_searchers_on_the_kernel_give_the_course_interface_results(monkeypatch, spec, depth, moves):
    """Alpha-beta (every enhancement on, then off) and minimax: the same value, principal
    line and statistics with the kernel as without it."""
    from framework.search import alphabeta, minimax
    game = framework.load(SPECS / spec)
    state = game.initial_state()
    for _ in range(moves):
        state = state.result(state.actions()[0])
    plain = dict.fromkeys(("tt", "ordering", "id", "aspiration", "pvs", "quiescence"), False)
    runs = (lambda: alphabeta.search(game, state, depth=depth),
            lambda: alphabeta.search(game, state, depth=depth, **plain),
            lambda: minimax.search(game, state, depth=min(depth or 9, 4)))
    with_kernel = [run() for run in runs]
    assert kernel_of(state) is not None
    _without_kernel(monkeypatch, game)
    assert kernel_of(state) is None
    for fast, run in zip(with_kernel, runs):
        slow = run()
        assert (fast.value, fast.pv, fast.best_action) == (slow.value, slow.pv, slow.best_action)
        assert (fast.stats.nodes, fast.stats.evaluations, fast.stats.cutoffs, fast.stats.tt_hits) == \
            (slow.stats.nodes, slow.stats.evaluations, slow.stats.cutoffs, slow.stats.tt_hits)


@pytest.mark.parametrize("spec", ["connect_four.yaml", "othello.yaml", "nim.yaml"])
def test_mcts_playouts_on_the_kernel_make_the_same_tree(monkeypatch, spec):
    """The same seed gives the same tree with kernel playouts as with State playouts."""
    from framework.search import mcts
    game = framework.load(SPECS / spec)
    fast = mcts.search(game, node_limit=300, seed=7)
    _without_kernel(monkeypatch, game)
    slow = mcts.search(game, node_limit=300, seed=7)
    assert (fast.best_action, fast.value, fast.values, fast.stats.nodes, fast.extra) == \
        (slow.best_action, slow.value, slow.values, slow.stats.nodes, slow.extra)


def test_tree_size_on_the_kernel(monkeypatch):
    from framework.perft import tree_size
    game = framework.load(SPECS / "nim.yaml")
    fast = tree_size(game.initial_state())
    _without_kernel(monkeypatch, game)
    assert tree_size(game.initial_state()) == fast


def test_k_in_a_row_inside_a_quantifier_domain_compiles():
    """On a large board `line` is an inline expression with `:=`, which Python forbids in
    a comprehension's iterable: there it calls its helper."""
    text = (SPECS / "connect_four.yaml").read_text().replace(
        '"(count c in cells(board, R): col(c) == width // 2)',
        '"(count c in 0..(1 if line(board, k, R) else 2): c == 0)')
    assert "0..(1 if line" in text
    game = framework.load_text(text)
    state = game.initial_state()
    assert "in span(0, (1 if _line4(b_R) else 2)" in game.python_source
    assert game.evaluate(state, 0) == 0.1         # no line yet: c in 0..2 with c == 0, once
