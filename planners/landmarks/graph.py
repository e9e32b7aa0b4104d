"""Fact landmarks of the delete relaxation and their orderings (the landmark graph the
landmark-count heuristic `planners.landmarks.lmcount` reads).

A fact is a *landmark* when every plan makes it true at some point (a fact true in the
initial state counts when every plan needs it).  The landmarks found here are those of
the relaxed task (`planners.heuristics.relaxation.Relaxation`: delete effects ignored, a
negative condition a fact of its own), which are landmarks of the task itself:

* **Generation** (Zhu & Givan's label propagation, whose fixpoint is exactly the set of
  relaxed landmarks, Keyder, Richter & Helmert 2010): every fact p gets the set L(p) of
  facts that any relaxed path to p must reach,

      L(p) = {p}                                               if p holds initially,
      L(p) = {p} ∪ ∩ over relaxed operators a adding p of ∪ over q in pre(a) of L(q),

  computed as bit masks from "unknown" (everything) downwards, sweeping the operators
  until nothing changes; the landmarks are the union of L(g) over the goals.
  `is_landmark_by_removal` is the brute-force definition the tests compare with: p is a
  landmark iff the goal is relaxed-unreachable once p is made unreachable.
* **Disjunctive landmarks** (sets of facts one of which every plan makes true, as
  Richter, Helmert & Westphal's RHW generator finds them): when every first achiever
  (below) of a landmark q needs a fact of one predicate, one of those facts holds right
  before q first does.  Small such sets (at most `MAX_DISJUNCTION` facts, none true
  initially, none a fact landmark) are landmarks greedy-necessarily ordered before q,
  and are backchained in turn like q; they guide where fact landmarks say nothing
  (which tray goes to the table).
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

MAX_DISJUNCTION = 4               # facts in a disjunctive landmark, at most


def reachable(relaxation, start: int, forbidden: int = 0) -> int:
    """The mask of relaxed facts reachable from the relaxed state `start` when the facts
    of the mask `forbidden` can never be reached (nor used)."""
    add, users = relaxation.add, relaxation.users
    waiting = relaxation.waiting[:]
    seen = bytearray(relaxation.facts)
    for fact in bits(forbidden):
        seen[fact] = 1
    reached = [f for f in bits(start & ~forbidden)]
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
    return reachable(relaxation, start, 1 << fact) & goal != goal


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


def before_fact(labels: list, q: int) -> int:
    """The mask of relaxed facts reachable while the fact q (not true initially) is
    never reached, read off the labels of `fact_labels`: p is reachable without q iff
    p is reachable and q is not in L(p) (L(p) is exactly the facts every relaxed path to
    p reaches).  The same mask as `reachable(relaxation, initial, 1 << q)`, which sweeps
    the whole task once per landmark (seconds on tasks of ~50,000 operators)."""
    mask = 0
    for p, label in enumerate(labels):
        if label is not None and not label >> q & 1:
            mask |= 1 << p
    return mask


class LandmarkGraph:
    """The landmarks of a task from its initial state and their orderings.

    A landmark is an id: a relaxed fact's index (a fact landmark), or `size + j` for the
    j-th disjunctive landmark, the fact mask `disjunctive[j]` (any of its facts).  Masks
    of landmarks are ints over these ids: `landmarks` (all), `goal` (the goal facts);
    `parents[p]`: the landmarks ordered before p (natural, greedy-necessary and
    reasonable orderings); `gn_children[p]`: the landmarks q with p ->gn q;
    `reasonable[g]`: the landmarks p with p ->r g;
    `cost[p]`: the cost of the cheapest relaxed operator achieving p (0 for facts only
    rules derive or nothing achieves); `achievers[p]`: the relaxed operators adding p;
    `derived`: the landmarks only rules (axioms) achieve, which become true in the same
    state as their bodies, so no greedy-necessary ordering ends at one.
    `holds(relaxed)`: the landmarks true in a relaxed state.
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
        self.landmarks = self.fact_landmarks = landmarks
        self.facts = list(bits(landmarks))
        self.size = size = relaxation.facts
        self.achievers = list(relaxation.achievers)
        self.parents = [0] * size
        self.gn_children = [0] * size
        self.reasonable = [0] * size
        self.cost = [0] * size
        self.derived = 0
        self.disjunctive = []
        first_achievers = []              # (fact landmark, its first achievers)
        for q in self.facts:
            self.parents[q] = labels[q] & landmarks & ~(1 << q)
            self.cost[q] = min((relaxation.cost[k] for k in self.achievers[q]), default=0)
            if self.achievers[q] and all(relaxation.owner[k] < 0 for k in self.achievers[q]):
                self.derived |= 1 << q
                continue
            if initial >> q & 1:
                continue
            first = self._reached_first(before_fact(labels, q), self.achievers[q])
            first_achievers.append((q, first))
            needed = landmarks
            for k in first:
                needed &= relaxation.pre_mask[k]
            for p in bits(needed & ~(1 << q)):
                self._order(p, q)
        self._disjunctive(task, initial, labels, first_achievers)
        self._reasonable(task)

    def _first_achievers(self, initial: int, mask: int, achievers: list) -> list:
        """The relaxed operators of `achievers` (which add a fact of `mask`) that are
        reachable before any fact of `mask` is."""
        return self._reached_first(reachable(self.relaxation, initial, mask), achievers)

    def _reached_first(self, before: int, achievers: list) -> list:
        """The operators of `achievers` whose preconditions all lie in the mask `before`."""
        pre_mask = self.relaxation.pre_mask
        return [k for k in achievers if pre_mask[k] & before == pre_mask[k]]

    def _order(self, p: int, q: int):
        """p ->gn q."""
        self.parents[q] |= 1 << p
        self.gn_children[p] |= 1 << q

    def _disjunctive(self, task, initial: int, labels: list, first_achievers: list):
        """Disjunctive landmarks (Richter, Helmert & Westphal 2008): for a fact landmark
        q not true initially, when every first achiever of q has a precondition of the
        same predicate, one of those preconditions (2 to `MAX_DISJUNCTION` facts, none
        true initially, none a fact landmark) must hold right before q first does: a
        landmark D with D ->gn q, unless it overlaps one found before.  Its natural
        parents are the fact landmarks every one of its facts needs.  D is backchained
        in turn, as Fast Downward's lm_rhw does: the fact landmarks every first achiever
        of D needs are ordered p ->gn D, and D's own disjunctive candidates are found
        the same way.  (This gives Fast Downward's initial landmark count on
        parcprinter-sat11 p01-p03, 70, 82, 103, where the count without it was 58, 71,
        91; on folding p01 it finds a chain of 12 where Fast Downward has 2.)"""
        relaxation = self.relaxation
        predicate = _predicates(task, relaxation)
        known, taken = {}, 0                      # fact mask -> landmark id; their facts
        for q, first in first_achievers:          # grows: new ones are backchained too
            classes = {}                          # predicate -> [mask per achiever]
            for k in first:
                per = {}
                for fact in relaxation.pre[k]:
                    per[predicate[fact]] = per.get(predicate[fact], 0) | 1 << fact
                for name, mask in per.items():
                    classes.setdefault(name, []).append(mask)
            for masks in classes.values():
                if len(masks) < len(first):
                    continue
                mask = 0
                for m in masks:
                    mask |= m
                if not 2 <= mask.bit_count() <= MAX_DISJUNCTION or \
                        mask & (initial | self.fact_landmarks) or \
                        mask not in known and mask & taken:
                    continue                      # (overlapping another one: not added)
                if mask not in known:
                    achievers = sorted({k for f in bits(mask) for k in relaxation.achievers[f]})
                    if any(relaxation.owner[k] < 0 for k in achievers):
                        continue                  # derived facts: no gn orderings
                    lm = known[mask] = self.size + len(self.disjunctive)
                    self.disjunctive.append(mask)
                    taken |= mask
                    self.landmarks |= 1 << lm
                    self.facts.append(lm)
                    self.achievers.append(achievers)
                    self.cost.append(min(relaxation.cost[k] for k in achievers))
                    natural = self.fact_landmarks
                    for fact in bits(mask):
                        natural &= labels[fact] or 0
                    self.parents.append(natural)
                    self.gn_children.append(0)
                    self.reasonable.append(0)
                    first_of_lm = self._first_achievers(initial, mask, achievers)
                    shared = self.fact_landmarks
                    for k in first_of_lm:
                        shared &= relaxation.pre_mask[k]
                    for p in bits(shared):
                        self._order(p, lm)
                    first_achievers.append((lm, first_of_lm))
                self._order(known[mask], q)

    def holds(self, relaxed: int) -> int:
        """The landmarks true in the relaxed state `relaxed`."""
        true = relaxed & self.fact_landmarks
        for j, mask in enumerate(self.disjunctive):
            if relaxed & mask:
                true |= 1 << self.size + j
        return true

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


def _predicates(task, relaxation) -> list:
    """The predicate name of every relaxed fact ("not NAME" for a complement)."""
    names = []
    for text in task.facts:
        head = text.lstrip("(").split(" ", 1)[0]
        names.append(head.split("(", 1)[0])
    names += ["not " + name for name in names[:relaxation.facts - len(names)]]
    return names
