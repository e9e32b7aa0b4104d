"""Lazy best-first search with preferred operators (Fast Downward's `lazy_greedy` and
`lazy_wastar`, the searches of LAMA): a successor enters the open lists with its parent's
estimates and is evaluated only when it is taken out.

With several heuristics (LAMA: h_FF and landmark count) there is one open list per
heuristic, ordered by that heuristic's estimate, and one more per heuristic for the
successors reached by a preferred operator (of any heuristic), in Fast Downward's order
(each heuristic's list, then its preferred list); the lists are taken from in
alternation, the least used first (the earliest list on a tie, as Fast Downward's
alternation open list), and whenever a state after the start improves some heuristic's
best estimate the preferred lists are boosted by 1000 picks (the start's estimates are
the first best ones, not progress: Fast Downward's lazy search).  A state any heuristic
rates a dead end (infinite) is dropped, and the heuristics after it are not asked (as in
Fast Downward, whose open list stops at the first infinite estimate: with h_FF first,
landmark count is not computed for the half of floortile's states h_FF proves dead).  Every successor enters the lists, closed or not
(Fast Downward does not look a successor up before it is taken out): a closed state taken
out is skipped, and its pick counts in the alternation.  tests/lazy_reference.py writes
these rules out plainly, and the tests hold this search to it state by state.  Plans are
not necessarily cheapest.

Greedy (no `weight`) orders a list by the estimate h; weighted (`weight` W) by g + W·h,
g the cost of the path to the successor, ties going to the smaller h, and re-opens a state
reached again by a cheaper path.  With a `bound` only successors whose path costs less
than the bound enter the lists, so a plan found is cheaper than the bound (the anytime
iterations of `framework.search.iterated`).

Ties between entries of equal keys go to the one whose parent was expanded first (as a
first-in-first-out list), then, among the successors of one state, to the smaller action
when actions are integers (a planning task's operator indices): the outcome does not
depend on the order the successor function lists the successors in.

The successors of one expanded state all share its key (its estimates, and its g when
weighted), so they enter a list as one entry, the batch of them sorted in tie order with
a cursor: the batch's head is the next successor taken, the entry leaves the list when
its batch is used up.  This takes successors out in exactly the order of one heap entry
per successor (no other entry can come between two of one batch: equal keys order by
the expanded parent), with one heap operation per expanded state and list instead of one
per successor: on a task whose states have hundreds of successors (childsnack) most of
the work of the lists.

A heuristic is a name ("hff": h_FF with its helpful actions), a function state ->
estimate (no preferred operators), or an evaluator object with
`evaluate(state, parent) -> (estimate, preferred actions)` (a set, or an object that is
false when no action is preferred and whose `among(actions)` gives the preferred ones of
the state's successors' actions); an evaluator whose
`path_dependent` is true (landmark count) is given the parent the state was reached from.
As in Fast Downward's lazy search, such an evaluator hears only of the path by which a
state is first evaluated (or re-opened): later paths to a closed state are dropped
unheard, so a state's landmarks are those of its first path (LAMA's intersection over
all paths is the eager searches', `framework.search.best_first`).  Hearing of every path
made half the work of landmark count on tasks with many transpositions (floortile), and
changed estimates Fast Downward's LAMA does not change.
"""
from __future__ import annotations

import gc
from heapq import heappop, heappush
from itertools import count
from operator import itemgetter

from framework.search.problem import STOPS, SearchRun, plan_to, resolve_heuristic

INF = float("inf")
BOOST = 1000


def _evaluator(problem, heuristic):
    """(state, parent) -> (estimate, preferred actions)."""
    if hasattr(heuristic, "evaluate"):
        return heuristic.evaluate
    preferred = getattr(problem, "preferred_heuristic", None)
    if isinstance(heuristic, str) and preferred is not None:
        with_preferred = preferred(heuristic)
        if with_preferred is not None:
            return lambda state, parent: with_preferred(state)
    h = resolve_heuristic(problem, heuristic)
    return lambda state, parent: (h(state), ())


class _Open:
    """The open lists' size in successors (each entry a batch: [key, h, expanded,
    cursor, successors])."""

    def __init__(self, queues):
        self.queues = queues

    def __len__(self):
        return sum(len(entry[4]) - entry[3] for queue in self.queues for entry in queue)


_ACTION = itemgetter(2)


def _preferred_items(batch: list, preferred: list) -> list:
    """The items of `batch` whose action is preferred by one of `preferred` (LAMA has two:
    h_FF's set and the landmarks'), in batch order: a set, or an object whose
    `among(actions)` gives the preferred ones of `actions`."""
    chosen = set()
    for helpful in preferred:
        if isinstance(helpful, (set, frozenset)):
            chosen |= helpful
        else:
            chosen |= helpful.among([item[2] for item in batch])
    return [item for item in batch if item[2] in chosen]


def search(problem, state=None, *, depth=None, time_limit=None, node_limit=None,
           heuristic=None, progress=None, weight=None, bound=None, algorithm="lazy-gbfs",
           **kw):
    """A plan guided by `heuristic` (default "hff" on planning tasks, with its preferred
    operators), or by a list of heuristics in alternation; greedy, or on g + `weight`·h;
    cheaper than `bound` when one is given."""
    run = SearchRun(algorithm, problem, state, time_limit=time_limit,
                    node_limit=node_limit, progress=progress)
    problem, start = run.problem, run.start
    if heuristic is None:
        heuristic = "hff" if hasattr(problem, "heuristic") else "blind"
    heuristics = heuristic if isinstance(heuristic, (list, tuple)) else [heuristic]
    evaluators = [_evaluator(problem, h) for h in heuristics]
    lists = len(evaluators)
    successors, is_goal, tick = problem.successors, problem.is_goal, run.tick
    weighted = weight is not None
    parents, cost_to = {}, {}          # closed states: (parent, action) and path cost
    run.reached = parents
    queues = [[] for _ in range(2 * lists)]    # heuristic i's lists: 2i, preferred 2i + 1
    run.frontier = [_Open(queues)]
    priority = [0] * (2 * lists)
    every_list = range(2 * lists)
    expansions = count()
    best = [INF] * lists
    limit = INF if bound is None else bound
    pending = [(start, None, 0)]       # (state, (parent, action), g) to evaluate and expand
    collecting = gc.isenabled()
    gc.disable()        # no cycles among the lists' entries: Python's cycle collector
    try:                # would only walk the millions of them again and again (10%)
        while True:
            while pending:
                state, link, g = pending.pop()
                if state in parents and not (weighted and g < cost_to[state]):
                    continue
                parents[state] = link           # new, or re-opened by a cheaper path
                cost_to[state] = g
                if is_goal(state):
                    run.generated = len(parents)
                    return run.solved(plan_to(parents, state))
                parent = link[0] if link else None
                values, preferred = [], []
                for evaluate in evaluators:
                    value, helpful = evaluate(state, parent)
                    if value == INF:
                        break                   # a dead end: the rest are not asked
                    values.append(value)
                    if helpful:
                        preferred.append(helpful)
                if len(values) < lists:
                    continue
                if link is None:
                    best = values             # the start's: no progress to reward
                elif any(value < low for value, low in zip(values, best)):
                    best = [min(pair) for pair in zip(values, best)]
                    for j in range(1, 2 * lists, 2):
                        priority[j] -= BOOST      # progress: boost the preferred lists
                tick()
                expanded = next(expansions)
                # (child, state, action, g of the child)
                batch = [(child, state, action, g + step)
                         for action, child, step in successors(state)]
                if bound is not None:
                    batch = [item for item in batch if item[3] < limit]
                if not batch:
                    continue
                if type(batch[0][2]) is int:  # operator indices: the smaller first
                    batch.sort(key=_ACTION)
                good = _preferred_items(batch, preferred) if preferred else ()
                for i, value in enumerate(values):
                    key = g + weight * value if weighted else value
                    heappush(queues[2 * i], [key, value, expanded, 0, batch])
                    if good:
                        heappush(queues[2 * i + 1], [key, value, expanded, 0, good])
            pick = -1                   # the least used non-empty list, the first on a tie
            for i in every_list:
                if queues[i] and (pick < 0 or priority[i] < priority[pick]):
                    pick = i
            if pick < 0:
                break
            priority[pick] += 1
            queue = queues[pick]
            head = queue[0]
            at, items = head[3], head[4]
            child, parent, action, child_g = items[at]
            if at + 1 == len(items):
                heappop(queue)
            else:
                head[3] = at + 1
            if child not in parents or weighted and child_g < cost_to[child]:
                pending.append((child, (parent, action), child_g))
    except STOPS as why:
        run.generated = len(parents)
        return run.stopped(why)
    finally:
        if collecting:
            gc.enable()
    run.generated = len(parents)
    return run.no_plan(reason="no plan exists" if bound is None else
                       f"no plan cheaper than {bound:g} exists")
