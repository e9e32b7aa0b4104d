"""The positions a line of play has reached: the history a state with `repetition` carries
(framework.history, framework.history_kernel), as a persistent record.

A `Line` is the last occurrence on the line and a link to the line before it, so a move
adds one small record (O(1), the earlier line shared, never copied).  Each record keeps:

    key, k     the position's repetition key and its occurrence number: the k-th time the
               key occurs on the line (the latest record of a key holds its count)
    h          hash(key) (framework.history_kernel's leaf filter reads it)
    n, top     how many occurrences the line has, and the highest k among them
    bloom      a 256-bit mask with the bit `hash(key) & 255` of every key on the line: a key
               whose bit is clear has not occurred (no walk), most positions being new
    hash       the sum (mod 2**64) of hash((hash(key), k)) over the occurrences: the same
               for any two lines with the same occurrences, whatever their order

It is the same set as the pairs `(key, k)` of every occurrence (k = 1..count of each key)
and reads as that set: `(key, k) in line` (the key occurred at least k times), iteration
over the pairs, `len`.  Equality is exact: two lines are equal when they have the same
occurrences (compared as sets of pairs after the hash, sizes and masks agree), so a
transposition table keyed by states stays sound (two states meet only when their futures
are the same).  The keys are tuples of ints (the generated positions' fields: bitboards,
numbers, the mover) whose hash is the same in every process, so `hash` and the table slots
it picks are too (tests/test_repeatable_counts.py).
"""
from __future__ import annotations

_M64 = (1 << 64) - 1


class Line:
    """The occurrences on a line of play (see the module docstring); `EMPTY` is the line
    with none, `line.add(key)` the line one occurrence of `key` longer."""

    __slots__ = ("last", "key", "k", "n", "top", "bloom", "hash", "h")

    def count(self, key) -> int:
        """How many times `key` occurred on the line."""
        if not self.bloom >> (hash(key) & 255) & 1:
            return 0
        line = self
        while line.n:
            if line.key == key:
                return line.k
            line = line.last
        return 0

    def add(self, key) -> Line:
        """This line followed by an occurrence of `key`."""
        h = hash(key)
        bit = 1 << (h & 255)
        line = _new(Line)
        line.last, line.key, line.h, line.n, line.bloom = self, key, h, self.n + 1, self.bloom | bit
        if self.bloom & bit:
            line.k = k = self.count(key) + 1
            line.top = k if k > self.top else self.top
        else:
            line.k = k = 1
            line.top = self.top or 1
        line.hash = (self.hash + hash((h, k))) & _M64
        return line

    def __iter__(self):
        line = self
        while line.n:
            yield line.key, line.k
            line = line.last

    def __len__(self) -> int:
        return self.n

    def __contains__(self, pair) -> bool:
        key, k = pair
        return k >= 1 and self.count(key) >= k

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other) -> bool:
        if self is other:
            return True
        if other.__class__ is not Line:
            return NotImplemented
        return self.hash == other.hash and self.n == other.n and self.bloom == other.bloom \
            and set(self) == set(other)

    def __reduce__(self):
        """The keys in line order (a State key as its plain tuple: equal, hashing alike)."""
        keys = [tuple(key) if isinstance(key, tuple) else key for key, _ in self]
        return (_line, (tuple(reversed(keys)),))

    def __repr__(self) -> str:
        return f"Line({', '.join(f'{key!r}#{k}' for key, k in reversed(list(self)))})"


_new = object.__new__
EMPTY = _new(Line)
EMPTY.last, EMPTY.key, EMPTY.h, EMPTY.k, EMPTY.n, EMPTY.top, EMPTY.bloom, EMPTY.hash = None, None, 0, 0, 0, 0, 0, 0


def _line(keys) -> Line:
    """The line of these keys in order (unpickling)."""
    line = EMPTY
    for key in keys:
        line = line.add(key)
    return line
