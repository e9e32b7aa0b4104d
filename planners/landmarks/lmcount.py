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
paths, which the eager searches apply; the lazy search of lama-first, like Fast
Downward's, tells the heuristic only of the path a state is first evaluated by).

Preferred operators (LAMA 2011's, Fast Downward's `pref=true`): the operators applicable
in the state that achieve a future landmark false in it whose predecessors are all past,
or one that is past and future (required again).  `evaluate` returns them as a set when
the wanted landmarks have few achievers, otherwise as a `Preferred` container that tests the operators
the search asks about (the applicable ones) instead of listing every wanted landmark's
achievers (visitall: one landmark per cell not yet visited).  Measured on 114 IPC tasks beside
Fast Downward's `lama-first` alias (which turns them off), they solve more: see
docs/planning.md.
"""
from __future__ import annotations

from framework.runtime import bits
from planners.heuristics.relaxation import INF, Relaxation
from planners.landmarks.graph import LandmarkGraph



def _reaching_out(mask: int, table, past: int) -> int:
    """The bits of `mask` whose landmark's entry in `table` (a mask of landmarks) holds one
    not in `past`."""
    found = 0
    while mask:
        low = mask & -mask
        if table[low.bit_length() - 1] & ~past:
            found |= low
        mask ^= low
    return found

class LandmarkCount:
    path_dependent = True

    def __init__(self, task, unit: bool = False, relaxation=None):
        self.relaxation = relaxation or Relaxation(task, unit=unit)
        self.graph = graph = LandmarkGraph(task, self.relaxation)
        self.landmarks = graph.landmarks
        self.unit = unit or all(graph.cost[f] == 1 for f in graph.facts)
        # integer costs: the landmarks of each cost as one mask, counted by bit_count
        by_cost: dict = {}
        for fact in graph.facts:
            by_cost[graph.cost[fact]] = by_cost.get(graph.cost[fact], 0) | 1 << fact
        self.by_cost = None if any(type(c) is not int for c in by_cost) else \
            [(c, mask) for c, mask in sorted(by_cost.items()) if c]
        self.goal = graph.goal & graph.landmarks
        self.needs_reasonable = self.required_again = self.ordered = 0
        for fact in graph.facts:
            if graph.reasonable[fact]:
                self.needs_reasonable |= 1 << fact
            if graph.gn_children[fact]:
                self.required_again |= 1 << fact      # a tail of a greedy-necessary ordering
            if graph.parents[fact]:
                self.ordered |= 1 << fact
        # the landmarks each relaxed operator achieves (for the preferred operators)
        self.achieves = [0] * len(self.relaxation.owner)
        # per landmark, its achievers that are operators: (precondition mask, operator)
        pre_mask, owner = self.relaxation.pre_mask, self.relaxation.owner
        self.pairs = [()] * len(graph.achievers)
        for fact in graph.facts:
            self.pairs[fact] = tuple((pre_mask[k], owner[k]) for k in graph.achievers[fact]
                                     if owner[k] >= 0)
            for k in graph.achievers[fact]:
                self.achieves[k] |= 1 << fact
        # ... and each operator, by any of its relaxed operators
        self.of_operator = [0] * len(self.relaxation.copies)
        for operator, copies in enumerate(self.relaxation.copies):
            for k in copies:
                self.of_operator[operator] |= self.achieves[k]
        self.past: dict = {}
        self.future: dict = {}

    def restart(self) -> None:
        """Forgets every path: a new search begins (the next phase of `lama`)."""
        self.past.clear()
        self.future.clear()

    def _cost(self, mask: int):
        if self.unit:
            return mask.bit_count()
        if self.by_cost is not None:
            return sum(c * (mask & of_cost).bit_count() for c, of_cost in self.by_cost)
        cost = self.graph.cost
        return sum(cost[f] for f in bits(mask))

    def reached(self, state: int, parent=None) -> int:
        """The past landmarks (a mask of landmark ids) of `state` reached from `parent`
        (None: the start of the search), after updating its past and future sets."""
        return self._progress(state, parent, self.graph.holds(self.relaxation.relaxed(state)))

    def _progress(self, state: int, parent, true: int) -> int:
        """`reached`, given the landmarks `true` in `state`."""
        past_of, future_of = self.past, self.future
        if parent is None or parent not in past_of:
            past = true
            future = self.landmarks & ~true | self.needs_reasonable & true
        else:
            past = past_of[parent] | true
            future = future_of[parent] & ~true
        if state in past_of:                    # another path: both must agree
            past &= past_of[state]
            future |= future_of[state]
        graph = self.graph
        future |= self.goal & ~true
        again = past & ~true & ~future & self.required_again
        if again:
            future |= _reaching_out(again, graph.gn_children, past)
        later = self.needs_reasonable & ~future
        if later:
            future |= _reaching_out(later, graph.reasonable, past)
        past_of[state] = past
        future_of[state] = future
        return past

    def evaluate(self, state: int, parent=None) -> tuple[float, set | Preferred]:
        """(h, preferred operators) of `state` reached from `parent`."""
        if not self.graph.solvable:
            return INF, NONE
        relaxed = self.relaxation.relaxed(state)
        true = self.graph.holds(relaxed)
        past = self._progress(state, parent, true)
        if self.relaxation.goal_mask & ~relaxed == 0:
            return 0, NONE
        future = self.future[state]
        cost = future.bit_count() if self.unit else self._cost(future)
        wanted = self._wanted(true, past, future)
        work, rest, pairs, facts = 0, wanted, self.pairs, []
        while rest:                          # list the achievers if they are few
            low = rest & -rest
            fact = low.bit_length() - 1
            work += len(pairs[fact])
            if work > FEW:
                return cost, Preferred(self, relaxed, wanted)
            facts.append(fact)
            rest ^= low
        preferred = set()                    # the operators achieving them, applicable
        for fact in facts:
            for mask, operator in pairs[fact]:
                if relaxed & mask == mask:
                    preferred.add(operator)
        return cost, preferred

    def _wanted(self, true: int, past: int, future: int) -> int:
        """The landmarks a preferred operator achieves: future and false now, with every
        predecessor past (or required again: past and future)."""
        wanted = future & ~true
        ready = wanted & (past | ~self.ordered)
        waiting = wanted & ~ready
        if waiting:
            parents = self.graph.parents
            while waiting:
                low = waiting & -waiting
                if not parents[low.bit_length() - 1] & ~past:
                    ready |= low
                waiting ^= low
        return ready


class Preferred:
    """The preferred operators of one evaluated state, for the search to ask which of the
    applicable operators they are (`among`): those with a relaxed operator (the operator,
    or one of its conditional effects) applicable in the relaxed state that achieves a
    wanted landmark (`LandmarkCount._wanted`).  When the wanted landmarks have more than
    `FEW` achievers in all (visitall: every cell not yet visited; termes: heights reached
    by many operators), testing the applicable operators beats listing every achiever of
    every wanted landmark."""
    __slots__ = ("lmcount", "relaxed", "wanted")

    def __init__(self, lmcount, relaxed: int, wanted: int):
        self.lmcount, self.relaxed, self.wanted = lmcount, relaxed, wanted

    def __bool__(self) -> bool:
        return self.wanted != 0

    def among(self, operators) -> set:
        """The preferred ones of `operators` (operators applicable in the state)."""
        lmcount, relaxed, wanted = self.lmcount, self.relaxed, self.wanted
        achieves, of_operator = lmcount.achieves, lmcount.of_operator
        copies, pre_mask = lmcount.relaxation.copies, lmcount.relaxation.pre_mask
        chosen = set()
        for operator in operators:
            if of_operator[operator] & wanted:
                for k in copies[operator]:
                    if achieves[k] & wanted and relaxed & pre_mask[k] == pre_mask[k]:
                        chosen.add(operator)
                        break
        return chosen


NONE = frozenset()
FEW = 64        # achievers of the wanted landmarks listed, at most (more: `Preferred` tests)
