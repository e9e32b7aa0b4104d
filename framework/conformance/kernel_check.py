"""The kernel against the course interface: a compiled game's function-level kernel
(framework.kernel: packed states, raw actions) must say, at every state, what the State
methods it runs under say: the player, the terminal test, the returns, the moves (raw
actions mapped by `action` to the course actions, in the same order), their number, the
successor of each move (`apply` and `children`), and the move counts one ply below
(`leaves`) and two (`leaves2`, against `leaves` of each child): perft's last plies.  A rule that fails during play must fail
alike on both paths (the same positioned SpecRuntimeError).  A game whose states carry
their history (framework.history) is checked on the positions inside them.

`kernel_difference(state)` checks one state; `walk_difference(game, ...)` walks the game
breadth-first and on seeded random playouts and returns the first difference with the
moves that lead to it (the compiler's differential tests and tests/test_kernel_paths.py).
"""
from __future__ import annotations

import random
from collections import deque

from framework.game import unchecked

LEAVES2_WORK = 2500         # leaves2 is checked where (moves)^2 is at most this (its cost)
from framework.history import position


def _outcome(call):
    """(value, None) or (None, the SpecRuntimeError it raised)."""
    from framework.errors import SpecRuntimeError
    try:
        return call(), None
    except SpecRuntimeError as exc:
        return None, exc


def _same(what, course, kernel):
    """None, or what differs between the (value, error) of the course interface and the kernel's."""
    (a, a_err), (b, b_err) = course, kernel
    if a_err is not None or b_err is not None:
        same = a_err is not None and b_err is not None and \
            (a_err.message, a_err.line, a_err.col) == (b_err.message, b_err.line, b_err.col)
        return None if same else f"{what}: course interface {a_err or a!r}, kernel {b_err or b!r}"
    return None if a == b else f"{what}: course interface {a!r}, kernel {b!r}"


def kernel_difference(state):
    """None, or what the kernel says differently from the course interface at `state`
    (a compiled state, or one carrying its history; None when the game has no kernel)."""
    state = position(state)
    kernel = getattr(type(state), "_kernel", None)
    if kernel is None:
        return None
    packed = tuple(state)
    checks = [("terminal test", state.terminal_test, lambda: kernel.terminal(packed)),
              ("returns", state.returns, lambda: tuple(kernel.returns(packed)))]
    chance = state.is_chance()
    if not state.terminal_test() and not chance:
        checks.append(("player", state.player, lambda: kernel.player(packed)))
        checks.append(("actions", state.actions, lambda: [kernel.action(a) for a in kernel.actions(packed)]))
    for what, course, fast in checks:
        found = _same(what, _outcome(course), _outcome(fast))
        if found:
            return found
    if state.terminal_test() or chance:
        return None
    raw, err = _outcome(lambda: list(kernel.actions(packed)))
    if err is not None:
        return None                  # both failed alike (checked above)
    result = unchecked(type(state), "result")
    children = [_outcome(lambda a=a: tuple(result(state, kernel.action(a)))) for a in raw]
    for a, child in zip(raw, children):
        found = _same(f"successor by {kernel.action(a)!r}", child, _outcome(lambda a=a: kernel.apply(packed, a)))
        if found:
            return found
    failed = next((e for _, e in children if e is not None), None)
    course = (None, failed) if failed else (list(zip(raw, (c for c, _ in children))), None)
    found = _same("children", course, _outcome(lambda: kernel.children(packed)))
    if found or failed or kernel.count is None:
        return found

    def below(two):
        """The children's moves and (`two`) the grandchildren's, summed in the kernel's order:
        the children's by the course interface, the grandchildren's by `leaves` of each
        child (which this check compares with the course interface where it walks)."""
        near = far = 0
        for child, _ in children:
            moves = kernel.view(child).actions()
            near += len(moves)
            if two and moves:
                far += kernel.leaves(child, kernel.actions(child))
        return (near, far) if two else near

    checks = [("number of moves", lambda: len(raw), lambda: kernel.count(packed)),
              ("moves one ply below (leaves)", lambda: below(False), lambda: kernel.leaves(packed, raw))]
    if kernel.leaves2 is not None and len(raw) * len(raw) <= LEAVES2_WORK:     # not at Amazons' 200 moves
        checks.append(("moves one and two plies below (leaves2)", lambda: below(True),
                       lambda: tuple(kernel.leaves2(packed, raw))))
    for what, course, fast in checks:
        found = _same(what, _outcome(course), _outcome(fast))
        if found:
            return found
    return None


def walk_difference(game, *, bfs_states=25, playouts=2, plies=40, seed=0):
    """None, or (message, [moves as texts]) of the first state where the kernel and the
    course interface differ: breadth-first from the start, then on seeded random playouts
    (a move whose rules fail is left out)."""
    from framework.errors import SpecRuntimeError

    def visit(state, path):
        """The (text, successor) of the moves of `state`, once its kernel agrees there."""
        found = kernel_difference(state)
        if found:
            raise _Found(found, path)
        try:
            chance = state.is_chance()
            moves = [] if state.terminal_test() else [o for o, _ in state.chance_outcomes()] if chance \
                else state.actions()
        except SpecRuntimeError:
            return []
        out = []
        for move in moves:
            try:
                out.append((repr(move) if chance else game.action_text(move), state.result(move)))
            except SpecRuntimeError:
                pass
        return out

    try:
        start = game.initial_state()
    except SpecRuntimeError:
        return None
    try:
        queue, seen = deque([(start, [])]), 0
        while queue and seen < bfs_states:
            state, path = queue.popleft()
            seen += 1
            queue.extend((child, path + [text]) for text, child in visit(state, path))
        rng = random.Random(seed)
        for _ in range(playouts):
            state, path = start, []
            while len(path) < plies:
                options = visit(state, path)
                if not options:
                    break
                text, state = rng.choice(options)
                path = path + [text]
    except _Found as found:
        return found.args
    return None


class _Found(Exception):
    """A difference, with the moves that lead to it."""
