"""Quoridor written independently in plain Python for the tests, the usual way: pawns on an
n x n grid of squares `(x, y)` (`y` 0 the top row), walls kept as two sets of anchors.

- X starts on the bottom row's middle square (column `n // 2`, as OpenSpiel places it for
  odd and even n) and moves first; O starts on the top row; X wins on reaching row 0, O on
  reaching row n - 1.
- A pawn steps to an orthogonally adjacent square unless a wall is between.  When the
  opponent is on that square, the pawn jumps over it to the square behind, unless a wall or
  the board's edge is behind the opponent: then it may move to the squares beside the
  opponent instead (each unless a wall is between the opponent and it).
- A horizontal wall anchored at `(x, y)` (0 <= x, y < n - 1) lies under squares `(x, y)` and
  `(x + 1, y)`; a vertical one right of `(x, y)` and `(x, y + 1)`.  A wall may not overlap
  another wall of its orientation (same anchor, or one square along) nor cross the other
  orientation's wall at the same anchor, and must leave each pawn a path to its goal row
  (pawns do not block paths).  A player has `walls` of them.
- The game ends when a pawn reaches its goal row, or as a draw after the `limit`-th move
  (unless that move reached the goal).  (A pawn always has a move: no pass.)

A state is (squares of X and O, horizontal walls, vertical walls, walls left per player,
player to move (0 X, 1 O), moves made).  Moves: ("move", (x, y)), ("h", (x, y)) and
("v", (x, y)); `refused` counts the walls that fit but would cut a pawn's path."""
from __future__ import annotations

class Quoridor:
    def __init__(self, n=5, walls=3, limit=None):
        self.n, self.walls = n, walls
        self.limit = 4 * n * n if limit is None else limit
        self.refused = 0

    def start(self):
        n = self.n
        return ((n // 2, n - 1), (n // 2, 0)), frozenset(), frozenset(), (self.walls, self.walls), 0, 0

    # -- geometry ------------------------------------------------------------------------
    def blocked(self, h, v, a, b):
        """A wall (or the edge) between adjacent squares a and b; a and b on the board."""
        (ax, ay), (bx, by) = a, b
        if ay == by:                                  # a horizontal step: vertical walls
            x = min(ax, bx)
            return (x, ay) in v or (x, ay - 1) in v
        y = min(ay, by)
        return (ax, y) in h or (ax - 1, y) in h

    def on_board(self, sq):
        return 0 <= sq[0] < self.n and 0 <= sq[1] < self.n

    def open_neighbours(self, h, v, sq):
        x, y = sq
        for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if self.on_board(nb) and not self.blocked(h, v, sq, nb):
                yield nb

    def has_path(self, h, v, sq, goal_row):
        seen, todo = {sq}, [sq]
        while todo:
            cur = todo.pop()
            if cur[1] == goal_row:
                return True
            for nb in self.open_neighbours(h, v, cur):
                if nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        return False

    # -- rules ---------------------------------------------------------------------------
    def goal(self, player):
        return 0 if player == 0 else self.n - 1

    def winner(self, s):
        pawns = s[0]
        for p in (0, 1):
            if pawns[p][1] == self.goal(p):
                return p
        return None

    def terminal(self, s):
        return self.winner(s) is not None or s[5] >= self.limit

    def pawn_moves(self, s):
        pawns, h, v, _, p, _ = s
        me, other = pawns[p], pawns[1 - p]
        out = []
        for nb in self.open_neighbours(h, v, me):
            if nb != other:
                out.append(nb)
                continue
            dx, dy = other[0] - me[0], other[1] - me[1]
            behind = (other[0] + dx, other[1] + dy)
            if self.on_board(behind) and not self.blocked(h, v, other, behind):
                out.append(behind)
                continue
            for side in ((other[0] + dy, other[1] + dx), (other[0] - dy, other[1] - dx)):
                if self.on_board(side) and not self.blocked(h, v, other, side):
                    out.append(side)
        return out

    def wall_fits(self, h, v, kind, anchor):
        x, y = anchor
        same, cross = (h, v) if kind == "h" else (v, h)
        along = (x + 1, y) if kind == "h" else (x, y + 1)
        back = (x - 1, y) if kind == "h" else (x, y - 1)
        return anchor not in same and along not in same and back not in same and anchor not in cross

    def moves(self, s):
        if self.terminal(s):
            return []
        pawns, h, v, left, p, _ = s
        out = [("move", sq) for sq in self.pawn_moves(s)]
        if left[p] > 0:
            for kind in ("h", "v"):
                for x in range(self.n - 1):
                    for y in range(self.n - 1):
                        if not self.wall_fits(h, v, kind, (x, y)):
                            continue
                        h2, v2 = (h | {(x, y)}, v) if kind == "h" else (h, v | {(x, y)})
                        if all(self.has_path(h2, v2, pawns[q], self.goal(q)) for q in (0, 1)):
                            out.append((kind, (x, y)))
                        else:
                            self.refused += 1
        return out

    def result(self, s, move):
        pawns, h, v, left, p, made = s
        if move[0] == "move":
            pawns = (move[1], pawns[1]) if p == 0 else (pawns[0], move[1])
        else:
            h, v = (h | {move[1]}, v) if move[0] == "h" else (h, v | {move[1]})
            left = (left[0] - 1, left[1]) if p == 0 else (left[0], left[1] - 1)
        return pawns, h, v, left, 1 - p, made + 1

    def returns(self, s):
        """(X, O): +1 / -1 for a win, 0 each for a draw."""
        w = self.winner(s)
        return (0, 0) if w is None else (1, -1) if w == 0 else (-1, 1)

    def perft(self, s, depth):
        if depth == 0:
            return 1
        moves = self.moves(s)
        if depth == 1:
            return len(moves)
        return sum(self.perft(self.result(s, m), depth - 1) for m in moves)
