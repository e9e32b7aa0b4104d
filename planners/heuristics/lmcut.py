"""The landmark-cut heuristic (Helmert & Domshlak 2009), computed bit-parallel over
operators.

The relaxed operators (from `relaxation.Relaxation`) get an artificial START fact (the
precondition of operators that have none) and an artificial GOAL fact (added by a
zero-cost operator needing every goal).  Sets of relaxed operators are Python ints (bit k:
operator k), precomputed once per fact: the operators it is a precondition of (`needs`)
and the operators adding it (`adds`); operators are grouped by their current cost into
masks (`classes`, cost -> mask).  Per state:

1. h_max by cost levels: the facts of one level enable the operators all of whose
   preconditions are now reached (the complement of what the unreached facts need); each
   enabled operator hangs from its supporter, its precondition of highest h_max (ties:
   the lowest fact index), and fires at level + its cost (`hangs`: fact -> operators);

then while h_max(GOAL) > 0:

2. the goal zone: the facts from which GOAL is reached through zero-cost operators
   hanging from them (the supporters of the zone's zero-cost achievers, per operator);
3. the cut: the operators hanging from facts reached from the state without entering the
   zone, with an effect in the zone; the cheapest cost in the cut is charged to all of it
   (an operator's conditional-effect copies share its cost) and added to h.  The facts
   reached are found in one sweep in h_max order (a fact is reached once an operator
   hanging from a fact reached before adds it; most facts hang on an earlier one), then
   in waves over the few left;
4. h_max is updated, exactly, one of two ways: recomputed by levels above the lowest
   level the charged operators hang from (nothing below it changes), or repaired by a
   Dijkstra from the charged operators' effects, where a fact settled lower re-hangs the
   operators hanging from it on their new supporter and passes on those that got
   cheaper.  The repair wins when few operators hang from the facts that get cheaper
   (elevators, depot), the levels when many do (freecell, scanalyzer): the first
   `TRIALS` cuts of each (alternating by state) are timed and the faster serves the rest.

Every loop runs over facts (tens to hundreds), each step an AND/OR of operator masks,
except the repair's, over the operators it re-hangs.
The tie-breaking makes the value a function of the state and the order alone (a
from-scratch reference with the same rule gives the same numbers; tests/test_lmcut.py).
With the C accelerator (`relaxation.Relaxation.accelerator`: integer costs), LM-cut runs
in C (`_plyspec_relax.Cut`: h_max by a Dijkstra in the first round, then lowered
incrementally from the charged operators' effects, as Fast Downward does) with the same
values (tests/test_relaxed_accelerator.py); the order's choice stays here.
Which order pays depends on the domain (A* expansions, lowest first / highest first:
openstacks task02 341 / 6799, freecell task02 16873 / 2551), so by default the first
`SAMPLE` states evaluated get the larger of both values and decide: the order whose sum
was larger serves every later state.  The sum of the charges is admissible under either
order, and so is their maximum; a relaxed-unreachable goal gives `inf`.
"""
from __future__ import annotations

from functools import partial, reduce
from heapq import heappop, heappush
from itertools import compress, repeat
from operator import eq, gt, not_, or_
from time import process_time

from framework.runtime import bits

INF = float("inf")
SAMPLE = 20                       # states that choose the tie-breaking order
TRIALS = 100                      # cuts timed per h_max update (levels, repair)


class LandmarkCut:
    def __init__(self, relaxation, descending: bool | None = None,
                 repair: bool | None = None):
        """`descending`: ties go to the highest fact index (else the lowest); None:
        the first `SAMPLE` states choose (module docstring).  `repair`: h_max is
        repaired after a cut (else recomputed by levels); None: the faster on the first
        `TRIALS` cuts of each."""
        self.descending, self.repair = descending, repair
        self.sampled, self.sums = 0, [0, 0]   # sampled states; their values' sums by order
        self.spent = [0.0, 0.0, 0, 0, 0]  # seconds by levels, by repair; their cuts; states
        facts = relaxation.facts
        self.start, self.goal = facts, facts + 1
        pre = [sorted(p) or [self.start] for p in relaxation.pre]
        pre.append(sorted(relaxation.goal) or [self.start])
        self.pre = (pre, [p[::-1] for p in pre])      # by order: max() keeps the first
        self.add = [list(a) for a in relaxation.add] + [[self.goal]]
        self.cost = list(relaxation.cost) + [0]
        self.relaxed, self.state_bytes = relaxation.relaxed, relaxation.state_bytes
        self.fast = relaxation.accelerator and relaxation.accelerator.Cut(
            facts, relaxation.pre, relaxation.add, relaxation.cost, relaxation.goal,
            relaxation.owner)
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
        self.classes = {}
        for k, c in enumerate(self.cost):
            self.classes[c] = self.classes.get(c, 0) | 1 << k
        self.shared = {}                 # operator -> mask of its copies (only if > 1)
        for copies in relaxation.copies:
            if len(copies) > 1:
                mask = sum(1 << k for k in copies)
                for k in copies:
                    self.shared[k] = mask

    def __call__(self, state: int) -> float:
        if self.fast:
            relaxed = self.state_bytes(state)
            value = partial(self.fast.value, relaxed)
        else:
            start = [*bits(self.relaxed(state)), self.start]
            value = partial(self._value, start)
        if self.descending is not None:
            return value(self.descending)
        lowest = value(False)
        if lowest == INF:                 # (reachability does not depend on the order)
            return INF
        highest = value(True)
        self.sums[0] += lowest
        self.sums[1] += highest
        self.sampled += 1
        if self.sampled == SAMPLE:
            self.descending = self.sums[1] > self.sums[0]
        return max(lowest, highest)

    def _value(self, start: list, descending: bool) -> float:
        run = _Run(self, start, descending)
        hmax, goal, classes, shared = run.hmax, self.goal, run.classes, self.shared
        if hmax[goal] == INF:
            return INF
        repair, spent = self.repair, self.spent
        if repair is None:                # trials: levels and repair by turns
            repair = spent[4] % 2
            spent[4] += 1
        total, update = 0, run.repair if repair else run.relevel
        while hmax[goal]:
            cut = run.cut()
            charge = min(c for c, mask in classes.items() if mask & cut)
            total += charge
            if shared:
                for k in bits(cut):
                    cut |= shared.get(k, 0)
            if self.repair is not None:
                update(cut, charge)
                continue
            began = process_time()
            update(cut, charge)
            spent[repair] += process_time() - began
            spent[2 + repair] += 1
            if min(spent[2], spent[3]) >= TRIALS:
                self.repair = spent[1] / spent[3] < spent[0] / spent[2]
        return total


class _Run:
    """The justification graph of one state under the current costs: h_max per fact,
    the operators hanging from each fact, the operators enabled at each level."""

    def __init__(self, lmcut: LandmarkCut, start: list, descending: bool):
        self.lm, self.start, self.descending = lmcut, start, descending
        self.pre = lmcut.pre[descending]
        size = lmcut.size
        self.classes = dict(lmcut.classes)
        self.cost = None                  # cost by operator (the repair's, made once)
        self.hmax = [INF] * size
        self.hangs = [0] * size
        self.enabled_at = {}              # level -> operators enabled at that level
        initial = set(start)
        self._explore(0, start, 0, {}, [], [f for f in range(size) if f not in initial])
        reached = compress(range(size), map(gt, repeat(INF), self.hmax))
        self.reached = sorted((f for f in reached if f not in initial and f != lmcut.goal),
                              key=self.hmax.__getitem__)  # by h_max (the cut's sweep)
        self.hung = reduce(or_, self.enabled_at.values(), 0)

    def _charge(self, cut, charge):
        """Move the operators `cut` down by `charge` in the cost classes."""
        classes = self.classes
        moves = [(c, mask & cut) for c, mask in classes.items() if mask & cut]
        for c, moved in moves:           # all out first: a class may also receive operators
            classes[c] ^= moved
        for c, moved in moves:
            left = c - charge if c - charge > 1e-9 else 0       # float costs: no dust
            classes[left] = classes.get(left, 0) | moved

    def relevel(self, cut, charge):
        """Recompute h_max above the lowest level an operator of `cut` hangs at (costs
        fell for operators hanging there or above: no fact gets below it, and those at
        it stay there)."""
        self._charge(cut, charge)
        hmax, hangs, enabled_at = self.hmax, self.hangs, self.enabled_at
        low = min(compress(hmax, map(cut.__and__, hangs)))
        facts = range(len(hmax))
        unreached = list(compress(facts, map(gt, hmax, repeat(low))))
        for fact in unreached:
            hmax[fact] = INF
            hangs[fact] = 0
        enabled, pending = 0, {}
        for level, ops in list(enabled_at.items()):
            if level > low:
                del enabled_at[level]
                continue
            enabled |= ops
            for c, mask in self.classes.items():
                if level + c >= low:
                    mask &= ops
                    if mask:
                        pending[level + c] = pending.get(level + c, 0) | mask
        layer = list(compress(facts, map(eq, hmax, repeat(low))))
        self._explore(low, [], enabled, pending, layer, unreached)

    def _explore(self, level, new, enabled, pending, layer, unreached):
        """h_max by levels: `new` facts reached at `level` (whose facts so far are
        `layer`), `enabled` operators so far, `pending` level -> operators firing then.
        Once a level is complete, its operators hang from their lowest-index (or highest)
        precondition of that level."""
        lm = self.lm
        needs, every, classes = lm.needs, lm.every, self.classes
        need, add = needs.__getitem__, lm.adds.__getitem__
        hmax, hangs = self.hmax, self.hangs
        fresh_here = 0
        while True:
            if not new:
                if fresh_here:
                    self.enabled_at[level] = self.enabled_at.get(level, 0) | fresh_here
                    for fact in sorted(layer, reverse=self.descending):
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
                fresh_here = 0
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

    def repair(self, cut, charge):
        """h_max after the costs of the operators `cut` fell by `charge`: a Dijkstra from
        their effects that got cheaper; each fact settled lower re-hangs the operators
        hanging from it and passes on those whose h_max fell."""
        self._charge(cut, charge)
        hmax, hangs, pre, add = self.hmax, self.hangs, self.pre, self.lm.add
        cost = self.cost
        if cost is None:
            cost = self.cost = self.lm.cost[:]
        heap, before, at = [], hmax[:], hmax.__getitem__
        for k in bits(cut):
            left = cost[k] - charge
            cost[k] = reach = left if left > 1e-9 else 0
            reach += max(map(at, pre[k]))
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
        self.enabled_at = None            # (the levels' bookkeeping is not kept)

    def cut(self) -> int:
        """The operators leading from the state's side into the goal zone."""
        lm, hmax, hangs, pre = self.lm, self.hmax, self.hangs, self.pre
        adds, at, zero = lm.adds, hmax.__getitem__, self.classes.get(0, 0)
        zone, wave, seen, reached = {lm.goal}, [lm.goal], 0, self.reached
        while wave:                       # the zone: supporters of zero-cost achievers
            ops = 0
            for fact in wave:
                ops |= adds[fact]
            ops &= zero & ~seen
            seen |= ops
            wave = []
            if ops.bit_count() * 8 > len(reached):   # many: scan the facts instead
                hit = map(ops.__and__, map(hangs.__getitem__, reached))
                wave = [fact for fact in compress(reached, hit) if fact not in zone]
                zone.update(wave)
                continue
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
        ops = reduce(or_, map(hangs.__getitem__, self.start)) & free
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
        return touch & self.hung & ~reduce(or_, map(hangs.__getitem__, zone), beyond)
