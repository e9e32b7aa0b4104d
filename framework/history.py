"""The rules that end a game from its history, for compiled games: `repetition` (what a
repeated position means) and `max_moves` (a move-count limit).

A compiled game whose spec declares either rule gets states of the class made here, a
tuple `(position, seen, moves, end)` around the generated state:

    position  the generated state (board, variables, player to move: the position)
    seen      the occurrences on this line (framework.history_line.Line: a persistent
              record, one link per move, read as the set of (key, k) pairs: the position
              occurred a k-th time on this line, k = 1..n); EMPTY without a repetition
              rule.  The key is the position itself, or with `over` the fields
              it names (all the board's, a variable's, the mover's; and the pending
              chance action in a game with chance), so a counter or a clock left out does
              not hide a repetition
    moves     the players' moves made so far (chance outcomes are not moves); 0 without
              `max_moves`
    end       (), or the returns when a rule ended the game (a draw: every player 0;
              a loss: -1 for the player whose move triggered the rule, +1 for the other;
              a scored rule: the generated `_score_repetition` / `_score_max_moves` of
              the final position, for each player);
              never None, which CPython 3.11 hashes by its address: every part of a
              state hashes the same in every process, so node counts repeat

So the history is part of the state: equality and hashing stay exact (the line's hash is
kept incrementally, the same in every process; equal lines have the same occurrences), a position reached twice by different lines
is two states, and the game graph has no cycle: every line ends (a position can occur at
most `count` times), which is what lets `solve` search it as a tree.  Two lines that
visited the same positions the same number of times meet again (a transposition).  Games
declaring neither rule are not wrapped and pay nothing.

The rules, applied after every move of a player to the position it reaches (chance
outcomes are recorded in `seen` but never trigger a rule):
- a position the game's own rules make terminal ends the game by those rules;
- repetition with count c: reaching a position for the c-th time on the line (the initial
  position counts once) is a draw, a loss for the mover, the score of `winner: EXPR` /
  `utility: EXPR` on the position reached, or, with `forbidden`, not a legal move; a player whose every move is forbidden ends the game in a draw (tested when asked,
  stopping at the first move that does not repeat);
- max_moves N: the N-th move ends the game (draw, a loss for the player who made it, or
  scored).

The reference interpreter implements the same rules on its own (a tuple of the earlier
positions, counted), and `compiled_agrees_with_interpreter` compares the two.
"""
from __future__ import annotations

from functools import lru_cache
from operator import itemgetter

from framework.records import dataclass, replace   # the dataclasses module's, made cheaply
from framework.game import illegal_action, player_index
from framework.history_kernel import history_kernel
from framework.history_line import EMPTY


@dataclass(frozen=True)
class Rules:
    players: int
    repetition: str | None = None     # draw | loss | forbidden | winner | utility
    count: int = 2                    # the occurrence that triggers it
    limit: int | None = None          # max_moves
    limit_result: str = "draw"        # draw | loss | winner | utility
    over: tuple | None = None         # the indices of the fields that make a position (None: all)
    nfields: int = 0                  # how many fields the position has (for the scores)


def with_history(game, checked, fields):
    """`game` (a compiled Game, `fields` its State's field names) playing by the spec's
    repetition and move-limit rules."""
    result, count = checked.repetition or (None, 2)
    limit, limit_result = checked.max_moves or (None, "draw")
    over = over_indices(checked, fields)
    if over is not None and game.chance:
        over += (len(fields),)          # the pending chance action
    rules = Rules(len(checked.players), result, count, limit, limit_result, over, len(fields))
    state_class, kernel = ruled_class(rules), None
    if game.kernel is not None and game.kernel.outcomes is None:      # the kernel's fast path, history kept
        state_class = type("RuledState", (state_class,), {"__slots__": ()})   # this game's: it holds the kernel
        state_class._kernel = kernel = history_kernel(game.kernel, rules, state_class.key, state_class,
                                                      game.state_class._namespace, _mover_advances(checked))
        game.state_class._namespace["RULED_CLASS"] = state_class          # for unpickling (_restore)
    inner_initial, inner_evaluate = game._initial, game._evaluate
    inner_noisy, inner_outcome_text = game._is_noisy, game._outcome_text
    return replace(
        game, _initial=lambda: state_class.start(inner_initial()),
        _evaluate=None if inner_evaluate is None else lambda s, p: inner_evaluate(s[0], p),
        _is_noisy=None if inner_noisy is None else lambda s, a: inner_noisy(s[0], a),
        _outcome_text=None if inner_outcome_text is None else lambda s, o: inner_outcome_text(s[0], o),
        _symmetries=None,       # a symmetry would have to map the whole history: not used
        kernel=kernel)          # framework.history_kernel, or None (a game with chance, or no kernel)


def _mover_advances(checked) -> bool:
    """Every move hands the turn to another player (two or more players, no `turn` rule and
    no effect setting `turn`), so a position and its child never have the same mover."""
    from framework.compiler.common import _assigns_turn
    return len(checked.players) >= 2 and checked.turn is None \
        and not any(_assigns_turn(a.effects) for a in checked.actions)


def over_indices(checked, fields) -> tuple | None:
    """The indices, among the generated State's `fields`, of the parts a repetition compares
    (`repetition: {over: [...]}`: every board field, a variable's, the mover's); None when
    the whole position is compared.  (framework/compiler/kernel.py writes the same key.)"""
    if not checked.repetition_over:
        return None
    names = {"board": [f for f in fields if f.startswith("b_")], "mover": ["mover"]}
    return tuple(fields.index(f) for name in checked.repetition_over for f in names.get(name, ["v_" + name]))


@lru_cache(maxsize=None)
def ruled_class(rules: Rules):
    """The state class for `rules` (one per distinct rule set, so states pickle by value)."""
    draw = (0,) * rules.players
    forbidden = rules.repetition == "forbidden"
    count, limit = rules.count, rules.limit
    key = (lambda position: position) if rules.over is None else itemgetter(*rules.over)

    def ended(result, mover, position, rule):
        if result == "draw":
            return draw
        if result == "loss":
            return tuple(-1 if p == mover else 1 for p in range(rules.players))
        score, fields = type(position)._namespace["_score_" + rule], position[:rules.nfields]
        return tuple(score(*fields, p) for p in range(rules.players))

    class RuledState(tuple):
        """A position with its history (see framework.history)."""
        __slots__ = ()

        @classmethod
        def start(cls, position):
            seen = EMPTY.add(key(position)) if rules.repetition else EMPTY
            return cls._make(position, seen, 0, False)

        @classmethod
        def _make(cls, position, seen, moves, by_player, mover=None):
            end = ()
            if by_player and not position.terminal_test():
                repeats = rules.repetition is not None and seen.k >= count     # seen ends with position's
                if repeats and not forbidden:
                    end = ended(rules.repetition, mover, position, "repetition")
                elif limit is not None and moves >= limit:
                    end = ended(rules.limit_result, mover, position, "max_moves")
            return tuple.__new__(cls, (position, seen, moves, end))

        def _repeats(self, child) -> bool:
            """Whether reaching `child` by a move makes its count-th occurrence."""
            return self[1].count(key(child)) >= count - 1 and not child.terminal_test()

        def _stuck(self) -> bool:
            """With `forbidden`: every move of the player to move would repeat (asked when
            needed, and it stops at the first move that does not: tried from the last, where
            a pass usually is)."""
            position = self[0]
            if not forbidden or position.terminal_test() or position.is_chance():
                return False
            try:
                return all(self._repeats(position._result(a)) for a in reversed(position.actions()))
            except Exception:       # noqa: BLE001 - a move whose rules fail does not repeat:
                return False        # actions() and result() report the failure itself

        def player(self):
            return self[0].player()

        def terminal_test(self):
            return bool(self[3]) or self[0].terminal_test() or (forbidden and self._stuck())

        def is_chance(self):
            return not self[3] and self[0].is_chance()

        def actions(self):
            if self[3] or self[0].terminal_test():
                return []
            position = self[0]
            acts = position.actions()
            if forbidden and not position.is_chance():
                acts = [a for a in acts if not self._repeats(position._result(a))]
            return acts             # [] when every move repeats: then terminal_test() holds

        def chance_outcomes(self):
            return [] if self[3] else self[0].chance_outcomes()

        def result(self, action):
            if not type(self[0])._legal.allows(self, action):    # the game's cache (framework.game)
                position = self[0]
                repeats = forbidden and not self.terminal_test() and action in position.actions()
                raise illegal_action(type(position)._game, self, action,
                                     " (it repeats a position, which the rules forbid)" if repeats else "")
            return self._result(action)

        def _result(self, action):
            """result() without its check (framework.game.unchecked)."""
            position, seen, moves, end = self
            child = position._result(action)
            by_player = not position.is_chance()
            if rules.repetition is not None:
                seen = seen.add(key(child))
            if by_player and limit is not None:
                moves += 1
            return self._make(child, seen, moves, by_player, position.player())

        def utility(self, player):
            game = type(self[0])._game
            if player.__class__ is not int or not 0 <= player < rules.players:
                player = player_index(game.player_names, player)
            return self.returns()[player]

        def returns(self):
            if self[3]:
                return self[3]
            return draw if forbidden and self._stuck() else self[0].returns()

        def __reduce__(self):
            """The earlier positions go as plain tuples (Line.__reduce__: equal, and hashing
            alike, to the States they were): each State would find its game again when unpickled."""
            return (_restore, (rules, tuple(self)))

        def __str__(self):
            if not self[3]:
                return str(self[0])
            repeated = rules.repetition is not None and self[1].count(key(self[0])) >= count
            return f"{self[0]}\n(ended by the {'repetition rule' if repeated else 'move limit'})"

        def __repr__(self):
            return f"<state {self[0]!r}, {len(self[1])} position(s) seen, {self[2]} move(s)>"

    RuledState.key = staticmethod(key)
    RuledState.__qualname__ = RuledState.__name__ = "RuledState"
    return RuledState


def position(state):
    """The position inside a state that carries its history, else the state itself."""
    inner = state[0] if len(state) == 4 else None
    return inner if isinstance(inner, tuple) and hasattr(inner, "actions") else state


def _restore(rules, values):
    """Unpickling: the state of the game its position belongs to (its class holds the kernel)."""
    namespace = getattr(type(values[0]), "_namespace", {})
    return tuple.__new__(namespace.get("RULED_CLASS") or ruled_class(rules), values)
