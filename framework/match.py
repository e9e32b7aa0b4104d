"""Matches between agents: play whole games of any compiled spec and tally the results.

`play_game` plays one game: the agent in each seat chooses at its decision nodes, chance
nodes are sampled with the given random generator, and the game stops at a terminal state
or after `max_plies` (then it is recorded as unfinished).  `run_match` plays several games,
rotating the agents through the seats so that no agent always moves first, and tallies
per agent: wins (the single highest return), draws (highest, shared), losses, mean return
and thinking time.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

DEFAULT_MAX_PLIES = 10_000


@dataclass
class GameRecord:
    returns: tuple | None        # None when the game did not finish
    actions: list                # every action and chance outcome, in order
    final: object                # the last state
    thinking: list               # seconds each seat spent choosing
    moves: list                  # decisions each seat took
    seats: tuple = ()            # agent index playing each seat (player index)

    @property
    def plies(self) -> int:
        return len(self.actions)

    @classmethod
    def from_summary(cls, summary: dict, seats=None) -> "GameRecord":
        """A record rebuilt from the summary a parallel worker sends (returns, plies, seats,
        thinking, moves: no actions or final state); `seats` overrides the summary's."""
        returns = summary["returns"]
        return cls(None if returns is None else tuple(returns), [None] * summary["plies"], None,
                   summary["thinking"], summary["moves"], tuple(summary["seats"] if seats is None else seats))


@dataclass
class Tally:
    agent: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    total_return: float = 0.0
    moves: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict:
        finished = self.games - self.unfinished
        return {"agent": self.agent, "games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "unfinished": self.unfinished,
                "mean_return": self.total_return / finished if finished else None,
                "seconds_per_move": self.seconds / self.moves if self.moves else 0.0}


def draw_chance(state, rng):
    """A chance outcome of `state`, drawn by its probability."""
    outcomes, weights = zip(*state.chance_outcomes())
    return rng.choices(outcomes, weights)[0]


def play_game(game, seated_agents, rng, *, max_plies=None, move_time=None, on_move=None) -> GameRecord:
    """One game; `seated_agents[p]` plays player p.  `on_move(state, action, mover)` is
    called before each action is applied (mover is -1 at chance nodes, where `action` is
    the outcome drawn)."""
    limit = max_plies or game.max_length or DEFAULT_MAX_PLIES
    state = game.initial_state()
    actions = []
    thinking = [0.0] * len(seated_agents)
    moves = [0] * len(seated_agents)
    while not state.terminal_test() and len(actions) < limit:
        if state.is_chance():
            action, mover = draw_chance(state, rng), -1
        else:
            mover = state.player()
            start = time.perf_counter()
            action = seated_agents[mover].choose(game, state, move_time=move_time)
            thinking[mover] += time.perf_counter() - start
            moves[mover] += 1
        if on_move:
            on_move(state, action, mover)
        actions.append(action)
        state = state.result(action)
    returns = state.returns() if state.terminal_test() else None
    return GameRecord(returns, actions, state, thinking, moves)


def run_match(game, agents, games, *, seed=0, max_plies=None, move_time=None, progress=None):
    """Play `games` games between `agents` (one per seat, rotated each game); returns
    (tallies per agent, game records).  `progress(i, record)` after each game."""
    n = game.num_players
    if len(agents) != n:
        raise ValueError(f"{game.name} has {n} players; give {n} agents, not {len(agents)}")
    tallies = [Tally(a.text) for a in agents]
    records = []
    for i in range(games):
        record = play_indexed_game(game, agents, i, seed=seed, max_plies=max_plies, move_time=move_time)
        tally(tallies, record)
        records.append(record)
        if progress:
            progress(i, record)
    return tallies, records


def play_indexed_game(game, agents, i, *, seed=0, max_plies=None, move_time=None) -> GameRecord:
    """Game `i` of a match: the agents rotated `i` seats, their random choices and the chance
    outcomes seeded from (`seed`, `i`), so any game of a match can be played on its own (by a
    parallel worker) and comes out the same."""
    n = game.num_players
    seats = tuple((seat + i) % n for seat in range(n))
    seated = [agents[a].seeded(seed * 1_000_003 + i * n + seat) for seat, a in enumerate(seats)]
    record = play_game(game, seated, random.Random(f"{seed}/{i}"), max_plies=max_plies, move_time=move_time)
    record.seats = seats
    return record


def check_summary(record: dict, shape, index: int, game, max_plies=None) -> None:
    """Raises `shape.wrong(...)` (framework.readback) unless `record` is a summary that game
    `index` of a match of `game` could have produced: its seats (rotated by the index), a
    return per player (or none: unfinished), plies within the limit, moves and seconds."""
    n = game.num_players
    shape.mapping(record, "the record", ("seats", "returns", "plies", "thinking", "moves"))
    seats = [(seat + index) % n for seat in range(n)]
    shape.require(record["seats"] == seats, f"its seats are {str(record['seats'])[:40]}; game "
                  f"{index + 1} seats the agents {seats}")
    if record["returns"] is not None:
        for value in shape.sequence(record["returns"], "`returns`", n):
            shape.number(value, "a return")
    limit = max_plies or game.max_length or DEFAULT_MAX_PLIES
    shape.require(shape.whole(record["plies"], "`plies`") <= limit,
                  f"it has {record['plies']} plies, more than the limit of {limit}")
    for value in shape.sequence(record["thinking"], "`thinking`", n):
        shape.require(shape.number(value, "a thinking time") >= 0, "a negative thinking time")
    for value in shape.sequence(record["moves"], "`moves`", n):
        shape.whole(value, "a move count")


def tally(tallies, record):
    """Adds one game's outcome to the tallies of the agents that played it."""
    best = max(record.returns) if record.returns else None
    for seat, a in enumerate(record.seats):
        tally = tallies[a]
        tally.games += 1
        tally.moves += record.moves[seat]
        tally.seconds += record.thinking[seat]
        if record.returns is None:
            tally.unfinished += 1
            continue
        mine = record.returns[seat]
        tally.total_return += mine
        if mine < best:
            tally.losses += 1
        elif record.returns.count(best) == 1:
            tally.wins += 1
        else:
            tally.draws += 1
