"""Fast Downward's lazy greedy search (`lazy_greedy([h1, h2, ...], preferred=[...],
reopen_closed=false)`, search_algorithms/lazy_search.cc with its alternation open list)
written out plainly, one open-list entry per successor: the reference
`framework.search.lazy_gbfs` (one batch entry per expanded state) is checked against.

Its rules: the lists are h1, h1's preferred-only list, h2, h2's preferred-only list, ...;
each is first-in-first-out among equal estimates; the least used list is taken from, the
earliest on a tie; a state evaluated after the start that improves some estimate's best
value boosts the preferred lists by 1000; a path-dependent evaluator hears only the path
by which a state is first evaluated; a closed state taken out again is skipped (its pick
still counts).  Successors are listed in operator order (Fast Downward lists them in its
successor generator's order)."""
from __future__ import annotations

from heapq import heappop, heappush
from itertools import count

INF = float("inf")


def evaluation_order(task, evaluators, limit: int = 10 ** 6) -> list:
    """The states the search evaluates, in order, up to and including a goal state (or
    until the lists run dry or `limit` states)."""
    n = len(evaluators)
    lists = [[] for _ in range(2 * n)]
    priority = [0] * (2 * n)
    fifo = count()
    closed, order, best = set(), [], None
    state, parent = task.initial, None
    while len(order) < limit:
        if state not in closed:
            closed.add(state)
            order.append(state)
            if task.is_goal(state):
                return order
            results = [evaluate.evaluate(state, parent) for evaluate in evaluators]
            values = [value for value, _ in results]
            if INF not in values:
                if best is None:
                    best = values
                elif any(v < b for v, b in zip(values, best)):
                    best = [min(v, b) for v, b in zip(values, best)]
                    for j in range(1, 2 * n, 2):
                        priority[j] -= 1000
                for op, child, _ in sorted(task.successors(state), key=lambda s: s[0]):
                    preferred = any(op in helpful if isinstance(helpful, (set, frozenset))
                                    else op in helpful.among([op]) for _, helpful in results)
                    for i, value in enumerate(values):
                        entry = (value, next(fifo), child, state)
                        heappush(lists[2 * i], entry)
                        if preferred:
                            heappush(lists[2 * i + 1], entry)
        live = [i for i in range(2 * n) if lists[i]]
        if not live:
            return order
        pick = min(live, key=lambda i: (priority[i], i))
        priority[pick] += 1
        _, _, state, parent = heappop(lists[pick])
    return order
