"""The one result type every searcher returns, and the budget every searcher obeys.

A `Result` holds the value (for the player to move at the root, or per player), the best
action, the principal variation and the statistics of the search.  `Budget` turns the
common keyword arguments `time_limit` / `node_limit` into a cheap check searchers call
per node; exceeding it raises `BudgetExceeded`, which searchers catch to return the best
answer found so far (with `complete=False`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, asdict
from typing import Any


@dataclass
class Stats:
    nodes: int = 0          # states visited (game search) / generated (planning)
    expanded: int = 0       # states whose successors were generated
    evaluations: int = 0    # heuristic / evaluation-function calls
    cutoffs: int = 0        # beta cut-offs and other pruning events
    tt_hits: int = 0        # transposition-table hits that were used
    depth: int = 0          # deepest completed iteration / depth reached
    time_s: float = 0.0


@dataclass
class Result:
    algorithm: str
    value: float | None = None            # value for the player to move at the root
    values: tuple | None = None           # per-player values where the algorithm has them
    best_action: Any = None
    pv: list = field(default_factory=list)  # principal variation / plan
    stats: Stats = field(default_factory=Stats)
    complete: bool = True                 # False when a budget or Ctrl-C cut the search
    cost: float | None = None             # plan cost (planning)
    extra: dict = field(default_factory=dict)

    def to_json(self, action_text=str) -> dict:
        """The JSON object of the CLI contract (DESIGN.md section 7)."""
        out = {
            "algorithm": self.algorithm,
            "value": self.value,
            "values": list(self.values) if self.values is not None else None,
            "best_action": None if self.best_action is None else action_text(self.best_action),
            "pv": [action_text(a) for a in self.pv],
            "nodes": self.stats.nodes,
            "time_s": round(self.stats.time_s, 6),
            "complete": self.complete,
            "stats": asdict(self.stats),
        }
        if self.cost is not None:
            out["cost"] = self.cost
        out.update(self.extra)
        return out


class BudgetExceeded(Exception):
    """Raised inside a search when its time or node budget is spent."""


class Budget:
    """Time / node limits.  `tick()` is called once per node and is cheap."""

    __slots__ = ("deadline", "node_limit", "nodes", "_check_every", "_countdown", "start")

    def __init__(self, time_limit: float | None = None, node_limit: int | None = None):
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.node_limit = node_limit
        self.nodes = 0
        self._check_every = 256
        self._countdown = self._check_every

    def tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise BudgetExceeded("node limit")
        self._countdown -= 1
        if self._countdown <= 0:
            self._countdown = self._check_every
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise BudgetExceeded("time limit")

    def next_check(self, nodes: int, every: int) -> int:
        """For a search counting its own nodes: the count at which it next looks at the
        budget (`every` nodes on, or just past the node limit)."""
        at = nodes + every
        if self.node_limit is not None and self.node_limit + 1 < at:
            at = self.node_limit + 1
        return at

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline
