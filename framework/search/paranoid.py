"""Paranoid search (Sturtevant & Korf 2000): the player to move at the root against the
coalition of all the others, who are assumed to minimise the root player's utility.

That reduces an n-player game to a two-sided zero-sum one, searched by fail-soft
alpha-beta: the root player maximises `utility(root player)` (the evaluation of the
root player at the depth limit), every other player minimises it.  Turn orders need not
alternate; the result is the root player's guaranteed value against any coalition play.
Games with chance nodes are refused (expectimax, max-n and MCTS search those).
`player=` searches for another player than the one to move at the root (its index or
name); `Result.value` is then that player's guaranteed value, and `extra["player"]` names
it.

Depth counts every edge as a ply; with a time or node budget the search deepens
iteratively and returns the deepest completed iteration (see `depth_first`).  A compiled
game's kernel runs the search over packed states (framework.kernel.Rules) unless an
`evaluate=` function is given.
"""
from __future__ import annotations

import math

from framework.kernel import Rules
from framework.search.depth_first import DepthFirstSearch, root_mover
from framework.search.result import Result

INF = math.inf


def search(game, state=None, *, depth=None, time_limit=None, node_limit=None,
           evaluate=None, player=None) -> Result:
    """Paranoid value of `state` (default: the initial state) for `player` (an index or a
    player name; default: the player to move at `state`) against all the others."""
    game.require(chance=False, algorithm="paranoid")
    root = game.initial_state() if state is None else state
    me = root_mover(root) if player is None else player_index(game, player)
    searcher = _Paranoid(me, Rules(game, root, evaluate), time_limit, node_limit)
    result = searcher.run(root, depth)
    result.extra["player"] = game.player_names[me]
    return result


def player_index(game, player) -> int:
    """The index of `player`, given as an index, a digit string or a player name."""
    names = list(game.player_names)
    if isinstance(player, str):
        if player in names:
            return names.index(player)
        if not player.strip().isdigit():
            raise ValueError(f"paranoid: no player {player!r}; players: {', '.join(names)}")
        player = int(player)
    if not 0 <= player < len(names):
        raise ValueError(f"paranoid: player index {player} out of range 0..{len(names) - 1}")
    return player


class _Paranoid(DepthFirstSearch):
    """One search: alpha-beta on the root player's utility."""

    algorithm = "paranoid"

    def __init__(self, me, rules, time_limit, node_limit):
        super().__init__(rules, time_limit, node_limit)
        self.me = me
        self.evaluate = rules.evaluate

    def _horizon(self, state):
        self.horizon_reached()
        return self.evaluate(state, self.me)

    def search_to(self, root, limit):
        tick = self.budget.tick
        horizon = self._horizon
        me = self.me
        r = self.rules
        terminal, utility, player_of, actions, result = r.terminal, r.utility, r.player, r.actions, r.result

        def value(state, depth, alpha, beta):
            tick()
            if terminal(state):
                return utility(state, me), None
            if depth == 0:
                return horizon(state), None
            if player_of(state) == me:
                best, best_line = -INF, None
                for action in actions(state):
                    v, line = value(result(state, action), depth - 1, alpha, beta)
                    if v > best:
                        best, best_line = v, (action, line)
                        if v > alpha:
                            if v >= beta:
                                self.cutoffs += 1
                                break
                            alpha = v
            else:
                best, best_line = INF, None
                for action in actions(state):
                    v, line = value(result(state, action), depth - 1, alpha, beta)
                    if v < best:
                        best, best_line = v, (action, line)
                        if v < beta:
                            if v <= alpha:
                                self.cutoffs += 1
                                break
                            beta = v
            return best, best_line

        return value(root, limit, -INF, INF)
