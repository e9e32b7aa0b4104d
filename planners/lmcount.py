"""The landmark-count heuristic (LAMA's `lmcount`, Richter & Westphal 2010) with its
preferred operators, over the landmark graph of `planners.landmarks`.

The heuristic is path-dependent: what counts is which landmarks the path to a state has
*accepted*.  The landmarks true initially are accepted at the start; after a transition
s -> s', a landmark becomes accepted when it holds in s' and every landmark ordered
before it was accepted in s (accepted landmarks stay accepted); a derived landmark (one
only rules achieve) holds in the same state as its body, so it is accepted when it holds
in s' and every landmark ordered before it is accepted in s'.  The estimate of s' is

    h = cost(landmarks not accepted) + cost(landmarks required again)

where an accepted landmark is *required again* when it is false in s' and it is a goal
or it is ordered greedy-necessarily before a landmark not yet accepted; a landmark costs
its cheapest achiever (1 each, derived ones too, when costs are unit).  A goal state whose landmarks are all
accepted gets 0.

Per-state information, as Fast Downward keeps it: `evaluate(state, parent)` stores the
state's accepted set (a fact mask), computed from its parent's; a search passes the
parent it reached the state from (`lazy_gbfs` does), and reports a state reached again
by another path with `reached(state, parent)`, which keeps only the landmarks both paths
accepted (LAMA's intersection over paths).

Preferred operators: the operators applicable in the state that achieve a landmark that
is not accepted but whose predecessors all are, or one that is required again.
"""
from __future__ import annotations

from framework.runtime import bits
from planners.heuristics import INF, Relaxation
from planners.landmarks import LandmarkGraph


class LandmarkCount:
    path_dependent = True

    def __init__(self, task, unit: bool = False, relaxation=None):
        self.relaxation = relaxation or Relaxation(task, unit=unit)
        self.graph = graph = LandmarkGraph(task, self.relaxation)
        self.landmarks = graph.landmarks
        self.unit = unit or all(graph.cost[f] == 1 for f in graph.facts)
        self.accepted: dict = {}

    def _cost(self, mask: int):
        if self.unit:
            return mask.bit_count()
        cost = self.graph.cost
        return sum(cost[f] for f in bits(mask))

    def reached(self, state: int, parent=None) -> int:
        """The accepted landmarks (a fact mask) of `state` reached from `parent` (None: the
        start of the search).  A state reached again by another path keeps only the
        landmarks both paths accepted (LAMA's intersection over paths)."""
        true = self.relaxation.relaxed(state) & self.landmarks
        before = self.accepted.get(parent) if parent is not None else None
        if before is None:
            accepted = true
        else:
            accepted = before
            parents = self.graph.parents
            for fact in bits(true & ~before):
                if not parents[fact] & ~before:
                    accepted |= 1 << fact
            waiting = true & self.graph.derived & ~accepted
            while waiting:                  # a derived landmark holds with its body
                ready = [f for f in bits(waiting) if not parents[f] & ~accepted]
                if not ready:
                    break
                for fact in ready:
                    accepted |= 1 << fact
                    waiting &= ~(1 << fact)
        known = self.accepted.get(state)
        if known is not None:
            accepted &= known
        self.accepted[state] = accepted
        return accepted

    def evaluate(self, state: int, parent=None) -> tuple[float, set]:
        """(h, preferred operators) of `state` reached from `parent`."""
        graph = self.graph
        if not graph.solvable:
            return INF, set()
        accepted = self.reached(state, parent)
        relaxed = self.relaxation.relaxed(state)
        again = 0
        gn_children = graph.gn_children
        for fact in bits(accepted & ~relaxed):
            if graph.goal >> fact & 1 or gn_children[fact] & ~accepted:
                again |= 1 << fact
        open_ = self.landmarks & ~accepted
        value = self._cost(open_) + self._cost(again)
        return value, self._preferred(relaxed, accepted, open_ | again, again)

    def _preferred(self, relaxed: int, accepted: int, wanted: int, again: int) -> set:
        """Applicable operators achieving a wanted landmark whose predecessors are all
        accepted (or that is required again)."""
        relaxation, parents = self.relaxation, self.graph.parents
        pre_mask, owner = relaxation.pre_mask, relaxation.owner
        preferred = set()
        for fact in bits(wanted):
            if parents[fact] & ~accepted and not again >> fact & 1:
                continue
            for k in self.graph.achievers[fact]:
                if owner[k] >= 0 and relaxed & pre_mask[k] == pre_mask[k]:
                    preferred.add(owner[k])
        return preferred
