"""aima-python's game interface over a plyspec game: `as_aima(game)`.

aima-python (games.py, formerly games4e.py) writes a game as an object with `initial`,
`actions(state)`, `result(state, move)`, `utility(state, player)`, `terminal_test(state)`,
`to_move(state)`, `display(state)` and `play_game(*players)`, and a game with chance as a
`StochasticGame` that adds `chances(state)`, `outcome(state, chance)` and
`probability(chance)`.  Its searchers read the player to move both as `game.to_move(state)`
and as the attribute `state.to_move`, pass that player (a name such as 'X') to `utility`,
and alternate MAX and MIN by depth, one ply per move; its `expect_minmax` expects a chance
node after every move, and walks a node's chances by applying `outcome` to the state the
previous chance produced (aima's Backgammon replaces the dice of any state).

A plyspec game meets those conventions only through this adapter, which gives:
- states (`AimaState`) with `to_move` the player's name (None at a chance node) and the
  plyspec state in `.state`;
- strict rotation of the players: where a player moves again (Kalah's extra sowing, Pig's
  roll), each player skipped is given a forced `pass` ply (a state whose only action is
  PASS), so that searchers that alternate by depth, and `play_game`'s loop over the
  players, see the right player at every ply; node counts include the passes, and a
  depth limit counts them as plies;
- in a game with chance: `chances(state)` lists `Chance(outcome, probability)` pairs at a
  chance node and the one `NO_CHANCE` (probability 1, leaves the state as it is) after a
  move without chance, so every move is followed by a chance step as aima expects;
  `outcome` applied to the outcome of a chance node resolves that node again;
  `probability(chance)` is the outcome's probability;
- `actions` of a chance node raises ChanceNode (aima's deterministic searchers cannot
  search chance: they would take the outcomes for moves);
- `result` and `outcome` check their argument as the plyspec contract does
  (IllegalAction), and `utility` takes a name or an index (UnknownPlayer otherwise);
- `play_game(*players)`: players[i] plays for player i, a chance node is resolved by its
  probabilities (aima's StochasticGame draws uniformly among the chances), and the result is
  the utility for the first player, as aima returns it.
"""
from __future__ import annotations

import random
from collections import namedtuple

from framework.runtime import IllegalAction, shown_value

PASS = "pass"
Chance = namedtuple("Chance", "outcome probability")
NO_CHANCE = Chance(None, 1.0)        # the chance step after a move that has no chance


class ChanceNode(ValueError):
    """A chance node was asked for its actions: resolve it with `outcome`."""


class AimaState(namedtuple("AimaState", "to_move state turn source")):
    """A state as aima reads it: `to_move` the name of the player to move (None at a chance
    node), `state` the plyspec state, `turn` the index of the player whose turn it is in
    the rotation (at a chance node: whose turn follows it; it differs from the player to
    move of `state` at a forced pass), `source` the chance node this state is an outcome of
    (None otherwise)."""

    __slots__ = ()


class AimaGame:
    """A deterministic plyspec game as an aima-python `Game` (see the module docstring)."""

    def __init__(self, game):
        self.game = game
        self.names = game.player_names
        self.initial = self.wrap(game.initial_state())

    def __repr__(self):
        return f"<{type(self).__name__} {self.game.name!r}>"

    def wrap(self, state, turn=None, source=None) -> AimaState:
        """The AimaState of a plyspec state; `turn`: whose turn it is in the rotation
        (default: the player to move)."""
        if state.is_chance() and not state.terminal_test():
            return AimaState(None, state, turn, source)
        if turn is None:
            turn = state.player()
        return AimaState(self.names[turn], state, turn, source)

    def _after(self, state, turn) -> AimaState:
        """The view of `state` reached by a move or pass of player `turn`."""
        return self.wrap(state, (turn + 1) % len(self.names))

    def actions(self, s: AimaState) -> list:
        if s.to_move is None:
            raise ChanceNode("a chance node has no actions: resolve it with game.outcome(state, chance) "
                             "for a chance in game.chances(state) (aima's StochasticGame)")
        if s.state.terminal_test():
            return []
        return s.state.actions() if s.turn == s.state.player() else [PASS]

    def result(self, s: AimaState, move) -> AimaState:
        if s.to_move is None:
            raise IllegalAction(f"{shown_value(move)}: this is a chance node; resolve it with game.outcome(state, chance)")
        if s.turn != s.state.player() and not s.state.terminal_test():
            if move != PASS:
                raise IllegalAction(f"{shown_value(move)}: {s.to_move} must pass here ({self.names[s.state.player()]} "
                                    f"moves again; legal: {PASS})")
            return self._after(s.state, s.turn)
        return self._after(s.state.result(move), s.turn)

    def utility(self, s: AimaState, player) -> float:
        return s.state.utility(player)

    def terminal_test(self, s: AimaState) -> bool:
        return s.state.terminal_test()

    def to_move(self, s: AimaState):
        return s.to_move

    def display(self, s: AimaState) -> None:
        print(s.state)
        if s.to_move is not None and s.turn != s.state.player() and not s.state.terminal_test():
            print(f"{s.to_move} passes: {self.names[s.state.player()]} moves again")

    def play_game(self, *players, rng=None):
        """Play with players[i] (a function (game, state) -> move) for player i; the
        utility for the first player at the end, as aima returns it."""
        if len(players) != len(self.names):
            raise ValueError(f"{self.game.name} has {len(self.names)} players, {len(players)} given")
        rng = rng or random.Random()
        s = self.initial
        while not self.terminal_test(s):
            if s.to_move is None:
                chances = self.chances(s)
                s = self.outcome(s, rng.choices(chances, [c.probability for c in chances])[0])
                continue
            s = self.result(s, players[s.turn](self, s))
        self.display(s)
        return self.utility(s, self.to_move(self.initial))


class AimaStochasticGame(AimaGame):
    """A plyspec game with chance as an aima-python `StochasticGame`."""

    def chances(self, s: AimaState) -> list:
        if s.to_move is None:
            return [Chance(o, p) for o, p in s.state.chance_outcomes()]
        return [NO_CHANCE]

    def outcome(self, s: AimaState, chance) -> AimaState:
        if chance == NO_CHANCE and s.to_move is not None:
            return s
        node = s if s.to_move is None else s.source
        if node is None or not isinstance(chance, Chance):
            raise IllegalAction(f"{shown_value(chance)} is not a chance of this state (game.chances(state) lists them)")
        return self.wrap(node.state.result(chance.outcome), node.turn, node)

    def probability(self, chance) -> float:
        return chance.probability


def as_aima(game) -> AimaGame:
    """`game` (a plyspec Game, or a game of the reference interpreter) with aima-python's
    interface: an AimaStochasticGame when it has chance, else an AimaGame."""
    return AimaStochasticGame(game) if game.chance else AimaGame(game)
