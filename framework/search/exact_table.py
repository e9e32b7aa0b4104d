"""The table of exact values of expectimax: a fixed number of slots, 32 bytes each.

An entry is a state's value (for player 0) searched to some remaining depth, whether its
subtree met the depth horizon, and its principal line; expectimax's rule for when it may
answer (the same depth, or a subtree that met no horizon) is the searcher's.  Storage:
four flat arrays indexed by slot, as in alpha-beta's table (framework/search/tt.py): the
state's 64-bit `hash`, the value as a double, the remaining depth with the used / proven
/ int flags packed in one integer, and a reference to the line (the tuple the search
built; a value a double cannot hold exactly, such as a Fraction, is kept beside it).  The
states are not kept: two states with the same 64-bit hash would share an entry
(probability about n^2 / 2^64 for n stored states).

Replacement: one slot per hash (the hash modulo the number of slots), always replaced by
the newest entry.  Expectimax stores every exact value once its subtree is done, and an
entry answers only its own depth (or any, once proven), so the newest entry of a slot is
the one likeliest to be asked for again; a table of 2 slots gives the same values as one
with room for everything, only more nodes.  `probe` and `store` are one bound method call
each and no tuple on a miss: expectimax probes every node it enters and stores most.
"""
from __future__ import annotations

from array import array

BYTES_PER_ENTRY = 8 + 8 + 8 + 8                      # hash, value, depth and flags, line reference
_USED, _PROVEN, _INT, _DEPTH_SHIFT = 1, 2, 4, 3
_EXACT_INT = 1 << 53                                 # ints a double holds exactly


class _Boxed:
    """An entry's value that a double cannot hold exactly, kept with its line."""

    __slots__ = ("value", "line")

    def __init__(self, value, line):
        self.value, self.line = value, line


class ExactTable:
    __slots__ = ("capacity", "keys", "values", "meta", "lines", "filled")

    def __init__(self, capacity: int = 500_000):
        if capacity < 1:
            raise ValueError("expectimax table capacity must be at least 1")
        self.capacity = capacity
        self.keys = array("q", bytes(8 * capacity))
        self.values = array("d", bytes(8 * capacity))
        self.meta = array("q", bytes(8 * capacity))
        self.lines = [None] * capacity
        self.filled = 0

    @classmethod
    def from_megabytes(cls, megabytes: float) -> "ExactTable":
        """A table whose slots take at most `megabytes` MB (2^20 bytes)."""
        return cls(max(1, int(megabytes * (1 << 20)) // BYTES_PER_ENTRY))

    def __len__(self) -> int:
        return self.filled

    def probe(self, state):
        """(depth, value, line, proven) stored for `state`, or None."""
        h = hash(state)
        i = h % self.capacity
        if self.keys[i] != h:
            return None
        m = self.meta[i]
        if not m:
            return None
        value, line = self.values[i], self.lines[i]
        if type(line) is _Boxed:
            value, line = line.value, line.line
        elif m & _INT:
            value = int(value)
        return m >> _DEPTH_SHIFT, value, line, m & _PROVEN

    def store(self, state, depth: int, value, line, proven) -> None:
        """Keep `value` (for player 0) of `state` searched to `depth` (an int >= 0)."""
        h = hash(state)
        i = h % self.capacity
        m = depth << _DEPTH_SHIFT | _USED | (_PROVEN if proven else 0)
        if type(value) is int and -_EXACT_INT <= value <= _EXACT_INT:
            m |= _INT
        elif type(value) is not float:
            value, line = 0.0, _Boxed(value, line)
        if not self.meta[i]:
            self.filled += 1
        self.keys[i], self.values[i], self.meta[i], self.lines[i] = h, value, m, line
