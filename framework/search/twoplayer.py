"""What the two-player searchers (minimax, alpha-beta) share.

Both are written in negamax form: the value of a state is taken from the point of view of
its player to move, and a child's value is negated when the child's mover differs from the
parent's (turn orders need not alternate).  This module supplies:

- `require_two_player(game, algorithm)`: refuse games with chance nodes or a number of
  players other than two, with a clear message;
- `leaf_scorers(game, root, evaluate)`: the two leaf functions, `terminal(state, me)` and
  `horizon(state, me)`, that score a terminal state exactly and a non-terminal state at the
  depth cut-off, both from player `me`'s point of view.  Zero-sum games use
  `utility(me)` / `evaluate(state, me)`.  Two-player games that are not declared zero-sum
  are searched on the *difference* `utility(me) - utility(opponent)` (likewise for the
  evaluation): that difference is zero-sum by construction, so negamax stays exact, and for
  a constant-sum game it orders outcomes exactly as `utility(me)` does;
- `per_player_values(game, mover, value)`: the per-player tuple for `Result.values` where it
  follows from the negamax value (zero-sum and constant-sum games), otherwise None;
- `run_deep(job, budget, max_depth, algorithm)`: run a recursive search in a thread with a
  large stack and a recursion limit sized to the search depth, at most MAX_SEARCH_PLIES
  (a 500,000-ply line solves), turn a search that goes deeper than that into a LimitError
  naming the limit and `--depth` (never a RecursionError), and turn Ctrl-C into an expired
  budget, so the searcher returns its best answer so far instead of losing it;
- `declares_noisy(game)`, `unroll(line)`, `fallback_action(root)`, `make_result(...)`: the
  small pieces both searchers need to consult noisy-move hints and package their Result.
"""
from __future__ import annotations

import math
import sys
import threading

from framework.errors import LimitError
from framework.search.result import Result, reraise_interrupt

INFINITE_DEPTH = math.inf      # remaining depth of an unlimited search (inf - 1 == inf)
MAX_SEARCH_PLIES = 1_000_000   # the deepest line a recursive search follows (max_moves' limit)
_FRAMES_PER_PLY = 2            # the searcher's own frame and one helper's (quiescence, a table probe)
_DEEP_STACK_BYTES = 512 * 1024 * 1024


def require_two_player(game, algorithm: str) -> None:
    """Refuse games this negamax searcher cannot handle (chance nodes, != 2 players)."""
    game.require(players=2, chance=False, algorithm=algorithm)


def leaf_scorers(game, root, evaluate=None, kernel=None):
    """`(terminal, horizon)`: exact score of a terminal state and estimated score of a
    non-terminal state at the cut-off, each called as `f(state, me)` and taken from player
    `me`'s point of view (see the module docstring for non-zero-sum games).  With the
    game's `kernel` (framework.kernel), over its packed states."""
    if kernel is not None:
        utility, returns_of, estimate = kernel.utility, kernel.returns, kernel.estimate
    else:
        utility, returns_of = type(root).utility, type(root).returns
        estimate = evaluate if evaluate is not None else game.evaluate
    if game.zero_sum:
        return utility, estimate

    def terminal_difference(state, me):
        returns = returns_of(state)
        return returns[me] - returns[1 - me]

    def horizon_difference(state, me):
        return estimate(state, me) - estimate(state, 1 - me)

    return terminal_difference, horizon_difference


def per_player_values(game, mover: int, value):
    """The utilities per player implied by `value` (negamax value for `mover`), or None
    when the game is neither zero-sum nor constant-sum."""
    if value is None:
        return None
    if game.zero_sum:
        mine, theirs = value, 0 - value           # 0 - x: no negative zero
    elif game.constant_sum is not None:
        mine, theirs = (game.constant_sum + value) / 2, (game.constant_sum - value) / 2
    else:
        return None
    return (mine, theirs) if mover == 0 else (theirs, mine)


def run_deep(job, budget, max_depth, algorithm):
    """Run `job()` (a recursive search obeying `budget`) on a thread whose stack and
    recursion limit fit `max_depth` plies (None or inf: MAX_SEARCH_PLIES, also the most);
    return `(job's return value, interrupted)`.  A search that recurses deeper than that
    raises a LimitError naming the limit and the option that bounds it.

    Python 3.11 runs a Python-to-Python call without growing the C stack, so the recursion
    limit is what bounds the depth: a 500,000-ply line costs about 1.3 KB a ply of memory.

    Ctrl-C while the job runs expires the budget: the job stops at its next budget check
    and returns its best answer so far; `interrupted` is then True.  A second Ctrl-C
    propagates as usual.
    """
    unbounded = max_depth is None or max_depth >= MAX_SEARCH_PLIES
    depth = MAX_SEARCH_PLIES if unbounded else int(max_depth)
    outcome = {}
    finished = threading.Event()

    def target():
        try:
            outcome["value"] = job()
        except BaseException as error:          # re-raised in the caller's thread
            outcome["error"] = error
        finally:
            finished.set()

    old_limit = sys.getrecursionlimit()
    needed = depth * _FRAMES_PER_PLY + 1_000
    if needed > old_limit:
        sys.setrecursionlimit(needed)
    old_stack = threading.stack_size()
    threading.stack_size(_DEEP_STACK_BYTES)
    interrupted = False
    try:
        try:
            try:   # started inside the Ctrl-C guard: the job may report progress before start() returns
                threading.Thread(target=target, name="plyspec-search", daemon=True).start()
            finally:
                threading.stack_size(old_stack)
            while not finished.wait(0.05):   # wake up: a signal may have gone to the search thread,
                pass                         # and only the main thread runs Python's handlers
        except KeyboardInterrupt as error:
            interrupted = True
            budget.deadline = 0.0            # the job sees an expired budget and returns
            finished.wait()
            reraise_interrupt(error)
    finally:
        if sys.getrecursionlimit() == needed and needed > old_limit:
            sys.setrecursionlimit(old_limit)
    if isinstance(outcome.get("error"), RecursionError):
        raise too_deep(algorithm, depth, unbounded) from None
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"], interrupted


def too_deep(algorithm, depth, unbounded) -> LimitError:
    """The error of a search that went deeper than the `depth` plies it had room for."""
    if unbounded:
        return LimitError(
            f"{algorithm} went deeper than {depth:,} plies, the longest line a search follows "
            "(docs/limits.md): the game has cycles or a longer line",
            hint="give a depth limit (--depth N) or an option that bounds the game's length "
                 "(such as a turn limit or max_moves)")
    return LimitError(f"{algorithm} recursed deeper than its stack room for --depth {depth:,}",
                      hint="give a smaller --depth")


def declares_noisy(game) -> bool:
    """True when the spec marks some moves as noisy (quiescence search and move ordering
    then ask `game.is_noisy`; otherwise they skip it)."""
    return game._is_noisy is not None


def fallback_action(root):
    """A legal move to return when a budget ran out before any move was searched fully
    (None at a terminal root)."""
    actions = root.actions()
    return actions[0] if actions else None


def unroll(line) -> list:
    """The actions of a principal line kept as nested pairs `(action, rest)`."""
    actions = []
    while line is not None:
        actions.append(line[0])
        line = line[1]
    return actions


def make_result(algorithm, game, root, mover, value, pv, stats, complete, interrupted) -> Result:
    """The Result of a negamax search of `root` (`mover` to move) that found `value`."""
    if value == 0:
        value = abs(value)                        # negamax leaves -0.0 behind
    return Result(algorithm, value=value, values=per_player_values(game, mover, value),
                  best_action=pv[0] if pv else fallback_action(root), pv=pv, stats=stats,
                  complete=complete, extra={"interrupted": True} if interrupted else {})
