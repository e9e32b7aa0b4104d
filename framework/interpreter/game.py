"""A checked spec played by the interpreter: the same course interface as a compiled game
(`initial_state`, `actions`, `player`, `result`, `terminal_test`, `utility`, `returns`,
`is_chance`, `chance_outcomes`, `evaluate`), with actions as their canonical texts
(`place(1,2)`, `roll`, `pass`) and chance outcomes as (value, probability) pairs.  The
contract is the compiled games' (framework.game): `result` raises IllegalAction for an
action that is not legal, `utility` reads a player index or name."""
from __future__ import annotations

import itertools
from dataclasses import replace

from framework import ast
from framework.graph import point_text
from framework.game import CHANCE, illegal_action, outcome_value_text, player_index
from framework.runtime import MAX_MOVE_STEPS, endless_move, shown_value

RECENT = 64             # legal-move lists kept (by state)
from framework.interpreter.evaluate import Evaluator, PlayerId, Snapshot
from framework.checker import continues
from framework.interpreter.history import LineState


class InterpretedGame:
    def __init__(self, checked):
        self.c = checked
        self.spec = checked.spec
        # the rules as written (not the checker's inlined copies); types from the checker
        self.actions = [(raw, [t for _, _, t in ca.params]) for raw, ca in zip(checked.spec.actions, checked.actions)]
        self.name = checked.spec.name
        self.player_names = tuple(checked.players)
        self.num_players = len(checked.players)
        self.chance = any(a.chance for a in checked.actions)
        self.ev = Evaluator(checked, self._legal_count)
        self.compound = [continues(a.effects) for a, _ in self.actions]
        self._recent = {}                       # snapshot -> its legal moves (a few)
        self.has_evaluation = bool(checked.features)

    # ----------------------------------------------------------------- states
    def initial_state(self) -> "InterpretedState":
        c = self.c
        board = (c.default_value,) * (c.width * c.height)
        values = []
        for v in c.variables:
            kind, init = v.initial
            if kind == "const":
                value = None if v.type == "cell" else frozenset() if v.type == "cellset" else init
                value = (value,) * v.size if v.is_array else value
            elif kind == "list":
                value = tuple(self.ev.eval(x, None, {}) for x in init)
            else:
                value = self.ev.eval(init, None, {})
                value = (value,) * v.size if v.is_array else value
            values.append((v.name, value))
        s = Snapshot(board, tuple(values), 0)
        turn = [None, None]
        s = self.ev.run(self.spec.init, s, {}, turn)
        if turn[0] is not None:                 # `turn = P` in `init`: P moves first
            s = replace(s, mover=int(turn[0]))
        state = InterpretedState(self, s, None)
        if c.repetition or c.max_moves:          # the rules that read the history
            return LineState(state, (state,))
        return state

    def _legal(self, s: Snapshot) -> list:
        """[(action text, schema index, arguments, compound move or None)] of the player to
        move in `s`; a compound move (an action whose effects may `continue`) as (the number
        of its steps, the state after them, the `turn` they set).  With `prefer: longest`
        only the moves of the most steps.  The last few lists are kept (`result` finds its
        move in the list of its state)."""
        out = self._recent.get(s)
        if out is not None:
            return out
        out = list(self._moves(s))
        if self.c.prefer == "longest" and out:
            longest = max(self._steps(move) for move in out)
            out = [move for move in out if self._steps(move) == longest]
        if len(self._recent) >= RECENT:
            self._recent.clear()
        self._recent[s] = out
        return out

    def _moves(self, s: Snapshot):
        """The legal moves of `_legal`, one by one, before any `prefer`; a move whose action
        has `legal_after` only when that holds in the position its effects leave (`mover`
        still the player who moved: the next player is chosen after)."""
        for ai, (a, types) in enumerate(self.actions):
            if a.step:
                continue
            for args in self._choices(a, a.params, s, {}):
                if not self.compound[ai]:
                    if a.legal_after is None or self.ev.eval(a.legal_after, self.ev.run(a.effects, s, args, [None, None]), args):
                        yield self._text(a, types, args), ai, args, None
                    continue
                for values, steps, after, turn in self._paths(a, types, s, args, None, 1):
                    yield self._text(a, types, args, values), ai, args, (steps, after, turn)

    @staticmethod
    def _steps(move) -> int:
        return move[3][0] if move[3] is not None else 1

    def _paths(self, a, types, s, env, turn, depth):
        """([value texts chosen in later steps], steps, state, turn) of every way the move
        that makes step `a` with `env` can go on: a `continue` reached by the effects leads
        to each legal choice of the step's remaining parameters, and the move ends where
        no choice is legal ("continue while you can")."""
        if depth > MAX_MOVE_STEPS:
            endless_move(a.pos)
        slot = [turn, None]
        after = self.ev.run(a.effects, s, env, slot)
        found = False
        if slot[1] is not None:
            name, fixed = slot[1]
            bi = next(i for i, (b, _) in enumerate(self.actions) if b.name == name)
            b, btypes = self.actions[bi]
            benv = {p.name: v for p, v in zip(b.params, fixed)}
            chosen = list(zip(b.params, btypes))[len(fixed):]
            for args in self._choices(b, b.params[len(fixed):], after, benv):
                head = [self._value_text(args[p.name], t) for p, t in chosen]
                for values, steps, end, last_turn in self._paths(b, btypes, after, args, slot[0], depth + 1):
                    found = True
                    yield head + values, steps + 1, end, last_turn
        if not found:
            yield [], 1, after, slot[0]

    def _choices(self, a, params, s, env):
        """The arguments of `params` (the others already in `env`) for which `a`'s
        precondition holds.  Its `and`-operands are tested left to right, each as soon as
        the parameters it names and those of the operands before it are bound, which is the
        same as testing the whole precondition once all are bound, only sooner."""
        operands = _and_operands(a.precondition)
        names = [p.name for p in params]
        depth, at = 0, []
        for operand in operands:
            depth = max([depth] + [names.index(n) + 1 for n in _names_in(operand) if n in names])
            at.append(depth)
        yield from self._assign(params, operands, at, 0, s, dict(env))

    def _assign(self, params, operands, at, k, s, env):
        if not all(self.ev.eval(o, s, env) for o, d in zip(operands, at) if d == k):
            return
        if k == len(params):
            yield dict(env)
            return
        for value in self.ev.domain(params[k].domain, s, env):
            yield from self._assign(params, operands, at, k + 1, s, {**env, params[k].name: value})

    def _legal_count(self, s: Snapshot, player, at_most=None) -> int:
        """How many legal moves `player` would have in `s` (counting stops at `at_most`)."""
        s = replace(s, mover=player)
        if at_most is None or self.c.prefer:
            return len(self._legal(s))
        return sum(1 for _ in itertools.islice(self._moves(s), at_most))

    def _value_text(self, v, t) -> str:
        if t.startswith("enum:"):
            return self.outcome_value(t, v)
        return point_text(self.c.graph, v) if t == "cell" else self.player_names[v] if t == "player" else str(v)

    def outcome_value(self, t, v):
        """A chance variable's value as an outcome shows it: an enumeration value by name."""
        return self.ev.vars[t[5:]].enum[v] if t.startswith("enum:") else v

    def outcome_index(self, t, v):
        """The value a rule reads for an outcome shown as `v` (the inverse of outcome_value)."""
        return self.ev.vars[t[5:]].enum.index(v) if t.startswith("enum:") else v

    def _text(self, a, types, args, later=()) -> str:
        parts = [self._value_text(args[param.name], t) for param, t in zip(a.params, types)] + list(later)
        return f"{a.name}({','.join(parts)})" if parts else a.name

    @staticmethod
    def action_text(action) -> str:
        """An action's canonical text: the action itself (the interpreter's actions are texts)."""
        return action if isinstance(action, str) else shown_value(action)

    def outcome_text(self, state, outcome) -> str:
        variables = self.c.actions[state.pending[0]].chance.variables
        values = (outcome,) if len(variables) == 1 else outcome
        return ",".join(f"{var}={outcome_value_text(kind, value, self.player_names)}"
                        for (var, _, kind), value in zip(variables, values))

    def _after(self, a, s: Snapshot, env: dict) -> Snapshot:
        turn = [None, None]
        return self._finish(s, self.ev.run(a.effects, s, env, turn), turn[0])

    def _finish(self, s: Snapshot, s2: Snapshot, turn) -> Snapshot:
        """The state after a move from `s` that left `s2`, with the player to move next."""
        if turn is not None:
            nxt = turn
        elif self.spec.turn is not None:
            nxt = self.ev.eval(self.spec.turn, replace(s2, mover=s.mover), {})
        else:
            nxt = (s.mover + 1) % self.num_players
        return replace(s2, mover=int(nxt))

    def terminal(self, s: Snapshot) -> bool:
        return any(bool(self.ev.eval(e, s, {})) for e in (self.spec.terminal, self.spec.goal) if e is not None)

    def utility(self, s: Snapshot, me: int):
        c, ev, spec = self.c, self.ev, self.spec
        if spec.winner is not None:
            return self.score(s, me, "winner", spec.winner)
        if c.utility is not None:
            if c.utility[0] != "each":
                return self.score(s, me, c.utility[0], spec.utility)
            by_player = {self.player_names.index(p): e for p, e in spec.utility.items()}
            return ev.eval(by_player[me], s, {"me": PlayerId(me)}) if me in by_player else 0
        return 1 if ev.eval(spec.goal, s, {}) else 0

    def score(self, s: Snapshot, me: int, form: str, expr):
        """Player me's score on the position s by a `winner` expression or a single
        utility (`form` zero_sum, or me)."""
        me = PlayerId(me)
        if form == "winner":
            winner = self.ev.eval(expr, s, {})
            if self.num_players == 2:
                return 0 if winner is None or winner < 0 else 1 if winner == me else -1
            return 1 if winner == me else 0
        if form == "me":
            return self.ev.eval(expr, s, {"me": me})
        value = self.ev.eval(expr, s, {})
        return value if me == 0 else -value

    def evaluate(self, state, player):
        player = player_index(self.player_names, player)
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
        acts = [move[0] for move in self.game._legal(self.s)]
        if acts:
            return acts
        if self.game.c.spec.pass_rule:
            return ["pass"]
        from framework.errors import NoLegalActions
        spec = self.game.spec
        raise NoLegalActions.at(spec.positions.get("terminal") or spec.pos,
                                "a state that is not terminal has no legal action")

    def chance_outcomes(self) -> list:
        """(outcome, probability) pairs: an outcome is the value of the chance variable, or
        the tuple of the values of several; their probability the joint expression, else
        the product of each variable's own (uniform over its domain when none is given)."""
        if self.pending is None:
            return []
        ai, args = self.pending
        chance, ev = self.game.c.actions[ai].chance, self.game.ev
        raw = self.game.actions[ai][0].chance
        out = []

        def walk(k, env, weight):
            if k == len(raw.variables):
                p = ev.eval(raw.probability[0], self.s, env) if chance.joint is not None else weight
                if p > 0:
                    values = tuple(self.game.outcome_value(t, env[v.name])
                                   for v, (_, _, t) in zip(raw.variables, chance.variables))
                    out.append((values[0] if len(values) == 1 else values, p))
                return
            var = raw.variables[k]
            values = ev.domain(var.domain, self.s, env)
            for value in values:
                inner = {**env, var.name: value}
                factor = ev.eval(raw.probability[k], self.s, inner) if chance.each else \
                    1 if chance.joint is not None else 1 / len(values)
                walk(k + 1, inner, weight * factor)
        walk(0, dict(args), 1)
        if not out:
            from framework.runtime import no_outcomes
            no_outcomes(self.game.actions[ai][0].pos)
        return out

    def result(self, action) -> "InterpretedState":
        game = self.game
        if self._terminal or (self.pending is not None and action not in self.actions()):
            raise illegal_action(game, self, action)
        if self.pending is not None:
            ai, args = self.pending
            a = game.actions[ai][0]
            values = (action,) if len(a.chance.variables) == 1 else tuple(action)
            values = [game.outcome_index(t, x) for (_, _, t), x in zip(game.c.actions[ai].chance.variables, values)]
            env = {**dict(args), **{v.name: x for v, x in zip(a.chance.variables, values)}}
            return InterpretedState(game, game._after(a, self.s, env), None)
        if action == "pass" and game.c.spec.pass_rule and not game._legal(self.s):
            return InterpretedState(game, replace(self.s, mover=(self.s.mover + 1) % game.num_players), None)
        for text, ai, args, compound in game._legal(self.s):
            if text == action:
                a = game.actions[ai][0]
                if a.chance:
                    return InterpretedState(game, self.s, (ai, tuple(sorted(args.items()))))
                if compound is not None:
                    return InterpretedState(game, game._finish(self.s, compound[1], compound[2]), None)
                return InterpretedState(game, game._after(a, self.s, args), None)
        raise illegal_action(game, self, action)

    def utility(self, player):
        player = player_index(self.game.player_names, player)
        return self.game.utility(self.s, player) if self._terminal else 0

    def returns(self):
        return tuple(self.utility(p) for p in range(self.game.num_players))


def _and_operands(node) -> list:
    if node is None:
        return []
    if isinstance(node, ast.Binary) and node.op == "and":
        return _and_operands(node.left) + _and_operands(node.right)
    return [node]


def _names_in(node) -> set:
    """Every name an expression mentions (bound or free: a safe over-approximation)."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Quant):
        return {node.var} | _names_in(node.domain) | _names_in(node.body)
    found = set()
    for name in getattr(node, "__dataclass_fields__", {}):
        child = getattr(node, name)
        for c in child if isinstance(child, tuple) else (child,):
            if hasattr(c, "__dataclass_fields__"):
                found |= _names_in(c)
    return found
