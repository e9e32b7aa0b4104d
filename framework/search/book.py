"""Opening book: move statistics for the first plies of a game, built by playing games,
saved as a JSON data file, and consulted by alpha-beta before it searches.

Building (`OpeningBook.build`): play `games` games from the initial state.  The first
`plies` moves of every game are chosen uniformly at random, so the book covers the
openings; the rest of the game is played by a policy: random moves (random rollouts, the
default) or a searcher's moves (self-play, e.g. depth-limited alpha-beta; `plyspec book
--depth`).  At the end, every opening position records for the move played the outcome for
its mover (utility, or utility difference for non-zero-sum games).  A position's book move
is its move with the best mean outcome.

Symmetries: positions are keyed by their canonical form, the least key over
`game.symmetries(state)`, and a move by the canonical form of the position it leads to.
So statistics gathered in symmetric positions are merged, and so are symmetric moves
(the four corner openings of tic-tac-toe share one entry); a lookup maps the entry back
to the legal actions of the position asked about.

File format (JSON): `{"format": "plyspec-book/1", "game", "options", "plies", "games",
"policy", "positions": {position key: {successor key: [games, total outcome]}}}`, keys
being the `repr` of the state tuples.
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass

from framework.search.twoplayer import leaf_scorers

FORMAT = "plyspec-book/1"
_MAX_GAME_LENGTH = 100_000       # playouts longer than this (cycling games) are not recorded


@dataclass
class BookMove:
    action: object      # the legal action of the position asked about
    mean: float         # mean outcome for the player to move
    games: int          # games that played it (summed over symmetric moves)


class OpeningBook:
    def __init__(self, game, positions: dict | None = None, info: dict | None = None):
        self.game = game
        self.positions = {} if positions is None else positions
        self.info = {} if info is None else info

    def __len__(self) -> int:
        return len(self.positions)

    def key(self, state) -> str:
        """Canonical key of `state`: the same for all states symmetric to it."""
        return min(repr(tuple(twin)) for twin in self.game.symmetries(state))

    def record(self, state, action, outcome: float) -> None:
        """Count one game in which the mover of `state` played `action` and got `outcome`."""
        moves = self.positions.setdefault(self.key(state), {})
        tally = moves.setdefault(self.key(state.result(action)), [0, 0.0])
        tally[0] += 1
        tally[1] += outcome

    def lookup(self, state) -> BookMove | None:
        """The book move of `state` (best mean outcome, then most games), or None."""
        moves = self.positions.get(self.key(state))
        if not moves:
            return None
        best = None
        for action in state.actions():
            tally = moves.get(self.key(state.result(action)))
            if tally is None:
                continue
            candidate = BookMove(action, tally[1] / tally[0], tally[0])
            if best is None or (candidate.mean, candidate.games) > (best.mean, best.games):
                best = candidate
        return best

    @classmethod
    def build(cls, game, *, plies: int, games: int, policy=None, policy_name: str = "random",
              seed: int = 0) -> "OpeningBook":
        """Book over the first `plies` plies from `games` games (see the module docstring).
        `policy(state, rng) -> action` plays after the opening (default: random moves)."""
        game.require(players=2, chance=False, algorithm="the opening book")
        rng = random.Random(seed)
        play = policy or (lambda state, generator: generator.choice(state.actions()))
        start = game.initial_state()
        outcome_for, _ = leaf_scorers(game, start)
        book = cls(game, info={"plies": plies, "games": games, "policy": policy_name, "seed": seed})
        for _ in range(games):
            state, opening = start, []
            for ply in range(_MAX_GAME_LENGTH):
                if state.terminal_test():
                    break
                action = rng.choice(state.actions()) if ply < plies else play(state, rng)
                if ply < plies:
                    opening.append((state, action))
                state = state.result(action)
            else:
                continue
            for position, action in opening:
                book.record(position, action, outcome_for(state, position.player()))
        return book

    def save(self, path, *, force: bool = False) -> None:
        """Write the book (atomically; an existing file only with `force`)."""
        from framework.files import write_atomic
        data = {"format": FORMAT, "game": self.game.name, "options": self.game.options,
                **self.info, "positions": self.positions}
        write_atomic(path, json.dumps(data, separators=(",", ":")), force=force)

    @classmethod
    def load(cls, path, game) -> "OpeningBook":
        """Read a book file, checked against the book format (a SpecError naming the file
        and what is wrong), refusing one built for another game or other options."""
        from framework.errors import SpecError, shorten
        from framework.files import MAX_DATA_BYTES
        from framework.readback import Shape, read_json
        data = read_json(path, "opening book", MAX_DATA_BYTES)
        shape = Shape(path, "not a plyspec opening book", hint="build one with plyspec book")
        shape.mapping(data, "the file", ("format", "game", "positions"))
        shape.require(data["format"] == FORMAT, f"its format is not {FORMAT!r}")
        options = shape.mapping(data.get("options", {}), "`options`")
        if data["game"] != game.name or options != json.loads(json.dumps(game.options)):
            raise SpecError(f"an opening book for {data['game']!r} with options {options}, not "
                            f"for {game.name!r} with options {game.options}", file=str(path),
                            hint="build one for this game with plyspec book")
        for key in ("plies", "games"):
            if key in data:
                shape.whole(data[key], f"`{key}`", 1)
        positions = shape.mapping(data["positions"], "`positions`")
        for position, moves in positions.items():
            where = f"position {shorten(position)}"
            for tally in shape.mapping(moves, where).values():
                shape.sequence(tally, f"a move's tally in {where}", 2)
                shape.whole(tally[0], f"a move's game count in {where}", 1)
                shape.number(tally[1], f"a move's total outcome in {where}")
        info = {k: v for k, v in data.items() if k not in ("format", "game", "options", "positions")}
        return cls(game, positions, info)
