"""Perft: count the nodes at each depth below a state (every edge a ply, terminals are
leaves that are counted at their depth and not expanded), and the size of a whole game tree.

The usual perft practice: the nodes of the last ply are counted (`len(actions())` of their
parent) and never built, and the ply above it is walked in one flat loop, so that a call
is made per interior node only.  Shallow searches recurse (cheaper than an explicit stack
in Python); depths of RECURSION_DEPTH and more run on an explicit stack so that deep games
do not exhaust the Python stack.  An optional `progress(done, total)` is called after each
root move (for a progress line on long runs).  A compiled game's kernel
(framework.kernel) runs the same walk over packed states when the game has one; the
course-interface walk calls the unchecked `result` (framework.game: its actions come from
`actions()`).
"""
from __future__ import annotations

from framework.game import unchecked
from framework.kernel import kernel_of, state_functions

RECURSION_DEPTH = 200


def perft(state, depth: int, progress=None) -> list:
    """[nodes at ply 1, ..., nodes at ply depth] below `state`."""
    counts = [0] * (depth + 1)
    if depth < 1 or state.terminal_test():
        return counts[1:]
    if depth >= RECURSION_DEPTH:
        _perft_stack(state, depth, counts)
        return counts[1:]
    kernel = kernel_of(state)
    if kernel is not None:
        forget = getattr(kernel, "forget", None)        # memoised values, a history kernel's signatures:
        if forget is not None:                          # each run starts cold and gives them back
            forget()
        try:
            _kernel_perft(kernel, tuple(state), depth, counts, progress)
        finally:
            if forget is not None:
                forget()
        return counts[1:]
    actions = state.actions()
    counts[1] = len(actions)
    if depth > 1:
        result = unchecked(type(state), "result")
        for i, a in enumerate(actions, 1):
            child = result(state, a)
            if not child.terminal_test():
                _perft(child, 2, depth, counts)
            if progress is not None:
                progress(i, len(actions))
    return counts[1:]


def _perft(state, d, depth, counts):
    """Add the nodes below the non-terminal `state` (its children are at ply d)."""
    actions = state.actions()
    counts[d] += len(actions)
    if d == depth:
        return
    result = unchecked(type(state), "result")
    if d + 1 == depth:                        # the children's children are counted, not built
        leaves = 0
        for a in actions:
            child = result(state, a)
            if not child.terminal_test():
                leaves += len(child.actions())
        counts[depth] += leaves
        return
    d += 1
    for a in actions:
        child = result(state, a)
        if not child.terminal_test():
            _perft(child, d, depth, counts)


def _kernel_perft(kernel, root, depth, counts, progress):
    """perft over the game's kernel (packed states, raw actions): the last ply is counted
    by `leaves` (the moves of each child counted in one generated loop, a bit count where
    moves are a mask, the children not built), and the two last by `leaves2` where the
    game has it (children built as locals only); each state's moves are generated once.  At
    depth 2 the root's children are counted (`count`), their moves not listed."""
    actions, apply, leaves, terminal = kernel.actions, kernel.apply, kernel.leaves, kernel.terminal
    leaves2 = kernel.leaves2

    def below(s, acts, d):
        """Add the nodes below the non-terminal `s`, whose moves are `acts` (its children
        are at ply d < depth, already counted)."""
        if d + 1 == depth:
            counts[depth] += leaves(s, acts)
            return
        if d + 2 == depth and leaves2 is not None:   # the last two plies in one generated call
            near, far = leaves2(s, acts)
            counts[d + 1] += near
            counts[depth] += far
            return
        if d + 2 == depth:
            near = far = 0
            for a in acts:
                child = apply(s, a)
                grand = actions(child)                # () for a terminal child
                near += len(grand)
                far += leaves(child, grand)
            counts[d + 1] += near
            counts[depth] += far
            return
        d += 1
        for a in acts:
            child = apply(s, a)
            if not terminal(child):
                grand = actions(child)
                counts[d] += len(grand)
                below(child, grand, d)

    first = actions(root)
    counts[1] = len(first)
    count = kernel.count if depth == 2 and kernel.count is not None else None     # (no moves listed)
    for i, a in enumerate(first, 1):
        if depth > 1:
            child = apply(root, a)
            if not terminal(child) and count is not None:
                counts[2] += count(child)
            elif not terminal(child):
                grand = actions(child)
                counts[2] += len(grand)
                if depth > 2:
                    below(child, grand, 2)
        if progress is not None:
            progress(i, len(first))


def _perft_stack(state, depth, counts):
    stack = [(state, 0)]
    pop, push = stack.pop, stack.append
    result = unchecked(type(state), "result")
    while stack:
        s, d = pop()
        actions = s.actions()
        counts[d + 1] += len(actions)
        if d + 1 == depth:
            continue
        for a in actions:
            child = result(s, a)
            if not child.terminal_test():
                push((child, d + 1))


def tree_size(state) -> tuple:
    """(nodes including the root, complete games) of the full game tree below `state`.
    Terminal children are counted where they are met, without a stack round trip; on the
    game's kernel when it has one."""
    actions, result, is_terminal, _, root = state_functions(state, kernel_of(state))
    if is_terminal(root):
        return 1, 1
    nodes, games = 1, 0
    stack = [root]
    pop, push = stack.pop, stack.append
    while stack:
        s = pop()
        for a in actions(s):
            child = result(s, a)
            nodes += 1
            if is_terminal(child):
                games += 1
            else:
                push(child)
    return nodes, games
