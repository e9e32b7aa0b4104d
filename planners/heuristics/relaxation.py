"""Delete-relaxation heuristics of a grounded task: h_max (admissible), h_add and h_FF,
and the relaxed operators landmark-cut uses.

All three run the same exploration of the relaxed task (delete effects ignored) from a
state: a generalised Dijkstra over facts where an operator fires once its last
precondition is reached, its cost being the max (h_max) or sum (h_add, h_FF) of its
preconditions' costs plus its own.  h_max is the cost of the costliest goal, h_add the sum
over goals, h_FF the cost of a relaxed plan extracted backwards through each fact's best
supporter; landmark-cut (`planners.heuristics.lmcut`) and the landmarks
(`planners.landmarks.graph`) build on the same relaxed operators.  A state from which the goal is relaxed-unreachable gets
`inf` (a dead end).  The exploration's queue is a list of cost buckets when every cost is
a positive integer (unit costs), a heap otherwise; both settle facts in the same order
and an operator fires when its last precondition settles, so supporters, relaxed plans
and values do not depend on the queue.  The order is Fast Downward's (its h_add/h_FF
bucket queue pops the last fact pushed): by cost, and of equal costs the fact reached
last first; the start fact first, then the state's facts from the highest index down.
A fact's supporter is the first operator that reaches it at its cost.  This tie rule
decides which relaxed plan h_FF counts (parcprinter-sat11 p04's initial h_FF: 98 as in
Fast Downward, 86 with the lowest-index-first rule used before).  The bucket exploration (the hot path of lama-first) keeps one counter per
operator for both jobs, counting its preconditions and summing their costs, and counts
the state's facts in one sweep in which only the precondition settled last (its
lowest-index one) can fire an operator, the sweep itself corrected from the previous state's when that is cheaper (in a
search, consecutive states are mostly siblings); tests/test_relaxed_speedup.py holds it
to the plain exploration.  Lists indexed by
fact and operator are copied with one C-level call per evaluation.

When the optional C accelerator `_plyspec_relax` (planners/heuristics/_plyspec_relax.c,
built by `pip install .` where a C compiler is present) is importable and every cost is
an integer, the same exploration, the relaxed plan and the preferred operators run there
on flat arrays built once per task, with the same values, supporters and sets;
`PLYSPEC_PURE=1` in the environment (or no accelerator, or one built from an older source:
its `RULES` differ) keeps the Python code below.
"""
from __future__ import annotations

import os
from heapq import heappop, heappush

from framework.runtime import bits
from planners.heuristics.lmcut import LandmarkCut

INF = float("inf")
RULES = 2       # the accelerator's rules: 2 = Fast Downward's tie rule (1: lowest index first)


def accelerator():
    """The C accelerator, or None: PLYSPEC_PURE set, not importable, or built from an
    older source whose exploration breaks ties by another rule (its `RULES`)."""
    if os.environ.get("PLYSPEC_PURE"):
        return None
    try:
        module = __import__("_plyspec_relax")
    except ImportError:
        return None
    return module if getattr(module, "RULES", 1) == RULES else None


ACCELERATOR = accelerator()


class Relaxation:
    """The relaxed task: relaxed operators (preconditions and add effects as index lists)
    and for every fact the relaxed operators it is a precondition of.  An operator is one
    relaxed operator, and one more per conditional effect (its precondition plus the
    effect's conditions, the effect's adds, the same cost; `owner` maps it back); an axiom
    is a relaxed operator of cost 0 (owner -1).

    A negative condition `not f` (on a fact that is not derived) is the fact `f`'s
    complement, at index `f + n` (n facts): true in a state without `f`, added by the
    operators and effects that delete `f` (as in Fast Downward's finite-domain
    relaxation), so that an operator needed only to clear a fact still counts.  Negative
    conditions on derived facts are relaxed away.  `relaxed(state)` is the state with its
    true complements.  With `unit`, every operator costs 1 (Fast Downward's cost type
    `one`, as LAMA's first search uses it); with `plusone`, its cost plus 1 (cost type
    `plusone`, LAMA's later searches: zero-cost operators still count)."""

    def __init__(self, task, unit: bool = False, plusone: bool = False):
        n = len(task.facts)
        derived, rules = 0, {}
        for layer in task.axioms:
            for head, pre, absent in layer:
                derived |= head
                rules.setdefault(head.bit_length() - 1, []).append((pre, absent))
        negated = task.goal_absent
        for op in task.operators:
            negated |= op.absent
            for _, absent, _, _ in op.effects:
                negated |= absent
        for layer in task.axioms:
            for _, _, absent in layer:
                negated |= absent
        negations = _negations(negated & derived, rules, derived)
        for fact, bodies in negations.items():       # their literals' complements too
            for _, absent in bodies:
                negated |= absent
            negated |= 1 << fact
        self.negated, self.n = negated & ~derived | sum(1 << f for f in negations), n
        self.goal_mask = self.complemented(task.goal, task.goal_absent)
        self.goal = bits(self.goal_mask)
        self.pre, self.add, self.cost, self.owner, self.pre_mask = [], [], [], [], []
        self.op_cost = [1 if unit else op.cost + 1 if plusone else op.cost
                        for op in task.operators]
        for k, op in enumerate(task.operators):
            self._relaxed(self.complemented(op.pre, op.absent),
                          self.complemented(op.add, op.delete), self.op_cost[k], k)
            for pre, absent, add, delete in op.effects:
                effect_add = self.complemented(add, delete)
                if effect_add:
                    self._relaxed(self.complemented(op.pre | pre, op.absent | absent),
                                  effect_add, self.op_cost[k], k)
        for layer in task.axioms:
            for head, pre, absent in layer:
                self._relaxed(self.complemented(pre, absent), head, 0, -1)
        for fact, bodies in negations.items():
            for pre, absent in bodies:
                self._relaxed(self.complemented(pre, absent), 1 << fact + n, 0, -1)
        self.copies = [[] for _ in task.operators]
        for k, owner in enumerate(self.owner):
            if owner >= 0:
                self.copies[owner].append(k)
        self.facts = 2 * n if self.negated else n
        # the explorations' own graph: a start fact holds in every state and is the
        # precondition of the operators without one; it is the last entry of the lists
        # indexed by fact, spelt -1 so that it comes before every fact of cost 0
        self.start = -1
        self.waiting = [len(p) or 1 for p in self.pre]
        self.users = [[] for _ in range(self.facts + 1)]
        for k, pre in enumerate(self.pre):
            for fact in pre or [self.start]:
                self.users[fact].append(k)
        self.is_goal = bytearray(self.facts + 1)
        for fact in self.goal:
            self.is_goal[fact] = 1
        self.integral = all(type(c) is int and c > 0 for c in self.cost)
        # the bucket queue's counters: an operator's counter starts at its cost minus `big`
        # per precondition (the start fact for none); settling a precondition at cost d adds
        # big + d (big for h_max), so the counter turns non-negative when the last one
        # settles and is then the operator's h_add cost.  A bucket up to `safe_depth`
        # cannot make an unfinished counter non-negative (deeper ones use the heap);
        # counters stay below 2**30 (one machine digit: CPython's fast path) unless that
        # would put safe_depth below 2**16 (an operator with very many preconditions)
        most, dearest = max(self.waiting, default=1), max(self.cost, default=0)
        self.big = max((1 << 30) // (most + 1), dearest + 1 + (max(most - 1, 1) << 16))
        self.safe_depth = (self.big - dearest - 1) // max(most - 1, 1)
        self.counters = [c - w * self.big for c, w in zip(self.cost, self.waiting)]
        # in bucket 0 (the state) facts settle in descending index order, so only an
        # operator's first precondition can finish it there: the others (`ahead`) are
        # counted in one sweep
        self.last = [[] for _ in range(self.facts + 1)]
        self.ahead = [[] for _ in range(self.facts + 1)]
        for k, pre in enumerate(self.pre):
            for fact in pre:
                (self.last if fact == pre[0] else self.ahead)[fact].append(k)
        self.last[self.start] = self.users[self.start]
        self._last = 0, self.counters
        self.achievers = [[] for _ in range(self.facts)]
        for k, add in enumerate(self.add):
            for fact in add:
                self.achievers[fact].append(k)
        whole = all(type(c) is int and 0 <= c < 1 << 40 for c in self.cost + self.op_cost)
        self.accelerator = ACCELERATOR if whole else None       # LandmarkCut's too
        self.fast = self.accelerator and self.accelerator.Graph(
            self.facts, self.pre, self.add, self.cost, self.goal, self.owner, self.op_cost)
        self.width = (self.facts + 7) // 8

    def complemented(self, facts: int, absent: int) -> int:
        """The relaxed mask of `facts` true and `absent` false."""
        return facts | (absent & self.negated) << self.n

    def relaxed(self, state: int) -> int:
        """`state` with the complements of its false negated facts."""
        return state | (~state & self.negated) << self.n

    def state_bytes(self, state: int) -> bytes:
        """The relaxed `state` as the accelerator reads it (fact bits, little-endian)."""
        return self.relaxed(state).to_bytes(self.width, "little")

    def _relaxed(self, pre: int, add: int, cost, owner: int):
        self.pre_mask.append(pre)
        self.pre.append(bits(pre))
        self.add.append(bits(add))
        self.cost.append(cost)
        self.owner.append(owner)

    def explore(self, state: int, use_max: bool, cost=None, until_goals: bool = True):
        """Relaxed costs of facts from `state` (operator costs `cost`, default their own)
        until every goal fact is settled (or every reachable fact).  Returns (cost per
        fact, best supporter per fact, whether every goal fact was reached; both lists have
        one more entry, the last, for the start fact).  With the task's own costs, all
        positive integers (unit costs among them), facts are settled from a bucket queue;
        otherwise (zero-cost rules of derived predicates, fractional costs) from a heap.
        Both settle facts in the same order (by cost, of equal costs the last reached
        first, the module's docstring), so both pick the same supporters."""
        if cost is None:
            if self.fast:
                return self.fast.explore(self.state_bytes(state), use_max, until_goals)
            if self.integral:
                return self._explore_buckets(state, use_max, until_goals)
            cost = self.cost
        dist = [INF] * (self.facts + 1)
        supporter = [-1] * (self.facts + 1)
        waiting = self.waiting[:]
        so_far = [0] * len(waiting)
        # entries (cost, -push number, fact): of equal costs the last pushed pops first
        heap = [(0, -n, fact) for n, fact in enumerate(bits(self.relaxed(state)))]
        heap.reverse()                       # a heap already: keys ascending
        heap.insert(0, (0, -len(heap), self.start))
        pushed = len(heap)
        for _, _, fact in heap:
            dist[fact] = 0
        goals_left = len(self.goal)
        users, add, is_goal = self.users, self.add, self.is_goal
        while heap and (goals_left or not until_goals):
            d, _, fact = heappop(heap)
            if d > dist[fact]:
                continue                     # an outdated entry (each cost is pushed once)
            goals_left -= is_goal[fact]
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
                            pushed += 1
                            heappush(heap, (reach, -pushed, new))
        return dist, supporter, not goals_left

    def _swept(self, relaxed: int) -> list:
        """The counters once the facts of `relaxed` have been counted as preconditions
        that do not finish an operator (`ahead`): from those of the last state swept
        (kept in `_last`), correcting the facts that differ, when fewer facts differ
        than hold (in a search, consecutive states are mostly siblings), otherwise from
        the start."""
        last, counters = self._last
        if (last ^ relaxed).bit_count() >= relaxed.bit_count():
            last, counters = 0, self.counters
        counter, ahead, big = counters[:], self.ahead, self.big
        for fact in bits(relaxed & ~last):
            for k in ahead[fact]:
                counter[k] += big
        for fact in bits(last & ~relaxed):
            for k in ahead[fact]:
                counter[k] -= big
        self._last = relaxed, counter[:]
        return counter

    def _explore_buckets(self, state: int, use_max: bool, until_goals: bool):
        """`explore` with positive integer costs: bucket `d` holds the facts first reached
        at cost d; no cost is 0, so a bucket is complete once it is reached and is
        settled from its end (the last reached first; bucket 0 ends with the start fact).  One counter per operator
        (`counters`) counts its preconditions and sums their costs."""
        dist = [INF] * (self.facts + 1)
        supporter = [-1] * (self.facts + 1)
        relaxed = self.relaxed(state)
        counter = self._swept(relaxed)
        add, users, is_goal, big = self.add, self.users, self.is_goal, self.big
        first = [*bits(relaxed), self.start]         # popped from the end
        for fact in first:
            dist[fact] = 0
        buckets = [first]
        goals_left = len(self.goal)
        finishing = self.last               # bucket 0: only last preconditions finish
        d = 0
        while d < len(buckets) and (goals_left or not until_goals):
            if d > self.safe_depth:
                return self.explore(state, use_max, self.cost, until_goals)
            bucket = buckets[d]                      # complete: every cost is positive
            step, extra = (big, d) if use_max else (big + d, 0)
            for fact in reversed(bucket):            # the last reached first
                if dist[fact] != d:
                    continue                 # reached more cheaply since
                for k in finishing[fact]:
                    reach = counter[k] + step
                    counter[k] = reach
                    if reach < 0:
                        continue             # a precondition is not settled yet
                    reach += extra
                    for new in add[k]:
                        if reach < dist[new]:
                            dist[new] = reach
                            supporter[new] = k
                            try:
                                buckets[reach].append(new)
                            except IndexError:
                                buckets += [[] for _ in range(reach + 1 - len(buckets))]
                                buckets[reach].append(new)
                if is_goal[fact]:
                    goals_left -= 1
                    if not goals_left and until_goals:
                        break
            finishing = users
            d += 1
        return dist, supporter, not goals_left

    def h_max(self, state: int) -> float:
        if self.fast:
            return self.fast.value(self.state_bytes(state), True)
        dist, _, reached = self.explore(state, use_max=True)
        return max((dist[g] for g in self.goal), default=0) if reached else INF

    def h_add(self, state: int) -> float:
        if self.fast:
            return self.fast.value(self.state_bytes(state), False)
        dist, _, reached = self.explore(state, use_max=False)
        return sum(dist[g] for g in self.goal) if reached else INF

    def h_ff(self, state: int) -> float:
        return self.relaxed_plan(state)[0]

    def relaxed_plan(self, state: int) -> tuple[float, set]:
        """(h_FF, the relaxed operators of the relaxed plan): supporters are followed
        backwards from the open goals (a reached fact has a supporter iff it is not true
        in the relaxed state)."""
        if self.fast:
            return self.fast.plan(self.state_bytes(state), False)
        _, supporter, reached = self.explore(state, use_max=False)
        if not reached:
            return INF, set()
        chosen, pre, owner = set(), self.pre, self.owner
        todo = [supporter[g] for g in self.goal]
        while todo:
            k = todo.pop()
            if k >= 0 and k not in chosen:
                chosen.add(k)
                todo += map(supporter.__getitem__, pre[k])
        owners = {owner[k] for k in chosen}
        return sum(self.op_cost[o] for o in owners if o >= 0), chosen

    def evaluate(self, state: int, parent=None) -> tuple[float, set]:
        """h_FF and its preferred operators, as `framework.search.lazy_gbfs` evaluates."""
        return self.h_ff_preferred(state)

    def h_ff_preferred(self, state: int) -> tuple[float, set]:
        """h_FF and its preferred operators (helpful actions): the operators of the relaxed
        plan whose relaxed operator is applicable in `state` (for a conditional effect:
        its conditions hold too)."""
        if self.fast:
            return self.fast.plan(self.state_bytes(state), True)
        value, chosen = self.relaxed_plan(state)
        state, owner, pre_mask = self.relaxed(state), self.owner, self.pre_mask
        return value, {owner[k] for k in chosen
                       if owner[k] >= 0 and state & pre_mask[k] == pre_mask[k]}


MAX_NEGATED = 64         # rule bodies of a derived fact's negation, at most


def _negations(wanted: int, rules: dict, derived: int) -> dict:
    """derived fact -> the rule bodies (true facts mask, false facts mask) of its
    negation, for the derived facts of `wanted` whose negation has at most MAX_NEGATED
    bodies and no negated derived fact (Fast Downward's translator's negated axioms: a
    derived fact is false when every rule deriving it has a false body literal, one
    literal per rule, all combinations).  Those left out are relaxed away."""
    negations = {}
    for fact in bits(wanted):
        bodies = [(0, 0)]
        for pre, absent in rules.get(fact, ()):
            if pre & derived:
                bodies = None                # would need another derived fact's negation
                break
            literals = [(0, 1 << p) for p in bits(pre)] + [(1 << a, 0) for a in bits(absent)]
            bodies = [(t | lt, f | lf) for t, f in bodies for lt, lf in literals]
            if len(bodies) > MAX_NEGATED:
                bodies = None
                break
        if bodies is not None:
            negations[fact] = bodies
    return negations


HEURISTICS = {"hmax": "h_max", "hadd": "h_add", "hff": "h_ff"}


def make_heuristic(task, name: str):
    """The heuristic `name` of `task` as a function state -> estimate."""
    if name == "blind":
        return lambda state: 0
    if name == "lmcut":
        return LandmarkCut(Relaxation(task))
    if name not in HEURISTICS:
        raise ValueError(f"unknown heuristic {name!r}; choose from blind, "
                         f"{', '.join(HEURISTICS)}, lmcut")
    return getattr(Relaxation(task), HEURISTICS[name])
