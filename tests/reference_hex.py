"""Independent plain-Python Hex (no plyspec code): the reference the Hex spec's perft and solve
will be checked against. Rhombus n x n, cells (col, row); player 0 joins top and bottom rows,
player 1 joins left and right columns; six neighbours (+-1,0), (0,+-1), (1,-1), (-1,1)."""
from functools import lru_cache

HEX_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def connects(n, stones, player):
    """Whether `player`'s stones join its two sides (depth-first search from one side)."""
    if player == 0:
        todo = [(c, 0) for c in range(n) if (c, 0) in stones]
        reached = lambda cell: cell[1] == n - 1
    else:
        todo = [(0, r) for r in range(n) if (0, r) in stones]
        reached = lambda cell: cell[0] == n - 1
    seen = set(todo)
    while todo:
        cell = todo.pop()
        if reached(cell):
            return True
        for dc, dr in HEX_DIRECTIONS:
            nxt = (cell[0] + dc, cell[1] + dr)
            if nxt in stones and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def perft(n, depth, stones=((), ()), to_move=0):
    """Leaf count of the game tree to `depth` plies; a connected side ends the game."""
    if depth == 0:
        return 1
    taken = set(stones[0]) | set(stones[1])
    total = 0
    for c in range(n):
        for r in range(n):
            if (c, r) in taken:
                continue
            mine = stones[to_move] + ((c, r),)
            after = (mine, stones[1]) if to_move == 0 else (stones[0], mine)
            if connects(n, set(mine), to_move):
                total += 1
            else:
                total += perft(n, depth - 1, after, 1 - to_move)
    return total


def ply_counts(n, depth, stones=((), ()), to_move=0, ply=1, counts=None):
    """Nodes exactly 1..depth plies below the start (a won position is counted at its ply and
    not expanded): the convention of plyspec's perft, where `perft` above counts leaves."""
    counts = [0] * depth if counts is None else counts
    taken = set(stones[0]) | set(stones[1])
    for c in range(n):
        for r in range(n):
            if (c, r) in taken:
                continue
            counts[ply - 1] += 1
            mine = stones[to_move] + ((c, r),)
            if ply < depth and not connects(n, set(mine), to_move):
                after = (mine, stones[1]) if to_move == 0 else (stones[0], mine)
                ply_counts(n, depth, after, 1 - to_move, ply + 1, counts)
    return counts


def first_player_wins(n):
    """Exact solve by memoised search over sets of stones."""
    @lru_cache(maxsize=None)
    def wins(mine, theirs):
        # the player to move owns `mine`; True when it can force a connection
        me = 0 if len(mine) == len(theirs) else 1
        for c in range(n):
            for r in range(n):
                cell = (c, r)
                if cell in mine or cell in theirs:
                    continue
                placed = mine | {cell}
                if connects(n, placed, me) or not wins(theirs, placed):
                    return True
        return False
    return wins(frozenset(), frozenset())
