"""The one AST both front-ends (YAML and the `.game` grammar) produce.

Every node carries a `Pos` (file, line, column, source line) so the checker and the
compiler can point at the exact spot of a mistake.  Expressions and effects are small
frozen dataclasses; `GameSpec` is the whole game.
"""
from __future__ import annotations

from typing import Any

from framework.records import dataclass, field   # the dataclasses module's, made cheaply


@dataclass(frozen=True)
class Pos:
    file: str | None = None
    line: int | None = None
    col: int | None = None
    end_col: int | None = None
    source_line: str | None = None

    def __repr__(self):
        return f"{self.file}:{self.line}:{self.col}"


NOPOS = Pos()


def _node(cls):
    """Dataclass for AST nodes: frozen, with `pos` last, excluded from equality."""
    return dataclass(frozen=True, eq=True)(cls)


# ----------------------------------------------------------------------- expressions
@_node
class Num:
    value: int | float
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Name:
    id: str
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Call:
    func: str
    args: tuple
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Index:
    base: Any
    index: Any
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class TupleExpr:
    items: tuple
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class ListExpr:
    items: tuple
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Unary:
    op: str                 # "-" | "not"
    operand: Any
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Binary:
    op: str                 # + - * / // % == != < <= > >= in notin and or & | 
    left: Any
    right: Any
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Cond:
    test: Any
    then: Any
    else_: Any
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Range:
    lo: Any
    hi: Any                 # inclusive
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Quant:
    kind: str               # exists | forall | count | sum | min | max
    var: str
    domain: Any             # Name (a type: cell, player, enum), Range, or a set expression
    body: Any
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


# ----------------------------------------------------------------------- effects
@_node
class Assign:
    target: Any             # Name or Index
    op: str                 # "=" | "+=" | "-="
    value: Any
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class IfEffect:
    test: Any
    then: tuple
    else_: tuple = ()
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class ForEffect:
    var: str
    domain: Any
    body: tuple
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class LetEffect:
    """`let x = E`: a local variable of the effects, in scope to the end of its block;
    it may be reassigned there (`x = E`, `x += E`) and is gone when the action ends."""
    name: str
    value: Any
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class ContinueEffect:
    """`continue step(a, b)`: the move goes on with a step of the same player (a compound
    move); `args` fix the step's first parameters, the others are chosen."""
    step: str
    args: tuple
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


# ----------------------------------------------------------------------- declarations
@_node
class TypeRef:
    """bool | int (with lo..hi) | player | cell | cellset | an enumeration's values."""
    kind: str               # "bool" | "int" | "player" | "cell" | "cellset" | "enum"
    lo: Any = None          # int: bound expressions
    hi: Any = None
    values: tuple = ()      # enum: value names
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Option:
    name: str
    default: Any            # int | bool | float | tuple of ints
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Board:
    """A grid (`width` x `height`), or a graph board (`points`; width and height None):
    named points (rows of `Name`s, as drawn), `links` (paths: `TupleExpr`s of two or more
    point `Name`s, each consecutive pair linked) and named `lines` (`GraphLine`)."""
    name: str
    width: Any
    height: Any
    values: tuple           # cell value names; the first listed `initial` is the default
    initial: str
    pos: Pos = field(default=NOPOS, compare=False, repr=False)
    points: tuple = ()      # graph board: tuples of point Names, one per drawn row
    links: tuple = ()       # graph board: TupleExpr paths of point Names
    lines: tuple = ()       # graph board: GraphLine


@_node
class GraphLine:
    """A named line of a graph board (`lines: {NAME: [p, q, r]}`): its points in order."""
    name: str
    points: tuple           # point Names
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Directions:
    """`directions: {NAME: [[dx, dy], ...]}`: a named set of steps on the board, usable
    wherever a built-in direction set is (neighbors, slide, between, connected, group, ...)."""
    name: str
    steps: tuple            # (dx, dy) pairs as written (the checker validates them)
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Variable:
    name: str
    type: TypeRef
    initial: Any            # expression (ListExpr for arrays)
    per_player: bool = False
    size: Any = None        # expression: a list variable of that many elements
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Define:
    """`name(p, q): EXPR`, or an effect definition `name(p, q): {then: EFFECTS}` (body None):
    a block of effects an action runs by the effect `name(a, b)` (an `ast.Call` among its
    effects), with each parameter a local variable holding its argument's value."""
    name: str
    params: tuple           # parameter names
    body: Any
    pos: Pos = field(default=NOPOS, compare=False, repr=False)
    effects: tuple | None = None


@_node
class Param:
    name: str
    domain: Any             # Name of a type (cell, player, an enum) or Range
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class ChanceVar:
    name: str               # an outcome variable bound in the effects
    domain: Any
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class ChanceSpec:
    variables: tuple        # ChanceVar: the outcome is one value of each
    probability: tuple      # (): uniform over each domain; one expression: the joint
                            # probability; one per variable: theirs, multiplied
    pos: Pos = field(default=NOPOS, compare=False, repr=False)

    @property
    def var(self) -> str:
        return self.variables[0].name

    @property
    def domain(self):
        return self.variables[0].domain


@_node
class Action:
    name: str
    params: tuple           # Param
    precondition: Any       # expression or None
    effects: tuple
    chance: ChanceSpec | None = None
    noisy: Any = None       # expression: quiescence search extends these moves
    step: bool = False      # a step of compound moves only (`continue NAME(...)`), not a move
    legal_after: Any = None  # expression: the move is legal only if it holds in the position it leaves
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class Feature:
    name: str
    weight: Any             # number
    value: Any              # expression (may use `me`)
    pos: Pos = field(default=NOPOS, compare=False, repr=False)


@_node
class EndRule:
    """`repetition` (what a repeated position means) or `max_moves` (a move-count limit):
    `result` is `draw`, `loss` (for the player whose move triggers the rule), for
    repetition only `forbidden`, or `winner` / `utility`: the game ends scored by the
    expression `outcome` on the final position; `count` is the occurrence that triggers a
    repetition rule (None: the second) or the number of moves of a limit; `over` (repetition
    only) the Names of the parts of the state that make a position (() : all of it)."""
    result: str
    count: Any = None       # expression
    pos: Pos = field(default=NOPOS, compare=False, repr=False)
    over: tuple = ()        # Name: `board`, `mover` or a state variable
    outcome: Any = None     # expression: the winner or the utility when result is winner / utility


@dataclass
class GameSpec:
    name: str
    players: tuple                              # player names
    options: tuple = ()                         # Option
    board: Board | None = None
    directions: tuple = ()                      # Directions: the spec's own direction sets
    variables: tuple = ()                       # Variable
    defines: tuple = ()                         # Define
    actions: tuple = ()                         # Action
    init: tuple = ()                            # effects run on the initial state
    turn: Any = None                            # expression: next player (default next(mover))
    pass_rule: bool = False                     # a mover without actions passes
    terminal: Any = None
    goal: Any = None                            # 1-player puzzles: terminal when reached
    utility: Any = None                         # expression (zero-sum / `me`) | dict player -> expr
    winner: Any = None                          # expression: the winning player or `none`
    utility_bounds: tuple | None = None         # (lo, hi) numbers
    zero_sum: bool | None = None
    constant_sum: Any = None                    # number: the utilities always sum to it
    evaluation: tuple = ()                      # Feature
    display: tuple = ()                         # (value name, symbol) pairs
    symmetries: tuple = ()                      # names: rotate, reflect, all
    max_length: Any = None
    repetition: Any = None                      # EndRule: what a repeated position means
    max_moves: Any = None                       # EndRule: the game ends after count moves
    prefer: str | None = None                   # "longest": only the moves with the most steps
    file: str | None = None
    pos: Pos = NOPOS
    positions: dict = field(default_factory=dict, compare=False, repr=False)  # section -> Pos


def any_effect(effects, test) -> bool:
    """Whether `test(effect)` holds for some effect of a block, inside `if` and `for` too."""
    return first_effect(effects, test) is not None


def first_effect(effects, test):
    """The first effect of a block (inside `if` and `for` too) for which `test` holds, or None."""
    for e in effects:
        if test(e):
            return e
        inner = (e.then + e.else_) if isinstance(e, IfEffect) else e.body if isinstance(e, ForEffect) else ()
        found = first_effect(inner, test)
        if found is not None:
            return found
    return None
