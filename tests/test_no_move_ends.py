"""`terminal: A or not can_move(mover)` (a score, a counter or a board count tested
before "the player to move has no move"): perft's last plies (framework/compiler/kernel.py
count_after and grand_after) test A first, as written, and let the successor's move count
or list answer `can_move` instead of calling `_can_move` and then counting.  Drawn games
of that form and of forms the rewrite leaves alone (`can_move` first, under a `not`)
count alike on the kernel, the course interface with the kernel switched off and the
reference interpreter, with and without a repetition rule that ends the game (k_leaves_hot)."""
import random
import re

import pytest

import framework
from framework.interpreter import interpret_text
from framework.perft import perft


def drawn_game(seed: int) -> str:
    rng = random.Random(seed)
    pick = rng.choice
    w, h = pick([(3, 2), (2, 2), (4, 1), (3, 3)])
    stop = pick(["n == 2", "count(board, A) >= 2", "count(board, B) > count(board, A)",
                 "n == 1 and board[cell(0, 0)] == B", "score[A] > 1 or score[B] > 2"])
    terminal = pick([f"{stop} or not can_move(mover)"] * 3 + [f"not can_move(mover) or {stop}",
                                                               f"not (can_move(mover) and not ({stop}))"])
    lines = [f"game: Ends {seed}", "players: [A, B]",
             f"board: {{width: {w}, height: {h}, cells: [empty, A, B]}}",
             "state:", "  n: {type: 0..3, initial: 0}",
             "  score: {type: 0..9, per: player, initial: 0}",
             "actions:",
             "  drop(c in cell):",
             f"    if: board[c] == empty and {pick(['col(c) != n', 'row(c) <= n', 'true'])}",
             f"    then: \"board[c] = mover; score[mover] = min(score[mover] + col(c), 9)\"",
             "  step(c in cell, d in cell):",
             "    if: board[c] == mover and board[d] == empty and d in neighbors(c, orthogonal)",
             "    then: \"board[d] = mover; board[c] = empty; n = min(n + 1, 3)\""]
    if pick([True, False]):
        lines += ["  wait:", "    if: n < 2", "    then: \"n = n + 1\""]
    lines += [f"terminal: {terminal}", "winner: next(mover)"]
    lines += [pick(["", "repetition: draw", "repetition: {result: loss, count: 2}"])]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(10))
def test_drawn_no_move_endings_count_alike_on_the_kernel_the_course_interface_and_the_interpreter(seed):
    text = drawn_game(seed)
    game = framework.load_text(text)
    fast = perft(game.initial_state(), 5)
    state_class = type(game.initial_state())
    kernel, state_class._kernel = state_class._kernel, None
    try:
        slow = perft(game.initial_state(), 5)
    finally:
        state_class._kernel = kernel
    assert fast == slow == perft(interpret_text(text).initial_state(), 5), text


def test_the_count_answers_can_move_after_the_other_tests():
    """Where the terminal test is `A or not can_move(mover)`, perft's last ply calls no
    `_can_move` (the drawn games above check the counts)."""
    seeds = [s for s in range(40) if " or not can_move(mover)" in drawn_game(s) and "repetition" not in drawn_game(s)]
    source = framework.load_text(drawn_game(seeds[0])).python_source
    leaves = re.search(r"\ndef k_leaves\(.*?\n(?=\S)", source, re.S).group()
    assert "_can_move(" not in leaves
