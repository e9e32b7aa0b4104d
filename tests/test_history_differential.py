"""History rules on generated games: the history kernel (framework/history_kernel.py), the
course interface (framework/history.py's RuledState) and the reference interpreter
(framework/interpreter/history.py) play every drawn game alike.

The games are drawn where repetitions happen: pieces that step back and forth on a small
board, a pass that moves a counter, a drop that cannot be undone, a clock left out of the
position or not, with every repetition result (draw, loss, forbidden, a scored `winner:` /
`utility:` ending), counts 2 and 3, `over` a part of the state or all of it, and `max_moves`
ending the game as a draw, a loss or a score.  For each game, at every state breadth-first
and along seeded random playouts: the kernel's packed state equals the course interface's
state (hash included), and both say the same moves in the same order, successors, terminal
test, returns and move counts one ply down (`leaves`); the interpreter says the same moves
in the same order, terminal test and returns; and perft counts agree on all three paths
(the kernel's perft, the course interface's with the kernel switched off, the
interpreter's).  The default run draws a few games at small depths; the `slow` run many more
and deeper.  The history itself (framework/history_line.py) is checked against the
frozenset of (key, k) pairs it replaced.  Under `forbidden` the last ply reads kept
signatures of the children: every key hashing alike gives the same counts, and Go's
transposed children are expanded once.
"""
from __future__ import annotations

import random
from collections import deque
from pathlib import Path

import pytest

import framework
from framework.interpreter import interpret_text
from framework.perft import perft
from tests.test_kernel import _agree


def drawn_game(seed: int) -> str:
    """A small game whose positions repeat, with history rules drawn from `seed`."""
    rng = random.Random(seed)
    pick = rng.choice
    w, h = pick([(3, 1), (2, 2), (3, 2), (4, 1)])
    dirs = pick(["orthogonal", "queen"])
    clock = pick(["t = min(t + 1, 9); ", ""])
    lines = [f"game: Drawn {seed}", "players: [A, B]",
             f"board: {{width: {w}, height: {h}, cells: [empty, A, B]}}",
             "state:", "  n: {type: 0..3, initial: 0}", "  t: {type: 0..9, initial: 0}",
             "actions:",
             "  step(c in cell, d in cell):",
             f"    if: board[c] == mover and board[d] == empty and d in neighbors(c, {dirs})",
             f"    then: \"board[d] = mover; board[c] = empty; {clock}\"".replace("; \"", "\"")]
    if pick([True, False]):
        lines += ["  wait:", "    if: n < 3", f"    then: \"n = {pick(['n + 1', '(n + 1) % 3'])}\""]
    if pick([True, False]):
        lines += ["  drop(c in cell):", "    if: board[c] == empty and n == 0 and t < 2",
                  "    then: \"board[c] = mover; n = 1\""]
    lines.append(f"init: \"board[cell(0, 0)] = A; board[cell({w - 1}, {h - 1})] = B\"")
    lines.append(f"terminal: {pick(['not can_move(mover)', 'n == 3 or not can_move(mover)'])}")
    ending = pick(["winner: next(mover)", "utility: \"count(board, A) - count(board, B) + n\""])
    lines.append(ending)
    loss = ["result: loss"] if ending.startswith("winner") else []        # `loss` needs a winner rule
    score = pick(["winner: 'A if n > 1 else B'", "utility: 'n - 1'", "winner: 'mover if t > 0 else none'"])
    over = pick(["", ", over: [board]", ", over: [board, mover]", ", over: [board, n]"])
    result = pick(["result: draw", "result: forbidden", score] + loss)
    count = pick([2, 3])
    repetition = pick(["", f"repetition: {{{result}, count: {count}{over}}}"])
    limit = pick(["", f"max_moves: {{limit: {rng.randint(3, 9)}, {pick(['result: draw', score] + loss)}}}"])
    if not repetition and not limit:
        repetition = f"repetition: {{{result}{over}}}"
    if "  wait:" in lines and rng.random() < 0.4:        # (drawn last: the picks above stay the seed's)
        then = lines.index("  wait:") + 2                  # a wait that keeps the turn
        lines[then] = lines[then][:-1] + '; turn = mover"'
    return "\n".join(lines + [r for r in (repetition, limit) if r]) + "\n"


def _states(game, rng, bfs=60, playouts=4, plies=40):
    """(state, packed) pairs: breadth-first from the start, then along random playouts."""
    kernel = game.kernel
    start = game.initial_state()
    queue, seen = deque([(start, tuple(start), ())]), 0
    while queue and seen < bfs:
        state, packed, line = queue.popleft()
        seen += 1
        yield state, packed, line
        if not state.terminal_test():
            for move in kernel.actions(packed):
                queue.append((state.result(kernel.action(move)), kernel.apply(packed, move), line + (move,)))
    for _ in range(playouts):
        state, packed, line = start, tuple(start), ()
        for _ in range(plies):
            yield state, packed, line
            raw = kernel.actions(packed)
            if not raw:
                break
            move = rng.choice(raw)
            state, packed, line = state.result(kernel.action(move)), kernel.apply(packed, move), line + (move,)


def _interpreted(game, interpreter, line):
    """The interpreter's state at the end of `line` (raw moves; its moves are their texts)."""
    state = interpreter.initial_state()
    for move in line:
        state = state.result(game.action_text(game.kernel.action(move)))
    return state


def check_game(seed: int, depth: int, **walk):
    text = drawn_game(seed)
    game = framework.load_text(text)
    kernel = game.kernel
    assert kernel is not None and hasattr(kernel, "rules"), text        # the history kernel
    interpreter = interpret_text(text)
    for state, packed, line in _states(game, random.Random(seed), **walk):
        _agree(kernel, state, packed)
        assert kernel.view(packed) == state and hash(kernel.view(packed)) == hash(state)
        if not state.terminal_test():
            acts = kernel.actions(packed)
            assert kernel.leaves(packed, acts) == kernel.leaves(packed)
        other = _interpreted(game, interpreter, line)
        assert other.terminal_test() == state.terminal_test(), (text, line)
        if state.terminal_test():
            assert tuple(other.returns()) == tuple(state.returns()), (text, line)
        else:
            assert list(other.actions()) == [game.action_text(a) for a in state.actions()], (text, line)
    fast = perft(game.initial_state(), depth)
    state_class = type(game.initial_state())
    state_class._kernel = None
    try:
        slow = perft(game.initial_state(), depth)
    finally:
        state_class._kernel = kernel
    assert fast == slow == perft(interpreter.initial_state(), depth), text
    return text


@pytest.mark.parametrize("seed", range(8))
def test_drawn_history_games_play_alike_on_the_kernel_the_course_interface_and_the_interpreter(seed):
    check_game(seed, depth=5, bfs=40, playouts=3, plies=30)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8, 80))
def test_many_more_drawn_history_games_deeper(seed):
    check_game(seed, depth=7, bfs=200, playouts=10, plies=60)


def test_a_key_hash_collision_never_changes_a_count(monkeypatch):
    """Under `forbidden` the kernel's last ply trusts a child's signature (framework/
    history_kernel.py last_ply: hashes of its children's keys, kept per position) only to
    rule a repetition OUT; with every key hashing alike (each test a collision) the counts
    are the same as with real hashes, on the drawn forbidden games and on Go 5x5 (whose
    perft(4) is OpenSpiel's 361,041: tests/test_oware_go.py)."""
    from framework import history_kernel, history_line
    texts = [text for text in map(drawn_game, range(40)) if "result: forbidden" in text][:3]
    go = (Path(__file__).parents[1] / "game_specs" / "go5.yaml").read_text()
    truth = [perft(framework.load_text(text).initial_state(), 5) for text in texts]
    truth.append(perft(framework.load_text(go).initial_state(), 3))
    for module in (history_kernel, history_line):        # the line's mask reads the same hash
        monkeypatch.setattr(module, "hash", lambda key: 0, raising=False)
    collided = [perft(framework.load_text(text).initial_state(), 5) for text in texts]
    collided.append(perft(framework.load_text(go).initial_state(), 3))
    assert len(texts) == 3 and collided == truth and truth[-1] == [26, 651, 15650]


def test_a_transposed_child_is_not_expanded_again(monkeypatch):
    """Go 5x5 perft(4) with superko: the last ply expands each distinct child once for its
    signature (the inner kernel's `children`), not once per line reaching it: 15,650 lines
    of three moves reach fewer positions (two Black stones placed in either order), and the
    counts are OpenSpiel's."""
    from framework.history_kernel import history_kernel
    game = framework.load_text((Path(__file__).parents[1] / "game_specs" / "go5.yaml").read_text())
    kernel, start = game.kernel, game.initial_state()
    inner, expanded = kernel.inner, []
    children = inner.children
    monkeypatch.setattr(inner, "children", lambda position: expanded.append(position) or children(position))
    fresh = history_kernel(inner, kernel.rules, kernel.repetition_key, type(start), start[0]._namespace)
    monkeypatch.setattr(type(start), "_kernel", fresh)
    assert perft(start, 4) == [26, 651, 15650, 361041]
    assert len(expanded) == len(set(expanded)) < 15650 * 6 // 10


def test_the_drawn_games_cover_every_rule_and_repeat_positions():
    """The drawn games are what the tests above claim: every result, both counts, `over`
    or not, `max_moves`; and repetitions do happen in them (a rule ends or filters lines)."""
    texts = [drawn_game(seed) for seed in range(80)]
    for part in ("result: draw", "result: loss", "result: forbidden", "repetition: {winner:",
                 "repetition: {utility:", "count: 2", "count: 3", "over: [board]", "max_moves:",
                 "wait:", "drop("):
        assert any(part in text for text in texts), part
    assert any("repetition" in text and "max_moves" not in text for text in texts[:8])
    fired = 0
    for seed in range(8):
        game = framework.load_text(texts[seed])
        kernel = game.kernel
        for _, packed, _ in _states(game, random.Random(seed), bfs=40, playouts=3, plies=30):
            fired += bool(packed[3]) or packed[1].top > 1
    assert fired > 20


def test_a_line_is_the_set_of_its_occurrences():
    """framework.history_line.Line against the frozenset of (key, k) pairs it replaced:
    the same pairs, counts, membership and length; lines of the same occurrences in any
    order are equal and hash alike, lines of different occurrences are unequal; a pickled
    line comes back equal (keys drawn from a small alphabet so that they repeat)."""
    import pickle
    from collections import Counter
    from framework.history_line import EMPTY
    rng = random.Random(5)
    alphabet = [(i, i % 2, (i * 3) % 5) for i in range(6)] + [7, (1, (2, 3))]
    for _ in range(300):
        keys = [rng.choice(alphabet) for _ in range(rng.randint(0, 12))]
        line, counts, model = EMPTY, Counter(), set()
        for key in keys:
            line = line.add(key)
            counts[key] += 1
            model.add((key, counts[key]))
        assert set(line) == model and len(line) == len(model) == len(keys)
        assert line.top == max(counts.values(), default=0)
        for key in alphabet:
            assert line.count(key) == counts[key]
            assert all(((key, k) in line) == (1 <= k <= counts[key]) for k in range(-1, 5))
        shuffled = keys[:]
        rng.shuffle(shuffled)
        other = EMPTY
        for key in shuffled:
            other = other.add(key)
        assert other == line and hash(other) == hash(line)
        if keys:
            shorter = EMPTY
            for key in shuffled[1:]:
                shorter = shorter.add(key)
            assert shorter != line and shorter.add(rng.choice([k for k in alphabet if k != shuffled[0]])) != line
        assert pickle.loads(pickle.dumps(line)) == line


def test_an_ending_repetition_counts_the_last_ply_in_one_loop(monkeypatch):
    """A repetition that ends the game (draw, loss, a score) counts perft's last ply in the
    inner kernel's one loop `k_leaves_hot` (a child whose key occurred count - 1 times on the
    line counts 0), never building a child; `forbidden` keeps its signatures.  (The counts
    themselves are compared with the course interface's and the interpreter's above.)"""
    from framework.history_kernel import history_kernel
    texts = [text for text in map(drawn_game, range(40)) if "repetition" in text][:8]
    ending = [text for text in texts if "result: forbidden" not in text]
    assert len(ending) >= 4
    for text in texts:
        assert (framework.load_text(text).kernel.inner.leaves_hot is None) == ("result: forbidden" in text)
    hot_calls = 0
    for seed, text in enumerate(ending):
        game = framework.load_text(text)
        kernel, inner = game.kernel, game.kernel.inner
        states = [packed for _, packed, _ in _states(game, random.Random(seed), bfs=20, playouts=2, plies=30)]
        leaves_hot, built = inner.leaves_hot, []
        monkeypatch.setattr(inner, "apply", lambda *args: built.append(args))
        monkeypatch.setattr(inner, "leaves_hot", lambda *args: (hot_calls_seen.append(1), leaves_hot(*args))[1])
        hot_calls_seen = []
        fresh = history_kernel(inner, kernel.rules, kernel.repetition_key, kernel.state_class,
                               game.initial_state()[0]._namespace)
        for packed in states:
            if not fresh.terminal(packed):
                fresh.leaves(packed, fresh.actions(packed))
        assert not built
        hot_calls += len(hot_calls_seen)
    assert hot_calls > 20


def test_the_lockstep_helper_compares_a_history_games_own_kernel():
    """tests/lockstep.py with `kernel`: a game with history rules is compared through its
    history kernel (packed states with their line), not the inner kernel's."""
    from tests.lockstep import moves_in_lockstep
    text = next(text for text in map(drawn_game, range(40)) if "repetition" in text)
    game = framework.load_text(text)
    moves_in_lockstep(game, text, playouts=2, plies=20, kernel=True)


def test_the_last_two_plies_in_one_call_where_no_rule_can_end_them():
    """The history kernel's `leaves2` is the inner kernel's where every move hands the turn
    on and the mover is in the key (English draughts, the threefold rule), none under
    `forbidden` or where a move can keep the turn; its counts are the published ones (the
    drawn games above compare it with the interpreter where rules do end lines)."""
    root = Path(__file__).parents[1] / "game_specs"
    draughts = framework.load(root / "draughts.yaml")
    assert draughts.kernel.leaves2 is not None
    assert framework.load(root / "go5.yaml").kernel.leaves2 is None
    assert perft(draughts.initial_state(), 6) == [7, 49, 302, 1469, 7361, 36768]
    turns = [text for text in map(drawn_game, range(40)) if "turn = mover" in text and "repetition" in text and "forbidden" not in text]
    assert len(turns) >= 3
    for text in turns[:3]:
        assert framework.load_text(text).kernel.leaves2 is None
