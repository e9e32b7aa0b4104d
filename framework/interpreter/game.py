"""A checked spec played by the interpreter: the same course interface as a compiled game
(`initial_state`, `actions`, `player`, `result`, `terminal_test`, `utility`, `returns`,
`is_chance`, `chance_outcomes`, `evaluate`), with actions as their canonical texts
(`place(1,2)`, `roll`, `pass`) and chance outcomes as (value, probability) pairs."""
from __future__ import annotations

from dataclasses import replace

from framework.game import CHANCE
from framework.interpreter.evaluate import Evaluator, PlayerId, Snapshot


class InterpretedGame:
    def __init__(self, checked):
        self.c = checked
        self.spec = checked.spec
        # the rules as written (not the checker's inlined copies); types from the checker
        self.actions = [(raw, [t for _, _, t in ca.params]) for raw, ca in zip(checked.spec.actions, checked.actions)]
        self.name = checked.spec.name
        self.player_names = tuple(checked.players)
        self.num_players = len(checked.players)
        self.ev = Evaluator(checked, self._legal_count)
        self.has_evaluation = bool(checked.features)

    # ----------------------------------------------------------------- states
    def initial_state(self) -> "InterpretedState":
        c = self.c
        board = (c.default_value,) * (c.width * c.height)
        values = []
        for v in c.variables:
            kind, init = v.initial
            if kind == "const":
                value = None if v.type == "cell" else init
                value = (value,) * v.size if v.is_array else value
            elif kind == "values":
                value = tuple(init)
            elif kind == "list":
                value = tuple(self.ev.eval(x, None, {}) for x in init)
            else:
                value = self.ev.eval(init, None, {})
                value = (value,) * v.size if v.is_array else value
            values.append((v.name, value))
        s = Snapshot(board, tuple(values), 0)
        s = self.ev.run(self.spec.init, s, {}, [None])
        return InterpretedState(self, s, None)

    def _legal(self, s: Snapshot) -> list:
        """[(action text, schema index, arguments)] of the player to move in `s`."""
        out = []
        for ai, (a, types) in enumerate(self.actions):
            for args in self._assignments(a.params, s, {}):
                if a.precondition is None or self.ev.eval(a.precondition, s, args):
                    out.append((self._text(a, types, args), ai, args))
        return out

    def _assignments(self, params, s, env):
        if not params:
            yield dict(env)
            return
        param, rest = params[0], params[1:]
        for value in self.ev.domain(param.domain, s, env):
            yield from self._assignments(rest, s, {**env, param.name: value})

    def _legal_count(self, s: Snapshot, player) -> int:
        return len(self._legal(replace(s, mover=player)))

    def _text(self, a, types, args) -> str:
        if not a.params:
            return a.name
        parts = []
        for param, t in zip(a.params, types):
            v = args[param.name]
            parts.append(f"{v[0]},{v[1]}" if t == "cell" else self.player_names[v] if t == "player" else str(v))
        return f"{a.name}({','.join(parts)})"

    def outcome_text(self, state, outcome) -> str:
        var, _, kind, _ = self.c.actions[state.pending[0]].chance      # (var, domain, type, p)
        if kind == "cell":
            return f"{var}=({outcome[0]},{outcome[1]})"
        return f"{var}={self.player_names[outcome] if kind == 'player' else outcome}"

    def _after(self, a, s: Snapshot, env: dict) -> Snapshot:
        turn = [None]
        s2 = self.ev.run(a.effects, s, env, turn)
        if turn[0] is not None:
            nxt = turn[0]
        elif self.spec.turn is not None:
            nxt = self.ev.eval(self.spec.turn, replace(s2, mover=s.mover), {})
        else:
            nxt = (s.mover + 1) % self.num_players
        return replace(s2, mover=int(nxt))

    def terminal(self, s: Snapshot) -> bool:
        return any(bool(self.ev.eval(e, s, {})) for e in (self.spec.terminal, self.spec.goal) if e is not None)

    def utility(self, s: Snapshot, me: int):
        c, ev, spec = self.c, self.ev, self.spec
        me = PlayerId(me)
        if spec.winner is not None:
            winner = ev.eval(spec.winner, s, {})
            if self.num_players == 2:
                return 0 if winner is None or winner < 0 else 1 if winner == me else -1
            return 1 if winner == me else 0
        if c.utility is not None:
            form = c.utility[0]
            if form == "zero_sum":
                value = ev.eval(spec.utility, s, {})
                return value if me == 0 else -value
            if form == "me":
                return ev.eval(spec.utility, s, {"me": me})
            by_player = {self.player_names.index(p): e for p, e in spec.utility.items()}
            return ev.eval(by_player[me], s, {"me": me}) if me in by_player else 0
        return 1 if ev.eval(spec.goal, s, {}) else 0

    def evaluate(self, state, player):
        total = 0
        raw = {f.name: f.value for f in self.spec.evaluation}
        for name, weight, _, per_player in self.c.features:
            value = self.ev.eval(raw[name], state.s, {"me": PlayerId(player)})
            total += weight * value if per_player else weight * value * (1 if player == 0 else -1)
        return total


class InterpretedState:
    """A state of an `InterpretedGame` (hashable, immutable)."""

    __slots__ = ("game", "s", "pending", "_terminal")

    def __init__(self, game: InterpretedGame, s: Snapshot, pending):
        self.game, self.s, self.pending = game, s, pending
        self._terminal = pending is None and game.terminal(s)

    def __eq__(self, other):
        return isinstance(other, InterpretedState) and (self.s, self.pending) == (other.s, other.pending)

    def __hash__(self):
        return hash((self.s, self.pending))

    def player(self):
        return CHANCE if self.pending is not None else self.s.mover

    def is_chance(self):
        return self.pending is not None

    def terminal_test(self):
        return self._terminal

    def actions(self) -> list:
        if self._terminal:
            return []
        if self.pending is not None:
            return [o for o, _ in self.chance_outcomes()]
        acts = [text for text, _, _ in self.game._legal(self.s)]
        if acts:
            return acts
        if self.game.c.spec.pass_rule:
            return ["pass"]
        from framework.errors import NoLegalActions
        spec = self.game.spec
        raise NoLegalActions.at(spec.positions.get("terminal") or spec.pos,
                                "a state that is not terminal has no legal action")

    def chance_outcomes(self) -> list:
        if self.pending is None:
            return []
        ai, args = self.pending
        chance = self.game.actions[ai][0].chance
        out = []
        for value in self.game.ev.domain(chance.domain, self.s, dict(args)):
            p = self.game.ev.eval(chance.probability, self.s, {**dict(args), chance.var: value})
            if p > 0:
                out.append((value, p))
        return out

    def result(self, action) -> "InterpretedState":
        game = self.game
        if self.pending is not None:
            ai, args = self.pending
            a = game.actions[ai][0]
            s = game._after(a, self.s, {**dict(args), a.chance.var: action})
            return InterpretedState(game, s, None)
        if action == "pass" and game.c.spec.pass_rule and not game._legal(self.s):
            return InterpretedState(game, replace(self.s, mover=(self.s.mover + 1) % game.num_players), None)
        for text, ai, args in game._legal(self.s):
            if text == action:
                a = game.actions[ai][0]
                if a.chance:
                    return InterpretedState(game, self.s, (ai, tuple(sorted(args.items()))))
                return InterpretedState(game, game._after(a, self.s, args), None)
        raise ValueError(f"{action!r} is not a legal action here")

    def utility(self, player):
        return self.game.utility(self.s, player) if self._terminal else 0

    def returns(self):
        return tuple(self.utility(p) for p in range(self.game.num_players))
