"""Move ordering for alpha-beta: try first the moves most likely to cause a cut-off.

Order, best first:
1. the hint move: the transposition table's best move (or, at the root, the previous
   iteration's best move);
2. noisy moves (`game.is_noisy`), the spec's hint that a move changes the position sharply
   (captures, flips), when the game declares any;
3. killer moves: the last two moves that caused a beta cut-off at the same ply, in sibling
   positions (tried only when legal here);
4. the rest by the history heuristic: moves that often caused cut-offs anywhere, weighted
   by the square of the remaining depth, per player.
Ties keep the spec's action order (the sorts are stable).
"""
from __future__ import annotations

from collections import defaultdict

_MAX_HISTORY_DEPTH = 64        # unlimited searches weigh a cut-off as this depth


class MoveOrderer:
    __slots__ = ("game", "noisy_hints", "killers", "history")

    def __init__(self, game, *, killers: bool = True, history: bool = True, noisy_hints: bool = True):
        self.game = game
        self.noisy_hints = noisy_hints
        self.killers = [] if killers else None                       # per ply: [newest, older]
        self.history = (defaultdict(int), defaultdict(int)) if history else None

    def order(self, state, actions, ply: int, mover: int, hint):
        """`actions` reordered best-first (a new list)."""
        history = self.history
        if history is not None:
            ordered = sorted(actions, key=history[mover].__getitem__, reverse=True)
        else:
            ordered = list(actions)
        killers = self.killers
        if killers is not None and ply < len(killers):
            for killer in reversed(killers[ply]):
                if killer in ordered:
                    ordered.remove(killer)
                    ordered.insert(0, killer)
        if self.noisy_hints:
            is_noisy = self.game.is_noisy
            noisy = [a for a in ordered if is_noisy(state, a)]
            if noisy:
                ordered = noisy + [a for a in ordered if a not in noisy]
        if hint is not None and hint in ordered:
            ordered.remove(hint)
            ordered.insert(0, hint)
        return ordered

    def record_cutoff(self, action, ply: int, mover: int, depth) -> None:
        """`action` caused a beta cut-off at `ply` with `depth` plies remaining."""
        killers = self.killers
        if killers is not None:
            while len(killers) <= ply:
                killers.append([])
            slot = killers[ply]
            if not slot or slot[0] != action:
                slot.insert(0, action)
                del slot[2:]
        if self.history is not None:
            weight = min(depth, _MAX_HISTORY_DEPTH)
            self.history[mover][action] += int(weight * weight)
