"""Agents: whatever chooses the moves in `plyspec play` and `plyspec match`.

An agent is written as text, `NAME` or `NAME:KEY=VALUE,KEY=VALUE`:

    random                 a uniformly random legal action (`random:seed=7` to fix it)
    first                  the first legal action (a fixed, weak reference player)
    human                  asks on the terminal (only in `plyspec play`)
    alphabeta:depth=4      any registered game searcher (alphabeta, minimax, expectimax,
    mcts:iterations=2000   maxn, paranoid, mcts) with its keyword options, written as in
    maxn:time=0.5          Python (`time` and `nodes` stand for time_limit / node_limit)

A searcher agent given no budget (no depth, time, nodes or iterations) searches for the
per-move time the caller sets.  Values are read as YAML scalars (numbers, true/false).
Searchers that draw random numbers get a seed derived from the match seed, so a match is
reproducible from `--seed`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

import yaml

from framework.errors import SpecError

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


def parse_agent(text: str) -> Agent:
    """The agent `text` describes (SpecError with a hint when it names nothing known)."""
    from framework.search.registry import GAME_SEARCHERS
    name, _, rest = text.strip().partition(":")
    known = (*SIMPLE, *GAME_SEARCHERS)
    if name not in known:
        raise SpecError(f"unknown agent {name!r}", hint="agents: " + ", ".join(known))
    options = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        key = ALIASES.get(key.strip(), key.strip())
        if not sep or not key:
            raise SpecError(f"cannot read {item!r} in agent {text!r}", hint="write KEY=VALUE, e.g. alphabeta:depth=4")
        try:
            options[key] = yaml.safe_load(value)
        except yaml.YAMLError:
            raise SpecError(f"cannot read the value of {item!r} in agent {text!r}", hint="e.g. 4, 0.5 or true") from None
    allowed = {"seed"} if name == "random" else set() if name in SIMPLE else _search_parameters(name)
    for key in options:
        if key not in allowed:
            raise SpecError(f"agent {name!r} has no option {key!r}",
                            hint="options: " + (", ".join(sorted(allowed)) or "none"))
    return Agent(text, name, options)


def _search_parameters(name: str) -> set:
    """Keyword options of the registered searcher `name` (empty for the simple agents)."""
    import inspect
    from framework.search.registry import GAME_SEARCHERS, searcher
    if name not in GAME_SEARCHERS:
        return set()
    parameters = inspect.signature(searcher(name)).parameters
    return {p.name for p in parameters.values()
            if p.kind is inspect.Parameter.KEYWORD_ONLY} - {"progress", "evaluate"}
