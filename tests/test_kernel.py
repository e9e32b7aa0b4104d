"""The function-level kernel (framework/compiler/kernel.py, framework/kernel.py) agrees
with the course interface it runs under: move by move on random playouts of every shipped
game that has one (chance nodes included), in perft against TRUTHS.md, and every searcher
that runs on it gives the same values, lines, node counts and trees with it as without it."""
import random

import pytest

import framework
from framework.conformance.discover import shipped_specs, spec_kind
from framework.kernel import kernel_of
from framework.perft import perft
from tests.conftest import SPECS, by_cost

GAMES = [p for p in shipped_specs() if spec_kind(p) == "game"]


def _agree(kernel, state, packed):
    """The kernel's view of `packed` is the course interface's view of `state`."""
    assert packed == tuple(state) and hash(packed) == hash(state)
    assert kernel.terminal(packed) == state.terminal_test()
    assert kernel.returns(packed) == state.returns()
    assert [kernel.utility(packed, p) for p in range(len(state.returns()))] == list(state.returns())
    chance = kernel.chance is not None and bool(kernel.chance(packed))
    assert chance == state.is_chance()
    if state.terminal_test():
        assert kernel.actions(packed) == () and (kernel.count is None or kernel.count(packed) == 0)
        return []
    raw = list(kernel.actions(packed))
    actions = state.actions()
    if chance:                        # outcomes: course values on both sides
        assert kernel.outcomes(packed) == state.chance_outcomes() and raw == actions
        assert kernel.children(packed) == [(p, kernel.apply(packed, o)) for o, p in kernel.outcomes(packed)]
        return raw
    assert kernel.children(packed) == [(a, kernel.apply(packed, a)) for a in raw]
    if kernel.successors is not None:
        assert kernel.successors(packed) == [child for _, child in kernel.children(packed)]
    assert kernel.player(packed) == state.player()
    assert [kernel.action(a) for a in raw] == actions
    if kernel.outcomes is not None:   # perft walks chance games on the course interface
        return raw
    assert kernel.count(packed) == len(actions)
    counts = [kernel.count(kernel.apply(packed, a)) for a in raw]
    assert kernel.leaves(packed) == sum(counts)
    return raw


@pytest.mark.parametrize("path", by_cost("kernel", GAMES), ids=lambda p: p.stem)
def test_kernel_agrees_with_the_course_interface_on_random_playouts(path):
    game = framework.load(path)
    kernel = game.kernel
    if kernel is None:
        assert "def _walk" in game.python_source or game.spec.prefer, \
            f"{path}: no kernel, yet no compound moves or move preference"
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
            course = a if kernel.chance is not None and kernel.chance(packed) else kernel.action(a)
            state, packed = state.result(course), kernel.apply(packed, a)
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
    pig = framework.load(SPECS / "pig.yaml").initial_state()
    assert kernel_of(pig) is None and kernel_of(pig, chance=True) is not None   # perft, minimax, MCTS: no chance


def _without_kernel(monkeypatch, game):
    """The game's states leave the kernel (a game with history rules: its RuledState class)."""
    monkeypatch.setattr(type(game.initial_state()), "_kernel", None)


@pytest.mark.parametrize("spec, depth, moves", [
    ("tictactoe.yaml", None, 0), ("connect_four.yaml", 5, 2), ("othello.yaml", 3, 3), ("kalah.yaml", 4, 1),
    ("nim.yaml", None, 0), ("northcott.yaml", 7, 1), ("oware.yaml", 4, 2), ("go5.yaml", 2, 3)])
def test_searchers_on_the_kernel_give_the_course_interface_results(monkeypatch, spec, depth, moves):
    """Alpha-beta (every enhancement on, then off) and minimax: the same value, principal
    line and statistics with the kernel as without it.  On a history game's kernel the
    default table is keyed by the position (framework/search/history_table.py), which the
    course interface does not do: there the statistics are compared with a table keyed by
    the whole state on both paths, and the default run's value and line."""
    from framework.search import alphabeta, minimax
    from framework.search.tt import TranspositionTable
    game = framework.load(SPECS / spec)
    state = game.initial_state()
    for _ in range(moves):
        state = state.result(state.actions()[0])
    plain = dict.fromkeys(("tt", "ordering", "id", "aspiration", "pvs", "quiescence"), False)
    runs = (lambda: alphabeta.search(game, state, depth=depth),
            lambda: alphabeta.search(game, state, depth=depth, tt=TranspositionTable(500_000)),
            lambda: alphabeta.search(game, state, depth=depth, **plain),
            lambda: minimax.search(game, state, depth=min(depth or 9, 4)))
    with_kernel = [run() for run in runs]
    assert kernel_of(state) is not None
    keyed_by_position = hasattr(kernel_of(state), "repetition_key")
    _without_kernel(monkeypatch, game)
    assert kernel_of(state) is None
    for k, (fast, run) in enumerate(zip(with_kernel, runs)):
        slow = run()
        assert (fast.value, fast.pv, fast.best_action) == (slow.value, slow.pv, slow.best_action)
        if k or not keyed_by_position:
            assert (fast.stats.nodes, fast.stats.evaluations, fast.stats.cutoffs, fast.stats.tt_hits) == \
                (slow.stats.nodes, slow.stats.evaluations, slow.stats.cutoffs, slow.stats.tt_hits)


@pytest.mark.parametrize("spec", ["connect_four.yaml", "othello.yaml", "nim.yaml", "northcott.yaml"])
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
    # (a plain range: its ends' ranges, 0 and 1..2, bound its size; compiler/int_ranges.py)
    assert "in range(0, (1 if _line4(b_R) else 2) + 1)" in game.python_source
    assert game.evaluate(state, 0) == 0.1         # no line yet: c in 0..2 with c == 0, once


def _outcome(run):
    """What a search gives, to compare with and without the kernel (or the refusal)."""
    try:
        r = run()
    except ValueError as refused:
        return ("refused", str(refused))
    return (r.value, r.values, r.pv, r.best_action, r.complete, r.extra, r.stats.nodes,
            r.stats.evaluations, r.stats.cutoffs, r.stats.tt_hits, r.stats.depth)


def _runs(game, state):
    """The recursive searchers for chance and many-player games, every variant."""
    from framework.search import expectimax, maxn, paranoid
    return {
        "expectimax star2+tt": lambda: expectimax.search(game, state, depth=3, node_limit=4_000),
        "expectimax star1": lambda: expectimax.search(game, state, depth=3, node_limit=4_000, star2=False, tt=False),
        "expectimax plain": lambda: expectimax.search(game, state, depth=3, node_limit=4_000, star1=False, star2=False, tt=False),
        "expectimax deepening": lambda: expectimax.search(game, state, node_limit=400),
        "maxn": lambda: maxn.search(game, state, depth=3, node_limit=4_000),
        "maxn plain": lambda: maxn.search(game, state, depth=3, node_limit=4_000, prune=False),
        "paranoid": lambda: paranoid.search(game, state, depth=3, node_limit=4_000),
        "paranoid deepening": lambda: paranoid.search(game, state, node_limit=400),
    }


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_chance_and_many_player_searchers_on_the_kernel(monkeypatch, path):
    """Expectimax (Star1, Star2, table, deepening), max-n (pruned or not) and paranoid give
    the same values, lines and node counts over packed states as over States, on every
    shipped game with a kernel, from the start and from a position a few plies in."""
    game = framework.load(path)
    if game.kernel is None:
        return
    rng = random.Random(path.stem)
    state = game.initial_state()
    starts = [state]
    for _ in range(3):
        if state.terminal_test():
            break
        state = state.result(rng.choice(state.actions()))
    starts.append(state)
    fast = [{k: _outcome(run) for k, run in _runs(game, s).items()} for s in starts]
    searched = sum(v[0] != "refused" for f in fast for v in f.values())
    assert searched >= 4                                 # max-n searches every game
    _without_kernel(monkeypatch, game)
    slow = [{k: _outcome(run) for k, run in _runs(game, s).items()} for s in starts]
    assert fast == slow


@pytest.mark.parametrize("spec, options, depths", [
    ("pig.yaml", {"goal": 8, "turn_limit": 3}, [1, 2, 3, 5, 8, None]),
    ("pig2.yaml", {}, [1, 2, 4, 6]),
    ("../benchmarks/pig_openspiel.yaml", {"goal": 10, "horizon": 6}, [2, 4, None]),
    ("gift", {"goal": 10, "horizon": 6}, [2, 3, 4, None]),
    ("slippery_isolation.yaml", {}, [1, 2, 3]),
    ("tictactoe.yaml", {}, [1, 3, 5]),
    ("nim.yaml", {"heaps": [2, 3]}, [2, None])])
def test_plain_expectimax_on_the_kernel_without_a_node_limit(monkeypatch, spec, options, depths):
    """Expectimax without pruning or table runs its own recursion on the kernel (a
    function per kind of node, a decision node below a chance node searched inline, the
    budget looked at every CHECK_EVERY nodes): the same values, lines, node and
    evaluation counts as on the course interface, cut at several depths and to the end,
    from the start, from a position near the end of a random game and from the first
    chance node of that game."""
    from framework.search import expectimax
    if spec == "gift":     # a 1 hands the turn total plus the goal to the opponent: won at once by holding
        text = (SPECS.parent / "benchmarks" / "pig_openspiel.yaml").read_text()
        text = text.replace("if d == 1 then total = 0", "if d == 1 then total += goal")
        game = framework.load_text(text.replace("0..sides * horizon}", "0..goal + sides * horizon}"), **options)
    else:
        game = framework.load(SPECS / spec, **options)
    assert game.kernel is not None
    rng = random.Random(spec)
    line = [game.initial_state()]
    while not line[-1].terminal_test():
        line.append(line[-1].result(rng.choice(line[-1].actions())))
    starts = [line[0], line[max(0, len(line) - 7)]] + [s for s in line if s.is_chance()][:1]

    def runs():
        return [_outcome(lambda: expectimax.search(game, start, depth=depth, star1=False, star2=False, tt=False))
                for start in starts for depth in depths]
    fast = runs()
    assert all(r[0] != "refused" for r in fast) and len({r[6] for r in fast}) >= len(depths)
    _without_kernel(monkeypatch, game)
    assert runs() == fast


@pytest.mark.parametrize("goal, sides, horizon", [(10, 6, 5), (6, 3, 7)])
def test_benchmark_pig_is_openspiels_pig(goal, sides, horizon):
    """benchmarks/pig_openspiel.yaml plays pyspiel's "pig": the same whole tree (node by
    node: terminal or not, the same number of moves or outcomes) and the same expectimax
    value as OpenSpiel's own expectiminimax, so bench_pyspiel compares equal work."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.minimax import expectiminimax
    from framework.search import expectimax
    game = framework.load(SPECS.parent / "benchmarks" / "pig_openspiel.yaml", goal=goal, sides=sides, horizon=horizon)
    sgame = pyspiel.load_game("pig", {"winscore": goal, "diceoutcomes": sides, "horizon": horizon})

    def walk(state, sstate):
        assert state.terminal_test() == sstate.is_terminal()
        if state.terminal_test():
            assert state.utility(0) == sstate.returns()[0]
            return 1
        if state.is_chance():
            pairs = zip([o for o, _ in state.chance_outcomes()], [o for o, _ in sstate.chance_outcomes()], strict=True)
        else:
            assert state.player() == sstate.current_player()
            pairs = zip(state.actions(), sstate.legal_actions(), strict=True)
        return 1 + sum(walk(state.result(a), sstate.child(b)) for a, b in pairs)

    nodes = walk(game.initial_state(), sgame.new_initial_state())
    result = expectimax.search(game, star1=False, star2=False, tt=False)
    value, _ = expectiminimax(sgame.new_initial_state(), horizon + 1, None, 0)
    assert result.stats.nodes == nodes and result.value == pytest.approx(value, abs=1e-12)


SINGLE_AGENT = ("bfs", "dfs", "iddfs", "ucs", "astar", "gbfs", "lazy-gbfs")
ONE_PLAYER = [p for p in GAMES if framework.load(p).num_players == 1]


@pytest.mark.parametrize("path", ONE_PLAYER, ids=lambda p: p.stem)
def test_single_agent_searchers_on_the_kernel(monkeypatch, path):
    """BFS, DFS, IDDFS (and the best-first searchers on the same GameProblem) give the
    same plan and statistics over packed states as over States: solved from a start four
    slides from the goal (shortest plans of 4 steps), cut by a node limit or with no plan
    within a depth limit from the spec's start."""
    from framework.search.problem import GameProblem, replay
    from framework.search.registry import searcher
    near = framework.load(path, start=[1, 4, 2, 3, 5, 8, 6, 7, 0])
    far = framework.load(path)
    runs = [(near, name, {}) for name in SINGLE_AGENT] + \
        [(far, name, {"node_limit": 300}) for name in SINGLE_AGENT] + \
        [(far, name, {"depth": 3}) for name in ("bfs", "dfs", "iddfs")]      # depth-bounded ones

    def outcome(game, name, limits):
        r = searcher(name)(GameProblem(game), **limits)
        extra = {k: v for k, v in r.extra.items() if k != "memory_mb"}      # resident memory: not repeatable
        return r.pv, r.cost, r.complete, extra, r.stats.nodes, r.stats.expanded, r.stats.depth

    assert near.kernel is not None and GameProblem(near).kernel is not None
    fast = [outcome(*run) for run in runs]
    assert [f[3]["solved"] for f in fast] == [True] * len(SINGLE_AGENT) + [False] * (len(runs) - len(SINGLE_AGENT))
    assert [len(f[0]) for f in fast[:4] if f] == [4, len(fast[1][0]), 4, 4]    # dfs: any plan
    for f in fast[:len(SINGLE_AGENT)]:         # course actions: they replay on the States
        assert replay(GameProblem(near), f[0])[0]
    for game in (near, far):
        _without_kernel(monkeypatch, game)
    assert [outcome(*run) for run in runs] == fast


def test_an_if_takes_the_truth_of_a_whole_bool_call_itself():
    from framework.compiler.terminal_code import _truth
    assert _truth("bool((a) and (b))") == "(a) and (b)"
    for code in ("bool(a) or bool(b)", "bool(a)(b)", "x", "bool(f(x)) and g(y)"):
        assert _truth(code) == code          # not one call around the whole test: kept
