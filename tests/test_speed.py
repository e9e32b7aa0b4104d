"""The fast paths keep their answers: perft that counts the last ply without building it
(against a plain recursion that builds every node), its explicit-stack variant, and the
fixed-size transposition table (memory by construction, replacement by counts)."""
from __future__ import annotations

import pathlib
import tracemalloc

import pytest

from framework import load
from framework import perft as perft_module
from framework.perft import perft
from framework.search import alphabeta, minimax
from framework.search.tt import BYTES_PER_ENTRY, EXACT, LOWER, TranspositionTable

from test_interpreter import _perft as built_perft          # builds every node

SPECS = pathlib.Path(__file__).resolve().parents[1] / "game_specs"


@pytest.mark.parametrize("spec, depth", [("connect_four.yaml", 5), ("othello.yaml", 4), ("pig.yaml", 5),
                                         ("nim.yaml", 6), ("tictactoe.yaml", 6)])
def test_counted_last_ply_equals_building_it(spec, depth, monkeypatch):
    state = load(SPECS / spec).initial_state()
    expected = built_perft(state, depth)
    assert perft(state, depth) == expected
    monkeypatch.setattr(perft_module, "RECURSION_DEPTH", 1)       # the explicit-stack walk
    assert perft(state, depth) == expected


def test_perft_reports_progress_per_root_move():
    state = load(SPECS / "connect_four.yaml").initial_state()
    seen = []
    perft(state, 3, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(i, 7) for i in range(1, 8)]


def test_table_memory_is_fixed_and_at_most_100_bytes_an_entry():
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    table = TranspositionTable(100_000)
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert used <= 100 * table.capacity and BYTES_PER_ENTRY <= 100
    assert TranspositionTable.from_megabytes(1).capacity * BYTES_PER_ENTRY <= 1 << 20


def test_table_replacement_keeps_the_size_and_the_newest_entry():
    table = TranspositionTable(64)
    table.new_search()
    for key in range(10_000):
        table.store(("s", key), key % 5, EXACT, key, key, False)
        assert table.probe(("s", key))[2:4] == (key, key)          # just stored: always found
        assert len(table) <= 64
    assert len(table) == sum(table.probe(("s", k)) is not None for k in range(10_000))
    table.store("x", 4, LOWER, 1.5, None, True)
    table.store("x", 2, EXACT, 0, None, False)                     # shallower, same search: kept out
    assert table.probe("x")[:5] == (4, LOWER, 1.5, None, True)
    table.store("inf", float("inf"), EXACT, -1, "m", True)
    assert table.probe("inf")[:4] == (float("inf"), EXACT, -1, "m") and type(table.probe("inf")[2]) is int


def test_alphabeta_with_a_tiny_table_in_megabytes_equals_minimax():
    game = load(SPECS / "connect_four.yaml")
    state = game.initial_state().result(3).result(3)
    expected = minimax.search(game, state, depth=4).value
    assert alphabeta.search(game, state, depth=4, tt_mb=0.0001).value == expected
    with pytest.raises(ValueError, match="tt_mb"):
        alphabeta.search(game, state, depth=2, tt_mb=0)

