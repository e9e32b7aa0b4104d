"""The function-level kernel of a compiled game, as the searchers reach it.

Every compiled game carries, under its State class, the same
rules as functions over plain tuples and raw actions (framework/compiler/kernel.py writes
them).  `Kernel` gathers them (`game.kernel`); `kernel_of(state)` gives it to a searcher
when the state is a compiled state (else None: the searcher runs on the course
interface, calling the unchecked `result` and `utility`: see framework.game).  The packed
state is `tuple(state)`; its hash is the state's hash, so tables keyed by states and by
packed states agree.  A raw action equals a course action only
when both name the same move (cells are ints in one, (col, row) pairs in the other).
"""
from __future__ import annotations

from operator import itemgetter

from framework.game import unchecked
from framework.runtime import forget_memos


class Kernel:
    """actions(s), count(s), apply(s, a), leaves(s, acts), leaves2(s, acts) (or None),
    utility(s, me), returns(s), action(a) (raw -> course action), terminal(s) and
    player(s) (item getters; player of a decision node), estimate(s, me) (the spec's
    evaluation of a non-terminal state, as `game.evaluate`), view(s) (the State),
    children(s) ([(action, successor)], or at a chance node [(probability, successor)]).
    A game with chance has `chance(s)` (the pending chance action: true at chance nodes),
    `outcomes(s)` and `successors(s)` (a decision node's successors without their
    actions), and no count/leaves/leaves2 (perft walks it on the course interface);
    without chance these are None.  forget() empties the memoised definitions' memories
    (perft calls it before and after a run: each run starts cold)."""

    __slots__ = ("actions", "count", "apply", "leaves", "utility", "returns", "action", "terminal",
                 "player", "state_class", "estimate", "leaves2", "chance", "outcomes", "children",
                 "successors", "leaves_hot", "forget")
    INDEXED = True      # a packed state is the State's fields (terminal last): searchers may read them
                        # by index (not so framework.history_kernel's)

    def __init__(self, namespace: dict, nfields: int, evaluate=None):
        self.actions, self.count, self.apply = namespace["k_actions"], namespace.get("k_count"), namespace["k_apply"]
        self.leaves = namespace.get("k_leaves")
        self.leaves2 = namespace.get("k_leaves2")       # (near, far) of the last two plies, or None
        self.leaves_hot = namespace.get("k_leaves_hot")     # with an ending repetition rule, or None
        self.forget = lambda: forget_memos(namespace)       # the memoised definitions' values dropped
        self.utility, self.returns, self.action = namespace["k_utility"], namespace["k_returns"], namespace["k_action"]
        self.outcomes = namespace.get("k_outcomes")
        self.children, self.successors = namespace["k_children"], namespace.get("k_successors")
        self.chance = None if self.outcomes is None else itemgetter(nfields)
        self.terminal = itemgetter(nfields + (self.outcomes is not None))
        self.player = itemgetter(nfields - 1)
        self.state_class = namespace["State"]
        if evaluate is None:
            self.estimate = lambda s, me: 0.0
        else:                               # the spec's evaluation of a non-terminal state
            self.estimate = lambda s, me: evaluate(*s[:nfields], me)

    def view(self, packed):
        """The course-interface State of a packed state."""
        return tuple.__new__(self.state_class, packed)


def kernel_of(state, chance=False):
    """The kernel of the game `state` belongs to when it is a compiled state, else None;
    a game with chance's only when `chance` (the searcher handles chance nodes)."""
    kernel = getattr(type(state), "_kernel", None)
    return kernel if kernel is None or chance or kernel.outcomes is None else None


def state_functions(root, kernel):
    """(actions(s), result(s, a), terminal(s), player(s), the root as these take it): the
    kernel's over packed states, or else the methods of the root's class (every state of
    a game has the same class)."""
    if kernel is not None:
        return kernel.actions, kernel.apply, kernel.terminal, kernel.player, tuple(root)
    cls = type(root)
    return cls.actions, unchecked(cls, "result"), cls.terminal_test, cls.player, root


def _never(state):
    return False


def _same(action):
    return action


def _course_children(state):
    """Kernel.children on the course interface."""
    result = unchecked(type(state), "result")
    if state.is_chance():
        return [(p, result(state, o)) for o, p in state.chance_outcomes()]
    return [(a, result(state, a)) for a in state.actions()]


class Rules:
    """What a recursive searcher calls, as plain functions of a state: over packed states
    and raw actions with the game's kernel, else the State methods.  actions, result,
    terminal, player, chance (true at chance nodes), outcomes, children (as
    Kernel.children), utility(s, me), returns,
    evaluate(s, me) (of a non-terminal state), course_action (raw -> course action), root
    (the root as these take it) and kernel (None on the course interface)."""

    __slots__ = ("actions", "result", "terminal", "player", "chance", "outcomes", "children", "utility",
                 "returns", "evaluate", "course_action", "root", "kernel")

    def __init__(self, game, root, evaluate=None):
        kernel = self.kernel = kernel_of(root, chance=True) if evaluate is None else None
        if kernel is not None:
            self.actions, self.result, self.terminal, self.player = kernel.actions, kernel.apply, kernel.terminal, kernel.player
            self.chance, self.outcomes, self.children = kernel.chance or _never, kernel.outcomes, kernel.children
            self.utility, self.returns, self.evaluate = kernel.utility, kernel.returns, kernel.estimate
            self.course_action, self.root = kernel.action, tuple(root)
            return
        cls = type(root)
        self.actions, self.terminal, self.player = cls.actions, cls.terminal_test, cls.player
        self.result = unchecked(cls, "result")
        self.chance, self.outcomes = cls.is_chance, getattr(cls, "chance_outcomes", None)
        self.children = _course_children
        self.utility, self.returns = unchecked(cls, "utility"), cls.returns
        self.evaluate = evaluate or game.evaluate
        self.course_action, self.root = _same, root
