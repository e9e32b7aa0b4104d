"""The perft parts of the generated kernel (framework/compiler/kernel.py) and the code the
compiler writes for them: k_leaves given the moves, the move count that answers a
`can_move` terminal test, the early-exit ray test, the bit-count pre-test before k in a
row, and move lists read from wide masks word by word."""
import random
import re

import pytest

import framework
from framework.perft import perft
from framework.compiler.common import MAX_FUSED_CHARS
from framework.compiler.terminal_code import _given
from framework.conformance.discover import shipped_specs, spec_kind
from tests.conftest import SPECS, by_cost, costly

CAN = "_can_move(b_B, b_W, 1)"
OTHER = "_can_move(b_B, b_W, 0)"


@pytest.mark.parametrize("code, value, expected", [
    (f"((not {OTHER}) and (not {CAN}))", True, "False"),
    (f"((not {OTHER}) and (not {CAN}))", False, f"not {OTHER}"),
    (f"(not {OTHER}) or (not {CAN})", True, f"not {OTHER}"),
    (f"(not {OTHER}) or (not {CAN})", False, "True"),
    (f"{CAN} and {OTHER} and {CAN}", True, OTHER),
    (f"not {CAN}", False, "True"),
])
def test_a_known_call_is_folded_out_of_a_terminal_test(code, value, expected):
    assert _given(code, CAN, value) == expected
    # the folded test is the test: same truth value for every value of the other call
    for other in (True, False):
        env = {"_can_move": lambda *args: value if args[-1] == 1 else other, "b_B": 0, "b_W": 0}
        assert eval(code, env) == eval(expected, env)      # noqa: S307  (our own test strings)


def _playout_states(spec, seed, plies=80):
    game = framework.load(SPECS / spec)
    kernel, rng = game.kernel, random.Random(seed)
    s = tuple(game.initial_state())
    for _ in range(plies):
        yield kernel, s
        if kernel.terminal(s):
            return
        s = kernel.apply(s, rng.choice(kernel.actions(s)))


@pytest.mark.parametrize("spec", ["tictactoe.yaml", "connect_four.yaml", "othello.yaml"])
def test_leaves_given_the_moves_counts_every_grandchild(spec):
    """k_leaves(s, acts) = k_leaves(s) = the children's move counts, and a child's count
    is what its own move list says (passes included)."""
    for seed in range(3):
        for kernel, s in _playout_states(spec, seed):
            acts = kernel.actions(s)
            children = [kernel.apply(s, a) for a in acts]
            expected = sum(len(kernel.actions(c)) for c in children)
            assert kernel.leaves(s, acts) == kernel.leaves(s) == expected
            assert all(kernel.count(c) == len(kernel.actions(c)) for c in children)


@pytest.mark.parametrize("rule", ["repetition: draw", "repetition: {result: loss, count: 3}",
                                  "repetition: forbidden", "max_moves: {limit: 5, result: loss}"])
def test_history_leaves_count_what_the_rules_leave(rule):
    """The history kernel's leaves (framework/history_kernel.py: the inner kernel's one loop
    when no child can end by a rule) = the children's move counts under the rule, on
    every state of random playouts of misère Nim with passes (positions repeat at once)."""
    text = (SPECS.parent / "tests" / "robustness" / "nim_take_zero.yaml").read_text() + rule + "\n"
    game = framework.load_text(text)
    kernel = game.kernel
    for seed in range(6):
        rng, s = random.Random(seed), tuple(game.initial_state())
        for _ in range(12):
            if kernel.terminal(s):
                break
            acts = kernel.actions(s)
            assert kernel.leaves(s, acts) == kernel.leaves(s) == \
                sum(len(kernel.actions(kernel.apply(s, a))) for a in acts)
            s = kernel.apply(s, rng.choice(acts))


def test_othello_leaves_count_passes_and_ends_without_the_can_move_calls():
    source = framework.load(SPECS / "othello.yaml").python_source
    leaves = source[source.index("def k_leaves"):source.index("def k_utility")]
    assert "if not n and (not _can_move(" in leaves          # the count answers the next player's can_move
    assert "_ray_hits_queen(" in source[source.index("def _can_move"):]


def test_othello_games_end_where_neither_player_can_move():
    """The early-exit ray test (terminal) agrees with the full move masks (actions): on
    random games to the end, a state is terminal exactly when the move lists of both
    players, read with the terminal flag cleared, are only a pass."""
    game = framework.load(SPECS / "othello.yaml", size=6)
    rng = random.Random(3)
    ends = 0
    for _ in range(6):
        state = game.initial_state()
        while True:
            stuck = [game.kernel.view(state[:2] + (mover, False)).actions() == ["pass"] for mover in (0, 1)]
            assert state.terminal_test() == all(stuck)
            if state.terminal_test():
                ends += 1
                break
            state = state.result(rng.choice(state.actions()))
    assert ends == 6


@pytest.mark.parametrize("moves, winner", [
    ([0, 1, 0, 1, 0, 1, 0], 0),                        # vertical, the 4th red disc
    ([0, 0, 1, 1, 2, 2, 3], 0),                        # horizontal
    ([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], 0),            # diagonal
    ([6, 0, 1, 0, 1, 0, 1, 0], 1),                     # yellow's vertical
])
def test_connect_four_lines_of_four_end_the_game_once_four_discs_are_down(moves, winner):
    game = framework.load(SPECS / "connect_four.yaml")
    kernel = game.kernel
    state, packed = game.initial_state(), tuple(game.initial_state())
    for i, a in enumerate(moves):
        assert not state.terminal_test() and not kernel.terminal(packed), i
        state, packed = state.result(a), kernel.apply(packed, a)
    assert state.terminal_test() and kernel.terminal(packed)
    assert state.returns() == ((1, -1) if winner == 0 else (-1, 1)) == kernel.returns(packed)


def test_wide_move_masks_are_read_word_by_word():
    """Othello 8x8 (a 72-bit mask) cuts the mask into 24-bit words before its table
    lookups; the moves come out in cell order, as the course interface lists them."""
    game = framework.load(SPECS / "othello.yaml")
    assert "_k1 = _k >> 24 & 16777215" in game.python_source
    for kernel, s in _playout_states("othello.yaml", 5, plies=40):
        raw = kernel.actions(s)
        if raw != ["pass"] and raw != ():
            assert list(raw) == sorted(raw)
            assert [kernel.action(a) for a in raw] == kernel.view(s).actions()


GAMES = [p for p in shipped_specs() if spec_kind(p) == "game"]
# the smaller instance the default run checks of a game whose full-size two-plies check is in
# the slow group (COSTLY kind "two_plies" in tests/conftest.py): Amazons 4x4 is ~4 CPU s per
# syntax, 5x5 ~45 (its first positions have ~200 moves and ~5 million leaves two plies down)
SMALLER = {"amazons": {"n": 4}}


@pytest.mark.parametrize("path", by_cost("two_plies", GAMES), ids=lambda p: p.stem)
def test_the_last_two_plies_in_one_call_count_what_the_kernel_builds(path):
    """k_leaves2(s, acts) = (the children's move counts, their k_leaves) on random
    playouts of every shipped game whose kernel has it (all but those with a pass rule or
    chance: perft walks a chance game on the course interface; those with a history rule
    whose history kernel cannot use the inner one's (`forbidden`, a move that may keep the
    turn, a key without the mover: framework/history_kernel.py); and chess, whose k_leaves
    is too long for the two plies in one function: compiler/common.py MAX_FUSED_CHARS)."""
    _two_plies(framework.load(path), path.stem)


@pytest.mark.parametrize("path", [p for p in GAMES if costly("two_plies", p)], ids=lambda p: p.stem)
def test_the_last_two_plies_on_a_smaller_instance_of_a_costly_game(path):
    """The same check on a smaller board of each game whose full-size check is slow, so that
    no game leaves the default run; the board is smaller, the generated code the same."""
    _two_plies(framework.load(path, **SMALLER[path.stem]), path.stem)


def _two_plies(game, seed):
    kernel = game.kernel
    if kernel is None or kernel.leaves2 is None:
        found = re.search(r"\ndef k_leaves\(.*?\n(?=\S)", game.python_source, re.S)
        leaves = found.group() if found else ""          # (a game with chance has no k_leaves)
        history = game.spec.repetition is not None or game.spec.max_moves is not None   # framework/history_kernel.py
        assert kernel is None or game.spec.pass_rule or kernel.chance is not None or history \
            or len(leaves) > MAX_FUSED_CHARS
        return
    rng = random.Random(seed)
    for _ in range(3):
        s = tuple(game.initial_state())
        for _ in range(60):
            if kernel.terminal(s):
                break
            acts = kernel.actions(s)
            children = [kernel.apply(s, a) for a in acts]
            near = sum(len(kernel.actions(c)) for c in children)
            far = sum(kernel.leaves(c) for c in children)
            assert kernel.leaves2(s, acts) == (near, far)
            s = rng.choice(children)


def test_a_childs_end_by_having_no_move_is_read_off_its_move_list():
    """`terminal: not can_move(mover)`: k_leaves2 lists each child's moves and counts a child
    with none as terminal, without asking `_can_move` first (the counts are checked against
    the kernel move by move above, and the published ones here)."""
    game = framework.load(SPECS / "draughts.yaml")
    leaves2 = re.search(r"\ndef k_leaves2\(.*?\n(?=\S)", game.python_source, re.S).group()
    assert "_can_move(" not in leaves2 and "if not _a2:" in leaves2
    assert perft(game.initial_state(), 6) == [7, 49, 302, 1469, 7361, 36768]
