"""Minimax: the exact value of a two-player game by visiting every state, full or to a
depth limit, in negamax form (max and min written once; see `twoplayer`).

Terminal states are scored by their utility, which is always preferred over an estimate;
at the depth cut-off a non-terminal state is scored by the spec's weighted-feature
evaluation (`game.evaluate`) or by the `evaluate(state, player)` function given.  With
`quiescence=True` a cut-off state is instead scored by extending it with the spec's noisy
moves only (up to `quiescence_depth` plies, the mover may always "stand pat" on the
evaluation): the reference value alpha-beta's quiescence search must reproduce.

`Result.stats.nodes` counts the states visited, the root included: the full tic-tac-toe
tree is 549,946 nodes.  `evaluations` counts leaf scores (terminal utilities and
evaluations).  A time or node budget, or Ctrl-C, stops the search early: the result then
holds the best root move among those fully searched (`complete=False`).  The budget is
looked at every CHECK_EVERY nodes (and exactly at the node limit); a node limit counts the
children of a state when it is expanded, so an interrupted search may report up to one
branching factor more nodes than it visited.
"""
from __future__ import annotations

import math
from time import perf_counter

from framework.kernel import kernel_of, state_functions
from framework.search.result import Budget, BudgetExceeded, Result, Stats
from framework.search.twoplayer import (INFINITE_DEPTH, declares_noisy, leaf_scorers, make_result,
                                        require_two_player, run_deep, unroll)

NAME = "minimax"
CHECK_EVERY = 128          # nodes between looks at the clock (and at Ctrl-C)
_INF = math.inf


def search(game, state=None, *, depth=None, time_limit=None, node_limit=None, evaluate=None,
           quiescence=False, quiescence_depth=8) -> Result:
    """Minimax value of `state` (default: the initial state) for its player to move."""
    require_two_player(game, NAME)
    if depth is not None and depth < 1:
        raise ValueError(f"{NAME}: depth must be at least 1 (got {depth})")
    root = game.initial_state() if state is None else state
    budget = Budget(time_limit, node_limit)
    is_noisy = game.is_noisy
    extend_noisy = quiescence and declares_noisy(game)
    # Per-node work is kept to the search itself: the state methods are bound once (every
    # state of a game has the same class), or the game's kernel (packed states, raw actions)
    # runs instead when nothing needs State objects; nodes are counted in bulk when a state
    # is expanded, and the budget is looked at only every CHECK_EVERY nodes (see `check`).
    kernel = kernel_of(root) if evaluate is None and not extend_noisy else None
    terminal, horizon = leaf_scorers(game, root, evaluate, kernel)
    actions_of, result_of, is_terminal, player_of, start = state_functions(root, kernel)
    max_depth = INFINITE_DEPTH if depth is None else depth
    nodes = 1                             # the root
    check_at = budget.next_check(nodes, CHECK_EVERY)
    expanded = deepest = 0
    last_line = None                      # principal line of the node searched last
    root_best = None                      # (value, line) over the fully searched root moves

    def check():
        """Every CHECK_EVERY nodes (and at the node limit): stop when the budget is spent."""
        nonlocal check_at
        budget.nodes = nodes
        if budget.node_limit is not None and budget.nodes > budget.node_limit:
            raise BudgetExceeded("node limit")
        if budget.deadline is not None and perf_counter() >= budget.deadline:
            raise BudgetExceeded("time limit")
        check_at = budget.next_check(nodes, CHECK_EVERY)

    def quiet_value(state, me, plies_left):
        """Evaluation of a cut-off state, extended over its noisy moves (quiescence)."""
        nonlocal nodes
        best = horizon(state, me)
        if plies_left <= 0:
            return best
        for action in actions_of(state):
            if not is_noisy(state, action):
                continue
            child = result_of(state, action)
            nodes += 1
            if nodes >= check_at:
                check()
            if is_terminal(child):
                score = terminal(child, me)
            else:
                mover = player_of(child)
                score = quiet_value(child, mover, plies_left - 1)
                if mover != me:
                    score = -score
            if score > best:
                best = score
        return best

    def value(state, me, remaining, ply):
        nonlocal nodes, expanded, deepest, last_line, root_best
        actions = actions_of(state)
        nodes += len(actions)
        expanded += 1
        if nodes >= check_at:
            check()
        if ply >= deepest:
            deepest = ply + 1
        best = -_INF
        best_line = None
        child_remaining = remaining - 1
        for action in actions:
            child = result_of(state, action)
            line = None
            if is_terminal(child):
                score = terminal(child, me)
            else:
                mover = player_of(child)
                if child_remaining <= 0:
                    score = quiet_value(child, mover, quiescence_depth) if extend_noisy else horizon(child, mover)
                else:
                    score = value(child, mover, child_remaining, ply + 1)
                    line = last_line
                if mover != me:
                    score = -score
            if score > best or best_line is None:
                best = score
                best_line = (action, line)
                if ply == 0:
                    root_best = (score, best_line)
        last_line = best_line
        return best

    def run():
        try:
            check()
            if is_terminal(start):
                return terminal(start, me), None, True
            return value(start, me, max_depth, 0), last_line, True
        except BudgetExceeded:
            return (None, None, False) if root_best is None else (*root_best, False)

    me = player_of(start)
    (score, line, complete), interrupted = run_deep(run, budget, max_depth + quiescence_depth, NAME)
    visited = budget.nodes = nodes
    # every state visited is either expanded or scored (a terminal utility, an evaluation
    # or a stand-pat evaluation of the quiescence extension, whose noisy children are
    # scored in turn); nodes counted for a budget-interrupted expansion are left in
    stats = Stats(nodes=visited, expanded=expanded, evaluations=visited - expanded,
                  depth=deepest if depth is None else depth, time_s=budget.elapsed())
    pv = unroll(line)
    if kernel is not None:
        pv = [kernel.action(a) for a in pv]
    return make_result(NAME, game, root, me, score, pv, stats, complete, interrupted)

