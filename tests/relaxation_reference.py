"""The relaxed exploration written plainly as Fast Downward's h_add exploration runs it
(`additive_heuristic.cc`: a bucket queue whose buckets are stacks, so of facts of equal
cost the one reached last settles first; a fact's supporter is the first operator that
reaches it at its cost), kept as the reference that defines the supporters (and so the
relaxed plans and preferred operators) the optimised explorations must reproduce.  The
start fact settles first, then the state's facts from the highest index down (pushed in
index order).  It reads only a `Relaxation`'s relaxed task (pre, add, cost, users,
goal).  Also the random-walk states the test and benchmarks/bench_relaxed.py evaluate."""
from __future__ import annotations

import random

from framework.runtime import bits

INF = float("inf")


def explore(relaxation, state: int, use_max: bool, until_goals: bool = True):
    """(cost per fact, supporter per fact, every goal reached), as
    `Relaxation.explore`."""
    r = relaxation
    dist, supporter = [INF] * (r.facts + 1), [-1] * (r.facts + 1)
    waiting = [len(p) or 1 for p in r.pre]
    so_far = [0] * len(r.pre)
    stacks = {0: [*bits(r.relaxed(state)), r.start]}     # cost -> stack (top last)
    for fact in stacks[0]:
        dist[fact] = 0
    goals_left = len(r.goal)
    while stacks and (goals_left or not until_goals):
        d = min(stacks)
        fact = stacks[d].pop()
        if not stacks[d]:
            del stacks[d]
        if d > dist[fact]:
            continue
        goals_left -= fact in r.goal
        for k in r.users[fact]:
            so_far[k] += d
            waiting[k] -= 1
            if waiting[k] == 0:
                reach = (d if use_max else so_far[k]) + r.cost[k]
                for new in r.add[k]:
                    if reach < dist[new]:
                        dist[new], supporter[new] = reach, k
                        stacks.setdefault(reach, []).append(new)
    return dist, supporter, not goals_left


def relaxed_plan(relaxation, state: int):
    """(h_FF, the relaxed operators of the relaxed plan) through the supporters."""
    r = relaxation
    _, supporter, reached = explore(r, state, use_max=False)
    if not reached:
        return INF, set()
    chosen, open_facts = set(), [g for g in r.goal if supporter[g] >= 0]
    while open_facts:
        k = supporter[open_facts.pop()]
        if k not in chosen:
            chosen.add(k)
            open_facts += [f for f in r.pre[k] if supporter[f] >= 0]
    return sum(r.op_cost[o] for o in {r.owner[k] for k in chosen} if o >= 0), chosen


def preferred(relaxation, state: int) -> set:
    """The owners of the relaxed plan's operators applicable in `state`."""
    relaxed = relaxation.relaxed(state)
    return {relaxation.owner[k] for k in relaxed_plan(relaxation, state)[1]
            if relaxation.owner[k] >= 0
            and relaxed & relaxation.pre_mask[k] == relaxation.pre_mask[k]}


def walk_ends(task, count: int, seed: int = 0, longest: int = 60) -> list[int]:
    """The last states of `count` random walks (of fewer than `longest` steps) from the
    initial state."""
    rng, ends = random.Random(seed), []
    for _ in range(count):
        state = task.initial
        for _ in range(rng.randrange(longest)):
            children = [child for _, child, _ in task.successors(state)]
            if not children:
                break
            state = rng.choice(children)
        ends.append(state)
    return ends
