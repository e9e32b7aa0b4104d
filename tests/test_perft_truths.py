"""Perft counts and tree sizes of the compiled game zoo against TRUTHS.md."""
import pytest

import framework
from framework.perft import perft, tree_size
from tests.conftest import SPECS


def load(name, **options):
    return framework.load(SPECS / name, **options)


def test_tictactoe_perft_and_tree():
    s = load("tictactoe.yaml").initial_state()
    assert perft(s, 9) == [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    assert tree_size(s) == (549_946, 255_168)


def test_tictactoe_distinct_positions():
    seen, stack, terminals = set(), [load("tictactoe.yaml").initial_state()], 0
    while stack:
        s = stack.pop()
        if s in seen:
            continue
        seen.add(s)
        terminals += s.terminal_test()
        stack.extend(s.result(a) for a in s.actions())
    assert len(seen) == 5478 and terminals == 958


def test_tictactoe_outcomes():
    wins = {1: 0, -1: 0, 0: 0}
    stack = [load("tictactoe.yaml").initial_state()]
    while stack:
        s = stack.pop()
        if s.terminal_test():
            wins[s.utility(0)] += 1
            continue
        stack.extend(s.result(a) for a in s.actions())
    assert wins == {1: 131_184, -1: 77_904, 0: 46_080}


def test_connect_four_perft():
    assert perft(load("connect_four.yaml").initial_state(), 7) == [7, 49, 343, 2401, 16807, 117649, 823536]


def test_othello_perft():
    assert perft(load("othello.yaml").initial_state(), 6) == [4, 12, 56, 244, 1396, 8200]


@pytest.mark.parametrize("heaps,nodes,games,per_ply", [
    ([2, 2], 33, 14, [4, 10, 12, 6]),
    ([1, 2, 3], 447, 182, None),
])
def test_nim_trees(heaps, nodes, games, per_ply):
    s = load("nim.yaml", heaps=heaps).initial_state()
    assert tree_size(s) == (nodes, games)
    if per_ply:
        assert perft(s, len(per_ply)) == per_ply


def test_mini_isolation():
    s = load("mini_isolation.yaml").initial_state()
    assert perft(s, 5) == [5, 20, 52, 80, 47]
    assert tree_size(s)[0] == 205
    assert (2, 1) not in s.actions() and (0, 0) in s.actions()


def test_isolation_sizes():
    for size in (5, 7):
        s = load("isolation.yaml", size=size).initial_state()
        assert perft(s, 2) == [size * size, size * size * (size * size - 1)]


def test_knights_isolation_second_moves_are_knight_jumps():
    s = load("knights_isolation.yaml").initial_state().result((0, 0)).result((4, 4))
    assert sorted(s.actions()) == [(1, 2), (2, 1)]


def test_course_interface_on_compiled_states():
    g = load("tictactoe.yaml")
    s = g.initial_state()
    assert s.player() == 0 and not s.terminal_test()
    s2 = s.result((0, 0))
    assert s2.player() == 1 and s != s2 and s.actions() != s2.actions()
    assert hash(s.result((0, 0))) == hash(s2) and s.result((0, 0)) == s2
    for a in [(1, 0), (0, 1), (2, 0), (0, 2)]:
        s2 = s2.result(a)
    assert s2.terminal_test() and s2.utility(0) == 1 and s2.utility(1) == -1 and s2.returns() == (1, -1)
    assert s2.actions() == []


def test_othello_pass_is_a_ply():
    g = load("othello.yaml", size=4)
    s = g.initial_state()
    seen_pass = False
    stack = [s]
    while stack and not seen_pass:
        st = stack.pop()
        if st.actions() == ["pass"]:
            seen_pass = True
            assert not st.terminal_test() and st.result("pass").player() != st.player()
        stack.extend(st.result(a) for a in st.actions())
    assert seen_pass


def _complete_games(state):
    """Terminal states reached by every complete game from `state`, with their ply."""
    stack = [(state, 0)]
    while stack:
        s, ply = stack.pop()
        if s.terminal_test():
            yield s, ply
            continue
        stack.extend((s.result(a), ply + 1) for a in s.actions())


def test_tictactoe_positions_up_to_symmetry_and_short_games():
    game = load("tictactoe.yaml")
    seen, stack = set(), [game.initial_state()]
    while stack:
        s = stack.pop()
        if s not in seen:
            seen.add(s)
            stack.extend(s.result(a) for a in s.actions())
    classes = {min(game.symmetries(s)) for s in seen}
    assert len(seen) == 5478 and len(classes) == 765
    assert sum(ply == 5 for _, ply in _complete_games(game.initial_state())) == 1440


def test_three_player_tictactoe_outcomes():
    from collections import Counter
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def games_by_outcome(state):          # over the DAG of positions: every path is one game
        if state.terminal_test():
            return Counter({state.returns(): 1})
        return sum((games_by_outcome(state.result(a)) for a in state.actions()), Counter())

    outcomes = games_by_outcome(load("tictactoe3.yaml").initial_state())
    assert outcomes == {(1, 0, 0): 17_280, (0, 1, 0): 31_968, (0, 0, 1): 31_968, (0, 0, 0): 264_384}
    assert sum(outcomes.values()) == 345_600


def test_othello_4x4_is_a_white_win_by_8_after_every_black_opening():
    from framework.search import alphabeta
    game = load("othello.yaml", size=4)
    root = game.initial_state()
    assert alphabeta.search(game, root).value == -8            # Black to move loses by 8
    openings = root.actions()
    assert len(openings) == 4
    assert [alphabeta.search(game, root.result(a)).value for a in openings] == [8, 8, 8, 8]
