"""Independent plain-Python Atari Go (no plyspec code): the reference for
game_specs/atari_go.yaml, written from the rules of Go by the usual procedure.

n x n points, 0 empty, 1 Black (moves first), 2 White.  A move puts a stone on an empty
point; then every opponent group (orthogonally joined stones) without a liberty is removed;
then, if the mover's own group has no liberty, the move was suicide and is illegal.  The
first player to capture wins; a player with no legal move loses.
"""
from __future__ import annotations


def _around(n, p):
    x, y = p % n, p // n
    return [q for q, ok in ((p - 1, x > 0), (p + 1, x < n - 1), (p - n, y > 0), (p + n, y < n - 1)) if ok]


def _group_and_liberties(n, board, p):
    colour, seen, free, todo = board[p], {p}, set(), [p]
    while todo:
        for q in _around(n, todo.pop()):
            if board[q] == 0:
                free.add(q)
            elif board[q] == colour and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen, free


def play(n, board, p, colour):
    """(board after the stone at p, whether it captured), or None when it is suicide."""
    after = list(board)
    after[p] = colour
    captured = False
    for q in _around(n, p):
        if after[q] == 3 - colour:
            stones, free = _group_and_liberties(n, after, q)
            if not free:
                captured = True
                for s in stones:
                    after[s] = 0
    if not _group_and_liberties(n, after, p)[1]:
        return None
    return tuple(after), captured


def children(n, board, colour):
    out = []
    for p in range(n * n):
        if board[p] == 0:
            moved = play(n, board, p, colour)
            if moved is not None:
                out.append(moved)
    return out


def ply_counts(n, depth):
    """Nodes exactly 1..depth plies below the empty board (a position after a capture is
    counted at its ply and not expanded; a player without a legal move has no children)."""
    counts = [0] * depth

    def walk(board, colour, ply):
        for after, captured in children(n, board, colour):
            counts[ply - 1] += 1
            if ply < depth and not captured:
                walk(after, 3 - colour, ply + 1)

    walk((0,) * (n * n), 1, 1)
    return counts
