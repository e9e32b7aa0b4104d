"""A cell parameter's loop whose one condition is a split `exists d in neighbors(c, DIRS):
A or B` (framework/compiler/splits.py `split_loop`): the cells with a neighbour in A's mask
are counted as one bit count and only the others test B (Go: a point with an empty
neighbour is a legal play, no flood fill).  The compiled game's counts (perft through the
kernel, whose last ply is that count) equal the reference interpreter's, on Go without and
with its superko rule and on drawn games (the kernel checked by check_one, the moves'
order in lockstep)."""
from __future__ import annotations

import random
import re

import pytest

from framework import load_text
from framework.checker import check
from framework.conformance.generate import check_one
from framework.interpreter import InterpretedGame
from framework.perft import perft
from tests.conftest import SPECS
from tests.lockstep import plays_as_the_interpreter
from tests.test_exists_split import GO, SAFE, near

COUNTED = re.compile(r"n \+= _e\d+\.bit_count\(\)")


def same_perft(text, depth):
    game = load_text(text)
    interpreted = InterpretedGame(check(game.spec, {}))
    assert perft(game.initial_state(), depth) == perft(interpreted.initial_state(), depth), text
    return game


@pytest.mark.parametrize("rule", [True, False])
def test_go_counts_its_plays_next_to_an_empty_point_at_once(rule):
    text = GO.replace("options: {n: 5,", "options: {n: 3,")
    if not rule:
        text = re.sub(r"(?m)^repetition:.*\n", "", text)
    game = same_perft(text, 4)
    assert COUNTED.search(game.python_source)
    assert check_one(text, bfs_states=60, playouts=2, plies=30) is None     # the kernel's counts too


@pytest.mark.parametrize("seed", range(6))
def test_drawn_games_count_as_the_interpreter(seed):
    rng = random.Random(seed)
    text = near(rng, rng.choice(SAFE)) + "pass: true\n"      # a position with no open cell passes
    if seed % 2:          # the split alone as the condition, not in an `or` chain
        text = text.replace("if: open(c) or n > 6", "if: open(c)")
    game = same_perft(text, 4)
    assert COUNTED.search(game.python_source), text
    plays_as_the_interpreter(text)


def test_a_condition_that_is_not_a_split_keeps_the_loop():
    text = near(random.Random(1), "h[n - 5] > 3")      # B may fail: no split, no bit count
    assert not COUNTED.search(load_text(text).python_source)
