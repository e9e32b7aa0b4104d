"""Independent plain-Python English draughts (8x8) move generator, written from the rules.

Used to check game specs against: a multi-jump is ONE move; captures are compulsory (any
capture sequence, no maximum-capture rule); a jump continues while the jumping piece can
capture; a man reaching the far row is crowned and its move ends; captured pieces are
removed as the path goes, so no piece is jumped twice. Cells are (col, row), (0, 0) top-left;
player 0 starts on rows 5..7 and moves first, towards row 0.
"""
from __future__ import annotations

SIZE = 8


def initial() -> tuple:
    """(board, mover); board maps (c, r) -> (player, is_king) for occupied cells."""
    board = {}
    for r in range(SIZE):
        for c in range(SIZE):
            if (c + r) % 2 == 1:
                if r <= 2:
                    board[(c, r)] = (1, False)
                elif r >= 5:
                    board[(c, r)] = (0, False)
    return board, 0


def _directions(player: int, king: bool) -> list:
    forward = -1 if player == 0 else 1
    rows = (forward, -forward) if king else (forward,)
    return [(dc, dr) for dr in rows for dc in (-1, 1)]


def _inside(c: int, r: int) -> bool:
    return 0 <= c < SIZE and 0 <= r < SIZE


def _crowns(player: int, r: int) -> bool:
    return r == (0 if player == 0 else SIZE - 1)


def _jumps(board: dict, cell: tuple, player: int, king: bool, path: list, out: list) -> None:
    extended = False
    c, r = cell
    for dc, dr in _directions(player, king):
        over, land = (c + dc, r + dr), (c + 2 * dc, r + 2 * dr)
        if not _inside(*land) or land in board:
            continue
        victim = board.get(over)
        if victim is None or victim[0] == player:
            continue
        extended = True
        after = dict(board)
        del after[over]
        del after[cell]
        crowned = not king and _crowns(player, land[1])
        after[land] = (player, king or crowned)
        if crowned:
            out.append((path + [land], after))
        else:
            _jumps(after, land, player, king, path + [land], out)
    if not extended and len(path) > 1:
        out.append((path, board))


def moves(board: dict, player: int) -> list:
    """Legal moves as (path, board after); path = cells visited, start first."""
    captures: list = []
    for cell, (owner, king) in board.items():
        if owner == player:
            _jumps(board, cell, player, king, [cell], captures)
    if captures:
        return captures
    quiet = []
    for cell, (owner, king) in board.items():
        if owner != player:
            continue
        for dc, dr in _directions(owner, king):
            to = (cell[0] + dc, cell[1] + dr)
            if _inside(*to) and to not in board:
                after = dict(board)
                del after[cell]
                after[to] = (owner, king or _crowns(owner, to[1]))
                quiet.append(([cell, to], after))
    return quiet


def perft(board: dict, player: int, depth: int) -> int:
    if depth == 0:
        return 1
    legal = moves(board, player)
    if depth == 1:
        return len(legal)
    return sum(perft(after, 1 - player, depth - 1) for _, after in legal)
