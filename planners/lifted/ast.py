"""The planning AST: one lifted planning problem (domain and problem together), whatever
front-end it came from (PDDL or a YAML planning spec).

Every node carries a `Pos` so that the checker, the grounder and the validator can point
at the exact place of a mistake (file:line:col, the source line, a caret and a hint).
Names are kept as written; the PDDL front-end lower-cases them because PDDL is
case-insensitive, while YAML specs are case-sensitive.
"""
from __future__ import annotations

from framework.records import dataclass, field   # the dataclasses module's, made cheaply
from framework.errors import SpecError

ROOT_TYPE = "object"


def either_type(members) -> str:
    """The type name of PDDL's `(either a b ...)`: the union of its member types, named by
    its own (sorted) text so that it prints back as valid PDDL."""
    return "(either " + " ".join(sorted(set(members))) + ")"


def either_members(name: str) -> tuple[str, ...] | None:
    """The member types of an `either_type` name, or None for a plain type."""
    return tuple(name[len("(either "):-1].split()) if name.startswith("(either ") else None


@dataclass(frozen=True)
class Pos:
    """A place in a source file (1-based line and column) and the text of that line."""
    file: str
    line: int
    col: int
    source_line: str | None = None
    end_col: int | None = None

    def error(self, message: str, hint: str | None = None) -> SpecError:
        return SpecError(message, file=self.file, line=self.line, col=self.col,
                         source_line=self.source_line, hint=hint, end_col=self.end_col)


@dataclass(frozen=True)
class Term:
    """An object name or an action parameter (a variable)."""
    name: str
    pos: Pos
    variable: bool = False

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Param:
    """A typed parameter of a predicate, action or function."""
    name: str
    type: str
    pos: Pos


@dataclass(frozen=True)
class Atom:
    """`predicate(args...)`; a fact when every argument is an object."""
    predicate: str
    args: tuple[Term, ...]
    pos: Pos


@dataclass(frozen=True)
class Literal:
    """A possibly negated atom in a precondition or goal."""
    atom: Atom
    positive: bool = True


@dataclass(frozen=True)
class Equality:
    """`x == y` (positive) or `x != y` between parameters and/or objects."""
    left: Term
    right: Term
    positive: bool
    pos: Pos


Condition = Literal | Equality


@dataclass(frozen=True)
class FunctionTerm:
    """A cost function applied to arguments, as in PDDL's `(road-length ?from ?to)`."""
    function: str
    args: tuple[Term, ...]
    pos: Pos


@dataclass
class TypeDef:
    name: str
    parent: str
    pos: Pos


@dataclass
class ObjectDef:
    name: str
    type: str
    pos: Pos


@dataclass
class PredicateDef:
    name: str
    params: tuple[Param, ...]
    pos: Pos


@dataclass
class FunctionDef:
    """A numeric function of :action-costs (static values fixed in the initial state)."""
    name: str
    params: tuple[Param, ...]
    pos: Pos


@dataclass
class ActionDef:
    name: str
    params: tuple[Param, ...]
    preconditions: list[Condition]
    add: list[Atom]
    delete: list[Atom]
    cost: float | FunctionTerm | None
    pos: Pos
    condition: object = None     # an ADL precondition formula (planners.lifted.formula); then
                                 # `preconditions` is empty
    effects: list = field(default_factory=list)   # conditional / forall effects (formula.Effect)


@dataclass
class FunctionValue:
    """`(= (road-length a b) 5)` in a PDDL :init."""
    term: FunctionTerm
    value: float


@dataclass
class PlanningProblem:
    """A complete lifted planning problem: what the checker validates and the grounder
    instantiates."""
    name: str
    domain_name: str
    pos: Pos
    types: list[TypeDef] = field(default_factory=list)
    objects: list[ObjectDef] = field(default_factory=list)
    predicates: list[PredicateDef] = field(default_factory=list)
    functions: list[FunctionDef] = field(default_factory=list)
    actions: list[ActionDef] = field(default_factory=list)
    init: list[Atom] = field(default_factory=list)
    function_values: list[FunctionValue] = field(default_factory=list)
    goal: list[Literal] = field(default_factory=list)
    goal_formula: object = None      # an ADL goal formula; then `goal` is empty
    derived: list = field(default_factory=list)     # derived predicates (formula.DerivedRule)
    options: dict = field(default_factory=dict)
    action_style: str = "pddl"       # how plans print: "pddl" -> (move a b), "call" -> Move(a, b)
    positions: dict = field(default_factory=dict)    # section or `option NAME` -> Pos (YAML, .plan)
    name_uses: list = field(default_factory=list)    # (kind, name, Pos): where a type or an option is used

    def action_text(self, name: str, args) -> str:
        """The canonical text of a ground action, in this problem's style."""
        if self.action_style == "pddl":
            return "(" + " ".join([name, *args]) + ")"
        return f"{name}({', '.join(args)})" if args else name

    def fact_text(self, predicate: str, args) -> str:
        return self.action_text(predicate, args)
