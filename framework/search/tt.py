"""Transposition table for depth-limited negamax search.

Keyed by the state itself (states are tuples: hashing and equality run in C).  An entry is
the tuple `(depth, flag, value, move, proven, generation)`:

- `depth`: remaining depth the state was searched with (`math.inf` for unlimited search);
- `flag`: EXACT, LOWER (the search failed high: value is a lower bound) or UPPER (failed
  low: value is an upper bound), as fail-soft alpha-beta produces them;
- `move`: the best move found (used first by move ordering, whatever the depth);
- `proven`: True when the subtree was searched without touching the depth horizon (every
  leaf was terminal), so the bound is a proof that holds for any larger remaining depth;
- `generation`: which search stored it (for replacement).

When an entry answers a probe (`usable`): only when it was searched to exactly the
remaining depth asked for, or when it is proven and was searched to at most that depth.
Accepting any deeper entry (the usual chess rule) would make the value depend on the order
transpositions are met; this rule keeps alpha-beta with a table *exactly* equal to
depth-limited minimax, which the cross-checks rely on, while proven results (the bulk of a
full solve) are still reused across iterative-deepening iterations.

Size limit and replacement: two generations of dictionaries.  New entries go to `recent`;
when `recent` holds half the capacity, it becomes `older` and the previous `older` is
dropped wholesale (O(1), no sweep, so time budgets hold).  Within `recent`, an entry for
the same state is replaced unless the existing one came from the current search and was
searched deeper (depth-preferred, always-replace across searches).
"""
from __future__ import annotations

EXACT, LOWER, UPPER = 0, 1, 2


class TranspositionTable:
    __slots__ = ("capacity", "recent", "older", "generation")

    def __init__(self, capacity: int = 500_000):
        if capacity < 2:
            raise ValueError("transposition table capacity must be at least 2")
        self.capacity = capacity
        self.recent: dict = {}
        self.older: dict = {}
        self.generation = 0

    def __len__(self) -> int:
        return len(self.recent) + len(self.older)

    def new_search(self) -> None:
        """Mark the start of a new search (entries of earlier searches become replaceable)."""
        self.generation += 1

    def probe(self, state):
        """The entry for `state`, or None."""
        entry = self.recent.get(state)
        if entry is None and self.older:
            entry = self.older.get(state)
        return entry

    def store(self, state, depth, flag, value, move, proven) -> None:
        recent = self.recent
        old = recent.get(state)
        if old is not None and old[5] == self.generation and old[0] > depth:
            return
        if old is None and len(recent) * 2 >= self.capacity:
            self.older = recent
            self.recent = recent = {}
        recent[state] = (depth, flag, value, move, proven, self.generation)


def usable(entry, depth) -> bool:
    """True when `entry` may answer a probe at remaining depth `depth` (see module doc)."""
    return entry[0] == depth or (entry[4] and entry[0] <= depth)
