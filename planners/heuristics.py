"""Delete-relaxation heuristics of a grounded task: h_max (admissible), h_add and h_FF.

All three run the same exploration of the relaxed task (delete effects ignored) from a
state: a generalised Dijkstra over facts where an operator fires once its last
precondition is reached, its cost being the max (h_max) or sum (h_add, h_FF) of its
preconditions' costs plus its own.  h_max is the cost of the costliest goal, h_add the sum
over goals, h_FF the cost of a relaxed plan extracted backwards through each fact's best
supporter.  A state from which the goal is relaxed-unreachable gets `inf` (a dead end).
Lists indexed by fact and operator are copied with one C-level call per evaluation.
"""
from __future__ import annotations

from heapq import heappop, heappush

from framework.runtime import bits

INF = float("inf")


class Relaxation:
    """The relaxed task: preconditions and add effects as index lists, and for every fact
    the operators it is a precondition of."""

    def __init__(self, task):
        ops = task.operators
        self.goal_mask = task.goal
        self.goal = bits(task.goal)
        self.pre = [bits(op.pre) for op in ops]
        self.add = [bits(op.add) for op in ops]
        self.cost = [op.cost for op in ops]
        self.waiting = [len(p) for p in self.pre]
        self.users = [[] for _ in task.facts]
        for k, pre in enumerate(self.pre):
            for fact in pre:
                self.users[fact].append(k)
        self.free = [k for k, pre in enumerate(self.pre) if not pre]
        self.facts = len(task.facts)

    def explore(self, state: int, use_max: bool):
        """Relaxed costs of facts from `state` until every goal fact is settled.  Returns
        (goal costs or None for a dead end, best supporter per fact)."""
        dist = [INF] * self.facts
        supporter = [-1] * self.facts
        waiting = self.waiting[:]
        so_far = [0] * len(waiting)
        heap = []
        for fact in bits(state):
            dist[fact] = 0
            heap.append((0, fact))
        for k in self.free:
            reach = self.cost[k]
            for fact in self.add[k]:
                if reach < dist[fact]:
                    dist[fact] = reach
                    supporter[fact] = k
                    heappush(heap, (reach, fact))
        goals_left = len(self.goal)
        settled = bytearray(self.facts)
        users, add, cost = self.users, self.add, self.cost
        goal_mask = self.goal_mask
        while heap and goals_left:
            d, fact = heappop(heap)
            if settled[fact]:
                continue
            settled[fact] = 1
            if goal_mask >> fact & 1:
                goals_left -= 1
            for k in users[fact]:
                so_far[k] += d
                waiting[k] -= 1
                if waiting[k] == 0:
                    # facts settle in order of cost, so the last precondition is the costliest
                    reach = (d if use_max else so_far[k]) + cost[k]
                    for new in add[k]:
                        if reach < dist[new]:
                            dist[new] = reach
                            supporter[new] = k
                            heappush(heap, (reach, new))
        if goals_left:
            return None, supporter
        return [dist[g] for g in self.goal], supporter

    def h_max(self, state: int) -> float:
        costs, _ = self.explore(state, use_max=True)
        return INF if costs is None else max(costs, default=0)

    def h_add(self, state: int) -> float:
        costs, _ = self.explore(state, use_max=False)
        return INF if costs is None else sum(costs)

    def h_ff(self, state: int) -> float:
        costs, supporter = self.explore(state, use_max=False)
        if costs is None:
            return INF
        chosen = set()
        open_facts = [g for g in self.goal if not state >> g & 1]
        marked = set(open_facts)
        while open_facts:
            k = supporter[open_facts.pop()]
            if k in chosen:
                continue
            chosen.add(k)
            for fact in self.pre[k]:
                if fact not in marked and not state >> fact & 1:
                    marked.add(fact)
                    open_facts.append(fact)
        return sum(self.cost[k] for k in chosen)


HEURISTICS = {"hmax": "h_max", "hadd": "h_add", "hff": "h_ff"}


def make_heuristic(task, name: str):
    """The heuristic `name` of `task` as a function state -> estimate."""
    if name == "blind":
        return lambda state: 0
    if name not in HEURISTICS:
        raise ValueError(f"unknown heuristic {name!r}; choose from blind, "
                         f"{', '.join(HEURISTICS)}")
    return getattr(Relaxation(task), HEURISTICS[name])
