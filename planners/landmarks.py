"""Fact landmarks of the delete relaxation and their orderings (the landmark graph the
landmark-count heuristic `planners.lmcount` reads).

A fact is a *landmark* when every plan makes it true at some point (a fact true in the
initial state counts when every plan needs it).  The landmarks found here are those of
the relaxed task (`heuristics.Relaxation`: delete effects ignored, a negative condition
a fact of its own), which are landmarks of the task itself:

* **Generation** (Zhu & Givan's label propagation, whose fixpoint is exactly the set of
  relaxed landmarks, Keyder, Richter & Helmert 2010): every fact p gets the set L(p) of
  facts that any relaxed path to p must reach,

      L(p) = {p}                                               if p holds initially,
      L(p) = {p} ∪ ∩ over relaxed operators a adding p of ∪ over q in pre(a) of L(q),

  computed as bit masks from "unknown" (everything) downwards, sweeping the operators
  until nothing changes; the landmarks are the union of L(g) over the goals.
  `is_landmark_by_removal` is the brute-force definition the tests compare with: p is a
  landmark iff the goal is relaxed-unreachable once p is made unreachable.
* **Orderings** (what a landmark's acceptance waits for):
  - *natural*: p -> q when p is in L(q) (p is reached strictly before q);
  - *greedy-necessary*: p ->gn q when p is a precondition of every *first achiever* of
    q (a relaxed operator adding q that is reachable while q is not), so p holds right
    before q first becomes true.  These orderings make an accepted landmark *required
    again* (`lmcount`);
  - *reasonable* (LAMA's goal rule, simplified): p ->r g for a goal g and a non-goal
    landmark p when every operator achieving p deletes g, so g is best achieved after p.
"""
from __future__ import annotations

from framework.runtime import bits


def reachable(relaxation, start: int, forbidden: int = -1) -> int:
    """The mask of relaxed facts reachable from the relaxed state `start` when the fact
    `forbidden` can never be reached (nor used)."""
    add, users = relaxation.add, relaxation.users
    waiting = relaxation.waiting[:]
    seen = bytearray(relaxation.facts)
    if forbidden >= 0:
        seen[forbidden] = 1
    reached = [f for f in bits(start) if f != forbidden]
    for fact in reached:
        seen[fact] = 1
    stack = [*reached, relaxation.start]
    while stack:
        for k in users[stack.pop()]:
            waiting[k] -= 1
            if waiting[k]:
                continue
            for fact in add[k]:
                if not seen[fact]:
                    seen[fact] = 1
                    reached.append(fact)
                    stack.append(fact)
    return sum(1 << fact for fact in reached)


def is_landmark_by_removal(relaxation, state: int, fact: int) -> bool:
    """The definition: `fact` is a landmark from `state` iff the goal is relaxed-reachable
    but not once `fact` is made unreachable."""
    start = relaxation.relaxed(state)
    goal = relaxation.goal_mask
    if reachable(relaxation, start) & goal != goal:
        return False
    return reachable(relaxation, start, fact) & goal != goal


def fact_labels(relaxation, state: int) -> list:
    """L(p) for every relaxed fact p, as a mask (None: unreachable), from `state`."""
    pre, add = relaxation.pre, relaxation.add
    labels = [None] * relaxation.facts
    initial = relaxation.relaxed(state)
    for fact in bits(initial):
        labels[fact] = 1 << fact
    changed = True
    while changed:
        changed = False
        for k, needs in enumerate(pre):
            union = 0
            for q in needs:
                label = labels[q]
                if label is None:
                    break
                union |= label
            else:
                for p in add[k]:
                    if initial >> p & 1:
                        continue
                    old = labels[p]
                    new = union | 1 << p if old is None else old & (union | 1 << p)
                    if new != old:
                        labels[p] = new
                        changed = True
    return labels


class LandmarkGraph:
    """The landmarks of a task from its initial state (fact masks over the relaxed facts)
    and their orderings.

    `landmarks`: the mask of landmark facts; `goal`: the goal landmarks;
    `parents[p]`: the mask of landmarks ordered before p (natural, greedy-necessary and
    reasonable orderings); `gn_children[p]`: the landmarks q with p ->gn q;
    `reasonable[g]`: the landmarks p with p ->r g;
    `cost[p]`: the cost of the cheapest relaxed operator achieving p (0 for facts only
    rules derive or nothing achieves); `achievers[p]`: the relaxed operators adding p;
    `derived`: the landmarks only rules (axioms) achieve, which become true in the same
    state as their bodies, so no greedy-necessary ordering ends at one.
    `solvable` is False when the goal is relaxed-unreachable (no landmarks then)."""

    def __init__(self, task, relaxation):
        self.relaxation = relaxation
        initial = relaxation.relaxed(task.initial)
        labels = fact_labels(relaxation, task.initial)
        self.solvable = all(labels[g] is not None for g in relaxation.goal)
        self.goal = relaxation.goal_mask
        landmarks = 0
        if self.solvable:
            for g in relaxation.goal:
                landmarks |= labels[g]
        self.landmarks = landmarks
        self.facts = bits(landmarks)
        size = relaxation.facts
        self.achievers = relaxation.achievers
        self.parents = [0] * size
        self.gn_children = [0] * size
        self.reasonable = [0] * size
        self.cost = [0] * size
        self.derived = 0
        for q in self.facts:
            self.parents[q] = labels[q] & landmarks & ~(1 << q)
            self.cost[q] = min((relaxation.cost[k] for k in self.achievers[q]), default=0)
            if self.achievers[q] and all(relaxation.owner[k] < 0 for k in self.achievers[q]):
                self.derived |= 1 << q
                continue
            if initial >> q & 1:
                continue
            before = reachable(relaxation, initial, q)
            first = [k for k in self.achievers[q]
                     if relaxation.pre_mask[k] & before == relaxation.pre_mask[k]]
            needed = landmarks
            for k in first:
                needed &= relaxation.pre_mask[k]
            for p in bits(needed & ~(1 << q)):
                self.parents[q] |= 1 << p
                self.gn_children[p] |= 1 << q
        self._reasonable(task)

    def _reasonable(self, task):
        """p ->r g for a goal landmark g and a non-goal landmark p every one of whose
        achievers deletes g (unless g is already ordered before p)."""
        relaxation, n = self.relaxation, self.relaxation.n
        for p in bits(self.landmarks & ~self.goal):
            if p >= n or not self.achievers[p]:
                continue
            owners = {relaxation.owner[k] for k in self.achievers[p]}
            if -1 in owners:
                continue
            deleted = ~0
            for o in owners:
                deleted &= task.operators[o].delete
            for g in bits(deleted & self.goal & self.landmarks):
                if g < n and not self.parents[p] >> g & 1:
                    self.parents[g] |= 1 << p
                    self.reasonable[g] |= 1 << p
