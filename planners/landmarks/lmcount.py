"""The landmark-count heuristic (LAMA's `lmcount`, Richter & Westphal 2010, with the
landmark progression Fast Downward's `landmark_sum` uses) over the landmark graph of
`planners.landmarks.graph`.

The heuristic is path-dependent.  Every state keeps two sets of landmarks (masks of landmark ids):
*past*, the landmarks true at some point of the path to it, and *future*, those still
to be achieved.  In the initial state the true landmarks are past and the others future
(a true landmark with a reasonable predecessor is future too).  After a transition
s -> s' (whose facts true in s' are T):

    past(s')   = past(s) | T
    future(s') = future(s) & ~T
                 | the goal landmarks not in T
                 | the past landmarks p not in T with p ->gn q for a q not past
                   (required again: p must hold right before q first becomes true)
                 | the landmarks g with p ->r g for a p not past (g is to be achieved
                   after p, so again after it)

and h(s') is the cost of future(s') (1 per landmark when costs are unit; a goal state
gets 0).  A state reached again by another path keeps only the landmarks past on both
paths and the union of their futures (`reached(state, parent)`; LAMA's intersection over
paths).

Preferred operators (LAMA 2011's, Fast Downward's `pref=true`): the operators applicable
in the state that achieve a future landmark false in it whose predecessors are all past,
or one that is past and future (required again).  Measured on 114 IPC tasks beside
Fast Downward's `lama-first` alias (which turns them off), they solve more: see
docs/planning.md.
"""
from __future__ import annotations

from framework.runtime import bits
from planners.heuristics.relaxation import INF, Relaxation
from planners.landmarks.graph import LandmarkGraph


class LandmarkCount:
    path_dependent = True

    def __init__(self, task, unit: bool = False, relaxation=None):
        self.relaxation = relaxation or Relaxation(task, unit=unit)
        self.graph = graph = LandmarkGraph(task, self.relaxation)
        self.landmarks = graph.landmarks
        self.unit = unit or all(graph.cost[f] == 1 for f in graph.facts)
        self.goal = graph.goal & graph.landmarks
        self.needs_reasonable = 0
        for fact in graph.facts:
            if graph.reasonable[fact]:
                self.needs_reasonable |= 1 << fact
        self.past: dict = {}
        self.future: dict = {}

    def restart(self) -> None:
        """Forgets every path: a new search begins (the next phase of `lama`)."""
        self.past.clear()
        self.future.clear()

    def _cost(self, mask: int):
        if self.unit:
            return mask.bit_count()
        cost = self.graph.cost
        return sum(cost[f] for f in bits(mask))

    def reached(self, state: int, parent=None) -> int:
        """The past landmarks (a mask of landmark ids) of `state` reached from `parent`
        (None: the start of the search), after updating its past and future sets."""
        return self._progress(state, parent, self.graph.holds(self.relaxation.relaxed(state)))

    def _progress(self, state: int, parent, true: int) -> int:
        """`reached`, given the landmarks `true` in `state`."""
        if parent is None or parent not in self.past:
            past = true
            future = self.landmarks & ~true | self.needs_reasonable & true
        else:
            past = self.past[parent] | true
            future = self.future[parent] & ~true
        if state in self.past:                  # another path: both must agree
            past &= self.past[state]
            future |= self.future[state]
        graph = self.graph
        future |= self.goal & ~true
        gn_children, reasonable = graph.gn_children, graph.reasonable
        for fact in bits(past & ~true & ~future):
            if gn_children[fact] & ~past:
                future |= 1 << fact
        for fact in bits(self.needs_reasonable & ~future):
            if reasonable[fact] & ~past:
                future |= 1 << fact
        self.past[state] = past
        self.future[state] = future
        return past

    def evaluate(self, state: int, parent=None) -> tuple[float, set]:
        """(h, preferred operators) of `state` reached from `parent`."""
        if not self.graph.solvable:
            return INF, set()
        relaxed = self.relaxation.relaxed(state)
        true = self.graph.holds(relaxed)
        past = self._progress(state, parent, true)
        if self.relaxation.goal_mask & ~relaxed == 0:
            return 0, set()
        future = self.future[state]
        return self._cost(future), self._preferred(relaxed, true, past, future)

    def _preferred(self, relaxed: int, true: int, past: int, future: int) -> set:
        """Applicable operators achieving a future landmark false now whose predecessors
        are all past (or that is required again: past and future)."""
        relaxation, graph = self.relaxation, self.graph
        parents, achievers = graph.parents, graph.achievers
        pre_mask, owner = relaxation.pre_mask, relaxation.owner
        preferred = set()
        for fact in bits(future & ~true):
            if parents[fact] & ~past and not past >> fact & 1:
                continue
            for k in achievers[fact]:
                if owner[k] >= 0 and relaxed & pre_mask[k] == pre_mask[k]:
                    preferred.add(owner[k])
        return preferred
