"""The kernel (framework.kernel.Kernel) of a game with history rules (`repetition`,
`max_moves`): the searchers' fast path over packed states, for the states framework.history
makes.

A packed state is `(position, seen, moves, end)`, the RuledState's own fields with the
position a packed state of the game's kernel (a plain tuple; the root's may be the State
itself, which hashes and compares as its tuple).  So `tuple(state)` packs a RuledState, a
packed state hashes and compares as the state does (tables keyed by either agree), and the
history stays what it is in the course interface: the frozenset of (key, k) occurrences, a
move counter and the returns a rule ended the game with.  The history being part of the
packed state keeps transposition tables sound: two lines meet in one entry only when they
reached the same position with the same occurrences and move count, which is exactly when
their futures are the same.  The rules are applied as framework.history applies them, on
the inner kernel's functions (moves generated, applied and tested without State objects);
`_score_repetition` / `_score_max_moves` score a scored ending on the packed position.
Games with chance keep the course interface (no history kernel).
"""
from __future__ import annotations

from framework.kernel import Kernel


def history_kernel(inner: Kernel, rules, key, state_class, namespace) -> Kernel:
    """A Kernel playing `inner`'s game by `rules` (framework.history.Rules); `key` maps a
    position to what a repetition compares; `state_class` is the game's RuledState class."""
    actions_of, apply_of, terminal_of, utility_of = inner.actions, inner.apply, inner.terminal, inner.utility
    mover_of, players, count, limit = inner.player, range(rules.players), rules.count, rules.limit
    repetition, forbidden = rules.repetition, rules.repetition == "forbidden"
    draw = (0,) * rules.players
    scores = {rule: namespace.get("_score_" + rule) for rule in ("repetition", "max_moves")}
    nfields = rules.nfields

    def ended(result, mover, position, rule):
        if result == "draw":
            return draw
        if result == "loss":
            return tuple(-1 if p == mover else 1 for p in players)
        score, fields = scores[rule], position[:nfields]
        return tuple(score(*fields, p) for p in players)

    def repeats(seen, child):
        return (key(child), count - 1) in seen and not terminal_of(child)

    def stuck(s):
        """With `forbidden`: every move of the player to move would repeat."""
        position, seen = s[0], s[1]
        if terminal_of(position):
            return False
        try:
            return all(repeats(seen, apply_of(position, a)) for a in reversed(actions_of(position)))
        except Exception:       # noqa: BLE001 - as framework.history: a failing move does not repeat
            return False

    def terminal(s):
        return bool(s[3]) or terminal_of(s[0]) or (forbidden and stuck(s))

    def actions(s):
        if s[3]:
            return ()
        position = s[0]
        acts = actions_of(position)
        if forbidden and acts:
            seen = s[1]
            acts = [a for a in acts if not repeats(seen, apply_of(position, a))]
        return acts

    def apply(s, action):
        position, seen, moves, end = s
        child = apply_of(position, action)
        if repetition is not None:
            k, known = 1, key(child)
            while (known, k) in seen:
                k += 1
            seen = seen | {(known, k)}
        if limit is not None:
            moves += 1
        if not terminal_of(child):
            if repetition is not None and not forbidden and (known, count) in seen:
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

    inner_leaves = inner.leaves

    def quiet(s) -> bool:
        """No child of `s` can end by a rule: the moves' counts are the inner game's."""
        if s[3] or forbidden or (limit is not None and s[2] + 1 >= limit):
            return False
        return repetition is None or max((k for _, k in s[1]), default=0) < count - 1

    def leaves(s, acts=None):
        if quiet(s):                # the inner kernel's one loop (no child built)
            return inner_leaves(s[0], acts)
        return sum(len(actions(apply(s, a))) for a in (actions(s) if acts is None else acts))

    kernel = HistoryKernel.__new__(HistoryKernel)
    kernel.actions, kernel.apply, kernel.terminal, kernel.returns, kernel.utility = \
        actions, apply, terminal, returns, utility
    kernel.count = lambda s: len(actions(s))
    kernel.leaves, kernel.leaves2 = leaves, None
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
