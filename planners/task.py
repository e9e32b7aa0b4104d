"""The grounded planning task: facts are bits of a Python int, a state is the int of the
facts that hold, an operator is four masks (required, required absent, added, deleted)
and a cost.  A `Task` is a `framework.search.problem.SearchProblem`, so every shared
single-agent searcher runs on it; its actions are operator indices.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Operator:
    name: str          # canonical text, e.g. "(pick-up a)" or "Move(A, C)"
    pre: int           # facts that must hold
    absent: int        # facts that must not hold (negative preconditions)
    add: int
    delete: int        # never overlaps `add` (an added fact wins)
    cost: float = 1

    def applicable(self, state: int) -> bool:
        return state & self.pre == self.pre and not state & self.absent

    def apply(self, state: int) -> int:
        return state & ~self.delete | self.add


@dataclass
class Task:
    name: str
    facts: list[str]
    operators: list[Operator]
    initial: int
    goal: int
    goal_absent: int = 0
    solvable_relaxed: bool = True    # False: relaxed reachability already proves no plan
    successor_source: str = field(default="", repr=False)

    def __post_init__(self):
        from planners.successors import compile_successors
        self.successor_source, self.successors = compile_successors(self.operators)
        self.unit_cost = all(op.cost == 1 for op in self.operators)
        self._index = {op.name: i for i, op in enumerate(self.operators)}

    # -- the SearchProblem protocol -----------------------------------------------------
    def initial_state(self) -> int:
        return self.initial

    def is_goal(self, state: int) -> bool:
        return state & self.goal == self.goal and not state & self.goal_absent

    # successors(state) -> [(operator index, next state, cost)] is compiled in __post_init__

    def action_text(self, op: int) -> str:
        return self.operators[op].name

    def parse_action(self, text: str) -> int:
        """The operator index of an action's canonical text (KeyError if unknown)."""
        return self._index[text]

    def heuristic(self, name: str):
        """The heuristic function `name` (blind, hmax, hadd, hff) of this task."""
        from planners.heuristics import make_heuristic
        return make_heuristic(self, name)

    # -- display ------------------------------------------------------------------------
    def state_facts(self, state: int) -> list[str]:
        return [name for i, name in enumerate(self.facts) if state >> i & 1]

    def describe(self) -> dict:
        return {"task": self.name, "facts": len(self.facts), "operators": len(self.operators),
                "unit_cost": self.unit_cost}
