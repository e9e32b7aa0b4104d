"""Go as game_specs/go5.yaml states it, written independently in plain Python for the
tests: a position is (board, player to move, passes in a row, moves made, boards seen);
a play is legal on an empty point unless it is suicide (the stone's group is left without a
liberty after the opponent groups it empties are captured) or recreates a board seen
earlier in the game (positional superko: passes are exempt); a pass is always legal; two
passes in a row or the `limit`-th move end the game; Black wins with an area (stones plus
empty regions touching only Black) above White's plus `komi`.  Moves: cell index
(row * n + col) or `PASS`."""
from __future__ import annotations

PASS = -1


def neighbours(n, i):
    r, c = divmod(i, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n]


def group(n, board, i):
    colour, seen, todo = board[i], {i}, [i]
    while todo:
        for j in neighbours(n, todo.pop()):
            if board[j] == colour and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def liberties(n, board, stones):
    return {j for i in stones for j in neighbours(n, i) if board[j] == 0}


def play(n, board, i, colour):
    """The board after `colour` (1 Black, 2 White) plays at empty i, or None for suicide."""
    board = list(board)
    board[i] = colour
    for j in neighbours(n, i):
        if board[j] == 3 - colour:
            stones = group(n, board, j)
            if not liberties(n, board, stones):
                for k in stones:
                    board[k] = 0
    if not liberties(n, board, group(n, board, i)):
        return None
    return tuple(board)


class Go:
    def __init__(self, n=5, komi=7, limit=50, superko=True):
        self.n, self.komi, self.limit, self.superko = n, komi, limit, superko

    def start(self):
        empty = (0,) * (self.n * self.n)
        return (empty, 1, 0, 0, frozenset({empty}))

    def terminal(self, s):
        board, mover, passes, moves, seen = s
        return passes == 2 or moves >= self.limit

    def moves(self, s):
        if self.terminal(s):
            return []
        board, mover = s[0], s[1]
        out = []
        for i in range(self.n * self.n):
            if board[i] == 0:
                after = play(self.n, board, i, mover)
                if after is not None and not (self.superko and after in s[4]):
                    out.append(i)
        return out + [PASS]

    def result(self, s, move):
        board, mover, passes, moves, seen = s
        if move == PASS:
            return (board, 3 - mover, passes + 1, moves + 1, seen)
        after = play(self.n, board, move, mover)
        return (after, 3 - mover, 0, moves + 1, seen | {after})

    def area(self, board, colour):
        n, total, done = self.n, board.count(colour), set()
        for i in range(n * n):
            if board[i] == 0 and i not in done:
                region = group(n, board, i)
                done |= region
                touching = {board[j] for k in region for j in neighbours(n, k)} - {0}
                if touching == {colour}:
                    total += len(region)
        return total

    def returns(self, s):
        """(Black, White): +1 / -1."""
        black = self.area(s[0], 1) > self.area(s[0], 2) + self.komi
        return (1, -1) if black else (-1, 1)

    def perft(self, s, depth):
        if depth == 0:
            return 1
        return sum(self.perft(self.result(s, m), depth - 1) for m in self.moves(s))
