"""Derived facts of a grounded task: the axioms (ground rules of derived predicates),
stratified, evaluated to a fixpoint stratum by stratum from the non-derived facts of a
state.  A rule fires when its body facts hold and its absent body facts do not; a rule
of a stratum only tests the absence of facts of lower strata, which are complete by
then, so the result is the stratified (perfect-model) semantics of PDDL 2.2.

A stratum is evaluated by counting (as Fast Downward's axiom evaluator): every rule
waits for as many facts as its body has; the body facts true when the stratum starts,
then each fact the stratum derives, count down the rules they are in, and a rule whose
count reaches zero fires (its absent facts tested then).  Each rule is looked at once
per body fact instead of once per sweep over the stratum until nothing changes (optical
telegraphs p02, 354 rules: ~3 ms a state by sweeps).
"""
from __future__ import annotations

from framework.runtime import bits


def _stratum(layer: list[tuple[int, int, int]]) -> tuple:
    """(waiting count per rule, head per rule, absent mask per rule, rules per body fact,
    mask of the body facts, the rules without body facts that test an absence, the
    heads of those that test nothing: true in every state) of one stratum."""
    need, heads, absents, users, free, always = [], [], [], {}, [], 0
    for r, (head, pre, absent) in enumerate(layer):
        body = bits(pre)
        need.append(len(body))
        heads.append(head)
        absents.append(absent)
        for fact in body:
            users.setdefault(fact, []).append(r)
        if not body and absent:
            free.append(r)
        elif not body:
            always |= head
    watched = 0
    for fact in users:
        watched |= 1 << fact
    return need, heads, absents, users, watched, free, always


def constant_facts(strata: list[list[tuple[int, int, int]]]) -> int:
    """The derived facts every state has: heads of rules that test no absence and whose
    body facts are such facts themselves (a rule over static facts only)."""
    constant = 0
    for layer in strata:
        grew = True
        while grew:
            grew = False
            for head, pre, absent in layer:
                if not absent and not pre & ~constant and head & ~constant:
                    constant |= head
                    grew = True
    return constant


def compile_axioms(strata: list[list[tuple[int, int, int]]]):
    """The function state -> state with its derived facts recomputed."""
    derived = 0
    for layer in strata:
        for head, _, _ in layer:
            derived |= head
    keep = ~derived
    # the facts every state derives are set once and taken out of the bodies: the
    # counting then starts from the facts that change (optical telegraphs p03: 1,800
    # body facts counted per state before, most of them the `aux#` of static facts)
    constant = constant_facts(strata)
    plans = [_stratum([(head, pre & ~constant, absent) for head, pre, absent in layer
                       if not head & constant and not absent & constant])
             for layer in strata]

    def derive(state: int) -> int:
        state = state & keep | constant
        for need, heads, absents, users, watched, free, always in plans:
            waiting = need[:]
            state |= always
            stack = bits(state & watched)
            for r in free:
                head = heads[r]
                if not state & head and not state & absents[r]:
                    state |= head
                    if watched & head:
                        stack.append(head.bit_length() - 1)
            while stack:
                for r in users[stack.pop()]:
                    waiting[r] -= 1
                    if waiting[r]:
                        continue
                    head = heads[r]
                    if not state & head and not state & absents[r]:
                        state |= head
                        if watched & head:
                            stack.append(head.bit_length() - 1)
        return state

    return derive


def with_axioms(successors, derive):
    """`successors` with the derived facts of every successor state recomputed."""
    def successors_with_axioms(state: int):
        return [(op, derive(child), cost) for op, child, cost in successors(state)]
    return successors_with_axioms
