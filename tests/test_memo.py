"""Memoised definitions (issue 28): the compiler memoises a definition written as a
function where its arguments may come again (framework/compiler/outline.py `_memoised`,
framework.runtime.memoise), the interpreter remembers a looping definition's value per
state and arguments (`Evaluator.remembered`); both keep the meaning of the rules: the
same games, the same failures.  benchmarks/specs/hex_flood_index.yaml is the flood fill by
hand that the masks cannot lower (docs/performance.md measures it)."""
from pathlib import Path

import pytest

from framework import load, load_text, runtime
from framework.checker import check
from framework.compiler import Compiler, outline
from framework.conformance.generate import check_one
from framework.conformance.generate_chains import chain_texts
from framework.errors import SpecRuntimeError
from framework.interpreter import interpret, interpret_text
from framework.loader import parse_spec
from framework.perft import perft
from tests.test_generated_specs import campaign

ROOT = Path(__file__).resolve().parent.parent
BY_NUMBER = ROOT / "benchmarks/specs/hex_flood_index.yaml"


def decorated(path_or_text) -> dict:
    """{outlined function's first line: whether it is memoised} of a spec's generated module."""
    spec = parse_spec(path_or_text) if isinstance(path_or_text, Path) else load_text(path_or_text).spec
    lines = Compiler(check(spec, {})).module().split("\n")
    return {line: lines[i - 1] == "@memoise" for i, line in enumerate(lines) if line.startswith("def _def")}


def test_the_flood_fill_by_cell_numbers_is_the_game_of_hex_flood():
    assert perft(load(BY_NUMBER).initial_state(), 5) == \
        perft(load(ROOT / "benchmarks/specs/hex_flood.yaml").initial_state(), 5)
    assert perft(interpret(BY_NUMBER).initial_state(), 3) == [16, 240, 3360]


def test_the_levels_of_a_flood_fill_are_memoised_and_straight_line_bodies_are_not():
    memo = decorated(BY_NUMBER)
    # per player: reach0 (no loop), reach1..reach4 (each called in a loop of the level
    # above, reach4 in joined's), joined (a function of the state called by the terminal
    # test and the winner); adjacent(i, j) (straight line) is shared by both players
    assert list(memo.values()).count(True) == 10 and len(memo) == 13
    assert memo["def _def1(d_0, d_1):"] is False


SINGLE_CALLS = """
game: Single calls
players: [A, B]
board: {width: 3, height: 3, cells: [empty, A, B]}
define:
  crowded(c, p): "count d in cell: board[d] == p and abs(col(c) - col(d)) + abs(row(c) - row(d)) <= 2 and row(d) >= 0"
actions:
  place(c in cell):
    if: "board[c] == empty and crowded(c, mover) < 3"
    then: board[c] = mover
terminal: full(board) or line(board, 3, A) or line(board, 3, B)
winner: A if line(board, 3, A) else B if line(board, 3, B) else none
"""


def test_a_definition_of_arguments_called_only_from_the_rules_is_not_memoised():
    memo = decorated(SINGLE_CALLS)
    assert memo and not any(memo.values())         # each call a new cell: memory would not pay


def test_a_function_of_more_than_eight_parameters_is_not_memoised():
    # Chess's `in_check(p)` reads the twelve bitboards: its misses (about half its calls)
    # cost more than its hits saved (0.89x perft, 0.85x alpha-beta, docs/performance.md)
    memo = decorated(ROOT / "game_specs/chess.yaml")
    assert not any(memo.values())
    assert any(line.count(",") + 1 > outline.MEMO_KEY for line in memo)


def _module_function(body: str):
    namespace = {"__builtins__": {}}
    exec(f"def f(x):\n    return {body}", namespace)     # a fixed test text, not user input
    return namespace


@pytest.mark.parametrize("repeats, kept", [(True, True), (False, False)])
def test_memoise_keeps_the_memory_only_where_its_first_calls_find_values_in_it(repeats, kept):
    namespace = _module_function("x * 2")
    plain = namespace["f"]
    namespace["f"] = runtime.memoise(plain)
    for i in range(runtime.MEMO_TRIAL):
        assert namespace["f"](i % 7 if repeats else i) == 2 * (i % 7 if repeats else i)
    assert (namespace["f"] is not plain) == kept and (namespace["f"] is plain) != kept
    assert namespace["f"](3) == 6


def test_a_memoised_call_that_fails_remembers_nothing():
    namespace = {"__builtins__": {"ZeroDivisionError": ZeroDivisionError}}
    exec("def f(x):\n    return 1 // x", namespace)
    f = runtime.memoise(namespace["f"])
    for _ in range(3):
        with pytest.raises(ZeroDivisionError):
            f(0)
    assert f(1) == 1 and f(True) is not None


FAILING = """
game: Chains
players: [A, B]
board: {width: 4, height: 1, cells: [empty, A, B]}
state:
  n: {type: '0..30', initial: 0}
  h: {type: '0..9', size: 1, initial: 1}
define:
  at(i): cell(i % 4, i // 4)
  r0(p, i): 'board[at(i)] == p and (i < n or h[i] < 9)'
  r1(p, i): 'r0(p, i) or (board[at(i)] == p and exists j in 0..3: (i + j) % 3 == 2 and r0(p, j))'
  joined(p): 'exists i in 0..3: i >= 0 and r1(p, i)'
  reached: 'count i in 0..3: r1(A, i)'
actions:
  place(c in cell):
    if: 'board[c] == empty and (reached < 4 or n > 1)'
    then: 'board[c] = mover; n = min(n + 1, 20)'
terminal: 'joined(A) or joined(B) or full(board)'
winner: 'A if joined(A) else B if joined(B) else none'
"""


def test_an_index_off_a_list_inside_a_memoised_definition_fails_as_in_the_interpreter():
    # A stone of A on cell 1 makes `h[1]` read off `h` (size 1).  The body written once as a
    # function served every call with the facts of its first call site (an unrolled
    # quantifier's single value, in range): the compiled game read `v_h[1]` unchecked, and
    # its IndexError became "not an action" (before outline.py cleared the caller's facts).
    assert check_one(FAILING) is None
    for game in (load_text(FAILING), interpret_text(FAILING)):
        state = game.initial_state()
        move = next(a for a in state.actions() if "1" in str(a).split(",")[0])
        for _ in range(2):                                   # and again: nothing remembered
            with pytest.raises(SpecRuntimeError, match="outside `h`|index"):
                state.result(move)


def test_the_interpreter_evaluates_each_level_once_per_state_and_argument():
    game = interpret(BY_NUMBER)
    state = game.initial_state()
    # Red's stones in rows 1 and 2, none on its first side (row 0): every level is searched
    for move in ("place(0,1)", "place(3,3)", "place(1,1)", "place(3,2)", "place(2,1)", "place(0,3)", "place(1,2)"):
        state = state.result(move)
    ev = game.ev
    assert ev.looping == {"reach1", "reach2", "reach3", "reach4", "joined"}
    counted = []
    original = ev.call

    def counting(define, args, node, s):
        counted.append((define.name, tuple(args)))
        return original(define, args, node, s)
    ev.call = counting
    ev.memo.clear()
    assert game.terminal(state.s) is False
    looping_calls = [c for c in counted if c[0] in ev.looping]
    assert len(looping_calls) == len(set(looping_calls))          # each once per state and arguments
    ev.looping = set()                                            # the calls without the memory
    counted.clear()
    ev.memo.clear()
    assert game.terminal(state.s) is False
    assert len([c for c in counted if c[0].startswith("reach")]) > 3 * len(looping_calls)


def test_generated_chains_of_definitions_compile_to_what_the_interpreter_plays():
    campaign(20, chain_texts())


@pytest.mark.slow
def test_three_hundred_generated_chains_compile_to_what_the_interpreter_plays():
    campaign(300, chain_texts())


def test_a_definition_calling_a_flood_is_memoised_and_each_perft_starts_cold():
    """Havannah's ring test (a region flooded from the rim, its neighbours as a mask) loops
    through its flood, so it is memoised like a quantifier; perft empties the memories before
    and after each run (the kernel's `forget`), so a second run in the process finds nothing
    the first left and counts the same."""
    game = load(ROOT / "benchmarks/specs/havannah.yaml")
    flags = decorated(ROOT / "benchmarks/specs/havannah.yaml")
    ring = [line for line, memo in flags.items() if memo]
    assert ring, flags
    namespace = type(game.initial_state())._namespace
    caches = namespace["_MEMO_CACHES"]
    assert caches
    first = perft(game.initial_state(), 3)
    assert all(c.cache_info().currsize == 0 for c in caches)
    assert perft(game.initial_state(), 3) == first == [19, 342, 5814]
