"""Delete-relaxation heuristics of a grounded task: h_max and landmark-cut (admissible),
h_add and h_FF.

All three run the same exploration of the relaxed task (delete effects ignored) from a
state: a generalised Dijkstra over facts where an operator fires once its last
precondition is reached, its cost being the max (h_max) or sum (h_add, h_FF) of its
preconditions' costs plus its own.  h_max is the cost of the costliest goal, h_add the sum
over goals, h_FF the cost of a relaxed plan extracted backwards through each fact's best
supporter; landmark-cut repeats the h_max exploration under shrinking costs (see
`h_lmcut`).  A state from which the goal is relaxed-unreachable gets `inf` (a dead end).
Lists indexed by fact and operator are copied with one C-level call per evaluation.
"""
from __future__ import annotations

from heapq import heappop, heappush

from framework.runtime import bits

INF = float("inf")


class Relaxation:
    """The relaxed task: relaxed operators (preconditions and add effects as index lists)
    and for every fact the relaxed operators it is a precondition of.  An operator is one
    relaxed operator, and one more per conditional effect (its precondition plus the
    effect's conditions, the effect's adds, the same cost; `owner` maps it back); an axiom
    is a relaxed operator of cost 0 (owner -1).  Negative conditions are relaxed away."""

    def __init__(self, task):
        self.goal_mask = task.goal
        self.goal = bits(task.goal)
        self.pre, self.add, self.cost, self.owner = [], [], [], []
        for k, op in enumerate(task.operators):
            self._relaxed(op.pre, op.add, op.cost, k)
            for pre, _, add, _ in op.effects:
                if add:
                    self._relaxed(op.pre | pre, add, op.cost, k)
        for layer in task.axioms:
            for head, pre, _ in layer:
                self._relaxed(pre, head, 0, -1)
        self.op_cost = [op.cost for op in task.operators]
        self.copies = [[] for _ in task.operators]
        for k, owner in enumerate(self.owner):
            if owner >= 0:
                self.copies[owner].append(k)
        self.waiting = [len(p) for p in self.pre]
        self.users = [[] for _ in task.facts]
        for k, pre in enumerate(self.pre):
            for fact in pre:
                self.users[fact].append(k)
        self.free = [k for k, pre in enumerate(self.pre) if not pre]
        self.facts = len(task.facts)
        self.achievers = [[] for _ in task.facts]
        for k, add in enumerate(self.add):
            for fact in add:
                self.achievers[fact].append(k)

    def _relaxed(self, pre: int, add: int, cost, owner: int):
        self.pre.append(bits(pre))
        self.add.append(bits(add))
        self.cost.append(cost)
        self.owner.append(owner)

    def explore(self, state: int, use_max: bool, cost=None, until_goals: bool = True):
        """Relaxed costs of facts from `state` (operator costs `cost`, default their own)
        until every goal fact is settled (or every reachable fact).  Returns (cost per
        fact, best supporter per fact, whether every goal fact was reached)."""
        cost = self.cost if cost is None else cost
        dist = [INF] * self.facts
        supporter = [-1] * self.facts
        waiting = self.waiting[:]
        so_far = [0] * len(waiting)
        heap = []
        for fact in bits(state):
            dist[fact] = 0
            heap.append((0, fact))
        for k in self.free:
            reach = cost[k]
            for fact in self.add[k]:
                if reach < dist[fact]:
                    dist[fact] = reach
                    supporter[fact] = k
                    heappush(heap, (reach, fact))
        goals_left = len(self.goal)
        settled = bytearray(self.facts)
        users, add = self.users, self.add
        goal_mask = self.goal_mask
        while heap and (goals_left or not until_goals):
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
        return dist, supporter, not goals_left

    def h_max(self, state: int) -> float:
        dist, _, reached = self.explore(state, use_max=True)
        return max((dist[g] for g in self.goal), default=0) if reached else INF

    def h_add(self, state: int) -> float:
        dist, _, reached = self.explore(state, use_max=False)
        return sum(dist[g] for g in self.goal) if reached else INF

    def h_ff(self, state: int) -> float:
        _, supporter, reached = self.explore(state, use_max=False)
        if not reached:
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
        return sum(self.op_cost[o] for o in {self.owner[k] for k in chosen} if o >= 0)


    def h_lmcut(self, state: int) -> float:
        """Landmark-cut (Helmert & Domshlak 2009): repeatedly compute h_max under the
        remaining costs, cut the justification graph between the state and the goal, and
        charge the cheapest operator of the cut (a disjunctive action landmark) to every
        operator in it.  The sum of the charges is admissible and at least h_max."""
        cost = list(self.cost)
        total = 0
        start = bits(state)
        while True:
            dist, _, reached = self.explore(state, use_max=True, cost=cost, until_goals=False)
            if not reached:
                return INF
            if not self.goal or max(dist[g] for g in self.goal) == 0:
                return total
            # each reached operator hangs from its costliest precondition (None: no precondition)
            hung_from = {}
            for k, pre in enumerate(self.pre):
                if all(dist[p] < INF for p in pre):
                    hung_from[k] = max(pre, key=dist.__getitem__) if pre else None
            goal_zone = {max(self.goal, key=dist.__getitem__)}
            stack = list(goal_zone)
            while stack:
                fact = stack.pop()
                for k in self.achievers[fact]:
                    parent = hung_from.get(k)          # None: unreached or no precondition
                    if cost[k] == 0 and parent is not None and parent not in goal_zone:
                        goal_zone.add(parent)
                        stack.append(parent)
            hanging = {}
            for k, parent in hung_from.items():
                hanging.setdefault(parent, []).append(k)
            before = set(start)
            stack = [None, *start]
            cut = set()
            while stack:
                for k in hanging.get(stack.pop(), ()):
                    for fact in self.add[k]:
                        if fact in goal_zone:
                            cut.add(k)
                        elif fact not in before:
                            before.add(fact)
                            stack.append(fact)
            charge = min(cost[k] for k in cut)
            total += charge
            for owner in {self.owner[k] for k in cut}:
                for k in self.copies[owner]:        # an operator's effects share its cost
                    cost[k] -= charge


HEURISTICS = {"hmax": "h_max", "hadd": "h_add", "hff": "h_ff", "lmcut": "h_lmcut"}


def make_heuristic(task, name: str):
    """The heuristic `name` of `task` as a function state -> estimate."""
    if name == "blind":
        return lambda state: 0
    if name not in HEURISTICS:
        raise ValueError(f"unknown heuristic {name!r}; choose from blind, "
                         f"{', '.join(HEURISTICS)}")
    return getattr(Relaxation(task), HEURISTICS[name])
