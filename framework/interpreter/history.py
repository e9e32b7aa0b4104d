"""The interpreter's reading of `repetition` and `max_moves`: a position with the whole line
of positions that led to it, the rules applied by counting along that line.  Written apart
from `framework.history` (the compiled games' version, which keeps a set of counted
positions) so that `compiled_agrees_with_interpreter` compares two readings of the rules:

- after a player's move (not a chance outcome) to a position the game's own rules do not
  end: if the position now occurs `count` times or more on the line (the initial position
  counts once; with `over`, two positions are the same when the parts it names are equal,
  and the pending chance action), `draw` ends the game with 0 for everyone, `loss` with -1
  for the mover and +1 for the other player, `winner: EXPR` / `utility: EXPR` with that
  expression's scores on the position reached; `forbidden` makes that move illegal;
- otherwise, when the players have made `max_moves` moves, the game ends the same way;
- a player whose moves would all repeat (with `forbidden`) ends the game in a draw (a move
  whose rules fail counts as not repeating: the failure is reported where it is made).
"""
from __future__ import annotations

from framework.game import illegal_action, player_index


class LineState:
    """An interpreted position, the line of positions that led to it (itself last), the
    players' moves so far and the returns when a rule ended the game."""

    __slots__ = ("position", "line", "moves", "end")

    def __init__(self, position, line, moves=0, end=None):
        self.position, self.line, self.moves, self.end = position, line, moves, end

    @property
    def s(self):
        return self.position.s

    @property
    def pending(self):
        return self.position.pending

    def __eq__(self, other):
        return isinstance(other, LineState) and \
            (self.position, self.line, self.moves, self.end) == (other.position, other.line, other.moves, other.end)

    def __hash__(self):
        return hash((self.position, self.line, self.moves, self.end))

    def _rules(self):
        c = self.position.game.c
        return c.repetition or (None, 0), c.max_moves or (None, None)

    def _key(self, position):
        """What a repetition compares of `position`: all of it, or the parts `over` names."""
        over = position.game.c.repetition_over
        if over is None:
            return position
        s = position.s
        return tuple(s.board if name == "board" else s.mover if name == "mover" else s.get(name)
                     for name in over) + (position.pending,)

    def _occurrences(self, child) -> int:
        key = self._key(child)
        return sum(1 for earlier in self.line if self._key(earlier) == key)

    def _would_repeat(self, child) -> bool:
        (rule, count), _ = self._rules()
        return rule is not None and not child.terminal_test() and self._occurrences(child) + 1 >= count

    def _stuck(self) -> bool:
        """With `forbidden`: the player to move has moves, but every one repeats."""
        (rule, _), _ = self._rules()
        p = self.position
        if rule != "forbidden" or p.terminal_test() or p.is_chance():
            return False
        try:
            return all(self._would_repeat(p.result(a)) for a in p.actions())
        except Exception:           # noqa: BLE001 - a failing move is not a repetition; the
            return False            # move list and the move report the failure themselves

    def player(self):
        return self.position.player()

    def is_chance(self):
        return not self.terminal_test() and self.position.is_chance()

    def terminal_test(self):
        return self.end is not None or self.position.terminal_test() or self._stuck()

    def actions(self):
        if self.terminal_test():
            return []
        (rule, _), _ = self._rules()
        p = self.position
        if rule == "forbidden" and not p.is_chance():
            return [a for a in p.actions() if not self._would_repeat(p.result(a))]
        return p.actions()

    def chance_outcomes(self):
        return self.position.chance_outcomes() if self.is_chance() else []

    def result(self, action):
        (rule, count), (limit, limit_result) = self._rules()
        p = self.position
        if self.terminal_test():
            raise illegal_action(p.game, self, action)
        child = p.result(action)
        by_player = not p.is_chance()
        if by_player and rule == "forbidden" and self._would_repeat(child):
            raise illegal_action(p.game, self, action, " (it repeats a position, which the rules forbid)")
        line, moves, end = self.line + (child,), self.moves + by_player, None
        if by_player and not child.terminal_test():
            if rule not in (None, "forbidden") and self._occurrences(child) + 1 >= count:
                end = self._ended(rule, p.player(), child, "repetition")
            elif limit is not None and moves >= limit:
                end = self._ended(limit_result, p.player(), child, "max_moves")
        return LineState(child, line, moves, end)

    def _ended(self, result, mover, child, key):
        game = self.position.game
        if result in ("winner", "utility"):
            form, outcome = game.c.end_scores[key][0], getattr(game.c.spec, key).outcome
            return tuple(game.score(child.s, q, form, outcome) for q in range(game.num_players))
        return tuple(0 if result == "draw" else -1 if q == mover else 1 for q in range(game.num_players))

    def utility(self, player):
        return self.returns()[player_index(self.position.game.player_names, player)]

    def returns(self):
        if self.end is not None:
            return self.end
        if self._stuck():
            return (0,) * self.position.game.num_players
        return self.position.returns()
