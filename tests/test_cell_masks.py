"""Quantifiers over cells compiled to mask operations (framework/compiler/masks.py): the
generated code has no loop where the body is made of cell tests, `and`/`or`/`not` and
neighbourhood quantifiers, and the compiled game plays exactly as the reference
interpreter does, on the hand-written flood fill, on Breakthrough's goal tests, and on
forms masks.py must leave alone (a direction set without opposites, which pairs.py shifts
instead; a part that may fail at run time).  tests/test_generated_specs.py draws neighbourhood quantifiers in
random specs too."""
from __future__ import annotations

import pytest

import framework
from framework.conformance.generate import check_one
from framework.perft import perft
from tests.conftest import ROOT, SPECS

FLOOD = (ROOT / "benchmarks" / "specs" / "hex_flood.yaml").read_text()

SHAPES = """game: Shapes
players: [A, B]
options: {n: 4}
board: {width: n, height: n, cells: [empty, A, B]}
state:
  k: {type: 0..3, initial: 0}
  h: {type: 0..3, size: 2, initial: 1}
directions:
  up_right: [[1, -1], [0, -1]]
define:
  near(p, c): "exists d in neighbors(c, queen): board[d] == p and not (row(d) == k)"
  odd: "exists c in cell: board[c] == A and exists d in neighbors(c, up_right): board[d] == B"
  risky: "exists c in cell: board[c] == B and col(c) == h[k % 2]"
actions:
  place(c in cell):
    if: board[c] == empty
    then: |
      board[c] = mover
      k = (k + 1) % 4
terminal: "(count c in cell: near(mover, c)) > 9 or (forall e in cells(board, empty): col(e) != 0)
           or odd or risky or full(board)"
winner: A if odd else B if risky else none
"""


# `c in S` / `not in` with S a set that does not depend on c: a region, a define's cells, a
# player's stones; the ring test of Havannah written by a new user (benchmarks/specs/havannah.yaml)
MEMBERS = """game: Members
players: [A, B]
board: {width: 4, height: 4, cells: [empty, A, B, wall]}
init: "board[(1, 1)] = wall"
define:
  rim: "row_cells(0) | row_cells(3) | column_cells(0) | cells(board, wall)"
  outside(p): region(rim, orthogonal, cells(board, empty) | cells(board, next(p)) | cells(board, wall))
  held(p): "exists c in cell: board[c] == empty and not (c in rim) and not exists d in neighbors(c, king): d in outside(p)"
  lonely(p): "count c in cells(board, p): not (c in region(cells(board, wall), king, cells(board, p) | cells(board, wall)))"
actions:
  place(c in cell):
    if: "board[c] == empty and (c in rim or exists d in neighbors(c, orthogonal): d in cells(board, mover))"
    then: board[c] = mover
terminal: held(A) or held(B) or lonely(A) > 3 or full(board)
winner: A if held(A) else B if held(B) else none
"""


@pytest.mark.parametrize("name,text", [("hex_flood", FLOOD), ("shapes", SHAPES), ("members", MEMBERS),
                                       ("breakthrough", (ROOT / "benchmarks" / "specs" / "breakthrough.yaml").read_text())])
def test_masked_quantifiers_play_as_the_interpreter(name, text):
    assert check_one(text, bfs_states=100, playouts=6, plies=40) is None


def test_only_the_forms_listed_become_masks():
    """In SHAPES, `near` and the `forall` over empty cells are masks; `odd` (a direction set
    without opposites, which masks.py leaves alone) is one shifted mask per step of the set
    (framework/compiler/pairs.py: no table of neighbours is read); `risky` (an index, which
    may fail) stays a loop, in the terminal test and in the winner."""
    source = framework.load_text(SHAPES).python_source
    assert "_step_queen(" in source and "bit_count()" in source and "& ~" in source
    assert "NEIGHBORS_up_right" not in source and "_step_up_right(" not in source
    assert source.count("for _q") >= 2 and "v_h[(v_k % 2)]) for _q" in source


def test_membership_in_a_set_of_cells_is_a_mask():
    """MEMBERS: every quantifier whose body tests `c in S` for a set S not depending on c is a
    mask (no loop over cells left in its definitions), and it plays as the interpreter above."""
    source = framework.load_text(MEMBERS).python_source
    assert "for _q" not in source and "any(" not in source and "_step_king(" in source


def test_a_flood_fill_by_hand_becomes_shifts_and_plays_as_the_builtin():
    """Every quantifier of the flood fill is a mask (no generator left), each level's step
    computed once, and its perft equals hex.yaml's (the builtin `connected`) to ply 4."""
    flood = framework.load_text(FLOOD)
    source = flood.python_source
    assert "any(" not in source and "_step_hex(" in source
    assert source.count(":= _step_hex(") == 8   # 4 levels, each player: `joined(p)` written once (outline.py)
    builtin = framework.load(SPECS / "hex.yaml", n=4)
    assert perft(flood.initial_state(), 4) == perft(builtin.initial_state(), 4)


def test_lint_suggests_the_builtin_for_a_flood_fill_by_hand():
    """`plyspec check` warns at the definition that starts a chain of three or more
    definitions each calling the next on a neighbour quantified over `neighbors(...)`; no
    shipped spec (chess's attack definitions quantify over cells), nor the other benchmark
    specs, draws it."""
    from framework import lint
    from framework.loader import parse_spec as parse_file
    found = [w for w in lint.warnings(parse_file(ROOT / "benchmarks" / "specs" / "hex_flood.yaml"))
             if "by hand" in w.message]
    assert len(found) == 1 and "`reach4`" in found[0].message and "connected(board" in found[0].hint
    others = sorted(SPECS.glob("*.yaml")) + sorted((ROOT / "benchmarks" / "specs").glob("*.yaml"))
    for path in others:
        if path.name != "hex_flood.yaml":
            assert not [w for w in lint.warnings(parse_file(path)) if "by hand" in w.message], path


def test_a_branch_known_while_compiling_leaves_no_test_in_the_mask():
    """Havannah's `on_side(d, k)` for k written out (`count k in 0..5`): each side's mask is
    one constant (or a relation table) and the game plays as the interpreter."""
    text = (ROOT / "benchmarks" / "specs" / "havannah.yaml").read_text()
    source = framework.load_text(text).python_source
    assert " if 0 == " not in source and "FULL & ~FULL" not in source and "FULL & ~0" not in source
    assert check_one(text, bfs_states=60, playouts=3, plies=30) is None
