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
holds the best root move among those fully searched (`complete=False`).
"""
from __future__ import annotations

import math
from time import perf_counter

from framework.search.result import Budget, BudgetExceeded, Result, Stats
from framework.search.twoplayer import (INFINITE_DEPTH, declares_noisy, leaf_scorers, make_result,
                                        require_two_player, run_deep, unroll)

NAME = "minimax"


def search(game, state=None, *, depth=None, time_limit=None, node_limit=None, evaluate=None,
           quiescence=False, quiescence_depth=8) -> Result:
    """Minimax value of `state` (default: the initial state) for its player to move."""
    require_two_player(game, NAME)
    if depth is not None and depth < 1:
        raise ValueError(f"{NAME}: depth must be at least 1 (got {depth})")
    root = game.initial_state() if state is None else state
    budget = Budget(time_limit, node_limit)
    terminal, horizon = leaf_scorers(game, root, evaluate)
    tick = budget.tick
    deadline = budget.deadline     # also checked per expanded node: slow games keep the budget
    is_noisy = game.is_noisy
    extend_noisy = quiescence and declares_noisy(game)
    max_depth = INFINITE_DEPTH if depth is None else depth
    evaluations = expanded = deepest = 0
    last_line = None                      # principal line of the node searched last
    root_best = None                      # (value, line) over the fully searched root moves

    def quiet_value(state, me, plies_left):
        """Evaluation of a cut-off state, extended over its noisy moves (quiescence)."""
        nonlocal evaluations
        evaluations += 1
        best = horizon(state, me)
        if plies_left <= 0:
            return best
        for action in state.actions():
            if not is_noisy(state, action):
                continue
            child = state.result(action)
            tick()
            if child.terminal_test():
                evaluations += 1
                score = terminal(child, me)
            else:
                mover = child.player()
                score = quiet_value(child, mover, plies_left - 1)
                if mover != me:
                    score = -score
            if score > best:
                best = score
        return best

    def value(state, me, remaining, ply):
        nonlocal evaluations, expanded, deepest, last_line, root_best
        expanded += 1
        if deadline is not None and perf_counter() >= deadline:
            raise BudgetExceeded("time limit")
        if ply >= deepest:
            deepest = ply + 1
        best = -math.inf
        best_line = None
        child_remaining = remaining - 1
        for action in state.actions():
            child = state.result(action)
            tick()
            line = None
            if child.terminal_test():
                evaluations += 1
                score = terminal(child, me)
            else:
                mover = child.player()
                if child_remaining <= 0:
                    if extend_noisy:
                        score = quiet_value(child, mover, quiescence_depth)
                    else:
                        evaluations += 1
                        score = horizon(child, mover)
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
        nonlocal evaluations
        try:
            tick()
            if root.terminal_test():
                evaluations += 1
                return terminal(root, me), None, True
            return value(root, me, max_depth, 0), last_line, True
        except BudgetExceeded:
            return (None, None, False) if root_best is None else (*root_best, False)

    me = root.player()
    (score, line, complete), interrupted = run_deep(run, budget, max_depth + quiescence_depth)
    stats = Stats(nodes=budget.nodes, expanded=expanded, evaluations=evaluations,
                  depth=deepest if depth is None else depth, time_s=budget.elapsed())
    return make_result(NAME, game, root, me, score, unroll(line), stats, complete, interrupted)
