"""Perft: count the nodes at each depth below a state (every edge a ply, terminals are
leaves that are counted at their depth and not expanded).  Iterative, so deep games do not
exhaust the Python stack."""
from __future__ import annotations


def perft(state, depth: int) -> list:
    """[nodes at ply 1, ..., nodes at ply depth] below `state`."""
    counts = [0] * (depth + 1)
    stack = [(state, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        s, d = pop()
        counts[d] += 1
        if d == depth or s.terminal_test():
            continue
        for a in s.actions():
            push((s.result(a), d + 1))
    return counts[1:]


def tree_size(state) -> tuple:
    """(nodes including the root, complete games) of the full game tree below `state`."""
    nodes = games = 0
    stack = [state]
    while stack:
        s = stack.pop()
        nodes += 1
        if s.terminal_test():
            games += 1
            continue
        stack.extend(s.result(a) for a in s.actions())
    return nodes, games
