"""A straightforward LM-cut written from its definition (Helmert & Domshlak 2009), the
reference planners/heuristics/lmcut.py is checked against (tests/test_lmcut.py,
benchmarks/bench_lmcut.py): every round recomputes h_max from scratch by a fixpoint over
all operators, hangs each reached operator from its precondition of highest h_max (ties,
by `order`: 0 the lowest fact index, 1 the highest, 2 Fast Downward's: the precondition
settled last, below), grows the goal zone backwards through zero-cost operators (each
hung, for the round, from its parent: among its preconditions as high as its supporter
the lowest already in the zone, else the lowest with no zero-cost achiever, else its
supporter; Fast Downward 26's goal zone and border detection), explores
forwards from the state to the cut and charges its cheapest cost to the operators of the
cut (an operator's conditional-effect copies share its cost).  Order 2 settles the facts
again from scratch each round with buckets of lists, one per cost, each taken from its
end (last in, first out): the state's facts and START put in by index; a fact taken at
its h_max counts down the operators needing it, by index, and an operator whose count
reaches 0 hangs from that fact and puts its effects (in order) in at h + cost where that
lowers them.  `first_states` gives the states both are tried on."""
from __future__ import annotations

from collections import deque

from framework.runtime import bits

INF = float("inf")


def reference_lmcut(relaxation, state, order: int = 0, parents: bool = True) -> float:
    start, goal = relaxation.facts, relaxation.facts + 1
    pre = [p or [start] for p in relaxation.pre] + [relaxation.goal or [start]]
    eff = [list(a) for a in relaxation.add] + [[goal]]
    cost = list(relaxation.cost) + [0]
    owner = list(relaxation.owner) + [-1]
    initial = [start, *bits(relaxation.relaxed(state))]
    total = 0
    while True:
        h = [INF] * (goal + 1)
        for fact in initial:
            h[fact] = 0
        changed = True
        while changed:                       # h_max as a fixpoint
            changed = False
            for k, p in enumerate(pre):
                reach = max(h[q] for q in p) + cost[k]
                for fact in eff[k]:
                    if reach < h[fact]:
                        h[fact], changed = reach, True
        if h[goal] == INF:
            return INF
        if h[goal] == 0:
            return total
        if order == 2:
            supporter = _settled_last(pre, eff, cost, initial, h)
        else:
            tie = 1 if order else -1
            supporter = [max(p, key=lambda q: (h[q], tie * q)) if max(h[q] for q in p) < INF
                         else None for p in pre]
        zone, todo, picked = {goal}, [goal], set()
        while todo:
            fact = todo.pop()
            for k in range(len(pre)):
                if fact not in eff[k] or cost[k] != 0 or supporter[k] is None:
                    continue
                if parents and k not in picked:     # its parent, chosen when first met
                    picked.add(k)
                    level = h[supporter[k]]
                    ties = sorted(q for q in pre[k] if h[q] == level)
                    inside = [q for q in ties if q in zone]
                    border = [q for q in ties
                              if not any(q in eff[j] and cost[j] == 0 for j in range(len(pre)))]
                    supporter[k] = (inside or border or [supporter[k]])[0]
                if supporter[k] not in zone:
                    zone.add(supporter[k])
                    todo.append(supporter[k])
        before, todo, cut = set(initial), list(initial), set()
        while todo:
            fact = todo.pop()
            for k in range(len(pre)):
                if supporter[k] != fact:
                    continue
                if zone.intersection(eff[k]):
                    cut.add(k)
                    continue
                for added in eff[k]:
                    if added not in before:
                        before.add(added)
                        todo.append(added)
        charge = min(cost[k] for k in cut)
        assert charge > 0
        total += charge
        for k in range(len(cost)):           # an operator's effect copies share its cost
            if owner[k] >= 0 and owner[k] in {owner[c] for c in cut}:
                cost[k] -= charge


def _settled_last(pre, eff, cost, initial, expected) -> list:
    """Each operator's supporter under order 2: the precondition whose settling (last in,
    first out among equal costs) released it; the costs must be h_max's (`expected`)."""
    h = [INF] * len(expected)
    buckets, waiting, supporter = {}, [len(p) for p in pre], [None] * len(pre)
    users = [[] for _ in expected]
    for k, p in enumerate(pre):
        for fact in p:
            users[fact].append(k)

    def put(fact, value):
        if value < h[fact]:
            h[fact] = value
            buckets.setdefault(value, []).append(fact)

    for fact in sorted(initial):
        put(fact, 0)
    while buckets:
        value = min(buckets)
        fact = buckets[value].pop()
        if not buckets[value]:
            del buckets[value]
        if h[fact] < value:
            continue
        for k in users[fact]:
            waiting[k] -= 1
            if not waiting[k]:
                supporter[k] = fact
                for added in eff[k]:
                    put(added, value + cost[k])
    assert h == expected
    return supporter


def first_states(task, count: int) -> list[int]:
    """The first `count` states a breadth-first search of `task` reaches, sorted."""
    seen, queue = {task.initial}, deque([task.initial])
    while queue and len(seen) < count:
        for _, child, _ in task.successors(queue.popleft()):
            if child not in seen and len(seen) < count:
                seen.add(child)
                queue.append(child)
    return sorted(seen)
