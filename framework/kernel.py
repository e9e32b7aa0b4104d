"""The function-level kernel of a compiled game, as the searchers reach it.

A game compiled without chance or compound moves carries, under its State class, the same
rules as functions over plain tuples and raw actions (framework/compiler/kernel.py writes
them).  `Kernel` gathers them (`game.kernel`); `kernel_of(state)` gives it to a searcher
when the state is a compiled state (else None: the searcher runs on the course
interface).  The packed state is `tuple(state)`; its hash is the state's hash, so tables
keyed by states and by packed states agree.  A raw action equals a course action only
when both name the same move (cells are ints in one, (col, row) pairs in the other).
"""
from __future__ import annotations

from operator import itemgetter


class Kernel:
    """actions(s), count(s), apply(s, a), leaves(s, acts), leaves2(s, acts) (or None),
    utility(s, me), returns(s), action(a)
    (raw -> course action), terminal(s) and player(s) (item getters), estimate(s, me) (the
    spec's evaluation of a non-terminal state, as `game.evaluate`), view(s) (the State)."""

    __slots__ = ("actions", "count", "apply", "leaves", "utility", "returns", "action", "terminal",
                 "player", "state_class", "estimate", "leaves2")

    def __init__(self, namespace: dict, nfields: int, evaluate=None):
        self.actions, self.count, self.apply = namespace["k_actions"], namespace["k_count"], namespace["k_apply"]
        self.leaves = namespace["k_leaves"]
        self.leaves2 = namespace.get("k_leaves2")       # (near, far) of the last two plies, or None
        self.utility, self.returns, self.action = namespace["k_utility"], namespace["k_returns"], namespace["k_action"]
        self.terminal, self.player = itemgetter(nfields), itemgetter(nfields - 1)
        self.state_class = namespace["State"]
        if evaluate is None:
            self.estimate = lambda s, me: 0.0
        else:                               # the spec's evaluation of a non-terminal state
            self.estimate = lambda s, me: evaluate(*s[:nfields], me)

    def view(self, packed):
        """The course-interface State of a packed state."""
        return tuple.__new__(self.state_class, packed)


def kernel_of(state):
    """The kernel of the game `state` belongs to when it is a compiled state, else None."""
    return getattr(type(state), "_kernel", None)


def state_functions(root, kernel):
    """(actions(s), result(s, a), terminal(s), player(s), the root as these take it): the
    kernel's over packed states, or else the methods of the root's class (every state of
    a game has the same class)."""
    if kernel is not None:
        return kernel.actions, kernel.apply, kernel.terminal, kernel.player, tuple(root)
    cls = type(root)
    return cls.actions, cls.result, cls.terminal_test, cls.player, root
