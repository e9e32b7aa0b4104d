"""`exists c in cells(board, p): P(group(board, c, DIRS))` with P a conjunction of "the group
meets S" tests (`exists d in g: col(d) == 0`, ...) compiles to one flood per set through the
stones the last one left (framework.builtins.connectivity.groups_meeting), not a flood per
group: the win of Y and Hex as a new user writes it.  Drawn games (direction sets, sides,
corners, a player's own cells, two to four sets) play alike compiled (course interface and
kernel, moves in order) and interpreted; a domain that is not one value's cells keeps the
loop over groups."""
from __future__ import annotations

import random

import pytest

from framework import load_text
from tests.lockstep import plays_as_the_interpreter

SETS = ["col(d) == 0", "row(d) == 0", "col(d) == W - 1", "row(d) == H - 1", "col(d) + row(d) == W - 1",
        "d == (1, 1)", "board[d] == wall", "col(d) == row(d)"]


def drawn_game(seed: int, domain: str = "cells(board, p)") -> str:
    rng = random.Random(seed)
    width, height = rng.choice([(4, 4), (5, 4), (3, 5)])
    dirs = rng.choice(["orthogonal", "king", "hex", "diagonal"])
    tests = rng.sample(SETS, rng.randint(2, 4))
    meets = " and ".join(f"(exists d in g: {t})" for t in tests).replace("W - 1", str(width - 1)).replace("H - 1", str(height - 1))
    return f"""
game: Drawn groups {seed}
players: [A, B]
board: {{width: {width}, height: {height}, cells: [empty, A, B, wall]}}
init: "board[({rng.randrange(width)}, {rng.randrange(height)})] = wall"
define:
  spans(g): "{meets}"
  wins(p): "exists c in {domain}: spans(group(board, c, {dirs}))"
actions:
  place(c in cell):
    if: board[c] == empty
    then: board[c] = mover
terminal: wins(A) or wins(B) or full(board)
winner: A if wins(A) else B if wins(B) else none
"""


@pytest.mark.parametrize("seed", range(6))
def test_drawn_group_wins_play_as_the_interpreter(seed):
    plays_as_the_interpreter(drawn_game(seed), bfs_states=200, playouts=6, plies=30)


def test_most_drawn_wins_take_the_floods():
    """(A set the group cannot meet, or a cell tested another way, keeps the loop.)"""
    fired = ["groups_meeting(" in load_text(drawn_game(seed)).python_source for seed in range(6)]
    assert sum(fired) >= 3, fired


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6, 60))
def test_many_more_drawn_group_wins(seed):
    plays_as_the_interpreter(drawn_game(seed), bfs_states=400, playouts=10, plies=40)


def test_a_domain_of_other_cells_keeps_the_loop_over_groups():
    text = drawn_game(0, domain="(cells(board, p) | cells(board, wall))")
    source = load_text(text).python_source
    assert "groups_meeting(" not in source and "groups(" in source
    plays_as_the_interpreter(text, bfs_states=100, playouts=3, plies=30)
