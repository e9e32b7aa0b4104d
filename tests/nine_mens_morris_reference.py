"""Nine Men's Morris written independently in plain Python for the tests, from the board's
geometry rather than from game_specs/nine_mens_morris.yaml's lists: the 24 points are the
points (file, rank) of a 7 x 7 grid on three concentric squares and their midpoints; two
points are adjacent when they share a rank or a file with no point between them and the
centre d4 not between them; a mill is a run of three such adjacent points on a rank or a
file.  A position is (board: 24 of 0 empty / 1 White / 2 Black, player to move, men in hand
per player, turns made); a move is (from or None, to, removed or None) and is written as the
spec writes it: place(to[,x]), move(from,to[,x]) (along a link, more than 3 men),
fly(from,to[,x]) (3 men).  A man closing a mill removes an opponent man in no mill, or any
when all are in mills (none when the opponent has no man on the board).  A player with 2 men
(on the board and in hand) or no move loses; the 200th turn ends the game drawn."""
from __future__ import annotations

import itertools

FILES, RANKS = "abcdefg", "1234567"
POINTS = [f + r for r in reversed(RANKS) for f in FILES
          if (lambda x, y: (x == y or x + y == 6 or x == 3 or y == 3) and (x, y) != (3, 3))(FILES.index(f), RANKS.index(r))]
INDEX = {p: i for i, p in enumerate(POINTS)}
MAX_TURNS = 200


def _xy(p):
    return FILES.index(p[0]), RANKS.index(p[1])


def _between(a, b):
    """The grid squares strictly between two points of one rank or file."""
    (ax, ay), (bx, by) = _xy(a), _xy(b)
    if ax == bx:
        return [(ax, y) for y in range(min(ay, by) + 1, max(ay, by))]
    return [(x, ay) for x in range(min(ax, bx) + 1, max(ax, bx))]


def _adjacent(a, b):
    (ax, ay), (bx, by) = _xy(a), _xy(b)
    if a == b or (ax != bx and ay != by):
        return False
    squares = _between(a, b)
    return (3, 3) not in squares and not any(FILES[x] + RANKS[y] in INDEX for x, y in squares)


ADJACENT = [[INDEX[q] for q in POINTS if _adjacent(p, q)] for p in POINTS]
MILLS = sorted({tuple(sorted(INDEX[p] for p in trio)) for trio in itertools.combinations(POINTS, 3)
                if len({_xy(p)[0] for p in trio}) == 1 or len({_xy(p)[1] for p in trio}) == 1
                if sum(_adjacent(p, q) for p, q in itertools.combinations(trio, 2)) == 2})


def initial():
    return (0,) * 24, 1, (9, 9), 0


def in_mill(board, i):
    return board[i] != 0 and any(i in m and all(board[j] == board[i] for j in m) for m in MILLS)


def men(position, player):
    board, _, hand, _ = position
    return hand[player - 1] + board.count(player)


def _removals(board, player):
    """The opponent men a mill of `player` may remove."""
    theirs = [i for i in range(24) if board[i] == 3 - player]
    free = [i for i in theirs if not in_mill(board, i)]
    return free or theirs


def _steps(position):
    """(from, to) of the player to move, without removals."""
    board, player, hand, _ = position
    empty = [i for i in range(24) if board[i] == 0]
    if hand[player - 1] > 0:
        return [(None, i) for i in empty]
    mine = [i for i in range(24) if board[i] == player]
    if len(mine) == 3:
        return [(a, b) for a in mine for b in empty]
    return [(a, b) for a in mine for b in ADJACENT[a] if board[b] == 0]


def moves(position):
    if terminal(position):
        return []
    board, player, _, _ = position
    out = []
    for a, b in _steps(position):
        after = list(board)
        if a is not None:
            after[a] = 0
        after[b] = player
        if in_mill(after, b) and (3 - player) in after:
            out += [(a, b, x) for x in _removals(after, player)]
        else:
            out.append((a, b, None))
    return out


def play(position, move):
    board, player, hand, turns = position
    a, b, x = move
    board = list(board)
    hand = list(hand)
    if a is None:
        hand[player - 1] -= 1
    else:
        board[a] = 0
    board[b] = player
    if x is not None:
        board[x] = 0
    return tuple(board), 3 - player, tuple(hand), turns + 1


def terminal(position):
    return men(position, 1) <= 2 or men(position, 2) <= 2 or position[3] >= MAX_TURNS or not _steps(position)


def returns(position):
    """(White's, Black's) return of a terminal position."""
    player = position[1]
    if not _steps(position):
        return (-1, 1) if player == 1 else (1, -1)
    if men(position, 1) <= 2:
        return -1, 1
    if men(position, 2) <= 2:
        return 1, -1
    return 0, 0


def text(position, move):
    """A move as the spec's action text."""
    a, b, x = move
    kind = "place" if a is None else "fly" if position[0].count(position[1]) == 3 else "move"
    names = [POINTS[i] for i in (a, b, x) if i is not None]
    return f"{kind}({','.join(names)})"


def perft(position, depth):
    if depth == 0:
        return 1
    found = moves(position)
    return len(found) if depth == 1 else sum(perft(play(position, m), depth - 1) for m in found)
