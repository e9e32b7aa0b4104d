"""The properties checked at every state of a playout (`StepChecks`, one method per
property in `STEP_PROPERTIES`): playing raises no error, actions exist exactly at
non-terminal states, texts round-trip, results do not mutate, equal states hash equal,
pickling, utility bounds and sums, chance outcomes, symmetries.
"""
from __future__ import annotations

import math
import pickle
from fractions import Fraction

from framework.conformance.symmetry import NAME as SYMMETRY, SAMPLE_STATES as SYMMETRY_SAMPLE, symmetry_violation
from framework.errors import NoChanceOutcomes, NoLegalActions, SpecError
from framework.game import CHANCE
from framework.conformance.playouts import STEP_PROPERTIES, TOLERANCE, Violation, _bounds_the_sum, error_text


# ------------------------------------------------------------------- step properties
def _num(x) -> bool:
    return isinstance(x, (int, float, Fraction)) and not isinstance(x, bool)


def _close(a, b) -> bool:
    if a == b:
        return True
    return math.isfinite(a) and math.isfinite(b) and abs(a - b) <= TOLERANCE * max(1, abs(a), abs(b))


class StepChecks:
    """The properties checked at every state of a playout; each method raises Violation."""

    def __init__(self, game, active, every=1):
        self.game = game
        self.symmetry_every, self.symmetry_budget = every, SYMMETRY_SAMPLE
        self.active = [getattr(self, name) for name in STEP_PROPERTIES
                       if name in active and name != "replay_gives_equal_states"]
        self.replay = "replay_gives_equal_states" in active
        self.picklable = game.state_class._namespace.get("GAME_KEY") is not None

    def __call__(self, state, path, parent, action):
        for check in self.active:
            check(state, path, parent, action)

    def fail(self, name, message, path, state):
        raise Violation(name, message, path, state)

    def playing_raises_no_error(self, state, path, parent, action):
        """The queries of the course interface run without an exception (the playout runs
        the moves themselves)."""
        try:
            str(state)
            if state.terminal_test():
                state.returns()
            elif state.is_chance():
                state.chance_outcomes()
            else:
                state.actions()
                state.player()
        except (NoLegalActions, NoChanceOutcomes):   # reported by the properties that own them
            pass
        except Exception as exc:                 # noqa: BLE001
            self.fail("playing_raises_no_error", error_text(exc), path, state)

    def actions_exist_exactly_at_nonterminal_states(self, state, path, parent, action):
        name = "actions_exist_exactly_at_nonterminal_states"
        try:
            moves = state.actions()
        except NoLegalActions:
            moves = []
        except NoChanceOutcomes:                 # reported by chance_outcomes_well_formed
            return
        if state.terminal_test():
            if moves:
                self.fail(name, f"terminal state has {len(moves)} action(s)", path, state)
            return
        if state.is_chance():
            if state.player() != CHANCE:
                self.fail(name, f"chance node reports player {state.player()}, not CHANCE (-1)", path, state)
            if not self.game.chance:
                self.fail(name, "chance node in a game that does not declare chance", path, state)
            if not state.chance_outcomes():
                self.fail(name, "chance node without outcomes", path, state)
            return
        if not moves:
            self.fail(name, "non-terminal state without actions (and no pass)", path, state)
        if not 0 <= state.player() < self.game.num_players:
            self.fail(name, f"player to move {state.player()} is not a player index", path, state)
        if len(set(moves)) != len(moves):
            self.fail(name, "the same action is listed twice", path, state)

    def action_text_round_trip(self, state, path, parent, action):
        if state.terminal_test() or state.is_chance():
            return
        name = "action_text_round_trip"
        game = self.game
        moves = state.actions()
        texts = [game.action_text(a) for a in moves]
        if len(set(texts)) != len(texts):
            dup = next(t for t in texts if texts.count(t) > 1)
            self.fail(name, f"two actions have the text `{dup}`", path, state)
        for a in (moves[0], moves[-1]):
            try:
                back = game.parse_action(state, game.action_text(a))
            except SpecError as err:
                self.fail(name, f"`{game.action_text(a)}` is not read back: {err.message}", path, state)
            if back != a:
                self.fail(name, f"`{game.action_text(a)}` is read back as {back!r}, not {a!r}", path, state)

    def result_does_not_mutate(self, state, path, parent, action):
        if parent is None:
            return
        name = "result_does_not_mutate"
        snapshot = (lambda s: tuple(s)) if isinstance(parent, tuple) else repr
        values, h = snapshot(parent), hash(parent)
        again = parent.result(action)
        if snapshot(parent) != values or hash(parent) != h:
            self.fail(name, "result() changed the state it was called on", path[:-1], parent)
        if again != state:
            self.fail(name, "the same action from the same state gave two different states", path, state)

    def replay_gives_equal_states(self, state, path, parent, action):
        """Checked once at the end of a playout (see `GameChecker.steps`)."""
        replayed = self.game.initial_state()
        for a in path:
            replayed = replayed.result(a)
        if replayed != state or hash(replayed) != hash(state):
            self.fail("replay_gives_equal_states", "replaying the actions gave a different state "
                      f"({'equal, other hash' if replayed == state else 'not equal'})", path, state)

    def equal_states_hash_equal(self, state, path, parent, action):
        name = "equal_states_hash_equal"
        try:
            h = hash(state)
        except TypeError as err:
            self.fail(name, f"the state is not hashable: {err}", path, state)
        if not isinstance(state, tuple):       # compiled states are tuples; others: hashable
            return
        copy = tuple.__new__(type(state), tuple(state))
        if copy != state or hash(copy) != h:
            self.fail(name, "a state rebuilt from its values is not equal with an equal hash", path, state)

    def pickle_round_trip(self, state, path, parent, action):
        if not self.picklable:
            return
        back = pickle.loads(pickle.dumps(state))
        if back != state or hash(back) != hash(state) or type(back) is not type(state):
            self.fail("pickle_round_trip", "the unpickled state differs", path, state)

    def utilities_within_bounds(self, state, path, parent, action):
        if not state.terminal_test():
            return
        name = "utilities_within_bounds"
        game = self.game
        returns = state.returns()
        if len(returns) != game.num_players:
            self.fail(name, f"returns() has {len(returns)} values for {game.num_players} players", path, state)
        lo, hi = game.utility_bounds
        for p, u in enumerate(returns):
            if not _num(u) or math.isnan(u):
                self.fail(name, f"utility of {game.player_names[p]} is {u!r}, not a number", path, state)
            if not lo <= u <= hi:
                self.fail(name, f"utility {u:g} of {game.player_names[p]} is outside the declared "
                          f"bounds [{lo:g}, {hi:g}]", path, state)
            if state.utility(p) != u:
                self.fail(name, f"utility({p}) = {state.utility(p)!r} but returns()[{p}] = {u!r}", path, state)

    def utilities_sum_as_declared(self, state, path, parent, action):
        if not state.terminal_test():
            return
        game = self.game
        target = 0 if game.zero_sum else game.constant_sum
        total = sum(state.returns())
        if target is not None and not _close(total, target):
            kind = "zero-sum" if game.zero_sum else f"constant-sum {target:g}"
            self.fail("utilities_sum_as_declared", f"utilities {state.returns()} sum to {total:g}; "
                      f"the game is declared {kind}", path, state)
        elif _bounds_the_sum(game) and total > game.max_utility_sum and not _close(total, game.max_utility_sum):
            self.fail("utilities_sum_as_declared", f"utilities {state.returns()} sum to {total:g}, "
                      f"above the game's bound {game.max_utility_sum:g} on their sum", path, state)

    def chance_outcomes_well_formed(self, state, path, parent, action):
        if not state.is_chance() or state.terminal_test():
            return
        name = "chance_outcomes_well_formed"
        try:
            outcomes = state.chance_outcomes()
        except NoChanceOutcomes as exc:
            self.fail(name, exc.message, path, state)
        values = [o for o, _ in outcomes]
        if len(set(values)) != len(values):
            dup = next(v for v in values if values.count(v) > 1)
            self.fail(name, f"outcome {self.game.outcome_text(state, dup)} is listed twice", path, state)
        for o, p in outcomes:
            if not _num(p) or not 0 < p <= 1:
                self.fail(name, f"outcome {self.game.outcome_text(state, o)} has probability {p!r}, "
                          "not in (0, 1]", path, state)
        total = sum(p for _, p in outcomes)
        exact = all(isinstance(p, (int, Fraction)) for _, p in outcomes)
        if (total != 1) if exact else abs(total - 1) > TOLERANCE:
            self.fail(name, f"probabilities sum to {total!r}, not 1", path, state)
        if sorted(map(repr, values)) != sorted(map(repr, state.actions())):
            self.fail(name, "the outcomes are not the actions of the chance node", path, state)

    def symmetries_preserve_rules(self, state, path, parent, action):
        if not state.terminal_test():            # successors compared on a sample only (cost)
            if len(path) % self.symmetry_every or self.symmetry_budget <= 0:
                return
            self.symmetry_budget -= 1
        message = symmetry_violation(self.game, state)
        if message:
            self.fail(SYMMETRY, message, path, state)
