"""Alpha-beta: the minimax value of a two-player game without visiting the states that
cannot change it; fail-soft, in negamax form (see `twoplayer`), with the classic
enhancements, each switchable by keyword (all on by default):

    ordering=True     reorder moves (the switch for all of the next three, see `ordering`):
      killers=True      killer moves per ply
      history=True      history heuristic
                        (plus the table / previous-iteration move and the spec's noisy moves
                        first, whenever ordering is on)
    tt=True           transposition table with exact / lower / upper bound flags
                      (`tt_size` entries, or `tt_mb` megabytes of them; see `tt` for the
                      depth and replacement rules and the memory an entry takes);
                      pass a `TranspositionTable` to keep one between searches (the
                      successive moves of a match)
    id=True           iterative deepening 1, 2, ... up to `depth` (until the game is solved
                      when no depth is given); with a time or node budget it returns the best
                      move of the last completed iteration.  An exact solve with neither a
                      depth nor a budget doubles the depth instead (1, 2, 4, ...): its
                      iterations only order moves and give Ctrl-C a move to return, and
                      doubling keeps a long game (a Nim heap of 300: 300 plies) from costing
                      one search per ply
    aspiration=True   each iteration after the first searches a window of +-`aspiration_delta`
                      around the previous value, re-searching on failure (needs id)
    pvs=True          principal-variation search: after the first move, prove each move
                      worse with a null window and re-search only those that are not
    quiescence=True   at the depth cut-off, extend the spec's noisy moves (up to
                      `quiescence_depth` plies, standing pat on the evaluation)

With every switch off it is plain fail-soft alpha-beta over the spec's action order, and
Knuth & Moore's counts hold (b^ceil(d/2) + b^floor(d/2) - 1 leaves on a perfectly ordered
uniform tree).  With any combination it returns exactly the value `minimax` returns with
the same depth, evaluation and quiescence setting.

`book=` (an `OpeningBook` or the path of a book file) answers from the opening book when
the position is in it (`Result.extra["book"]` then says so).  `progress=` is called with a
`Result` (marked incomplete) after each completed iteration.  `trace=` (a
`trace.TreeTrace`) records the explored tree, with windows, values, cut-offs and table
answers, for teaching (bounded in size; see `trace`).

Statistics: `nodes` counts the states visited, root included; `evaluations` leaf scores;
`cutoffs` beta cut-offs; `tt_hits` table entries that answered a node; `depth` the last
completed iteration.  A time or node budget, or Ctrl-C, ends the search early with
`complete=False`.
"""
from __future__ import annotations

import itertools
import math
from time import perf_counter
import os

from framework.kernel import kernel_of, state_functions
from framework.search.book import OpeningBook
from framework.search.history_table import tracking
from framework.search.ordering import MoveOrderer
from framework.search.result import Budget, BudgetExceeded, Result, Stats
from framework.search.tt import EXACT, LOWER, UPPER, TranspositionTable, usable
from framework.search.twoplayer import (INFINITE_DEPTH, declares_noisy, leaf_scorers, make_result,
                                        per_player_values, require_two_player, run_deep, unroll)

NAME = "alphabeta"
CHECK_EVERY = 256          # nodes between looks at the clock (and at Ctrl-C)
_INF = math.inf
_nextafter = math.nextafter


def search(game, state=None, *, depth=None, time_limit=None, node_limit=None, evaluate=None,
           tt=True, tt_size=500_000, tt_mb=None, ordering=True, killers=True, history=True, id=True,
           aspiration=True, aspiration_delta=None, pvs=True, quiescence=True,
           quiescence_depth=8, book=None, progress=None, trace=None, window=None) -> Result:
    """Alpha-beta value of `state` (default: the initial state) for its player to move.

    `window` = (alpha, beta) searches the root in that window instead of the full one
    (fail-soft: a value <= alpha is an upper bound, >= beta a lower bound); a parallel root
    split uses it to pass the best value found so far to the remaining moves."""
    require_two_player(game, NAME)
    if depth is not None and depth < 1:
        raise ValueError(f"{NAME}: depth must be at least 1 (got {depth})")
    root = game.initial_state() if state is None else state
    budget = Budget(time_limit, node_limit)
    me = root.player()
    if book is not None and not root.terminal_test():
        answer = _book_answer(game, root, me, book, budget)
        if answer is not None:
            return answer

    noisy_game = declares_noisy(game)
    # the game's kernel (packed states, raw actions) when nothing needs State objects
    kernel = kernel_of(root) if trace is None and evaluate is None and not noisy_game else None
    terminal, horizon = leaf_scorers(game, root, evaluate, kernel)
    actions_of, result_of, is_terminal, player_of, start = state_functions(root, kernel)
    extend_noisy = quiescence and noisy_game
    if tt_mb is not None and tt_mb <= 0:
        raise ValueError(f"{NAME}: tt_mb must be more than 0 (got {tt_mb})")
    # a history game's table is keyed by the position, each entry guarded (history_table)
    wants_table = isinstance(tt, TranspositionTable) or bool(tt)       # (an empty table has len 0)
    tracked = tracking(kernel) if wants_table and kernel is not None and not extend_noisy else None
    guarded = tracked is not None and (not isinstance(tt, TranspositionTable) or tt.guards is not None)
    table = tt if isinstance(tt, TranspositionTable) else None if not tt else \
        TranspositionTable.from_megabytes(tt_mb, guarded) if tt_mb is not None else TranspositionTable(tt_size, guarded)
    table_key, valid, touch, merge = tracked if guarded else (None, None, None, None)
    probe = table.probe if table is not None else None
    store = table.store if table is not None else None
    orderer = (MoveOrderer(game, killers=killers, history=history, noisy_hints=noisy_game)
               if ordering else None)
    order = orderer.order if orderer is not None else None
    record_cutoff = orderer.record_cutoff if orderer is not None else None
    # nodes are counted here and the budget looked at every CHECK_EVERY nodes and at the
    # node limit (what Budget.tick does, without a call per node)
    counted = budget.nodes
    check_at = budget.next_check(counted, CHECK_EVERY)

    def check():
        nonlocal check_at
        budget.nodes = counted
        if budget.node_limit is not None and counted > budget.node_limit:
            raise BudgetExceeded("node limit")
        if budget.deadline is not None and perf_counter() >= budget.deadline:
            raise BudgetExceeded("time limit")
        check_at = budget.next_check(counted, CHECK_EVERY)
    deadline = budget.deadline     # also checked per expanded node: slow games keep the budget
    is_noisy = game.is_noisy
    recorder = trace               # a TreeTrace recording the explored tree, or None

    evaluations = expanded = cutoffs = tt_hits = deepest = 0
    horizon_hits = 0            # leaves scored by estimate (or unproven table answers) so far
    last_line = None            # principal line (action, rest) of the node searched last
    last_guard = None           # with a guarded table: the guard of the node searched last
    root_best = None            # (value, line) of the best root move of the running iteration
    root_hint = None            # best root move of the previous iteration

    def quiet(state, me, alpha, beta, plies_left):
        """Fail-soft quiescence: stand pat on the evaluation or play a noisy move."""
        nonlocal evaluations, horizon_hits, cutoffs, counted
        evaluations += 1
        horizon_hits += 1
        best = horizon(state, me)
        if plies_left <= 0 or best >= beta:
            return best
        if best > alpha:
            alpha = best
        for action in actions_of(state):
            if not is_noisy(state, action):
                continue
            child = result_of(state, action)
            counted += 1
            if counted >= check_at:
                check()
            if is_terminal(child):
                evaluations += 1
                score = terminal(child, me)
            else:
                mover = player_of(child)
                if mover == me:
                    score = quiet(child, mover, alpha, beta, plies_left - 1)
                else:
                    score = -quiet(child, mover, -beta, -alpha, plies_left - 1)
            if score > best:
                best = score
                if score > alpha:
                    if score >= beta:
                        cutoffs += 1
                        break
                    alpha = score
        return best

    def node(state, me, remaining, alpha, beta, ply):
        """Fail-soft negamax value of the non-terminal `state` (player `me` to move)."""
        nonlocal evaluations, expanded, cutoffs, tt_hits, deepest, horizon_hits
        nonlocal last_line, root_best, counted, last_guard
        hint = None
        if probe is not None:
            entry = probe(state if table_key is None else table_key(state))
            if entry is not None:
                if ply and usable(entry, remaining) and (entry[6] is None or valid(entry[6], state)):
                    flag = entry[1]
                    value = entry[2]
                    if flag == EXACT or (value >= beta if flag == LOWER else value <= alpha):
                        tt_hits += 1
                        if not entry[4]:
                            horizon_hits += 1
                        last_line, last_guard = None, entry[6]
                        if recorder is not None:
                            recorder.answered(value)
                        return value
                hint = entry[3]
        if ply == 0 and hint is None:
            hint = root_hint
        expanded += 1
        if deadline is not None and perf_counter() >= deadline:
            raise BudgetExceeded("time limit")
        if ply >= deepest:
            deepest = ply + 1
        actions = actions_of(state)
        if order is not None and len(actions) > 1:
            actions = order(state, actions, ply, me, hint)
        if recorder is not None:
            recorder.open(state, alpha, beta, remaining)
        horizon_before = horizon_hits
        alpha_in = alpha
        best = -_INF
        best_line = None
        best_proven = False
        child_remaining = remaining - 1
        guard = [None, 0] if table_key is not None else None
        for action in actions:
            child = result_of(state, action)
            counted += 1
            if counted >= check_at:
                check()
            noted = touch(guard, child) if touch is not None else None
            line = None
            child_horizon = horizon_hits
            kind = "node"
            researched = False
            if is_terminal(child):
                evaluations += 1
                score = terminal(child, me)
                kind = "terminal"
            else:
                mover = player_of(child)
                if child_remaining <= 0:
                    kind = "quiescence" if extend_noisy else "horizon"
                    if extend_noisy:
                        if mover == me:
                            score = quiet(child, mover, alpha, beta, quiescence_depth)
                        else:
                            score = -quiet(child, mover, -beta, -alpha, quiescence_depth)
                    else:
                        evaluations += 1
                        horizon_hits += 1
                        score = horizon(child, mover)
                        if mover != me:
                            score = -score
                elif mover == me:
                    score = node(child, mover, child_remaining, alpha, beta, ply + 1)
                    line = last_line
                else:
                    if pvs and best_line is not None:
                        score = -node(child, mover, child_remaining,
                                      -_nextafter(alpha, _INF), -alpha, ply + 1)
                        if alpha < score < beta:
                            researched = True
                            if noted is not None:
                                merge(guard, noted, last_guard)
                            score = -node(child, mover, child_remaining, -beta, -alpha, ply + 1)
                    else:
                        score = -node(child, mover, child_remaining, -beta, -alpha, ply + 1)
                    line = last_line
                if noted is not None and child_remaining > 0:
                    merge(guard, noted, last_guard)
            if recorder is not None:
                recorder.child(action, score, kind, score >= beta, researched)
            if score > best or best_line is None:
                best = score
                best_line = (action, line)
                best_proven = horizon_hits == child_horizon
                if ply == 0:
                    root_best = (score, best_line)
                if score > alpha:
                    if score >= beta:
                        cutoffs += 1
                        if record_cutoff is not None:
                            record_cutoff(action, ply, me, remaining)
                        break
                    alpha = score
        last_line = best_line
        flag = UPPER if best <= alpha_in else LOWER if best >= beta else EXACT
        if recorder is not None:
            recorder.close(best, flag, len(actions))
        if store is not None:
            store(state if table_key is None else table_key(state), remaining, flag, best, best_line[0],
                  horizon_hits == horizon_before or (flag == LOWER and best_proven), guard)
            last_guard = guard
        return best

    def root_value(remaining, previous):
        """Value of the root searched to `remaining` plies, in an aspiration window around
        `previous` when that is on and known, widened on failure."""
        if window is not None:
            return node(start, me, remaining, window[0], window[1], 0)
        if not (aspiration and previous is not None and math.isfinite(previous)):
            return node(start, me, remaining, -_INF, _INF, 0)
        delta = _aspiration_delta(game) if aspiration_delta is None else aspiration_delta
        low, high = previous - delta, previous + delta
        while True:
            value = node(start, me, remaining, low, high, 0)
            if value <= low and low > -_INF:
                low = -_INF
            elif value >= high and high < _INF:
                high = _INF
            else:
                return value

    def course_line(pv):
        """The principal line in course-interface actions."""
        return [kernel.action(a) for a in pv] if kernel is not None else pv

    def statistics(depth_done):
        budget.nodes = counted
        return Stats(nodes=budget.nodes, expanded=expanded, evaluations=evaluations, cutoffs=cutoffs,
                     tt_hits=tt_hits, depth=min(depth_done, deepest),   # a solve deepens 1, 2, 4, ...: 16
                     # is no depth on tic-tac-toe, the 9 plies it reached are
                     time_s=budget.elapsed())

    def run():
        """Iterate the depths; return (value, line, depth completed, complete)."""
        nonlocal root_hint, evaluations, counted
        try:
            counted += 1
            if counted >= check_at:
                check()
        except BudgetExceeded:
            return None, None, 0, False
        if is_terminal(start):
            evaluations += 1
            return terminal(start, me), None, 0, True
        target = INFINITE_DEPTH if depth is None else depth
        if id and math.isfinite(target):
            depths = range(1, target + 1)
        elif id:
            budgeted = time_limit is not None or node_limit is not None
            depths = itertools.count(1) if budgeted else (2 ** k for k in itertools.count())
        else:
            depths = (target,)
        completed = None
        for iteration_depth in depths:
            if table is not None:
                table.new_search()
            horizon_start = horizon_hits
            try:
                value = root_value(iteration_depth, completed and completed[0])
            except BudgetExceeded:
                break
            completed = (value, last_line, iteration_depth)
            root_hint = last_line[0]
            if progress is not None:
                progress(make_result(NAME, game, root, me, value, course_line(unroll(last_line)),
                                     statistics(iteration_depth), False, False))
            if horizon_hits == horizon_start:       # nothing estimated: the value is exact
                return (*completed, True)
        else:
            return (*completed, True)
        if completed is not None:
            return (*completed, False)
        if root_best is not None:
            return (*root_best, 0, False)
        return None, None, 0, False

    (value, line, depth_done, complete), interrupted = run_deep(
        run, budget, (depth if depth is not None else INFINITE_DEPTH) + quiescence_depth, NAME)
    pv = unroll(line)
    if table is not None:
        _extend_pv_from_table(start, pv, table, depth_done if math.isfinite(depth_done) else deepest,
                              actions_of, result_of, is_terminal, table_key)
    return make_result(NAME, game, root, me, value, course_line(pv), statistics(depth_done), complete, interrupted)


def _aspiration_delta(game) -> float:
    """Default half-width of the aspiration window: an eighth of the utility range, or 1."""
    low, high = game.utility_bounds
    return (high - low) / 8 if math.isfinite(low) and math.isfinite(high) and high > low else 1.0


def _extend_pv_from_table(root, pv, table, length, actions_of, result_of, is_terminal, table_key) -> None:
    """Complete a principal line cut short by table answers, following the table's moves."""
    state = root
    for action in pv:
        state = result_of(state, action)
    while len(pv) < length and not is_terminal(state):
        entry = table.probe(state if table_key is None else table_key(state))
        if entry is None or entry[3] is None or entry[3] not in actions_of(state):
            return                            # (a move not legal here: a 64-bit hash collision)
        pv.append(entry[3])
        state = result_of(state, entry[3])


def _book_answer(game, root, me, book, budget):
    """A Result from the opening book when `root` is in it, else None."""
    if isinstance(book, (str, os.PathLike)):
        book = OpeningBook.load(book, game)
    hit = book.lookup(root)
    if hit is None:
        return None
    budget.tick()
    return Result(NAME, value=hit.mean, values=per_player_values(game, me, hit.mean),
                  best_action=hit.action, pv=[hit.action],
                  stats=Stats(nodes=budget.nodes, time_s=budget.elapsed()),
                  extra={"book": {"games": hit.games, "mean": hit.mean}})
