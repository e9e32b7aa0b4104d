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
   enabled operator hangs from its supporter, its precondition of highest h_max (ties by
   the order: the lowest fact index, or the highest), and fires at level + its cost
   (`hangs`: fact -> operators);

then while h_max(GOAL) > 0:

2. the goal zone: the facts from which GOAL is reached through zero-cost operators
   hanging from them, grown backwards from GOAL (a stack; a fact's achievers by index).
   A zero-cost achiever hangs, for the round, from its parent: among its preconditions as
   high as its supporter, the lowest fact already in the zone, else the lowest none of
   whose achievers is free, else its supporter (Fast Downward 26's goal zone and border
   detection, its default since issue1228: on freecell task03 it expands 200 states
   with them, 103,828 without; docs/planning.md);
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

The graph and its updates are planners/heuristics/lmcut_graph.py's.  Every loop runs over facts (tens to hundreds), each step an AND/OR of operator masks,
except the repair's, over the operators it re-hangs.
The third order, `LAST`, is Fast Downward's rule of its first h_max exploration: the
facts settle from a heap whose equal costs come out last in, first out (the state's facts
and START put in by index), and an operator hangs from the precondition whose settling
released it (its effects put in, in order, where they get cheaper).  `Settled` applies
it from scratch every round (Fast Downward updates h_max incrementally after a cut and
keeps a supporter until another precondition rises above it: not copied here).
The tie-breaking makes the value a function of the state and the order alone (a
from-scratch reference with the same rules gives the same numbers; tests/test_lmcut.py).
With the C accelerator (`relaxation.Relaxation.accelerator`: integer costs), LM-cut runs
in C (`_plyspec_relax.Cut`: h_max by a Dijkstra in the first round, then lowered
incrementally from the charged operators' effects, as Fast Downward does; `LAST`
settles again each round) with the same values (tests/test_relaxed_accelerator.py); the
order's choice stays here.  Which order pays depends on the domain (A* expansions,
lowest first / highest first: openstacks task02 341 / 6799, freecell task02 16873 /
2551; depot task03: 21,412 with the better of those two, 6,100 with `LAST`), so by
default the first `SAMPLE` states evaluated get the largest of the three values and
decide: the order whose sum was largest serves every later state.  (Always the largest
of the three, or always `LAST`, cost more time on the IPC tasks measured:
docs/planning-benchmarks.md.)  The sum of the charges is admissible under any order, and
so is their maximum; a relaxed-unreachable goal gives `inf`.
"""
from __future__ import annotations

from functools import partial
from time import process_time

from framework.runtime import bits
from planners.heuristics.lmcut_graph import INF, Run, Settled
SAMPLE = 20                       # states that choose the tie-breaking order
TRIALS = 100                      # cuts timed per h_max update (levels, repair)
LOWEST, HIGHEST, LAST = ORDERS = range(3)     # supporters' tie-breaking orders
CUT_RULES = 2     # the accelerator's goal zone: 2 = zero-cost operators choose their parent


def current(accelerator) -> bool:
    """Whether a `_plyspec_relax` build follows this module's tie orders and goal zone."""
    return getattr(accelerator, "CUT_ORDERS", 0) == len(ORDERS) and \
        getattr(accelerator, "CUT_RULES", 1) == CUT_RULES


class LandmarkCut:
    def __init__(self, relaxation, order: int | None = None, repair: bool | None = None):
        """`order`: ties between supporters go to the lowest fact index (`LOWEST`, 0),
        the highest (`HIGHEST`, 1) or the fact settled last (`LAST`, 2: Fast
        Downward's); None: the first `SAMPLE` states choose (module docstring).
        `repair`: h_max is repaired after a cut (else recomputed by levels; neither
        serves `LAST`); None: the faster on the first `TRIALS` cuts of each."""
        self.order, self.repair = order, repair
        self.sampled, self.sums = 0, [0] * len(ORDERS)  # sampled states; sums by order
        self.spent = [0.0, 0.0, 0, 0, 0]  # seconds by levels, by repair; their cuts; states
        facts = relaxation.facts
        self.start, self.goal = facts, facts + 1
        pre = [sorted(p) or [self.start] for p in relaxation.pre]
        pre.append(sorted(relaxation.goal) or [self.start])
        self.pre = (pre, [p[::-1] for p in pre])      # by order: max() keeps the first
        self.users = None                 # fact -> operators needing it (`LAST`'s)
        self.add = [list(a) for a in relaxation.add] + [[self.goal]]
        self.cost = list(relaxation.cost) + [0]
        self.relaxed, self.state_bytes = relaxation.relaxed, relaxation.state_bytes
        fast = relaxation.accelerator          # (a build of older rules: not used)
        self.fast = fast.Cut(facts, relaxation.pre, relaxation.add, relaxation.cost,
                             relaxation.goal, relaxation.owner) \
            if current(fast) else None
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
        if self.order is not None:
            return value(self.order)
        first = value(LOWEST)
        if first == INF:                  # (reachability does not depend on the order)
            return INF
        values = [first, *map(value, ORDERS[1:])]
        self.sums = list(map(sum, zip(self.sums, values)))
        self.sampled += 1
        if self.sampled == SAMPLE:        # (equal sums: the first order)
            self.order = self.sums.index(max(self.sums))
        return max(values)

    def _value(self, start: list, order: int) -> float:
        run = Settled(self, start) if order == LAST else Run(self, start, order)
        hmax, goal, classes, shared = run.hmax, self.goal, run.classes, self.shared
        if hmax[goal] == INF:
            return INF
        repair, spent = self.repair, self.spent
        if order == LAST:
            repair = True                 # (`Settled.repair` settles again)
        elif repair is None:              # trials: levels and repair by turns
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
            if self.repair is not None or order == LAST:
                update(cut, charge)
                continue
            began = process_time()
            update(cut, charge)
            spent[repair] += process_time() - began
            spent[2 + repair] += 1
            if min(spent[2], spent[3]) >= TRIALS:
                self.repair = spent[1] / spent[3] < spent[0] / spent[2]
        return total

