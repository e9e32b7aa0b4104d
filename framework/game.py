"""The compiled game: capabilities, initial state, evaluation, action text.

A `Game` is what `framework.load()` returns.  Its states are instances of a class the
compiler generated for this game: immutable tuples (so hashing and equality run in C)
with the course interface

    state.actions()          legal actions of the player to move ([] at terminal states)
    state.player()           index of the player to move (0-based); CHANCE (-1) at chance nodes
    state.result(action)     the successor state (the state itself is never changed)
    state.terminal_test()    True when the game is over
    state.utility(player)    utility of a terminal state for player index `player`
    state.returns()          utilities of all players, as a tuple
    state.is_chance()        True at a chance node
    state.chance_outcomes()  [(outcome, probability), ...] at a chance node; result(outcome)
    str(state)               a readable rendering (the spec's display hints)

Actions are plain hashable values: for a game with one action schema of one parameter
the bare parameter value (a (column, row) pair for a cell); otherwise the tuple of
parameter values, or (schema_name, *values) when the game has several schemas; the
string "pass" for a forced pass.  `game.action_text(a)` / `game.parse_action(state, text)`
convert to and from the canonical text form the CLI prints and accepts.
"""
from __future__ import annotations

import math
from typing import Any, Callable

from framework.records import dataclass, field   # the dataclasses module's, made cheaply

CHANCE = -1


def outcome_value_text(kind, value, players) -> str:
    """A chance outcome's value as a rule writes it: `(1,0)` for a cell, a player's name."""
    if kind == "cell":
        return f"({value[0]},{value[1]})"
    return players[value] if kind == "player" else str(value)


@dataclass(repr=False)
class Game:
    name: str
    player_names: tuple
    chance: bool = False
    zero_sum: bool = False
    constant_sum: float | None = None       # sum of utilities when constant (0 for zero-sum)
    utility_bounds: tuple = (-math.inf, math.inf)
    max_utility_sum: float = math.inf       # upper bound on the sum of all players' utilities
    alternating: bool = True
    options: dict = field(default_factory=dict)
    source_file: str | None = None
    python_source: str = ""                  # the generated module (plyspec compile --emit-python)
    max_length: int | None = None            # declared bound on a playout's length
    has_evaluation: bool = False
    has_goal: bool = False                   # 1-player puzzles: terminal_test() means goal reached
    state_class: Any = None
    _initial: Callable | None = None
    _evaluate: Callable | None = None
    _action_text: Callable | None = None
    _parse_action: Callable | None = None
    _outcome_text: Callable | None = None
    _is_noisy: Callable | None = None
    _symmetries: Callable | None = None
    spec: Any = None                         # the checked AST (framework.ast.GameSpec)
    kernel: Any = None                       # framework.kernel.Kernel: the searchers' fast path
    view: Any = None                         # board(position), action_cells(a), variable_texts(position): drawing data

    def __repr__(self) -> str:
        """Short: the name, players, options and source (the generated module is in
        `python_source`, and `plyspec compile --emit-python` prints it)."""
        source = f", source={self.source_file!r}" if self.source_file else ""
        return f"<Game {self.name!r} players={list(self.player_names)} options={self.options}{source}>"

    @property
    def num_players(self) -> int:
        return len(self.player_names)

    @property
    def deterministic(self) -> bool:
        return not self.chance

    def initial_state(self):
        return self._initial()

    def evaluate(self, state, player: int) -> float:
        """Heuristic value of a non-terminal state for `player` (the spec's weighted
        features); the exact utility at terminal states."""
        if state.terminal_test():
            return state.utility(player)
        if self._evaluate is None:
            return 0.0
        return self._evaluate(state, player)

    def is_noisy(self, state, action) -> bool:
        """True when the spec marks `action` in `state` as noisy (for quiescence search)."""
        return bool(self._is_noisy and self._is_noisy(state, action))

    def symmetries(self, state) -> list:
        """States equivalent to `state` under the spec's declared symmetries (incl. itself)."""
        return self._symmetries(state) if self._symmetries else [state]

    # -- the game-level form of the course interface (AIMA's `Game`: actions(state),
    # result(state, a), terminal_test(state), utility(state, player), to_move(state),
    # initial), delegating to the states' own methods, for code written to that form
    @property
    def initial(self):
        return self._initial()

    def actions(self, state) -> list:
        return state.actions()

    def result(self, state, action):
        return state.result(action)

    def terminal_test(self, state) -> bool:
        return state.terminal_test()

    def utility(self, state, player: int) -> float:
        return state.utility(player)

    def to_move(self, state) -> int:
        return state.player()

    def display(self, state) -> None:
        print(state)

    def action_text(self, action) -> str:
        return self._action_text(action)

    def outcome_text(self, state, outcome) -> str:
        """Canonical text of a chance outcome of the chance node `state`, `var=value`
        (`d=3` for a die, `at=(1,0)` for where a slipping move lands)."""
        return self._outcome_text(state, outcome) if self._outcome_text else str(outcome)

    def parse_action(self, state, text: str):
        """The legal action of `state` whose canonical text is `text` (SpecError otherwise)."""
        return self._parse_action(state, text)

    def describe(self) -> dict:
        """Capabilities, as the CLI prints them."""
        return {
            "name": self.name, "players": list(self.player_names), "chance": self.chance,
            "zero_sum": self.zero_sum, "constant_sum": self.constant_sum,
            "max_utility_sum": self.max_utility_sum,
            "utility_bounds": list(self.utility_bounds), "options": self.options,
            "has_evaluation": self.has_evaluation, "has_goal": self.has_goal,
        }

    def require(self, *, players=None, min_players=None, chance=None, zero_sum=None,
                bounded=None, algorithm="this searcher"):
        """Refuse a game this searcher cannot handle, with a clear message."""
        n = self.num_players
        problems = []
        if players is not None and n not in (players if isinstance(players, tuple) else (players,)):
            problems.append(f"it needs {players} player(s), the game has {n}")
        if min_players is not None and n < min_players:
            problems.append(f"it needs at least {min_players} players, the game has {n}")
        if chance is False and self.chance:
            problems.append("the game has chance nodes (use expectimax or mcts)")
        if zero_sum and not self.zero_sum:
            problems.append("the game is not declared zero-sum")
        if bounded and not all(math.isfinite(b) for b in self.utility_bounds):
            problems.append("the game declares no finite utility bounds")
        if problems:
            raise ValueError(f"{algorithm} cannot search {self.name!r}: " + "; ".join(problems))
