"""The admissible landmark heuristic `lmcp`: the landmarks still to be achieved on the
path to a state, their costs shared out by uniform cost partitioning (LM-A*, Karpas &
Domshlak 2009; Fast Downward's `landmark_cost_partitioning` with `uniform`).

Landmarks and their progression come from `planners.landmarks.lmcount` (the landmark
graph of `planners.landmarks.graph` from the initial state), keeping only what is sound
for admissibility:

* the landmarks: fact landmarks of the delete relaxation and the disjunctive ones (one
  of their facts holds right before a fact landmark first does), both landmarks of the
  task itself;
* *future(s)*: the landmarks not reached on the path to s, the goal landmarks false in
  s, and the landmarks p false in s with p ->gn q for a q not reached (p holds right
  before q first becomes true, and every plan through s makes q true after s).
  Reasonable orderings, which LAMA's count follows, are dropped: they are not sound.
  A state reached by another path keeps the union of both futures (a landmark missed
  on either path must still be achieved by every continuation from s), so any one path
  gives an admissible value and each further path can only raise it;
* the cost of future(s): every operator's cost is split evenly among the future
  landmarks it achieves (any of its effects, conditional ones included, adds the fact
  or one of the disjunction's facts), and each landmark costs the least share of its
  achievers.  A plan from s achieves each future landmark with one of its operators and
  no operator is charged more than its cost, so the sum is at most the cheapest plan's
  cost.  With integer costs the sum is rounded up (the cheapest cost is an integer).
  A landmark achieved only by rules (axioms) costs 0; one no operator achieves makes
  the state a dead end (`inf`).

The value depends on the path: `framework.search.best_first` evaluates a state once,
given the parent it was first reached from, and tells the heuristic of every later path
(`reached(state, parent)`), which raises the values of states evaluated after it.
"""
from __future__ import annotations

from math import ceil

from framework.runtime import bits
from planners.heuristics.relaxation import INF
from planners.landmarks.lmcount import LandmarkCount


class LandmarkCostPartitioning(LandmarkCount):
    """`h(state, parent=None)`: the admissible landmark estimate of `state` reached from
    `parent` (an evaluated state, or None at the start of the search)."""

    path_dependent = True

    def __init__(self, task, relaxation=None):
        super().__init__(task, relaxation=relaxation)
        graph, relaxation = self.graph, self.relaxation
        self.needs_reasonable = 0                # reasonable orderings: not admissible
        self.op_cost = [op.cost for op in task.operators]
        self.integer = all(float(c).is_integer() for c in self.op_cost)
        self.free = 0                             # landmarks some rule achieves: cost 0
        self.owners = [()] * len(graph.achievers)
        for lm in graph.facts:
            owners = {relaxation.owner[k] for k in graph.achievers[lm]}
            if any(o < 0 for o in owners):
                self.free |= 1 << lm
            else:
                self.owners[lm] = tuple(sorted(owners))

    def __call__(self, state: int, parent=None) -> float:
        if not self.graph.solvable:
            return INF
        relaxed = self.relaxation.relaxed(state)
        self._progress(state, parent, self.graph.holds(relaxed))
        if self.relaxation.goal_mask & ~relaxed == 0:
            return 0
        return self.partitioned(self.future[state] & ~self.free)

    def partitioned(self, future: int) -> float:
        """The uniform cost partitioning's value of the landmarks of the mask `future`."""
        owners, op_cost = self.owners, self.op_cost
        landmarks = [owners[lm] for lm in bits(future)]
        shares: dict = {}
        for achievers in landmarks:
            if not achievers:
                return INF
            for o in achievers:
                shares[o] = shares.get(o, 0) + 1
        total = sum(min(op_cost[o] / shares[o] for o in achievers) for achievers in landmarks)
        return ceil(total - 1e-9) if self.integer else total
