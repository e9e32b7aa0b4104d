"""Moves between two cells counted by shifting bitboards (framework/compiler/shifts.py):
the random specs of framework.conformance.generate_shifts (compared with the interpreter,
kernel counts included, in tests/test_generated_specs.py) reach the lowering; the tables it
accepts or refuses; the moves it lists come in the interpreter's order (the differential
campaign compares them as sets); Breakthrough's count has no loop per piece."""
import re

import framework
from framework.conformance.generate_shifts import shift_spec_texts
from framework.compiler.shifts import _translations
from framework.runtime import BoardTables
from tests.conftest import ROOT
from tests.drawn import drawn
from tests.lockstep import moves_in_lockstep

LOWERED = re.compile(r"_A\d+ = ")


def test_most_generated_moves_between_cells_are_counted_by_shifts():
    """The specs tests/test_generated_specs.py compares with the interpreter reach the lowering."""
    lowered = []

    @drawn(12, shift_spec_texts())
    def compile_one(text):
        lowered.append(bool(LOWERED.search(framework.load_text(text).python_source)))
    compile_one()
    assert sum(lowered) >= len(lowered) // 2, f"only {sum(lowered)} of {len(lowered)} specs counted by shifts"


def test_a_table_is_a_union_of_translations_only_when_every_cell_says_so():
    t = BoardTables(4, 3, {})
    def table(rel):
        return [sum(1 << b for b in t.cells if rel(a, b)) if a in t.cells else 0 for a in range(t.span + 1)]
    steps = _translations(t, table(lambda a, b: t.row[b] == t.row[a] + 1 and abs(t.col[b] - t.col[a]) <= 1))
    assert steps == {(1, -1), (1, 0), (1, 1)}
    whole_row = _translations(t, table(lambda a, b: t.row[b] == t.row[a] + 1))
    assert whole_row == {(1, dc) for dc in range(-3, 4)}
    assert _translations(t, table(lambda a, b: t.col[b] == t.row[a])) is None
    assert _translations(t, table(lambda a, b: b != a and t.col[a] == 0)) is None


def test_breakthrough_counts_its_moves_without_a_loop_per_piece():
    game = framework.load(ROOT / "benchmarks" / "specs" / "breakthrough.yaml")
    source = game.python_source
    count = source[source.index("def k_count"):source.index("def k_apply")]
    assert "for p_a" not in count and count.count("bit_count()") == 6


def test_checkers_jumps_of_the_piece_that_jumped_last_are_shifted_masks():
    """`(jumper == none or jumper == a)`, a cell variable compared with the moving cell, is
    a one-cell mask (masks.py), so the jump's loops become shifted candidates."""
    source = framework.load(ROOT / "benchmarks" / "specs" / "checkers.yaml").python_source
    count = source[source.index("def k_count"):source.index("def k_apply")]
    assert "(1 << v_jumper if v_jumper >= 0 else 0)" in count and "for p_a in" not in count


def test_moves_listed_from_shifted_masks_come_in_the_interpreters_order():
    """Sorted by the first cell, then the second: the loops' order, which alpha-beta's node
    counts depend on.  Random playouts of generated specs, the two games in lockstep."""
    sorted_lists = []

    @drawn(10, shift_spec_texts())
    def same_order(text):
        game = framework.load_text(text)
        sorted_lists.append("sorted([(_b - _k, _b)" in game.python_source)
        moves_in_lockstep(game, text, playouts=3, plies=12)
    same_order()
    assert sum(sorted_lists) >= len(sorted_lists) // 2
