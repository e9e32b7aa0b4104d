"""The kernel (framework.kernel.Kernel) of a game with history rules (`repetition`,
`max_moves`): the searchers' fast path over packed states, for the states framework.history
makes.

A packed state is `(position, seen, moves, end)`, the RuledState's own fields with the
position a packed state of the game's kernel (a plain tuple; the root's may be the State
itself, which hashes and compares as its tuple).  So `tuple(state)` packs a RuledState, a
packed state hashes and compares as the state does (tables keyed by either agree), and the
history stays what it is in the course interface: the line of (key, k) occurrences
(framework.history_line.Line: one link per move, nothing copied), a move counter and the
returns a rule ended the game with.  The history being part of the
packed state keeps transposition tables sound: two lines meet in one entry only when they
reached the same position with the same occurrences and move count, which is exactly when
their futures are the same.  The rules are applied as framework.history applies them, on
the inner kernel's functions (moves generated, applied and tested without State objects);
`_score_repetition` / `_score_max_moves` score a scored ending on the packed position.
`leaves` counts the children's moves with the inner kernel (its one-loop `k_leaves` when no
child can end by a rule; `k_leaves_hot` when a repetition that ends the game can, the same
loop giving 0 to a child whose key occurred count - 1 times on the line); under `forbidden` the
moves and children of the last 64 positions are kept (`expand`), so the filter, the
terminal test and `apply` build each child once, and the last ply reads each child's
signature (`last_ply`: its move count and the hashes of its non-terminal children's keys,
kept per position, so a position reached again by another line is not expanded again; a
hash that meets the line's is compared exactly, so a collision never changes a count).
`leaves2` (perft's last two plies) is the inner kernel's one call while no child or
grandchild can end by a rule (a game whose every move hands the turn on, the mover in the
key, no key yet at count - 1 occurrences, the move limit more than two moves away), else the
two plies move by move.  `forget` drops what is kept (perft calls it before and after a run).  Games with chance
keep the course interface (no history kernel).
"""
from __future__ import annotations

from array import array
from struct import Struct

from framework.kernel import Kernel

SIGNATURES = 1 << 17        # positions whose last-ply signature `leaves` keeps (then cleared)
pack = Struct("q").pack     # a key's hash as the 8 bytes of a signature's entry


def history_kernel(inner: Kernel, rules, key, state_class, namespace, advances=False) -> Kernel:
    """A Kernel playing `inner`'s game by `rules` (framework.history.Rules); `key` maps a
    position to what a repetition compares; `state_class` is the game's RuledState class;
    `advances`: every move hands the turn to another player (framework.history)."""
    actions_of, apply_of, terminal_of, utility_of = inner.actions, inner.apply, inner.terminal, inner.utility
    mover_of, players, count, limit = inner.player, range(rules.players), rules.count, rules.limit
    repetition, forbidden = rules.repetition, rules.repetition == "forbidden"
    draw, hot = (0,) * rules.players, count - 1
    scores = {rule: namespace.get("_score_" + rule) for rule in ("repetition", "max_moves")}
    nfields = rules.nfields
    inner_leaves, count_of = inner.leaves, inner.count or (lambda position: len(actions_of(position)))
    hot_leaves = None if forbidden else inner.leaves_hot
    memo = {}       # with `forbidden`: id(position) -> [position, its inner moves, {move: child}]
    signatures, children_of = {}, inner.children    # with `forbidden`: position -> (moves, hashes)

    def ended(result, mover, position, rule):
        if result == "draw":
            return draw
        if result == "loss":
            return tuple(-1 if p == mover else 1 for p in players)
        score, fields = scores[rule], position[:nfields]
        return tuple(score(*fields, p) for p in players)

    def expand(position):
        """The memo entry of `position`: the filter of `forbidden`, the terminal test and
        `apply` each build a child once per node (the last few nodes' entries are kept)."""
        entry = memo.get(id(position))
        if entry is None or entry[0] is not position:
            if len(memo) >= 64:
                memo.clear()
            entry = memo[id(position)] = (position, actions_of(position), {})
        return entry

    def child_of(entry, action):
        child = entry[2].get(action)
        if child is None:
            child = entry[2][action] = apply_of(entry[0], action)
        return child

    def allowed(seen, entry):
        """With `forbidden`: the moves of `entry`'s position that do not repeat on `seen`
        (the line's mask first: most children's keys have not occurred)."""
        position, acts, children = entry
        bloom, kept = seen.bloom, []
        for a in acts:
            child = children.get(a)
            if child is None:
                child = children[a] = apply_of(position, a)
            known = key(child)
            if not (bloom >> (hash(known) & 255) & 1 and seen.count(known) >= hot and not terminal_of(child)):
                kept.append(a)
        return kept

    def stuck(s):
        """With `forbidden`: every move of the player to move would repeat (tried from the
        last move, where a pass usually is: it stops at the first that does not)."""
        position, seen = s[0], s[1]
        if terminal_of(position):
            return False
        try:
            entry = expand(position)
            for a in reversed(entry[1]):
                child = child_of(entry, a)
                if seen.count(key(child)) < hot or terminal_of(child):
                    return False
            return True
        except Exception:       # noqa: BLE001 - as framework.history: a failing move does not repeat
            return False

    def terminal(s):
        return bool(s[3]) or terminal_of(s[0]) or (forbidden and stuck(s))

    def actions(s):
        if s[3]:
            return ()
        if forbidden:
            entry = expand(s[0])
            return (allowed(s[1], entry) or ()) if entry[1] else entry[1]      # () when stuck: terminal
        return actions_of(s[0])

    def apply(s, action):
        position, seen, moves, end = s
        entry = memo.get(id(position)) if forbidden else None
        child = apply_of(position, action) if entry is None or entry[0] is not position else child_of(entry, action)
        if repetition is not None:
            seen = seen.add(key(child))
        if limit is not None:
            moves += 1
        if not terminal_of(child):
            if repetition is not None and not forbidden and seen.k >= count:
                end = ended(repetition, mover_of(position), child, "repetition")
            elif limit is not None and moves >= limit:
                end = ended(rules.limit_result, mover_of(position), child, "max_moves")
        return (child, seen, moves, end)

    def returns(s):
        if s[3]:
            return s[3]
        return draw if forbidden and stuck(s) else inner.returns(s[0])

    def utility(s, me):
        if s[3]:
            return s[3][me]
        return 0 if forbidden and stuck(s) else utility_of(s[0], me)

    def leaves(s, acts=None):
        """The children's move counts: the inner kernel's one loop when no child can end by
        a rule, else each child built (a position, no packed state) and its moves counted."""
        position, seen, moves, end = s
        if end:
            return 0
        if acts is None:
            acts = actions(s)
        if limit is not None and moves + 1 >= limit:        # every child ends (or is terminal)
            return 0
        if repetition is None or (not forbidden and seen.top < hot):
            return inner_leaves(position, acts)
        if hot_leaves is not None:      # an ending rule: the repeating successors count 0, in one loop
            return hot_leaves(position, acts, seen, hot)
        total, bloom = 0, seen.bloom
        if forbidden:
            entry, hots = expand(position), None       # the children `actions` built
        for a in acts:
            child = apply_of(position, a) if not forbidden else child_of(entry, a)
            if terminal_of(child):
                continue
            known = key(child)          # the line's mask first: most keys have not occurred
            if not forbidden:
                if not bloom >> (hash(known) & 255) & 1 or seen.count(known) < hot:
                    total += count_of(child)
                continue
            if hots is None:            # the hashes of the keys that occurred `hot` times
                hots, record = [], seen
                while record.n:
                    if record.k == hot:
                        hots.append(pack(record.h))
                    record = record.last
            total += last_ply(child, known, seen, hots)
        return total

    # The inner kernel's last two plies in one call are sound where no child and no grandchild
    # can end by a rule: no key has occurred `hot` times on the line yet and a grandchild's
    # key is never its parent's (the key holds the mover, who changes every move), so no
    # occurrence reaches `count`; and the move limit is more than two moves away.
    inner_leaves2 = inner.leaves2 if inner.leaves2 is not None and not forbidden and (
        repetition is None or advances and (rules.over is None or nfields - 1 in rules.over)) else None

    def leaves2(s, acts):
        """(the children's move counts, the grandchildren's), as perft's last two plies."""
        position, seen, moves, end = s
        if not end and (limit is None or moves + 2 < limit) and (repetition is None or seen.top < hot):
            return inner_leaves2(position, acts)
        near = far = 0
        for a in acts:
            child = apply(s, a)
            grand = actions(child)
            near += len(grand)
            far += leaves(child, grand)
        return near, far

    def last_ply(child, known, seen, hots):
        """With `forbidden`: the moves of the non-terminal `child` (key `known`) reached on
        `seen` that do not repeat.  The child's signature (its move count and the hashes of
        its non-terminal children's keys) is kept per position, so a position met again by
        another line (a transposition) is not expanded again; only a key occurring `hot`
        times on the line (`hots`: their hashes, and the child's own) whose hash is in the
        signature can repeat, and then the children are built and compared exactly."""
        entry = signatures.get(child)
        if entry is None:
            if len(signatures) >= SIGNATURES:
                signatures.clear()
            pairs = children_of(child)
            entry = signatures[child] = (len(pairs), array("q", [hash(key(grand)) for _, grand in pairs
                                                                 if not terminal_of(grand)]).tobytes())
        n, signature = entry
        for h in hots:
            if h in signature:
                break
        else:
            h = hash(known)             # the child's own occurrence: `hot`-th when it occurred hot - 1 times
            if pack(h) not in signature or (seen.bloom >> (h & 255) & 1 and seen.count(known)) != hot - 1:
                return n
        line = seen.add(known)          # a hash met: compare exactly
        bloom, n = line.bloom, 0
        for _, grand in children_of(child):
            known = key(grand)
            if not (bloom >> (hash(known) & 255) & 1 and line.count(known) >= hot and not terminal_of(grand)):
                n += 1
        return n

    def forget():
        """Drop the kept expansions and signatures (perft calls it before and after a run,
        so each run starts cold and the memory is given back), and the inner kernel's."""
        memo.clear()
        signatures.clear()
        inner.forget()

    kernel = HistoryKernel.__new__(HistoryKernel)
    kernel.forget = forget
    kernel.actions, kernel.apply, kernel.terminal, kernel.returns, kernel.utility = \
        actions, apply, terminal, returns, utility
    kernel.count = lambda s: len(actions(s))
    kernel.leaves, kernel.leaves2 = leaves, None if inner_leaves2 is None else leaves2
    kernel.action, kernel.state_class, kernel.inner = inner.action, state_class, inner
    kernel.rules, kernel.repetition_key = rules, key
    kernel.player = lambda s: mover_of(s[0])
    estimate = inner.estimate
    kernel.estimate = lambda s, me: estimate(s[0], me)
    kernel.children = lambda s: [(a, apply(s, a)) for a in actions(s)]
    kernel.chance = kernel.outcomes = kernel.successors = None
    return kernel


class HistoryKernel(Kernel):
    """A Kernel over packed states with their history (see the module docstring)."""

    __slots__ = ("inner", "rules", "repetition_key")
    INDEXED = False

    def view(self, packed):
        return tuple.__new__(self.state_class, (self.inner.view(packed[0]),) + tuple(packed[1:]))
