"""Independent plain-Python Kalah(houses, seeds), written from the rules (Wikipedia "Kalah").

Pits 0..h-1 are South's houses and h its store, h+1..2h North's houses and 2h+1 its store;
seeds are sown one per pit counter-clockwise (increasing index), skipping the opponent's
store.  The last seed in one's own store gives another turn; the last seed in an empty own
house captures it and the seeds opposite (if there are any) into one's store.  When either
side has no seeds left, each player adds the seeds on their side to their store; the game
is over.
"""
from __future__ import annotations


def initial(houses: int = 6, seeds: int = 4) -> tuple:
    pits = [seeds] * houses + [0] + [seeds] * houses + [0]
    return tuple(pits), 0


def moves(pits: tuple, mover: int) -> list:
    h = (len(pits) - 2) // 2
    if over(pits):
        return []
    first = 0 if mover == 0 else h + 1
    return [i for i in range(h) if pits[first + i] > 0]


def over(pits: tuple) -> bool:
    h = (len(pits) - 2) // 2
    return sum(pits[:h]) == 0 and sum(pits[h + 1:2 * h + 1]) == 0


def play(pits: tuple, mover: int, house: int) -> tuple:
    h = (len(pits) - 2) // 2
    n = 2 * h + 2
    mine, theirs = (h, 2 * h + 1) if mover == 0 else (2 * h + 1, h)
    pits = list(pits)
    pos = (0 if mover == 0 else h + 1) + house
    hand, pits[pos] = pits[pos], 0
    while hand:
        pos = (pos + 1) % n
        if pos == theirs:
            continue
        pits[pos] += 1
        hand -= 1
    nxt = 1 - mover
    own_houses = range(0, h) if mover == 0 else range(h + 1, 2 * h + 1)
    if pos == mine:
        nxt = mover
    elif pos in own_houses and pits[pos] == 1 and pits[2 * h - pos] > 0:
        pits[mine] += pits[2 * h - pos] + 1
        pits[pos] = pits[2 * h - pos] = 0
    if sum(pits[:h]) == 0 or sum(pits[h + 1:2 * h + 1]) == 0:
        pits[h] += sum(pits[:h])
        pits[2 * h + 1] += sum(pits[h + 1:2 * h + 1])
        for i in list(range(h)) + list(range(h + 1, 2 * h + 1)):
            pits[i] = 0
    return tuple(pits), nxt


def perft(pits: tuple, mover: int, depth: int) -> int:
    legal = moves(pits, mover)
    if depth == 0 or not legal:
        return 1
    return sum(perft(*play(pits, mover, m), depth - 1) for m in legal)
