"""The landmark-cut heuristic (Helmert & Domshlak 2009), computed bit-parallel over
operators with an incremental h_max.

The relaxed operators (from `heuristics.Relaxation`) get an artificial START fact (the
precondition of operators that have none) and an artificial GOAL fact (added by a
zero-cost operator needing every goal).  Sets of relaxed operators are Python ints (bit k:
operator k), precomputed once per fact: the operators it is a precondition of (`needs`)
and the operators adding it (`adds`).  Per state:

1. h_max by cost levels: the facts of one level enable the operators all of whose
   preconditions are now reached (the complement of what the unreached facts need); each
   enabled operator hangs from its supporter, its precondition of highest h_max (ties:
   the lowest fact index), and fires at level + its cost (`hangs`: fact -> operators);

then while h_max(GOAL) > 0:

2. the goal zone: the facts from which GOAL is reached through zero-cost operators
   hanging from them;
3. the cut: the operators hanging from facts reached from the state without entering the
   zone, with an effect in the zone; the cheapest cost in the cut is charged to all of it
   (an operator's conditional-effect copies share its cost) and added to h;
4. h_max is repaired from the charged operators' effects only (costs only fall, so a
   Dijkstra from the facts that got cheaper settles the new values): a fact settled lower
   re-hangs the operators hanging from it on their (new) supporter and passes on the
   ones that got cheaper.

Steps 1-3 loop over facts (tens to hundreds), each step an AND/OR of operator masks;
step 4 touches only the operators hanging from facts whose h_max fell.
The tie-breaking makes the value a function of the state and the order alone (a
from-scratch reference with the same rule gives the same numbers; tests/test_lmcut.py).
Which order pays depends on the domain (A* expansions, lowest first / highest first:
openstacks task02 341 / 6799, freecell task02 16873 / 2551), so by default the first
`SAMPLE` states evaluated get the larger of both values and decide: the order whose sum
was larger serves every later state.  The sum of the charges is admissible under either
order, and so is their maximum; a relaxed-unreachable goal gives `inf`.
"""
from __future__ import annotations

from functools import reduce
from heapq import heappop, heappush
from itertools import compress, repeat
from operator import gt, le, not_, or_, sub
from time import process_time

from framework.runtime import bits

INF = float("inf")
SAMPLE = 20                       # states that choose the tie-breaking order
TRIALS = 100                      # cuts timed per h_max update (repair, relevel)


class LandmarkCut:
    def __init__(self, relaxation, descending: bool | None = None,
                 repair: bool | None = None):
        """`descending`: ties go to the highest fact index (else the lowest); None:
        the first `SAMPLE` states choose (module docstring).  `repair`: h_max is
        repaired by a Dijkstra (else recomputed by levels); None: the faster on the
        first `TRIALS` cuts of each."""
        self.descending, self.repair = descending, repair
        self.spent = [0.0, 0.0, 0]       # seconds of relevel, of repair; cuts timed
        self.sampled, self.sums = 0, [0, 0]   # sampled states; their values' sums by order
        facts = relaxation.facts
        self.start, self.goal = facts, facts + 1
        pre = [sorted(p) or [self.start] for p in relaxation.pre]
        pre.append(sorted(relaxation.goal) or [self.start])
        self.pre = (pre, [p[::-1] for p in pre])      # by order: max() keeps the first
        self.add = [list(a) for a in relaxation.add] + [[self.goal]]
        self.cost = list(relaxation.cost) + [0]
        self.relaxed = relaxation.relaxed
        self.size = facts + 2
        self.every = (1 << len(pre)) - 1
        self.needs = [0] * self.size
        self.adds = [0] * self.size
        for k, fact_list in enumerate(pre):
            for fact in fact_list:
                self.needs[fact] |= 1 << k
        for k, fact_list in enumerate(self.add):
            for fact in fact_list:
                self.adds[fact] |= 1 << k
        self.classes = {}                # cost -> operators
        for k, c in enumerate(self.cost):
            self.classes[c] = self.classes.get(c, 0) | 1 << k
        self.shared = {}                 # operator -> mask of its copies (only if > 1)
        for copies in relaxation.copies:
            if len(copies) > 1:
                mask = sum(1 << k for k in copies)
                for k in copies:
                    self.shared[k] = mask

    def __call__(self, state: int) -> float:
        start = bits(self.relaxed(state))
        start.append(self.start)
        if self.descending is not None:
            return self._value(start, self.descending)
        lowest = self._value(start, False)
        if lowest == INF:                 # (reachability does not depend on the order)
            return INF
        highest = self._value(start, True)
        self.sums[0] += lowest
        self.sums[1] += highest
        self.sampled += 1
        if self.sampled == SAMPLE:
            self.descending = self.sums[1] > self.sums[0]
        return max(lowest, highest)

    def _value(self, start: list, descending: bool) -> float:
        size = self.size
        hmax, hangs = [INF] * size, [0] * size
        initial = set(start)
        classes = dict(self.classes)
        self._explore(hmax, hangs, classes, descending, 0, start, 0, {}, [],
                      [f for f in range(size) if f not in initial])
        goal = self.goal
        if hmax[goal] == INF:
            return INF
        cost, shared, add = self.cost[:], self.shared, self.add
        pre = self.pre[descending]
        at = hmax.__getitem__
        reached = sorted((f for f, h in enumerate(hmax) if h < INF and f not in initial),
                         key=at)
        reached.remove(goal)
        hung = reduce(or_, hangs)
        total = 0
        while hmax[goal]:
            cut = self._cut(hmax, hangs, pre, start, reached, classes.get(0, 0), hung)
            ops = bits(cut)
            charge = min(map(cost.__getitem__, ops))
            total += charge
            if shared:
                for k in ops:
                    cut |= shared.get(k, 0)
                ops = bits(cut)
            for k in ops:
                left = cost[k] - charge
                cost[k] = left if left > 1e-9 else 0   # float costs: no dust
            for c, mask in list(classes.items()):
                moved = mask & cut
                if moved:
                    classes[c] = mask ^ moved
                    left = c - charge if c - charge > 1e-9 else 0
                    classes[left] = classes.get(left, 0) | moved
            repair, spent = self.repair, self.spent
            if repair is None:
                repair, began = spent[2] % 2, process_time()
            if repair:
                self._repair(hmax, hangs, cost, pre, add, ops)
            else:
                low = min(max(map(at, pre[k])) for k in ops)
                self._relevel(hmax, hangs, classes, descending, low)
            if self.repair is None:
                spent[repair] += process_time() - began
                spent[2] += 1
                if spent[2] == 2 * TRIALS:
                    self.repair = spent[1] < spent[0]
        return total

    def _relevel(self, hmax, hangs, classes, descending, low):
        """Recompute h_max above level `low` (costs fell for operators hanging at `low`
        or above: no fact gets below `low`, and those at `low` stay there)."""
        facts = range(self.size)
        unreached = list(compress(facts, map(gt, hmax, repeat(low))))
        enabled = reduce(or_, map(hangs.__getitem__, unreached), 0)
        enabled = reduce(or_, hangs) & ~enabled
        for fact in unreached:
            hmax[fact] = INF
            hangs[fact] = 0
        pending, layer = {}, []
        reach = max(classes) / 2          # operators hanging lower fire below `low`
        for fact in compress(facts, map(le, map(abs, map(sub, hmax, repeat(low - reach))),
                                        repeat(reach))):
            ops, level = hangs[fact], hmax[fact]
            if level == low:
                layer.append(fact)
            if ops:
                for c, mask in classes.items():
                    if level + c >= low:
                        mask &= ops
                        if mask:
                            pending[level + c] = pending.get(level + c, 0) | mask
        self._explore(hmax, hangs, classes, descending, low, [], enabled, pending, layer,
                      unreached)

    def _explore(self, hmax, hangs, classes, descending, level, new, enabled, pending,
                 layer, unreached):
        """h_max by levels: `new` facts reached at `level` (whose facts so far are
        `layer`), `enabled` operators so far, `pending` level -> operators firing then.
        Once a level is complete, the operators it enables hang from their lowest-index
        (or highest) precondition of that level."""
        needs, every = self.needs, self.every
        need, add = needs.__getitem__, self.adds.__getitem__
        fresh_here = 0
        while True:
            if not new:
                if fresh_here:
                    for fact in sorted(layer, reverse=descending):
                        mask = fresh_here & needs[fact]
                        if mask:
                            hangs[fact] |= mask
                            fresh_here ^= mask
                            if not fresh_here:
                                break
                done = level
                while pending and not new:
                    level = min(pending)
                    fired = pending.pop(level)
                    hit = list(map(fired.__and__, map(add, unreached)))
                    new = list(compress(unreached, hit))
                if not new:
                    return
                if level != done:
                    layer = []
                unreached = list(compress(unreached, map(not_, hit)))
            for fact in new:
                hmax[fact] = level
            layer += new
            fresh = every & ~reduce(or_, map(need, unreached), enabled)
            if fresh:
                enabled |= fresh
                fresh_here |= fresh
                for c, mask in classes.items():
                    mask &= fresh
                    if mask:
                        pending[level + c] = pending.get(level + c, 0) | mask
            fired = pending.pop(level, 0)
            new = []
            if fired:
                hit = list(map(fired.__and__, map(add, unreached)))
                if any(hit):
                    new = list(compress(unreached, hit))
                    unreached = list(compress(unreached, map(not_, hit)))

    @staticmethod
    def _repair(hmax, hangs, cost, pre, add, charged):
        """h_max after the costs of the operators `charged` fell: a Dijkstra from their
        effects that got cheaper; each fact settled lower re-hangs the operators hanging
        from it and passes on those whose h_max fell."""
        heap, before, at = [], hmax[:], hmax.__getitem__
        for k in charged:
            reach = max(map(at, pre[k])) + cost[k]
            for fact in add[k]:
                if reach < hmax[fact]:
                    hmax[fact] = reach
                    heappush(heap, (reach, fact))
        while heap:
            value, fact = heappop(heap)
            if value != hmax[fact]:
                continue
            was, ops = before[fact], hangs[fact]
            while ops:
                low = ops & -ops
                ops ^= low
                k = low.bit_length() - 1
                supporter = max(pre[k], key=at)
                if supporter != fact:
                    hangs[fact] ^= low
                    hangs[supporter] |= low
                    if hmax[supporter] >= was:
                        continue
                reach = hmax[supporter] + cost[k]
                for target in add[k]:
                    if reach < hmax[target]:
                        hmax[target] = reach
                        heappush(heap, (reach, target))

    def _cut(self, hmax, hangs, pre, start, reached, zero, hung) -> int:
        """The operators leading from the state's side into the goal zone."""
        adds, goal, at = self.adds, self.goal, hmax.__getitem__
        zone, wave, seen = {goal}, [goal], 0
        while wave:                       # the zone: supporters of zero-cost achievers
            ops = 0
            for fact in wave:
                ops |= adds[fact]
            ops &= zero & ~seen
            seen |= ops
            wave = []
            while ops:
                low = ops & -ops
                ops ^= low
                supporter = max(pre[low.bit_length() - 1], key=at)
                if supporter not in zone and at(supporter) < INF:
                    zone.add(supporter)
                    wave.append(supporter)
        touch = 0
        for fact in zone:
            touch |= adds[fact]
        free = ~touch
        ops = reduce(or_, map(hangs.__getitem__, start)) & free
        left = []
        for fact in reached:              # by h_max: most hang on an earlier fact
            if adds[fact] & ops:
                if fact not in zone:
                    ops |= hangs[fact] & free
            else:
                left.append(fact)
        while left:
            hit = list(map(ops.__and__, map(adds.__getitem__, left)))
            if not any(hit):
                break
            for fact in compress(left, hit):
                if fact not in zone:
                    ops |= hangs[fact] & free
            left = list(compress(left, map(not_, hit)))
        beyond = reduce(or_, map(hangs.__getitem__, left), 0)
        return touch & hung & ~reduce(or_, map(hangs.__getitem__, zone), beyond)
