"""The grounded planning task: facts are bits of a Python int, a state is the int of the
facts that hold, an operator is four masks (required, required absent, added, deleted),
a cost and its conditional effects (each four masks: conditions, absent conditions,
adds, deletes; all tested on the state before the operator, deletes before adds).
Derived facts are bits too: `axioms` (per stratum, (head bit, body mask, absent body
mask)) recompute them after each operator (`planners.grounding.axioms`).  A `Task` is a
`framework.search.problem.SearchProblem`, so every shared single-agent searcher runs on
it; its actions are operator indices.
"""
from __future__ import annotations

from framework.records import dataclass, field   # the dataclasses module's, made cheaply
from planners.heuristics.relaxation import Relaxation, make_heuristic
from planners.grounding.axioms import compile_axioms, with_axioms
from planners.grounding.successors import compile_successors
from planners.landmarks.lmcp import LandmarkCostPartitioning


@dataclass(frozen=True, slots=True)
class Operator:
    name: str          # canonical text, e.g. "(pick-up a)" or "Move(A, C)"
    pre: int           # facts that must hold
    absent: int        # facts that must not hold (negative preconditions)
    add: int
    delete: int        # never overlaps `add` (an added fact wins)
    cost: float = 1
    effects: tuple = ()    # conditional effects: (pre, absent, add, delete) masks


@dataclass
class Task:
    name: str
    facts: list[str]
    operators: list[Operator]
    initial: int
    goal: int
    goal_absent: int = 0
    axioms: list = field(default_factory=list)    # strata of (head bit, pre, absent)
    successor_source: str = field(default="", repr=False)

    def __post_init__(self):
        self.successor_source, self.successors = compile_successors(self.operators)
        if self.axioms:
            self.derive = compile_axioms(self.axioms)
            self.initial = self.derive(self.initial)
            self.successors = with_axioms(self.successors, self.derive)
        self.unit_cost = all(op.cost == 1 for op in self.operators)

    # -- the SearchProblem protocol -----------------------------------------------------
    def initial_state(self) -> int:
        return self.initial

    def is_goal(self, state: int) -> bool:
        return state & self.goal == self.goal and not state & self.goal_absent

    # successors(state) -> [(operator index, next state, cost)] is compiled in __post_init__

    def action_text(self, op: int) -> str:
        return self.operators[op].name

    def heuristic(self, name: str):
        """The heuristic function `name` (blind, hmax, lmcut, lmcp, hadd, hff) of this task
        (lmcp: `planners.landmarks.lmcp`, whose value depends on the path to the state)."""
        if name == "lmcp":
            return LandmarkCostPartitioning(self)
        return make_heuristic(self, name)

    def preferred_heuristic(self, name: str):
        """state -> (estimate, preferred operators): h_FF with its helpful actions, or
        None when the heuristic `name` has no preferred operators."""
        return Relaxation(self).h_ff_preferred if name == "hff" else None
