"""The justification graph of one pure-Python LM-cut evaluation (planners/heuristics/lmcut.py
says the algorithm): h_max per fact, the operators hanging from each fact as bit masks,
the goal zone and the cut, and the two updates of h_max after a cut (by levels, by a
repair); `Settled` is the graph under Fast Downward's tie rule, settled from scratch."""
from __future__ import annotations

from functools import reduce
from heapq import heappop, heappush
from itertools import compress, repeat
from operator import eq, gt, not_, or_

from framework.runtime import bits

INF = float("inf")


class Run:
    """The justification graph of one state under the current costs: h_max per fact,
    the operators hanging from each fact, the operators enabled at each level."""

    def __init__(self, lmcut, start: list, descending: int):
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

    def supporter(self, k: int) -> int:
        """The fact reached operator `k` hangs from (a fact of h_max inf if unreached)."""
        return max(self.pre[k], key=self.hmax.__getitem__)

    def cut(self) -> int:
        """The operators leading from the state's side into the goal zone."""
        lm, hangs = self.lm, self.hangs
        adds, zero = lm.adds, self.classes.get(0, 0)
        zone, todo, parents = {lm.goal}, [lm.goal], {}
        while todo:                       # the zone: parents of zero-cost achievers
            ops = adds[todo.pop()] & zero & self.hung
            while ops:
                low = ops & -ops
                ops ^= low
                k = low.bit_length() - 1
                parent = parents.get(k)
                if parent is None:        # (chosen when first met)
                    supporter = self.supporter(k)
                    parent = parents[k] = self.parent(k, supporter, zone)
                    if parent != supporter:
                        hangs[supporter] ^= low
                        hangs[parent] |= low
                if parent not in zone:
                    zone.add(parent)
                    todo.append(parent)
        cut = self._cut(zone)
        for k, parent in parents.items():  # (back on their h_max supporters)
            supporter = self.supporter(k)
            if parent != supporter:
                hangs[parent] ^= 1 << k
                hangs[supporter] |= 1 << k
        return cut

    def parent(self, k: int, supporter: int, zone: set) -> int:
        """The parent in the goal zone of reached zero-cost operator `k` (Fast Downward
        26's goal zone and border detection): among its preconditions as high as its
        supporter, the lowest fact already in the zone, else the lowest none of whose
        achievers is free (the zone stops there), else its supporter."""
        at, level = self.hmax.__getitem__, self.hmax[supporter]
        ties = [q for q in self.lm.pre[0][k] if at(q) == level]
        free, adds = self.classes.get(0, 0), self.lm.adds
        inside = [q for q in ties if q in zone]
        return inside[0] if inside else next((q for q in ties if not adds[q] & free), supporter)

    def _cut(self, zone: set) -> int:
        """The operators hanging from facts reached from the state outside `zone`, with an
        effect in it."""
        hangs, adds, reached = self.hangs, self.lm.adds, self.reached
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


class Settled(Run):
    """The justification graph under `LAST`: the facts settled from a heap by (cost, last
    put in first), an operator hung from the precondition whose settling released it;
    settled again from scratch after each cut."""

    def __init__(self, lmcut, start: list):
        self.lm, self.start = lmcut, start
        self.classes = dict(lmcut.classes)
        self.cost, self.hmax = lmcut.cost[:], []
        if lmcut.users is None:
            lmcut.users = [[] for _ in range(lmcut.size)]
            for k, fact_list in enumerate(lmcut.pre[0]):
                for fact in fact_list:
                    lmcut.users[fact].append(k)
        self._settle()

    def _settle(self):
        lm, cost, initial = self.lm, self.cost, sorted(self.start)
        users, add = lm.users, lm.add
        hmax, by_fact = [INF] * lm.size, [[] for _ in range(lm.size)]
        waiting = list(map(len, lm.pre[0]))
        heap, supporter, count = [], [None] * len(waiting), 0
        for fact in initial:
            hmax[fact] = 0
            count -= 1
            heap.append((0, count, fact))
        heap.sort()
        while heap:
            level, _, fact = heappop(heap)
            if level > hmax[fact]:
                continue
            for k in users[fact]:
                waiting[k] -= 1
                if waiting[k]:
                    continue
                supporter[k] = fact
                by_fact[fact].append(k)
                reach = level + cost[k]
                for new in add[k]:
                    if reach < hmax[new]:
                        hmax[new] = reach
                        count -= 1
                        heappush(heap, (reach, count, new))
        self.hmax[:], self.supporters = hmax, supporter      # (callers hold self.hmax)
        self.hangs = [sum(1 << k for k in ops) for ops in by_fact]
        self.hung = reduce(or_, self.hangs, 0)
        skip = {*initial, lm.goal}
        self.reached = sorted((f for f in range(lm.size) if hmax[f] < INF and f not in skip),
                              key=hmax.__getitem__)

    def supporter(self, k: int) -> int:
        found = self.supporters[k]
        return self.lm.goal if found is None else found    # (unreached: GOAL, in the zone)

    def repair(self, cut, charge):
        """Charge `cut` and settle again from scratch."""
        self._charge(cut, charge)
        for k in bits(cut):
            left = self.cost[k] - charge
            self.cost[k] = left if left > 1e-9 else 0
        self._settle()
