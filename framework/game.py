"""The compiled game: capabilities, initial state, evaluation, action text.

A `Game` is what `framework.load()` returns.  Its states are instances of a class the
compiler generated for this game: immutable tuples (so hashing and equality run in C)
with the course interface

    state.actions()          legal actions of the player to move ([] at terminal states)
    state.player()           index of the player to move (0-based); CHANCE (-1) at chance nodes
    state.result(action)     the successor state (the state itself is never changed);
                             IllegalAction unless `action` is in state.actions()
    state.terminal_test()    True when the game is over
    state.utility(player)    utility of a terminal state for `player`: an index or a name
    state.returns()          utilities of all players, as a tuple
    state.is_chance()        True at a chance node
    state.chance_outcomes()  [(outcome, probability), ...] at a chance node; result(outcome)
    str(state)               a readable rendering (the spec's display hints)

Actions are plain hashable values: for a game with one action schema of one parameter
the bare parameter value (a (column, row) pair for a cell); otherwise the tuple of
parameter values, or (schema_name, *values) when the game has several schemas; the
string "pass" for a forced pass.  `game.action_text(a)` / `game.parse_action(state, text)`
convert to and from the canonical text form the CLI prints and accepts.

The contract is checked (`enforce_contract`): `result` refuses an action that is not
legal in its state (an earlier state's action, any action after the end, an outcome that
is not one of a chance node's) with `IllegalAction` naming the action in the game's text
and the player to move; `utility` and every other method taking a player accept a player
index (0-based) or a player name ('X') and raise `UnknownPlayer` for anything else (-1,
2, 'Q', True, None).  Both are ValueErrors.  The searchers, perft and the kernel only pass
actions they got from `actions()` and player indices, and call the unchecked methods
(`unchecked(cls, "result")`: the class's `_result` where it has one).
"""
from __future__ import annotations

import math
import operator
from typing import Any, Callable

from framework.records import dataclass, field   # the dataclasses module's, made cheaply
from framework.runtime import SHOWN_CHARS, IllegalAction, UnknownPlayer, shown_value

CHANCE = -1
SHOWN_LEGAL = 8             # legal actions an IllegalAction message lists
CACHED = 256                # states whose legal actions the check keeps (LegalCache)


def player_index(names, player) -> int:
    """The index of `player`, given as an index (an int, not a bool) or a name of `names`;
    UnknownPlayer for anything else."""
    if isinstance(player, str):
        if player in names:
            return names.index(player)
    elif not isinstance(player, bool):
        try:
            index = operator.index(player)
        except TypeError:
            index = None
        if index is not None and 0 <= index < len(names):
            return index
    raise UnknownPlayer(f"{shown_value(player)} is not a player of this game: give an index 0..{len(names) - 1} "
                        f"or a name ({', '.join(repr(n) for n in names)})")


def illegal_action(game, state, action, reason: str = "") -> IllegalAction:
    """The IllegalAction for `action` in `state`: the action in the game's text, the player
    to move, and what is legal instead.  `game` gives player_names, action_text(a) and
    outcome_text(state, o)."""
    def text(show, value):
        try:
            out = show(value)
        except (LookupError, TypeError, ValueError, AttributeError):   # not an action at all
            return shown_value(value)
        return out if len(out) <= SHOWN_CHARS else shown_value(value)
    if state.is_chance() and not state.terminal_test():
        legal = state.actions()
        shown = [text(lambda o: game.outcome_text(state, o), o) for o in legal[:SHOWN_LEGAL]]
        return IllegalAction(f"{shown_value(action)} is not an outcome of this chance node{reason} "
                             f"(outcomes: {_some(shown, len(legal))})")
    shown, mover = text(game.action_text, action), game.player_names[state.player()]
    if state.terminal_test():
        return IllegalAction(f"{shown}: the game is over (no action is legal in a terminal "
                             f"state; {mover} would be to move)")
    try:
        hash(action)
    except TypeError:           # [1, 1] reads as place(1,1) but is no action: show the value
        shown = shown_value(action)
    legal = state.actions()
    return IllegalAction(f"{shown} is not a legal action of {mover} here{reason} "
                         f"(legal: {_some([text(game.action_text, a) for a in legal[:SHOWN_LEGAL]], len(legal))})")


def fitting(params, values: tuple, players: int) -> tuple:
    """`values` when each fits its parameter of an action schema (`params`: (name, _, type)):
    a cell a (column, row) pair of ints, a player an index, any other an int or a name, and
    the values past the parameters (a compound move's later steps) cells or ints; TypeError
    otherwise, so that an action's text never shows a value as something it is not."""
    def cell(v):
        return type(v) is tuple and len(v) == 2 and all(type(x) is int for x in v)
    fits = {"cell": cell, "player": lambda v: type(v) is int and 0 <= v < players}
    if len(values) < len(params) or not all(cell(v) or type(v) is int for v in values[len(params):]) \
            or not all(fits.get(t, lambda v: type(v) in (int, str))(v) for (_, _, t), v in zip(params, values)):
        raise TypeError(f"not the values of an action: {shown_value(values)}")
    return values


def _some(texts, total) -> str:
    return ", ".join(texts) + (" ..." if total > len(texts) else "")


class LegalCache:
    """The legal actions of the states `result` was last called on, as sets (CACHED states
    at most; when full, all are forgotten at once: `clear` is safe while other threads use
    the cache, as the studio's searches do): calling result() for every action of a state
    generates its actions once, and a depth-first search regenerates a state's actions only
    after CACHED other states were checked, so the check costs about one move generation
    per state expanded (not one per child: Amazons has hundreds of moves)."""

    __slots__ = ("sets",)

    def __init__(self):
        self.sets = {}

    def allows(self, state, action) -> bool:
        sets = self.sets
        legal = sets.get(state)
        if legal is None:
            if len(sets) >= CACHED:
                sets.clear()
            legal = sets[state] = frozenset(state.actions())      # empty at a terminal state
        try:
            return action in legal
        except TypeError:                       # unhashable (a list): no action is one
            return False


def enforce_contract(state_class, game) -> None:
    """Give a compiled game's State class the checked course interface: `result` refuses an
    action not in `actions()`, `utility` reads a player index or name.  The generated
    methods stay as `_result` and `_utility`, the searchers' unchecked path; the class
    keeps its game (`_game`, for the error texts) and its LegalCache (`_legal`), which the
    history rules of framework.history use too."""
    result, utility, n, names = state_class.result, state_class.utility, game.num_players, game.player_names
    allows = (legal := LegalCache()).allows

    def checked_result(self, action):
        if not allows(self, action):
            raise illegal_action(game, self, action)
        return result(self, action)

    def checked_utility(self, player):
        if player.__class__ is not int or not 0 <= player < n:
            player = player_index(names, player)
        return utility(self, player)

    state_class._result, state_class._utility = result, utility
    state_class.result, state_class.utility = checked_result, checked_utility
    state_class._game, state_class._legal = game, legal


def unchecked(cls, method: str):
    """`cls`'s `result` or `utility` without the contract's checks, for callers that pass only
    actions from actions() and player indices: `_result` / `_utility` where the class has
    them (compiled games), else the method itself."""
    return getattr(cls, "_" + method, None) or getattr(cls, method)


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

    @property
    def alternating(self) -> bool:
        """Whether the players always move in turn (next(mover) after every move): no
        chance, no `turn` rule and no action or step that sets `turn` (a game built in
        Python without a spec: no chance)."""
        if self.spec is None:
            return not self.chance
        from framework.compiler.common import _assigns_turn
        return not self.chance and self.spec.turn is None and \
            not any(_assigns_turn(a.effects) for a in self.spec.actions)

    def initial_state(self):
        return self._initial()

    def player_index(self, player) -> int:
        """The index of `player` (an index or a name); UnknownPlayer for anything else."""
        return player_index(self.player_names, player)

    def evaluate(self, state, player) -> float:
        """Heuristic value of a non-terminal state for `player` (index or name; the spec's
        weighted features); the exact utility at terminal states."""
        if player.__class__ is not int or not 0 <= player < len(self.player_names):
            player = self.player_index(player)
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

    def utility(self, state, player) -> float:
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
