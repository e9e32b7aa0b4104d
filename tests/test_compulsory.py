"""A compulsory move read off the other action's count (framework/compiler/compulsory.py):
`step` is legal only if `not must_jump`, and `must_jump` is the jump's own test over its
parameters.  Drawn specs of that shape (small boards, drawn positions, the jump's test
written in drawn orders, with or without a `last == none or last == a` guard the step's
`last == none` implies) and of shapes it must not fire on (a test the jump lacks, a guard
the step does not imply): the lowering fires exactly when it may, and the compiled game
plays as the reference interpreter (moves in order, kernel counts and tests included)."""
import pytest
from hypothesis import strategies as st

import framework
from framework.conformance.generate import check_one
from tests.drawn import drawn
from tests.lockstep import moves_in_lockstep

TESTS = ["own(a)", "board[b] == empty", "abs(col(b) - col(a)) == 2", "abs(row(b) - row(a)) == 2",
         "enemy(cell((col(a) + col(b)) // 2, (row(a) + row(b)) // 2))"]


@st.composite
def compulsory_texts(draw):
    """(spec text, whether the lowering may fire in counts, whether in lists: only where
    no action of another kind comes before the jump)."""
    width, height = draw(st.sampled_from([(4, 3), (4, 4)]))
    cells = [(x, y) for y in range(height) for x in range(width)]
    pieces = draw(st.lists(st.tuples(st.sampled_from(cells), st.sampled_from(["A", "B"])),
                           min_size=3, max_size=7, unique_by=lambda p: p[0]))
    jump = draw(st.permutations(TESTS))
    guard = draw(st.sampled_from(["", "(last == none or last == a) and ", "n < 7 and "]))
    extra = draw(st.sampled_from(["", " and n < 9"]))                  # a test the jump lacks
    must = list(draw(st.permutations(TESTS)))
    own_first = must.index("own(a)")
    inner = " and ".join(t for t in must if t != "own(a)")
    if draw(st.booleans()):      # `exists a: own(a) and exists b: ...`, or both quantifiers first
        must_jump = f"exists a in cell: own(a) and exists b in cell: {inner}{extra}"
    else:
        must_jump = f"exists a in cell: exists b in cell: {' and '.join(must)}{extra}"
    step_guard = draw(st.sampled_from(["last == none", "last == none and n < 7"]))
    fires = not extra and (guard != "n < 7 and " or "n < 7" in step_guard)
    rest = draw(st.sampled_from([0, 1, 2, 3]))     # where an action of no pair stands, 0: none
    listed = fires and rest != 1 and rest != 2     # the list reads `not must_jump` off too
    init = "\n".join(f"  board[({x}, {y})] = {p}" for (x, y), p in pieces)
    text = f"""game: Compulsory
players: [A, B]
board: {{width: {width}, height: {height}, cells: [empty, A, B]}}
state:
  n: {{type: '0..20', initial: 0}}
  last: {{type: cell, initial: none}}
init: |
{init}
define:
  own(c): board[c] == mover
  enemy(c): board[c] != empty and not own(c)
  must_jump: "{must_jump}"
actions:
{{actions}}
terminal: n >= 12 or not can_move(mover)
winner: "A if count(board, A) > count(board, B) else B if count(board, B) > count(board, A) else none"
"""
    actions = [f"""  step(a in cell, b in cell):
    if: "{step_guard} and own(a) and board[b] == empty and abs(col(b) - col(a)) + abs(row(b) - row(a)) == 1 and not must_jump"
    then: "board[b] = board[a]; board[a] = empty; n += 1; last = none\"""", f"""  jump(a in cell, b in cell):
    if: "{guard}{' and '.join(jump)}"
    then: "board[b] = board[a]; board[a] = empty; board[cell((col(a) + col(b)) // 2, (row(a) + row(b)) // 2)] = empty; n += 1; last = b\""""]
    if rest:
        actions.insert(rest - 1, """  rest(a in cell):
    if: "n < 4 and own(a)"
    then: "n += 2; last = none\"""")
    return text.replace("{actions}", "\n".join(actions)), fires, listed


def fires_when_it_may_and_plays_as_the_interpreter(examples):
    seen = []

    @drawn(examples, compulsory_texts())
    def plays_as_interpreted(drawn_text):
        text, fires, listed = drawn_text
        game = framework.load_text(text)
        fired = "_none" in game.python_source
        seen.append(fired)
        assert fired == fires, text
        assert ("not acts" in game.python_source) == listed, text
        moves_in_lockstep(game, text, playouts=2, plies=12, kernel=True)
        found = check_one(text, bfs_states=8, playouts=1, plies=8)
        assert found is None, f"{found[0]}: {found[1]} after {found[2]}\n{text}"
    plays_as_interpreted()
    assert any(seen) and not all(seen), seen


def test_the_lowering_fires_exactly_when_it_may_and_plays_as_the_interpreter(monkeypatch):
    monkeypatch.setenv("PLYSPEC_CACHE", "off")
    fires_when_it_may_and_plays_as_the_interpreter(4)


@pytest.mark.slow
def test_the_lowering_fires_exactly_when_it_may_and_plays_as_the_interpreter_at_size(monkeypatch):
    monkeypatch.setenv("PLYSPEC_CACHE", "off")
    fires_when_it_may_and_plays_as_the_interpreter(60)


def test_checkers_step_reads_must_jump_off_the_jumps_count():
    from tests.conftest import ROOT
    source = framework.load(ROOT / "benchmarks" / "specs" / "checkers.yaml").python_source
    count = source[source.index("def k_count"):source.index("def k_apply")]
    assert "_none1 = not n" in count and "_def" not in count    # must_jump not evaluated to count


def test_a_compound_capture_under_prefer_longest_is_read_off_too():
    """Brazilian draughts: `move` has `not must_capture`, `capture` (a compound move, `prefer:
    longest`) has must_capture's test: a capture sequence exists exactly when its first step
    does, so the moves are counted after the captures; the compiled game plays as the
    interpreter."""
    from tests.conftest import ROOT
    path = ROOT / "game_specs" / "brazilian_draughts.yaml"
    game = framework.load(path)
    count = game.python_source[game.python_source.index("def k_count"):game.python_source.index("def k_apply")]
    assert "_none1 = not n" in count
    found = check_one(path.read_text(), bfs_states=6, playouts=1, plies=16)
    assert found is None, found
