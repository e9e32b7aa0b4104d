"""Transposition-table entries for states that carry their history (a `repetition` rule on
framework.history_kernel's packed states `(position, seen, moves, end)`), as alpha-beta
uses them.

The value of a position under a repetition rule depends on the line that reached it (a
position's third occurrence is a draw), so a table keyed by the whole state is sound but
joins almost nothing: two move orders reaching one position pass through different
positions, so their histories differ (Northcott 3x6 to depth 8: 45,535 nodes against the
rule-free game's 10,909).  Here the table is keyed by the position alone (with the move
count under `max_moves`), and each entry carries a guard saying which histories it is
valid for:

    T   {key: n}: the positions whose count in the history must be exactly n (0: absent)
    V   a bit mask over the hash of every position the entry's search visited below it

An entry answers a state whose history (`seen`, counts by repetition key) satisfies
(a) every count T names, and (b) no position outside T that occurred count - 1 times
(one more occurrence would trigger the rule) has its bit in V.  Then the search that made
the entry would have gone exactly the same way from this state: every repetition the rule
tested below it comes out the same, so the value (and its bound) is this state's too.

Why: a position P generated below the entry's node N either has a count in N's history
(then the search recorded it in T, `touch`), or has none, and then, outside T, it occurs
at most once on any line below N (a second occurrence is a count of 1 at the parent of
the second: recorded, and carried up as "absent at N", `merge`); its count at that visit
is its count in the history plus 1, which triggers the rule in neither history when (b)
holds.  A table answer below N is valid under N's history by its own guard; translated to
N, its T entries are N's T entries (minus the occurrences on the line between, which are
the same in any history), and its V is in N's V, so (b) at N gives (b) there, except for
the positions on the line between, whose counts differ between histories by the same
amount: a child's own position is therefore added to T exactly when its subtree's V has
its bit (`merge`).  By induction from the leaves, a guard never admits a history under
which the recorded search would differ.  (Bit collisions in V only refuse answers or add
exact entries to T: never unsound.)  tests/test_history_table.py checks alpha-beta with
the table against alpha-beta without it and against minimax on Northcott and on a game
where repetitions decide the value.

`forbidden` repetitions (whose test runs inside `actions`, for every move) keep the table
keyed by the whole state: `tracking` gives None for them.
"""
from __future__ import annotations

MASK = (1 << 10) - 1          # V is a 1,024-bit mask: the bit of a position is hash(key) & MASK


def tracking(kernel):
    """(table_key, valid, touch, merge) for alpha-beta over `kernel`'s packed states with a
    position-keyed table (see the module doc), or None: keep the whole state as the key.
    `touch` and `merge` are None when the game has no repetition rule (only `max_moves`: the
    move count in the key is all the history there is)."""
    rules = getattr(kernel, "rules", None)
    if rules is None or rules.repetition == "forbidden":
        return None
    limited = rules.limit is not None
    table_key = (lambda s: (s[0], s[2])) if limited else (lambda s: s[0])
    if rules.repetition is None:
        return table_key, lambda guard, s: True, None, None
    hot = rules.count - 1

    def valid(guard, s):
        """Whether the entry with `guard` may answer `s` (conditions (a) and (b))."""
        ranges, visited = guard
        seen = s[1]
        if ranges:
            for position, (low, high) in ranges.items():
                if (position, high + 1) in seen or (low and (position, low) not in seen):
                    return False
        if seen.top < hot:                  # no position occurred count - 1 times (Line.top)
            return True
        for position, n in seen:
            if n == hot and visited >> (hash(position) & MASK) & 1 and not (ranges and position in ranges):
                return False
        return True

    def require(guard, position, low, high):
        """Add low <= count(position) <= high to the node's `guard`."""
        ranges = guard[0]
        if ranges is None:
            guard[0] = {position: (low, high)}
        elif position in ranges:
            was = ranges[position]
            ranges[position] = (max(low, was[0]), min(high, was[1]))
        else:
            ranges[position] = (low, high)

    def touch(guard, child):
        """Record a generated child in its parent's `guard` ([ranges or None, V]); return
        what `merge` needs if the child is searched."""
        position = child[1].key                              # the line ends with key(child[0])
        bit = 1 << (hash(position) & MASK)
        guard[1] |= bit
        if child[1].k > hot:                                 # the rule fired here: exact
            require(guard, position, hot, hot)
        return position, child[1], bit                       # (b) covers the other children

    def merge(guard, child, below):
        """Fold the guard `below` of a searched child (`child`: what touch returned) in."""
        ranges, visited = below
        position, seen, bit = child
        if ranges:
            for other, (low, high) in ranges.items():
                if other == position:
                    require(guard, other, max(low - 1, 0), high - 1)
                else:
                    require(guard, other, low, high)
        if visited:
            guard[1] |= visited
            if visited & bit and not (ranges and position in ranges):
                # the child's subtree may meet its position again: (b) there, one less here
                if (position, hot) in seen:
                    require(guard, position, hot - 1, hot - 1)
                else:
                    require(guard, position, 0, hot - 2)

    return table_key, valid, touch, merge
