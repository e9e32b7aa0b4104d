"""The landmark-cut heuristic (Helmert & Domshlak 2009), computed bit-parallel over
operators.

The relaxed operators (from `heuristics.Relaxation`) get an artificial START fact (the
precondition of operators that have none) and an artificial GOAL fact (added by a
zero-cost operator needing every goal).  Sets of relaxed operators are Python ints (bit k:
operator k), precomputed once per fact: the operators it is a precondition of (`needs`)
and the operators adding it (`adds`); operators are grouped by their current cost into
masks (`classes`, cost -> mask).  Per state, while h_max(GOAL) > 0:

1. h_max by cost levels: the facts of one level enable the operators all of whose
   preconditions are now reached (the complement of what the unreached facts need); each
   enabled operator hangs from its supporter, its precondition of highest h_max (ties:
   the lowest fact index), and fires at level + its cost;
2. the goal zone: the facts from which GOAL is reached through zero-cost operators
   hanging from them;
3. the cut: the operators hanging from facts reached from the state without entering the
   zone, with an effect in the zone; the cheapest cost in the cut is charged to all of it
   (an operator's conditional-effect copies share its cost) and added to h;
4. h_max is recomputed only above the lowest level the charged operators hang from
   (nothing below it changes).

Every loop runs over facts (tens to hundreds), each step an AND/OR of operator masks.
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
from itertools import compress, repeat
from operator import eq, gt, not_, or_

from framework.runtime import bits

INF = float("inf")
SAMPLE = 20                       # states that choose the tie-breaking order


class LandmarkCut:
    def __init__(self, relaxation, descending: bool | None = None):
        """`descending`: ties go to the highest fact index (else the lowest); None:
        the first `SAMPLE` states choose (module docstring)."""
        self.descending = descending
        self.sampled, self.sums = 0, [0, 0]   # sampled states; their values' sums by order
        facts = relaxation.facts
        self.start, self.goal = facts, facts + 1
        pre = [p or [self.start] for p in relaxation.pre] + [relaxation.goal or [self.start]]
        add = list(relaxation.add) + [[self.goal]]
        cost = list(relaxation.cost) + [0]
        self.pre = pre
        self.relaxed = relaxation.relaxed
        self.size = facts + 2
        self.every = (1 << len(pre)) - 1
        self.needs = [0] * self.size
        self.adds = [0] * self.size
        for k, fact_list in enumerate(pre):
            for fact in fact_list:
                self.needs[fact] |= 1 << k
        for k, fact_list in enumerate(add):
            for fact in fact_list:
                self.adds[fact] |= 1 << k
        self.classes = {}
        for k, c in enumerate(cost):
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
        run = _Run(self, start, descending)
        if run.hmax[self.goal] == INF:
            return INF
        classes, pre, shared = run.classes, self.pre, self.shared
        total = 0
        while run.hmax[self.goal]:
            cut, low = run.cut()
            charge = min(c for c, mask in classes.items() if mask & cut)
            total += charge
            if shared:
                for k in bits(cut):
                    cut |= shared.get(k, 0)
                for k in bits(cut):      # a copy may hang lower than the cut does
                    low = min(low, max(map(run.hmax.__getitem__, pre[k])))
            moves = [(c, mask & cut) for c, mask in classes.items() if mask & cut]
            for c, moved in moves:       # all out first: a class may also receive operators
                classes[c] ^= moved
            for c, moved in moves:
                left = c - charge if c - charge > 1e-9 else 0       # float costs: no dust
                classes[left] = classes.get(left, 0) | moved
            run.explore_from(low)
        return total


class _Run:
    """The justification graph of one state under the current costs: h_max per fact,
    the operators hanging from each fact, the operators enabled at each level."""

    def __init__(self, lmcut: LandmarkCut, start: list, descending: bool):
        self.lm, self.start, self.descending = lmcut, start, descending
        self.reached = None               # the reached facts outside the state
        size = lmcut.size
        self.classes = dict(lmcut.classes)
        self.hmax = [INF] * size
        self.hangs = [0] * size
        self.enabled_at = {}              # level -> operators enabled at that level
        initial = set(start)
        self.unreached = [f for f in range(size) if f not in initial]
        self._explore(0, start, 0, {}, [])

    def explore_from(self, low):
        """Recompute h_max above level `low` (costs fell for operators hanging at `low`
        or above: no fact gets below `low`, and those at `low` stay there)."""
        hmax, hangs, enabled_at = self.hmax, self.hangs, self.enabled_at
        facts = range(len(hmax))
        self.unreached = unreached = list(compress(facts, map(gt, hmax, repeat(low))))
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
        self._explore(low, [], enabled, pending, layer)

    def _explore(self, level, new, enabled, pending, layer):
        """h_max by levels: `new` facts reached at `level` (whose facts so far are
        `layer`), `enabled` operators so far, `pending` level -> operators firing then.
        Once a level is complete, its operators hang from their lowest-index (or highest)
        precondition of that level."""
        lm = self.lm
        needs, every, classes = lm.needs, lm.every, self.classes
        need, add = needs.__getitem__, lm.adds.__getitem__
        hmax, unreached = self.hmax, self.unreached
        fresh_here = 0
        while True:
            if not new:
                if fresh_here:
                    self._hang(layer, fresh_here)
                done = level
                while pending and not new:
                    level = min(pending)
                    fired = pending.pop(level)
                    hit = list(map(fired.__and__, map(add, unreached)))
                    new = list(compress(unreached, hit))
                if not new:
                    self.unreached = unreached
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

    def _hang(self, layer: list, fresh: int):
        """Hang the operators `fresh`, enabled at the level of the facts `layer`, from
        their lowest-index precondition of that level (highest-index if descending)."""
        needs, hangs = self.lm.needs, self.hangs
        level = self.hmax[layer[0]]
        self.enabled_at[level] = self.enabled_at.get(level, 0) | fresh
        for fact in sorted(layer, reverse=self.descending):
            mask = fresh & needs[fact]
            if mask:
                hangs[fact] |= mask
                fresh ^= mask
                if not fresh:
                    return

    def cut(self) -> tuple[int, float]:
        """(the operators leading from the state's side into the goal zone, the lowest
        h_max they hang at)."""
        lm, hmax, hangs, start = self.lm, self.hmax, self.hangs, self.start
        adds, zero = lm.adds, self.classes.get(0, 0)
        zone, wave = {lm.goal}, [lm.goal]
        if self.reached is None:          # reachability does not change with costs
            self.reached = {f for f, h in enumerate(hmax) if h < INF}.difference(start)
            self.reached.discard(lm.goal)
        rest = self.reached.copy()
        while wave:
            ops = 0
            for fact in wave:
                ops |= adds[fact]
            ops &= zero
            wave = [fact for fact in rest if hangs[fact] & ops] if ops else []
            zone.update(wave)
            rest.difference_update(wave)
        touch = 0
        for fact in zone:
            touch |= adds[fact]
        cut, wave, low = 0, start, INF
        while wave:
            ops = 0
            for fact in wave:
                ops |= hangs[fact]
            if ops & touch:
                cut |= ops & touch
                low = min(low, *compress(map(hmax.__getitem__, wave),
                                         map(touch.__and__, map(hangs.__getitem__, wave))))
            ops &= ~touch
            wave = [fact for fact in rest if adds[fact] & ops] if ops else []
            rest.difference_update(wave)
        return cut, low
