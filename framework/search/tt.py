"""Transposition table for depth-limited negamax search.

An entry, as `probe` returns it, is the tuple `(depth, flag, value, move, proven,
generation, guard)`:

- `depth`: remaining depth the state was searched with (`math.inf` for unlimited search);
- `flag`: EXACT, LOWER (the search failed high: value is a lower bound) or UPPER (failed
  low: value is an upper bound), as fail-soft alpha-beta produces them;
- `move`: the best move found (used first by move ordering, whatever the depth);
- `proven`: True when the subtree was searched without touching the depth horizon (every
  leaf was terminal), so the bound is a proof that holds for any larger remaining depth;
- `generation`: which search stored it (for replacement);
- `guard`: None, or in a table made with `guarded=True` what a state with a history must
  satisfy for the entry to answer it (framework.search.history_table; such a table is keyed
  by the position, not by the whole state).

When an entry answers a probe (`usable`): only when it was searched to exactly the
remaining depth asked for, or when it is proven and was searched to at most that depth.
Accepting any deeper entry (the usual chess rule) would make the value depend on the order
transpositions are met; this rule keeps alpha-beta with a table *exactly* equal to
depth-limited minimax, which the cross-checks rely on, while proven results (the bulk of a
full solve) are still reused across iterative-deepening iterations.

Storage (a fixed size, chosen up front: `capacity` slots, or `from_megabytes`): four flat
arrays indexed by slot, the 64-bit hash of the state (`hash(state)`, which runs in C for
the tuple states), the value as a double, the depth/flag/proven/generation packed in one
int, and the move (a reference to the action object the search already holds).  That is
BYTES_PER_ENTRY = 32 bytes a slot; the states themselves are not kept.  A guarded table
has a fifth array, of references to the guards (GUARD_BYTES = 8 more a slot, and the guards).  Two distinct states
with the same 64-bit hash would share an entry (probability about n^2 / 2^64 for n stored
states; a table move is only ever used after checking it is legal).

Replacement: slots come in pairs, chosen by the hash.  The first of a pair is
depth-preferred (kept unless the newcomer was searched at least as deep, or it belongs to
an earlier search), the second always-replace; a deeper newcomer pushes the first entry
down to the second slot.  Re-storing a state keeps the existing entry when it came from the
current search and was searched deeper.
"""
from __future__ import annotations

from array import array

EXACT, LOWER, UPPER = 0, 1, 2

BYTES_PER_ENTRY = 8 + 8 + 8 + 8                      # hash, value, packed fields, move reference
GUARD_BYTES = 8                                      # a guarded table's guard reference
_USED, _PROVEN, _INT = 1, 8, 16                       # bits of the packed field (flag: bits 1-2)
_GEN_SHIFT, _GEN_MASK = 5, 0xFFFF
_DEPTH_SHIFT, _DEPTH_OFFSET, _DEPTH_INF = 21, 1 << 20, (1 << 40) - 1


class TranspositionTable:
    __slots__ = ("capacity", "pairs", "keys", "values", "meta", "moves", "guards", "generation", "filled")

    def __init__(self, capacity: int = 500_000, guarded: bool = False):
        if capacity < 2:
            raise ValueError("transposition table capacity must be at least 2")
        self.capacity = capacity - capacity % 2
        self.pairs = self.capacity // 2
        self.keys = array("q", bytes(8 * self.capacity))
        self.values = array("d", bytes(8 * self.capacity))
        self.meta = array("q", bytes(8 * self.capacity))
        self.moves = [None] * self.capacity
        self.guards = [None] * self.capacity if guarded else None
        self.generation = 0
        self.filled = 0

    @classmethod
    def from_megabytes(cls, megabytes: float, guarded: bool = False) -> "TranspositionTable":
        """A table whose slots take at most `megabytes` MB (2^20 bytes)."""
        return cls(max(2, int(megabytes * (1 << 20)) // (BYTES_PER_ENTRY + GUARD_BYTES * guarded)), guarded)

    def __len__(self) -> int:
        return self.filled

    def new_search(self) -> None:
        """Mark the start of a new search (entries of earlier searches become replaceable)."""
        self.generation += 1

    def probe(self, state):
        """The entry for `state`, or None."""
        h = hash(state)
        i = h % self.pairs * 2
        keys, meta = self.keys, self.meta
        if keys[i] != h or not meta[i] & _USED:
            i += 1
            if keys[i] != h or not meta[i] & _USED:
                return None
        m = meta[i]
        value = self.values[i]
        depth = m >> _DEPTH_SHIFT
        return (depth - _DEPTH_OFFSET if depth != _DEPTH_INF else float("inf"), m >> 1 & 3,
                int(value) if m & _INT else value, self.moves[i], bool(m & _PROVEN),
                m >> _GEN_SHIFT & _GEN_MASK, None if self.guards is None else self.guards[i])

    def store(self, state, depth, flag, value, move, proven, guard=None) -> None:
        h = hash(state)
        i = h % self.pairs * 2
        keys, meta = self.keys, self.meta
        code = _DEPTH_INF if depth == float("inf") else depth + _DEPTH_OFFSET
        generation = self.generation & _GEN_MASK
        packed = (code << _DEPTH_SHIFT | generation << _GEN_SHIFT | flag << 1 | _USED
                  | (_PROVEN if proven else 0) | (_INT if type(value) is int else 0))
        first = meta[i]
        if keys[i] == h and first & _USED:
            slot = i
        elif keys[i + 1] == h and meta[i + 1] & _USED:
            slot = i + 1
        else:
            slot = None
        if slot is not None:                                   # the same state again
            old = meta[slot]
            if old >> _GEN_SHIFT & _GEN_MASK == generation and old >> _DEPTH_SHIFT > code:
                return
        elif not first & _USED or first >> _GEN_SHIFT & _GEN_MASK != generation \
                or first >> _DEPTH_SHIFT <= code:
            if first & _USED:                                  # push the first entry down
                if not meta[i + 1] & _USED:
                    self.filled += 1
                keys[i + 1], meta[i + 1] = keys[i], first
                self.values[i + 1], self.moves[i + 1] = self.values[i], self.moves[i]
                if self.guards is not None:
                    self.guards[i + 1] = self.guards[i]
            else:
                self.filled += 1
            slot = i
        else:
            slot = i + 1
            if not meta[slot] & _USED:
                self.filled += 1
        keys[slot], meta[slot] = h, packed
        self.values[slot] = value
        self.moves[slot] = move
        if self.guards is not None:
            self.guards[slot] = guard


def usable(entry, depth) -> bool:
    """True when `entry` may answer a probe at remaining depth `depth` (see module doc)."""
    return entry[0] == depth or (entry[4] and entry[0] <= depth)
