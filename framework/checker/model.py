"""What the checker produces and the vocabulary every pass shares.

The limits (`MAX_CELLS`, `MAX_NAME`, `MAX_DOMAIN`), the direction sets and reserved names,
the builtin signatures (read from the registry, framework.builtins), the checked program
(`Checked`, `Var`, `CheckedAction`, `CheckedChance`), and the small helpers every pass
raises errors with: `err`, `check_name` (a name's spelling) and `describe` (a type in words).
"""
from __future__ import annotations

import math

from framework.records import dataclass, field   # the dataclasses module's, made cheaply
from framework import ast, builtins
from framework.errors import SpecError

MAX_CELLS = 4096            # grid size limit
MAX_NAME = 64
MAX_DOMAIN = 100_000        # largest parameter / quantifier domain
DIRECTION_SETS = {
    "orthogonal": ((1, 0), (-1, 0), (0, 1), (0, -1)),
    "diagonal": ((1, 1), (-1, -1), (1, -1), (-1, 1)),
    "queen": ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)),
    "knight": ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)),
}
DIRECTION_SETS["king"] = DIRECTION_SETS["queen"]
DIRECTION_SETS["hex"] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))   # six neighbours on a rhombus
NUMERIC = ("int", "num")
RESERVED_NAMES = ("mover", "me", "turn", "none", "true", "false", "cell", "player", "board")

# builtin functions: name -> (argument types, result type), "*" = numbers, None = variadic
# numbers; one module per family in framework.builtins holds each one's signature
BUILTINS = {b.name: b.signature for b in builtins.all()}
STATE_QUERIES = tuple(b.name for b in builtins.all() if b.state_query)


@dataclass
class Var:
    name: str
    type: str                # element type
    per_player: bool
    size: int | None         # list length (per-player: number of players)
    lo: float = -math.inf    # int bounds
    hi: float = math.inf
    initial: object = None   # checked initial expression (or tuple of them)
    enum: tuple = ()

    @property
    def is_array(self):
        return self.per_player or self.size is not None


@dataclass
class CheckedAction:
    name: str
    params: list             # [(name, domain_expr, type)]
    precondition: object
    effects: tuple
    chance: object           # CheckedChance or None
    noisy: object
    pos: ast.Pos
    step: bool = False       # a step of compound moves only (reached by `continue`)
    legal_after: object = None   # condition on the position the move leaves (mover: who moved)


@dataclass
class CheckedChance:
    variables: list          # [(name, domain, type)]: an outcome is one value of each
    each: tuple              # one probability per variable (multiplied), or ()
    joint: object            # the probability of a whole outcome, or None
    # neither `each` nor `joint`: every variable uniform over its domain

    @property
    def names(self):
        return [v[0] for v in self.variables]


@dataclass
class Checked:
    spec: ast.GameSpec
    options: dict
    players: tuple
    width: int = 0
    height: int = 0
    values: tuple = ()
    default_value: int = 0
    variables: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    init: tuple = ()
    turn: object = None
    terminal: object = None
    goal: object = None
    utility: object = None           # dict player index -> expr, or ("zero_sum", expr), or ("me", expr)
    winner: object = None
    features: list = field(default_factory=list)   # (name, weight, expr, per_player)
    max_length: int | None = None
    repetition: tuple | None = None                # (draw | loss | forbidden | winner | utility, count)
    max_moves: tuple | None = None                 # (limit, draw | loss | winner | utility): checker/endings.py
    repetition_over: tuple | None = None           # names of the parts a repetition compares: checker/endings.py
    end_scores: dict = field(default_factory=dict)  # repetition | max_moves -> (form, expr): checker/endings.py
    types: dict = field(default_factory=dict)      # id(expr node) -> type
    kinds: dict = field(default_factory=dict)      # id(Name node) -> resolution
    utility_bounds: tuple = (-math.inf, math.inf)
    zero_sum: bool = False
    constant_sum: float | None = None
    max_utility_sum: float = math.inf                # upper bound on the sum of the utilities
    display: dict = field(default_factory=dict)
    symmetries: tuple = ()
    enums: dict = field(default_factory=dict)      # value name -> (var type name, index)
    prefer: str | None = None                      # "longest": only the moves with the most steps
    directions: dict = field(default_factory=lambda: dict(DIRECTION_SETS))   # name -> (dx, dy) steps
    # id(node) -> (node, definition name, argument nodes): a definition's body as inlined at a call;
    # each argument node stands for its parameter wherever it occurs in the body (the same
    # object), so the compiler can emit a large body once as a function (compiler/outline.py)
    expansions: dict = field(default_factory=dict)
    graph: object = None             # framework.graph.Graph: a graph board's points, links, lines

    @property
    def has_board(self):
        return self.width > 0


def err(pos: ast.Pos, message: str, hint: str | None = None) -> SpecError:
    return SpecError.at(pos, message, hint)


def check_name(name: str, pos, what: str):
    if name.startswith("__") or name.endswith("__"):
        raise err(pos, f"{what} `{name}` is not allowed: names may not start or end with `__`",
                  "pick a plain name")
    if len(name) > MAX_NAME:
        label = "name" if what == "name" else f"{what} name"
        raise err(pos, f"{label} is {len(name)} characters long (at most {MAX_NAME})",
                  "pick a shorter name")


def describe(t) -> str:
    return {"bool": "a condition", "int": "a whole number", "num": "a number", "player": "a player",
            "cell": "a cell", "cellset": "a set of cells", "value": "a cell value", "board": "the board",
            "dirs": "a direction set", "none": "`none`", "list": "a list", "array": "a list variable",
            None: "something else"}.get(t, "an enumeration value" if str(t).startswith("enum:") else str(t))
