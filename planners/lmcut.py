"""The landmark-cut heuristic (Helmert & Domshlak 2009) as Fast Downward's
`lm_cut_landmarks` computes it: the relaxed operators (from `heuristics.Relaxation`) are
precomputed once with an artificial START fact (the precondition of operators that have
none) and an artificial GOAL fact (added by a zero-cost operator needing every goal);
per state,

1. one h_max exploration records for each operator its supporter (its costliest
   precondition) and the supporter's cost;
2. while h_max(GOAL) > 0: the goal zone is marked backwards from GOAL through the
   supporters of zero-cost achievers; a forward exploration from the state through
   supporters finds the cut (operators leading into the goal zone); the cheapest cost
   in the cut is charged to all of it (an operator's conditional-effect copies share its
   cost); h_max is then repaired incrementally from the operators made cheaper, never
   recomputed from scratch.

The sum of the charges is admissible; a relaxed-unreachable goal gives `inf`.
"""
from __future__ import annotations

from heapq import heappop, heappush

from framework.runtime import bits

INF = float("inf")


class LandmarkCut:
    def __init__(self, relaxation):
        facts = relaxation.facts
        self.start, self.goal = facts, facts + 1
        self.pre = [p or [self.start] for p in relaxation.pre]
        self.eff = list(relaxation.add)
        self.cost = list(relaxation.cost)
        owner = list(relaxation.owner)
        self.pre.append(relaxation.goal or [self.start])
        self.eff.append([self.goal])
        self.cost.append(0)
        owner.append(-1)
        self.owner = owner
        self.copies = relaxation.copies
        self.relaxed = relaxation.relaxed
        self.size = facts + 2
        self.eff_mask = [sum(1 << f for f in effects) for effects in self.eff]
        self.pre_count = [len(p) for p in self.pre]
        self.single = [len(p) == 1 for p in self.pre]
        self.pre_of = [[] for _ in range(self.size)]
        self.achievers = [[] for _ in range(self.size)]
        for k, pre in enumerate(self.pre):
            for fact in pre:
                self.pre_of[fact].append(k)
            for fact in self.eff[k]:
                self.achievers[fact].append(k)

    def __call__(self, state: int) -> float:
        cost = self.cost[:]
        pre, eff, pre_of = self.pre, self.eff, self.pre_of
        hmax = [INF] * self.size
        supp = [-1] * len(cost)
        supp_cost = [0] * len(cost)
        supported = [[] for _ in hmax]               # fact -> the operators it supports
        unsat = self.pre_count[:]
        start = [self.start, *bits(self.relaxed(state))]
        heap = []
        for fact in start:
            hmax[fact] = 0
            heap.append((0, fact))
        while heap:                                  # 1. h_max with supporters
            c, fact = heappop(heap)
            if c > hmax[fact]:
                continue
            for k in pre_of[fact]:
                unsat[k] -= 1
                if unsat[k] == 0:
                    supp[k] = fact
                    supp_cost[k] = c
                    supported[fact].append(k)
                    reach = c + cost[k]
                    for new in eff[k]:
                        if reach < hmax[new]:
                            hmax[new] = reach
                            heappush(heap, (reach, new))
        goal = self.goal
        if hmax[goal] == INF:
            return INF
        achievers, owner, copies = self.achievers, self.owner, self.copies
        eff_mask = self.eff_mask
        total = 0
        while hmax[goal] > 0:
            zone = 1 << goal                         # 2a. the goal zone (a mask)
            stack = [goal]
            while stack:
                for k in achievers[stack.pop()]:
                    parent = supp[k]
                    if cost[k] == 0 and parent >= 0 and not zone >> parent & 1:
                        zone |= 1 << parent
                        stack.append(parent)
            before = bytearray(self.size)            # 2b. the cut
            for fact in start:
                before[fact] = 1
            queue = list(start)
            cut = []
            while queue:
                fact = queue.pop()
                for k in supported[fact]:
                    if eff_mask[k] & zone:
                        cut.append(k)
                        continue
                    for new in eff[k]:
                        if not before[new]:
                            before[new] = 1
                            queue.append(new)
            charge = min(cost[k] for k in cut)       # 2c. charge the landmark
            total += charge
            cheaper = []
            for o in {owner[k] for k in cut}:
                for k in copies[o]:
                    cost[k] -= charge
                    cheaper.append(k)
            self._repair(cheaper, cost, hmax, supp, supp_cost, supported)
        return total

    def _repair(self, cheaper, cost, hmax, supp, supp_cost, supported):
        """2d. Incremental h_max after the operators `cheaper` lost cost: lowered facts
        propagate through the operators they support."""
        pre, eff, single = self.pre, self.eff, self.single
        heap = []
        for k in cheaper:
            if supp[k] < 0:
                continue
            reach = supp_cost[k] + cost[k]
            for new in eff[k]:
                if reach < hmax[new]:
                    hmax[new] = reach
                    heappush(heap, (reach, new))
        while heap:
            c, fact = heappop(heap)
            if c > hmax[fact]:
                continue
            for k in tuple(supported[fact]):
                old = supp_cost[k]
                if old <= c:
                    continue
                if single[k]:
                    new_cost = c
                else:
                    new_cost = max(map(hmax.__getitem__, pre[k]))
                    if new_cost != c:                # another precondition is costlier now
                        best = next(q for q in pre[k] if hmax[q] == new_cost)
                        supported[fact].remove(k)
                        supported[best].append(k)
                        supp[k] = best
                supp_cost[k] = new_cost
                if new_cost < old:
                    reach = new_cost + cost[k]
                    for new in eff[k]:
                        if reach < hmax[new]:
                            hmax[new] = reach
                            heappush(heap, (reach, new))
