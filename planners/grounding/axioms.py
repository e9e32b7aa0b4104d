"""Derived facts of a grounded task: the axioms (ground rules of derived predicates),
stratified, evaluated to a fixpoint stratum by stratum from the non-derived facts of a
state.  A rule fires when its body facts hold and its absent body facts do not; a rule
of a stratum only tests the absence of facts of lower strata, which are complete by
then, so the result is the stratified (perfect-model) semantics of PDDL 2.2.
"""
from __future__ import annotations


def compile_axioms(strata: list[list[tuple[int, int, int]]]):
    """The function state -> state with its derived facts recomputed."""
    derived = 0
    for layer in strata:
        for head, _, _ in layer:
            derived |= head
    keep = ~derived

    def derive(state: int) -> int:
        state &= keep
        for layer in strata:
            left = layer
            while left:
                rest = []
                for rule in left:
                    head, pre, absent = rule
                    if state & head:
                        continue
                    if state & pre == pre and not state & absent:
                        state |= head
                    else:
                        rest.append(rule)
                if len(rest) == len(left):
                    break
                left = rest
        return state

    return derive


def with_axioms(successors, derive):
    """`successors` with the derived facts of every successor state recomputed."""
    def successors_with_axioms(state: int):
        return [(op, derive(child), cost) for op, child, cost in successors(state)]
    return successors_with_axioms
