"""The one result type every searcher returns, and the budget every searcher obeys.

A `Result` holds the value (for the player to move at the root, or per player), the best
action, the principal variation and the statistics of the search.  `Budget` turns the
common keyword arguments `time_limit` / `node_limit` into a cheap check searchers call
per node; exceeding it raises `BudgetExceeded`, which searchers catch to return the best
answer found so far (with `complete=False`).  Inside `memory_bound(MB)` a budget also
bounds the memory its search adds (its open and closed lists and per-state data).
"""
from __future__ import annotations

import contextvars
import os
import signal
import threading
import time
from contextlib import contextmanager

from framework.records import asdict, dataclass, field   # the dataclasses module's, made cheaply


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


_BEST_SO_FAR = contextvars.ContextVar("plyspec_best_so_far", default=False)


@contextmanager
def best_so_far_on_interrupt():
    """Inside this block a searcher stopped by Ctrl-C returns its best result so far
    (`extra["interrupted"]`); elsewhere (an agent in a match, a search inside the conformance
    suite) it stops and lets the KeyboardInterrupt go on, so that Ctrl-C stops the command
    and is never taken for the end of one search."""
    token = _BEST_SO_FAR.set(True)
    try:
        yield
    finally:
        _BEST_SO_FAR.reset(token)


def reraise_interrupt(error: KeyboardInterrupt | None = None) -> None:
    """Called by a searcher that Ctrl-C stopped: raises it again unless its caller asked for
    the best result so far (best_so_far_on_interrupt)."""
    if not _BEST_SO_FAR.get():
        raise error or KeyboardInterrupt()


class _Alarm:
    """The deadline of the innermost `alarm` a search may take over, and how far the search
    got: None (not started), "searching" (a `Budget` took the deadline over), "ended" (the
    search is making its result)."""
    deadline: float | None = None
    search = None


def search_ended(resumed: bool = False) -> None:
    """Called as a search makes its result: an alarm it took over no longer raises (freeing
    a large search's memory may outlast the alarm's grace); with `resumed`, also after
    `search_resumed` (an anytime search ending between two phases)."""
    if _Alarm.search == "searching" or (resumed and _Alarm.deadline is not None):
        _Alarm.search = "ended"


def search_resumed() -> None:
    """Called by a search that goes on after making a result (the next phase of an
    anytime search): an alarm raises again at its deadline until the next `Budget` takes
    it over."""
    if _Alarm.search == "ended":
        _Alarm.search = None


GRACE_SECONDS = 0.5
"""How long past an alarm's deadline a search that took it over gets to stop by its own
budget (and return its result so far) before the alarm raises in it anyway."""


@contextmanager
def alarm(seconds, error=None, search_keeps_result: bool = False):
    """Raise `error()` (default BudgetExceeded("time limit")) in the block once `seconds`
    have passed, even inside a step that reads no clock (parsing a large PDDL file, say):
    SIGALRM, main thread on Unix only; no limit elsewhere or when `seconds` is None.
    With `search_keeps_result`, a `Budget` made in the block takes the deadline over: its
    search stops by the same deadline on its own (returning its result so far), and the
    alarm raises only when the search is still running `GRACE_SECONDS` later (inside one
    step that reads no clock)."""
    if seconds is None or not hasattr(signal, "SIGALRM") or \
            threading.current_thread() is not threading.main_thread():
        yield
        return
    outer = _Alarm.deadline, _Alarm.search
    _Alarm.deadline = time.perf_counter() + seconds if search_keeps_result else None
    _Alarm.search = None

    def expire(signum, frame):
        if _Alarm.search == "ended" or (_Alarm.search == "searching" and
                                        time.perf_counter() < _Alarm.deadline + GRACE_SECONDS):
            return              # (the timer fires again within a second)
        raise error() if error else BudgetExceeded("time limit")
    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-6), 1.0)   # again every second, in case
    try:                        # a handler that swallows exceptions was running at the first one
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        _Alarm.deadline, _Alarm.search = outer


CHECK_SECONDS = 0.002
"""How often `Budget.tick` reads the clock: the number of ticks between two readings adapts
to the speed of the search so that they are about this far apart (every tick when one
node's work takes longer, as with LM-cut on a large task)."""


def resident_mb() -> float:
    """This process's resident memory in MB (Linux: /proc/self/statm; elsewhere its peak)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE / 2**20
    except (OSError, ValueError, IndexError):
        import resource
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / (2**20 if os.uname().sysname == "Darwin" else 2**10)


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class _Memory:
    """The bound `memory_bound` sets: MB a search made inside it may add to the process's
    resident memory (None: no bound)."""
    limit_mb: float | None = None


@contextmanager
def memory_bound(megabytes: float | None):
    """Searches whose `Budget` is made in this block stop with BudgetExceeded("memory
    limit") once the process's resident memory has grown by more than `megabytes` since
    the budget was made (read with the clock, about every CHECK_SECONDS); a MemoryError
    inside them stops them the same way.  None: no bound."""
    outer = _Memory.limit_mb
    _Memory.limit_mb = megabytes
    try:
        yield
    finally:
        _Memory.limit_mb = outer


class Budget:
    """Time / node limits.  `tick()` is called once per node and is cheap: it reads the clock
    only every `_check_every` ticks, a number that adapts so that the clock is read about
    every CHECK_SECONDS, so a search stops within that much plus one node's work."""

    __slots__ = ("deadline", "node_limit", "nodes", "_check_every", "_countdown", "start", "_checked",
                 "memory_limit", "memory_base", "memory_peak")

    def __init__(self, time_limit: float | None = None, node_limit: int | None = None):
        self.start = self._checked = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        if _Alarm.deadline is not None:   # inside an `alarm`: its deadline is the budget's
            self.deadline = min(self.deadline or _Alarm.deadline, _Alarm.deadline)
            _Alarm.search = "searching"
        self.node_limit = node_limit
        self.memory_limit = _Memory.limit_mb
        self.memory_base = resident_mb()
        self.memory_peak = 0.0
        self.nodes = 0
        self._check_every = 1
        self._countdown = 1

    def tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise BudgetExceeded("node limit")
        self._countdown -= 1
        if self._countdown <= 0:
            self._check()

    def check(self) -> None:
        """Like tick() for work inside one node (a heuristic evaluation of a child): reads
        the clock on the same adaptive schedule but counts no node."""
        self._countdown -= 1
        if self._countdown <= 0:
            self._check()

    def _check(self) -> None:
        now = time.perf_counter()
        if self.deadline is not None and now >= self.deadline:
            raise BudgetExceeded("time limit")
        if self.memory_limit is not None:
            self.check_memory()
        spent, self._checked = now - self._checked, now
        every = self._check_every
        self._check_every = max(1, min(1024, 2 * every, int(every * CHECK_SECONDS / spent) if spent > 0 else every))
        self._countdown = self._check_every

    def ahead(self, seconds: float) -> None:
        """BudgetExceeded now if a step that cannot be interrupted, expected to take
        `seconds`, would end past the deadline."""
        if self.deadline is not None and time.perf_counter() + seconds >= self.deadline:
            raise BudgetExceeded("time limit")

    def next_check(self, nodes: int, every: int) -> int:
        """For a search counting its own nodes: the count at which it next looks at the
        budget (`every` nodes on, or just past the node limit)."""
        at = nodes + every
        if self.node_limit is not None and self.node_limit + 1 < at:
            at = self.node_limit + 1
        return at

    def check_counted(self, nodes: int, every: int) -> int:
        """For a search counting its own nodes: take `nodes` as the count, raise
        BudgetExceeded when the node or time limit is spent, else give the count at which
        to look again (`next_check`)."""
        self.nodes = nodes
        if self.node_limit is not None and nodes > self.node_limit:
            raise BudgetExceeded("node limit")
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise BudgetExceeded("time limit")
        if self.memory_limit is not None:
            self.check_memory()
        return self.next_check(nodes, every)

    def check_memory(self) -> float:
        """The memory (MB) the search has added so far (its peak is kept in
        `memory_peak`); BudgetExceeded("memory limit") past the bound."""
        used = resident_mb() - self.memory_base
        self.memory_peak = max(self.memory_peak, used)
        if self.memory_limit is not None and used > self.memory_limit:
            raise BudgetExceeded("memory limit")
        return used

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline
