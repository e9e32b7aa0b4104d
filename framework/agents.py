"""Agents: whatever chooses the moves in `plyspec play` and `plyspec match`.

An agent is written as text, `NAME` or `NAME:KEY=VALUE,KEY=VALUE`:

    random                 a uniformly random legal action (`random:seed=7` to fix it)
    first                  the first legal action (a fixed, weak reference player)
    human                  asks on the terminal (only in `plyspec play`)
    alphabeta:depth=4      any registered game searcher (alphabeta, minimax, expectimax,
    mcts:iterations=2000   maxn, paranoid, mcts) with its keyword options, written as in
    maxn:time=0.5          Python (`time` and `nodes` stand for time_limit / node_limit)

A searcher agent given no budget (no depth, time, nodes or iterations) searches for the
per-move time the caller sets.  Values are read as YAML scalars (numbers, true/false); a
pair (`window`, `bounds`) is written `LOW..HIGH`, `paranoid:player=` takes a player index
or name, `alphabeta:book=` the path of an opening book.  Every option is checked against
its searcher's signature when the text is parsed, and `Agent.check(game)` checks the ones
that depend on the game (the player, the book, read once here) before a game is played,
so no option fails in the middle of a match.
Searchers that draw random numbers get a seed derived from the match seed, so a match is
reproducible from `--seed`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

import yaml

from framework.errors import SpecError, UsageError, did_you_mean

ALIASES = {"time": "time_limit", "nodes": "node_limit"}
BUDGETS = ("depth", "time_limit", "node_limit", "iterations")
SIMPLE = ("random", "first", "human")


@dataclass
class Agent:
    """One player's policy: `choose(game, state)` returns a legal action of `state`."""

    text: str
    name: str
    options: dict = field(default_factory=dict)
    last: object = None                      # the search Result of the last move, if any

    @property
    def is_human(self) -> bool:
        return self.name == "human"

    def seeded(self, seed: int) -> "Agent":
        """A fresh copy whose random choices follow `seed` (unless the text fixed a seed)."""
        options = dict(self.options)
        if self.name == "random" or "seed" in _search_parameters(self.name):
            options.setdefault("seed", seed)
        return Agent(self.text, self.name, options)

    def check(self, game) -> "Agent":
        """This agent, its game-dependent options checked against `game` (UsageError for a
        player the game lacks; SpecError for a book that is not one of `game`): the book
        file is read here, once."""
        if "player" in self.options:
            from framework.search.paranoid import player_index
            try:
                self.options["player"] = player_index(game, self.options["player"])
            except ValueError as err:
                raise UsageError(f"{err} (in agent {self.text!r})",
                                 hint="player=0 or a player name: " + ", ".join(game.player_names)) from None
        if isinstance(self.options.get("book"), str):
            from framework.search.book import OpeningBook
            self.options["book"] = OpeningBook.load(self.options["book"], game)
        return self

    def choose(self, game, state, *, move_time=None):
        actions = state.actions()
        if self.name == "first":
            return actions[0]
        if self.name == "random":
            rng = self.options.setdefault("_rng", random.Random(self.options.get("seed")))
            return rng.choice(actions)
        if self.is_human:
            raise RuntimeError("a human agent's moves come from the terminal")
        from framework.search.registry import searcher
        options = {k: v for k, v in self.options.items() if not k.startswith("_")}
        if move_time is not None and not any(k in options for k in BUDGETS):
            options["time_limit"] = move_time
        self.last = searcher(self.name)(game, state, **options)
        action = self.last.best_action
        return action if action in actions else actions[0]


def parse_agent(text: str, game=None) -> Agent:
    """The agent `text` describes (UsageError with a hint when it names nothing known or
    an option it does not take); with `game`, checked against it too (`Agent.check`)."""
    from framework.search.registry import GAME_SEARCHERS
    name, _, rest = text.strip().partition(":")
    known = (*SIMPLE, *GAME_SEARCHERS)
    if name not in known:
        raise UsageError(f"unknown agent {name!r}",
                         hint=did_you_mean(name, known) or "agents: " + ", ".join(known))
    options = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        key = ALIASES.get(key.strip(), key.strip())
        if not sep or not key:
            raise UsageError(f"cannot read {item!r} in agent {text!r}", hint="write KEY=VALUE, e.g. alphabeta:depth=4")
        try:
            options[key] = yaml.safe_load(value)
        except yaml.YAMLError:
            raise UsageError(f"cannot read the value of {item!r} in agent {text!r}", hint="e.g. 4, 0.5 or true") from None
    allowed = {"seed"} if name == "random" else set() if name in SIMPLE else _search_parameters(name)
    for key in options:
        if key not in allowed:
            raise UsageError(f"agent {name!r} has no option {key!r}",
                             hint=did_you_mean(key, allowed) or "options: " + (", ".join(sorted(allowed)) or "none"))
        options[key] = _checked_value(text, key, options[key])
    agent = Agent(text, name, options)
    return agent if game is None else agent.check(game)


# option -> (kind, smallest value, inclusive): the values an agent's option accepts
OPTION_VALUES = {"depth": ("int", 1, True), "iterations": ("int", 1, True), "node_limit": ("int", 1, True),
                 "tt_size": ("int", 1, True), "tt_mb": ("num", 0, False), "max_nodes": ("int", 1, True), "quiescence_depth": ("int", 0, True), "seed": ("int", None, True),
                 "time_limit": ("num", 0, False), "exploration": ("num", 0, True),
                 "aspiration_delta": ("num", 0, False)}


# the options whose values are not numbers: option -> (kind, the accepted form)
OTHER_VALUES = {"window": ("pair", "window=-1..1"), "bounds": ("pair", "bounds=-1..1"),
                "player": ("player", "player=0 or player=X"), "book": ("path", "book=openings.json")}


def _checked_value(text: str, key: str, value):
    """`value` if option `key` accepts it, else a UsageError that shows the accepted form."""
    import math
    if key in OTHER_VALUES:
        return _other_value(text, key, value, *OTHER_VALUES[key])
    kind, least, inclusive = OPTION_VALUES.get(key, ("bool", None, True))
    shown = {"depth": "depth=4", "iterations": "iterations=1000", "time_limit": "time=0.5",
             "node_limit": "nodes=100000", "exploration": "exploration=1.4", "seed": "seed=7"}.get(key, f"{key}=...")
    if kind == "bool":
        if isinstance(value, bool):
            return value
        raise UsageError(f"{key}={value!r} in agent {text!r}: expected true or false", hint=f"e.g. {key}=false")
    whole = isinstance(value, int) and not isinstance(value, bool)
    number = whole or (isinstance(value, float) and math.isfinite(value))
    if (kind == "int" and not whole) or not number or abs(value) > 10 ** 12:
        expected = "a whole number" if kind == "int" else "a finite number"
        raise UsageError(f"{key}={value!r} in agent {text!r}: expected {expected}", hint=f"e.g. {shown}")
    if least is not None and (value < least if inclusive else value <= least):
        bound = f"at least {least}" if inclusive else f"more than {least}"
        raise UsageError(f"{key}={value!r} in agent {text!r}: must be {bound}", hint=f"e.g. {shown}")
    return value


def _other_value(text: str, key: str, value, kind: str, shown: str):
    """A pair `LOW..HIGH` (as a (low, high) tuple of finite numbers, low < high), a player
    (a whole number from 0, or a name: the game checks it) or a path (text)."""
    import math
    if kind == "pair" and isinstance(value, str) and value.count("..") == 1:
        parts = []
        for part in value.split(".."):
            try:
                number = yaml.safe_load(part)
            except yaml.YAMLError:
                break
            if isinstance(number, bool) or not isinstance(number, (int, float)) or \
                    not math.isfinite(number) or abs(number) > 10 ** 12:
                break
            parts.append(number)
        if len(parts) == 2 and parts[0] < parts[1]:
            return tuple(parts)
    elif kind == "player" and ((isinstance(value, int) and not isinstance(value, bool)
                                and 0 <= value <= 10 ** 12) or (isinstance(value, str) and value)):
        return value
    elif kind == "path" and isinstance(value, str) and value:
        return value
    expected = {"pair": "LOW..HIGH, two finite numbers with LOW < HIGH",
                "player": "a player index from 0 or a player name", "path": "a file path"}[kind]
    raise UsageError(f"{key}={value!r} in agent {text!r}: expected {expected}", hint=f"e.g. {shown}")


def _search_parameters(name: str) -> set:
    """Keyword options of the registered searcher `name` (empty for the simple agents)."""
    import inspect
    from framework.search.registry import GAME_SEARCHERS, searcher
    if name not in GAME_SEARCHERS:
        return set()
    parameters = inspect.signature(searcher(name)).parameters
    return {p.name for p in parameters.values()   # not text: callbacks and a tree recorder
            if p.kind is inspect.Parameter.KEYWORD_ONLY} - {"progress", "evaluate", "trace"}
