"""Round-robin tournaments: the schedule, running it on an executor, and its statistics.

Every group of agents as large as a game's player count (every pair, for two-player games)
plays `games` games of every spec; inside a group the seats rotate from game to game and
game k is seeded from (seed, spec, group, k) exactly as `plyspec match` seeds its games, so
the results do not depend on how many workers play them or in which order they finish.

Statistics: per pair of agents, the score of the first (a win 1, a draw 1/2, over every
finished game in which both played, ranking them by their returns) with a 95% confidence
interval (normal approximation on the per-game scores, clamped to [0, 1]) and the Elo
difference it implies; and an Elo table fitted to all games by the Bradley-Terry model
(minorisation-maximisation, Hunter 2004) with one virtual draw per agent against a 1500
anchor, so that an unbeaten agent still gets a finite rating.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from framework.parallel.base import Failure

REF = "framework.parallel.tasks:play_game"


@dataclass
class Pairing:
    spec: int                 # index into the spec list
    agents: tuple             # agent indices, in seat order of game 0
    seed: int


class Schedule:
    """Every game of a tournament as (key, Pairing, k), `games` per pairing, made as they
    are asked for (never listed: 10^12 games start at once); `pairing_of(key)` is the
    Pairing of a key this schedule makes, else None."""

    def __init__(self, pairings: dict, games: int):
        self.pairings, self.games = pairings, games        # "s:a-b" -> Pairing

    def __len__(self) -> int:
        return len(self.pairings) * self.games

    def __iter__(self):
        for prefix, pairing in self.pairings.items():
            for k in range(self.games):
                yield f"{prefix}:{k}", pairing, k

    def pairing_of(self, key):
        prefix, _, k = key.rpartition(":") if isinstance(key, str) else ("", "", "")
        if prefix in self.pairings and k.isdigit() and str(int(k)) == k and int(k) < self.games:
            return self.pairings[prefix]
        return None


def schedule(specs, players, n_agents, games, seed) -> Schedule:
    """The Schedule of every game; `players[s]` is spec s's player count."""
    pairings = {}
    for s, p in enumerate(players):
        if p > n_agents:
            raise ValueError(f"spec {s + 1} has {p} players but only {n_agents} agents were given")
        for g, group in enumerate(itertools.combinations(range(n_agents), p)):
            pairings[f"{s}:{'-'.join(map(str, group))}"] = Pairing(s, group, seed * 100_003 + s * 1009 + g)
    return Schedule(pairings, games)


def tasks(plan, payloads, options, agent_texts, max_plies, move_time):
    for key, pairing, k in plan:
        texts = [agent_texts[a] for a in pairing.agents]
        yield key, (payloads[pairing.spec], options, texts, k, pairing.seed, max_plies, move_time)


@dataclass
class PairScore:
    a: int
    b: int
    games: int = 0
    wins: int = 0              # of a against b
    draws: int = 0
    losses: int = 0
    scores: list = field(default_factory=list)

    def to_json(self, names) -> dict:
        score, low, high = interval(self.scores)
        return {"agent": names[self.a], "opponent": names[self.b], "games": self.games,
                "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "score": score, "ci95": [low, high], "elo_diff": elo_difference(score),
                "elo_diff_ci95": [elo_difference(low), elo_difference(high)]}


class Standings:
    """Everything the finished games say, updated one game record at a time."""

    def __init__(self, agent_texts, plan):
        from framework.match import Tally
        self.names = list(agent_texts)
        self.plan = plan
        self.tallies = [Tally(t) for t in self.names]
        self.pairs = {(a, b): PairScore(a, b) for a, b in itertools.combinations(range(len(self.names)), 2)}
        self.failures = {}
        self.finished = 0

    def add(self, key, record) -> None:
        from framework.match import GameRecord, tally
        self.finished += 1
        if isinstance(record, Failure) or "failure" in record:
            self.failures[key] = record if isinstance(record, Failure) else Failure(record["failure"], record["message"])
            return
        group = self.plan.pairing_of(key).agents
        seats = tuple(group[i] for i in record["seats"])          # agent playing each seat
        returns = record["returns"]
        tally(self.tallies, GameRecord.from_summary(record, seats))
        if returns is None:
            return
        by_agent = {agent: returns[seat] for seat, agent in enumerate(seats)}
        for a, b in itertools.combinations(sorted(by_agent), 2):
            pair = self.pairs[(a, b)]
            pair.games += 1
            if by_agent[a] > by_agent[b]:
                pair.wins += 1
                pair.scores.append(1.0)
            elif by_agent[a] < by_agent[b]:
                pair.losses += 1
                pair.scores.append(0.0)
            else:
                pair.draws += 1
                pair.scores.append(0.5)

    def elo(self) -> list:
        return elo_ratings(len(self.names), [(p.a, p.b, sum(p.scores), p.games) for p in self.pairs.values()])

    def to_json(self) -> dict:
        ratings = self.elo()
        return {"agents": [dict(t.to_json(), elo=round(r, 1)) for t, r in zip(self.tallies, ratings)],
                "pairs": [p.to_json(self.names) for p in self.pairs.values() if p.games],
                "failures": {k: f.to_json() for k, f in sorted(self.failures.items())},
                "games_finished": self.finished}


def interval(scores) -> tuple:
    """(mean, low, high): the mean score and its 95% normal-approximation interval."""
    n = len(scores)
    if not n:
        return None, None, None
    mean = sum(scores) / n
    if n < 2:
        return mean, 0.0, 1.0
    var = sum((s - mean) ** 2 for s in scores) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def elo_difference(score) -> float | None:
    """The Elo difference a mean score implies (±inf written as ±800, the usual cap)."""
    if score is None:
        return None
    if score <= 0:
        return -800.0
    if score >= 1:
        return 800.0
    return max(-800.0, min(800.0, -400 * math.log10(1 / score - 1)))


def elo_ratings(n, results, iterations=2000) -> list:
    """Bradley-Terry ratings on the Elo scale (mean 1500) from [(a, b, score of a, games)]."""
    wins = [0.5] * n                    # the virtual draw against the anchor
    games = {}
    for a, b, score, count in results:
        if count:
            wins[a] += score
            wins[b] += count - score
            games[(a, b)] = games[(b, a)] = count
    strength = [1.0] * n
    for _ in range(iterations):
        new = []
        for i in range(n):
            denominator = 1 / (strength[i] + 1.0)      # the anchor, strength 1
            denominator += sum(c / (strength[i] + strength[j]) for (x, j), c in games.items() if x == i)
            new.append(wins[i] / denominator)
        done = max(abs(x - y) for x, y in zip(new, strength)) < 1e-10
        strength = new
        if done:
            break
    elo = [400 * math.log10(s) for s in strength]
    shift = 1500 - sum(elo) / n
    return [e + shift for e in elo]
