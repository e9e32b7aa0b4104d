"""The conformance properties of a game spec.

`check_game(path, options, examples, seed)` returns one `Outcome` per property.  The
properties checked at every state are first checked on the states nearest the start,
breadth-first (`SWEEP_STATES`), which finds shallow failures with their shortest sequence
whatever the luck of the draw; then on random playouts, drawn by Hypothesis: an example
is a list of indexes into the legal actions (or chance outcomes) of the successive states,
continued by a seeded random choice once the list runs out, so any game length can be
played; a violated property stops the playout, and Hypothesis shrinks the example.  The failing sequence is then shortened further by a
breadth-first search for the shortest action sequence from the initial state that violates
the same property (within a small node budget), and reported in the spec's action notation.
"""
from __future__ import annotations

import math
import pickle
import random
from collections import deque
from fractions import Fraction
from pathlib import Path

from framework.conformance.golden import golden_path, options_key, read_golden
from framework.conformance.report import FAILED, NOT_APPLICABLE, PASSED, Outcome
from framework.conformance.cycles import NAME as CYCLES, positions_do_not_repeat
from framework.conformance.symmetry import NAME as SYMMETRY, SAMPLE_EVERY as SYMMETRY_EVERY, \
    SAMPLE_STATES as SYMMETRY_SAMPLE, symmetry_violation
from framework.errors import NoChanceOutcomes, NoLegalActions, SpecError
from framework.game import CHANCE

DEFAULT_MAX_LENGTH = 10_000      # plies a playout may take when the spec declares no max_length
PUZZLE_WALK = 200                # plies of a random walk in a puzzle that declares no max_length
STEP_WALK = 1_000                # plies of a playout on which every state is checked
SHORTEST_BUDGET = 20_000         # states the search for a shorter counterexample may visit
SYNTAX_PERFT_NODES = 20_000      # the two syntaxes are compared by perft up to the ply past this
SWEEP_STATES = 2_000             # states nearest the start checked exhaustively, before playouts
TOLERANCE = 1e-9

STEP_PROPERTIES = ("playing_raises_no_error", "actions_exist_exactly_at_nonterminal_states",
                   "action_text_round_trip", "result_does_not_mutate", "replay_gives_equal_states",
                   "equal_states_hash_equal", "pickle_round_trip", "utilities_within_bounds",
                   "utilities_sum_as_declared", "chance_outcomes_well_formed", SYMMETRY)
SEARCH_PROPERTIES = ("alphabeta_equals_minimax", "expectimax_pruning_is_exact",
                     "maxn_pruning_is_exact")
PROPERTIES = ("loads", "playouts_terminate", CYCLES, *STEP_PROPERTIES, *SEARCH_PROPERTIES,
              "perft_matches_golden", "syntaxes_agree", "compiled_agrees_with_interpreter")


class Violation(Exception):
    """A property failed at the end of `path` (the actions from the initial state)."""

    def __init__(self, prop: str, message: str, path=(), state=None):
        super().__init__(message)
        self.prop, self.message, self.path, self.state = prop, message, list(path), state


# ------------------------------------------------------------------------- playouts
def walk(game, choices, seed, limit, visit=None, errors=True):
    """Play from the initial state: action `choices[i] % n` at step i, then seeded random
    choices; stop at a terminal state or after `limit` plies.  `visit(state, path, parent,
    action)` is called at every state (parent and action None at the root).  Returns
    (path, states, terminated).  An exception raised by the game's rules is a Violation of
    `playing_raises_no_error` (or, with `errors=False`, ends the playout)."""
    rng = random.Random(seed)
    path, states = [], []
    state = None
    try:
        state = game.initial_state()
        states.append(state)
        if visit:
            visit(state, path, None, None)
        while not state.terminal_test():
            if len(path) >= limit:
                return path, states, False
            moves = state.actions()
            if not moves:
                return path, states, False        # reported by the actions property
            i = len(path)
            action = moves[choices[i] % len(moves) if i < len(choices) else rng.randrange(len(moves))]
            path.append(action)
            parent, state = state, state.result(action)
            states.append(state)
            if visit:
                visit(state, path, parent, action)
        return path, states, True
    except Violation:
        raise
    except Exception as exc:                  # noqa: BLE001 - any error of the rules is reported
        if not errors:
            del path[max(0, len(states) - 1):]     # not the action that failed
            return path, states, False
        raise Violation(PROPERTY_OF.get(type(exc), "playing_raises_no_error"), error_text(exc), path,
                        state) from None


# rule errors that one property owns (the others pass over them)
PROPERTY_OF = {NoLegalActions: "actions_exist_exactly_at_nonterminal_states",
               NoChanceOutcomes: "chance_outcomes_well_formed"}


def error_text(exc) -> str:
    """One line naming an exception raised by a game's rules."""
    text = exc.message if isinstance(exc, SpecError) else str(exc)
    return f"{type(exc).__name__}: {text}".split("\n")[0]


def path_text(game, path) -> list:
    """The canonical texts of a sequence of actions from the initial state; a chance
    outcome is written `var=value` (`game.outcome_text`)."""
    if not path:
        return []
    texts, state = [], game.initial_state()
    for i, action in enumerate(path):
        texts.append(game.outcome_text(state, action) if state.is_chance() else game.action_text(action))
        if i + 1 < len(path):                 # the last action may be the one that fails
            state = state.result(action)
    return texts


def _bounds_the_sum(game) -> bool:
    """True when the game's bound on the sum of the utilities says more than the bounds of
    each utility do (players x upper bound)."""
    return game.max_utility_sum < game.num_players * game.utility_bounds[1]


def _limit(game, override=None):
    """(playout limit, whether running into it is a failure, where the limit comes from)."""
    if override is not None:
        return override, True, "--max-length"
    if game.max_length is not None:
        return game.max_length, True, "the spec's max_length"
    if game.has_goal and game.num_players == 1:
        return PUZZLE_WALK, False, "a puzzle's random walk"
    return DEFAULT_MAX_LENGTH, True, "the default; declare max_length"


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


# ------------------------------------------------------------------------ Hypothesis
class scratch_storage:
    """Hypothesis's working files in a private temporary folder, removed afterwards: a
    check or a fuzz campaign leaves no `.hypothesis/` folder behind in the user's directory."""

    def __enter__(self):
        import tempfile
        from hypothesis.configuration import set_hypothesis_home_dir, storage_directory
        self.previous = storage_directory(intent_to_write=False).home_directory
        self.folder = tempfile.TemporaryDirectory(prefix="plyspec-hypothesis-")
        set_hypothesis_home_dir(self.folder.name)
        return self

    def __exit__(self, *exc):
        from hypothesis.configuration import set_hypothesis_home_dir
        set_hypothesis_home_dir(self.previous)
        self.folder.cleanup()


def _settings(examples, seed):
    from hypothesis import HealthCheck, Phase, Verbosity, settings
    return settings(max_examples=max(1, examples), database=None, deadline=None,
                    derandomize=seed is None, verbosity=Verbosity.quiet,
                    report_multiple_bugs=False, suppress_health_check=list(HealthCheck),
                    phases=[Phase.generate, Phase.shrink])


def _playout_strategy():
    from hypothesis import strategies as st
    return st.tuples(st.lists(st.integers(0, 2 ** 16 - 1), max_size=40), st.integers(0, 2 ** 32 - 1))


def run_examples(test, strategy, examples, seed, shrink=True):
    """Run `test(example)` on Hypothesis examples; the Violation of the (shrunk) failing
    example, or None."""
    from hypothesis import Phase, given
    from hypothesis import seed as seeded
    from hypothesis.errors import Flaky
    config = _settings(examples, seed)
    if not shrink:
        config = type(config)(config, phases=[Phase.generate])
    wrapped = config(given(strategy)(test))
    if seed is not None:
        wrapped = seeded(seed)(wrapped)
    try:
        wrapped()
    except Violation as violation:
        return violation
    except Flaky as flaky:                    # the same example failed once, then passed
        found = [e for e in getattr(flaky, "exceptions", ()) if isinstance(e, Violation)]
        if not found:
            raise
        found[0].message += " (not reproducible: the game behaves differently on a replay)"
        return found[0]
    return None


def shortest(game, name, check, longest, budget=SHORTEST_BUDGET):
    """The shortest action sequence (at most `longest` actions) from the initial state at
    whose end `check(state, path, parent, action)` raises a Violation of property `name`,
    or None when the search finds none within `budget` states."""
    return sweep(game, {name: check}, longest, budget).get(name)


def sweep(game, checks: dict, longest, budget) -> dict:
    """Breadth-first over the distinct states reachable from the initial state (at most
    `budget` of them, at most `longest` plies deep), running every check of `checks`
    (property name -> check) at each: {name: the first, so shortest, Violation}."""
    found = {}
    try:
        start = game.initial_state()
        queue = deque([(start, [], None, None)])
        seen = {start}
        while queue and budget > 0 and len(found) < len(checks):
            state, path, parent, action = queue.popleft()
            budget -= 1
            for name, check in checks.items():
                if name not in found:
                    try:
                        check(state, path, parent, action)
                    except Violation as violation:
                        found[name] = violation
            if len(path) >= longest or state.terminal_test():
                continue
            for a in state.actions():
                try:
                    child = state.result(a)
                except Exception as exc:          # noqa: BLE001 - the rules fail on this move
                    found.setdefault("playing_raises_no_error", Violation(
                        "playing_raises_no_error", error_text(exc), [*path, a], state))
                    continue
                if child not in seen:
                    seen.add(child)
                    queue.append((child, [*path, a], state, a))
    except Exception:             # noqa: BLE001 - e.g. unhashable states: the playouts report it
        pass
    return {name: v for name, v in found.items() if name in checks}


# ------------------------------------------------------------------------ the checks
class GameChecker:
    """Runs every property on one loaded game."""

    def __init__(self, game, path=None, options=None, examples=100, seed=None, max_length=None):
        self.game, self.path, self.options = game, path, dict(options or {})
        self.examples, self.seed = examples, seed
        self.limit, self.limit_is_failure, self.limit_source = _limit(game, max_length)

    def outcome(self, name, violation: Violation | None, passed_detail: str) -> Outcome:
        if violation is None:
            return Outcome(name, PASSED, passed_detail)
        return Outcome(name, FAILED, violation.message, path_text(self.game, violation.path),
                       str(violation.state) if violation.state is not None else None)

    def run(self) -> list:
        try:
            self.game.initial_state()
        except Exception as exc:                  # noqa: BLE001 - nothing else can be checked
            return [Outcome(name, FAILED, f"the initial state cannot be built: {error_text(exc)}", [])
                    if name == "playing_raises_no_error" else
                    Outcome(name, NOT_APPLICABLE, "no initial state") for name in PROPERTIES[1:]]
        from framework.conformance.differential import NAME, agrees_with_interpreter
        from framework.search.registry import searcher
        return [*self.termination(),
                self.guarded(CYCLES, positions_do_not_repeat, self.game, path_text, seed=self.seed),
                *self.steps(),
                self.guarded("alphabeta_equals_minimax", self.alphabeta_equals_minimax, searcher),
                self.guarded("expectimax_pruning_is_exact", self.expectimax_pruning_is_exact, searcher),
                self.guarded("maxn_pruning_is_exact", self.maxn_pruning_is_exact, searcher),
                self.guarded("perft_matches_golden", self.perft), self.guarded("syntaxes_agree", self.syntaxes),
                self.guarded(NAME, agrees_with_interpreter, self.game, self.options, seed=self.seed)]

    @staticmethod
    def guarded(name, check, *args, **kw) -> Outcome:
        """`check(...)`'s Outcome; an error the rules raise on the way fails the property
        with its message (it is never a traceback of `plyspec test`)."""
        try:
            return check(*args, **kw)
        except Exception as exc:                 # noqa: BLE001
            return Outcome(name, FAILED, f"the rules raise an error: {error_text(exc)}")

    # -- termination
    def termination(self):
        name = "playouts_terminate"
        longest, played, broken = [0], [0], [0]
        limit = self.limit

        def test(example):
            choices, seed = example
            path, states, ended = walk(self.game, choices, seed, limit, errors=False)
            longest[0] = max(longest[0], len(path))
            played[0] += 1
            broken[0] += not ended and len(path) < limit
            if not ended and self.limit_is_failure and len(path) >= limit:
                raise Violation(name, f"no terminal state after {limit:,} plies (limit: "
                                f"{self.limit_source})", path)
        violation = run_examples(test, _playout_strategy(), self.examples, self.seed, shrink=False)
        if violation is None and broken[0] == played[0]:
            return [Outcome(name, NOT_APPLICABLE, "every playout stopped at an error of the rules "
                            "(see playing_raises_no_error)")]
        if violation is None and not self.limit_is_failure:
            return [Outcome(name, NOT_APPLICABLE, f"a puzzle without max_length ends only at its goal; "
                            f"random walks of {limit} plies were checked instead")]
        stopped = f", {broken[0]:,} stopped by an error of the rules" if broken[0] else ""
        return [self.outcome(name, violation, f"{played[0]:,} playouts{stopped}, longest "
                             f"{longest[0]:,} plies (limit {limit:,})")]

    # -- properties checked at every state
    def steps(self):
        game = self.game
        active = set(STEP_PROPERTIES)
        results = {}
        not_applicable = {}
        if not game.chance:
            not_applicable["chance_outcomes_well_formed"] = "no chance nodes"
        if not game.zero_sum and game.constant_sum is None and not _bounds_the_sum(game):
            not_applicable["utilities_sum_as_declared"] = "no constant sum and no bound on the sum " \
                                                          "tighter than the utility bounds give"
        if game._symmetries is None:
            not_applicable[SYMMETRY] = "the spec declares no symmetries"
        if game.state_class._namespace.get("GAME_KEY") is None:
            not_applicable["pickle_round_trip"] = "loaded from text: only games loaded from files unpickle"
        active -= set(not_applicable)
        counts = {"states": 0, "terminal": 0, "playouts": 0}

        def test(example):
            checks = StepChecks(game, active, every=SYMMETRY_EVERY)
            choices, seed = example

            def visit(state, path, parent, action):
                counts["states"] += 1
                checks(state, path, parent, action)
            path, states, _ = walk(game, choices, seed, min(self.limit, STEP_WALK), visit,
                                   errors="playing_raises_no_error" in active)
            counts["playouts"] += 1
            if not states:
                return
            counts["terminal"] += states[-1].terminal_test()
            if checks.replay:
                checks.replay_gives_equal_states(states[-1], path, None, None)

        checks = StepChecks(game, active)      # first every state near the start, in order
        swept = sweep(game, {name: getattr(checks, name) for name in active}, math.inf, SWEEP_STATES)
        for name, violation in swept.items():
            results[name] = self.outcome(name, violation, "")
            active.discard(name)
        while active:
            violation = run_examples(test, _playout_strategy(), self.examples, self.seed)
            if violation is None or violation.prop not in active:
                break
            check = getattr(StepChecks(game, {violation.prop}), violation.prop)
            better = shortest(game, violation.prop, check, len(violation.path) - 1) \
                if violation.path else None
            results[violation.prop] = self.outcome(violation.prop, better or violation, "")
            active.discard(violation.prop)
        detail = (f"up to {SWEEP_STATES:,} states breadth-first, and {counts['states']:,} states "
                  f"on {counts['playouts']:,} playouts ({counts['terminal']:,} reached the end)")
        out = []
        for name in STEP_PROPERTIES:
            if name in results:
                out.append(results[name])
            elif name in not_applicable:
                out.append(Outcome(name, NOT_APPLICABLE, not_applicable[name]))
            else:
                out.append(Outcome(name, PASSED, detail))
        return out

    # -- searchers cross-checked on sampled positions
    def positions_test(self, name, compare):
        """Run `compare(state, path)` on positions sampled from playouts."""
        from hypothesis import strategies as st
        game, limit = self.game, self.limit
        tried, skipped = [0], [0]

        def test(example):
            (choices, seed), fraction = example
            path, states, _ = walk(game, choices, seed, limit, errors=False)
            live = [i for i, s in enumerate(states) if not s.terminal_test() and not s.is_chance()]
            if not live:
                return
            i = live[min(len(live) - 1, int(fraction * len(live)))]
            try:
                message = compare(states[i])
            except Exception:                    # noqa: BLE001 - the rules fail: other properties say so
                skipped[0] += 1
                return
            tried[0] += 1
            if message:
                raise Violation(name, message, path[:i], states[i])
        examples = max(3, self.examples // 5)
        violation = run_examples(test, st.tuples(_playout_strategy(), st.floats(0, 1)), examples, self.seed)
        return violation, tried[0], skipped[0]

    def cross_check(self, name, first, second, depth_most, same) -> Outcome:
        """Compare two searches (`first(state, depth)`, `second(state, depth)`) on sampled
        positions; `same(a, b)` says whether their results agree."""
        def compare(state):
            depth = _depth(state, depth_most)
            a, b = first(state, depth), second(state, depth)
            if not same(a, b):
                return f"depth {depth}: {a!r} with pruning, {b!r} without"
        violation, n, skipped = self.positions_test(name, compare)
        note = f"; {skipped} skipped where the rules raise an error" if skipped else ""
        return self.outcome(name, violation, f"{n} sampled positions, depth <= {depth_most}{note}")

    def alphabeta_equals_minimax(self, searcher) -> Outcome:
        name, game = "alphabeta_equals_minimax", self.game
        if game.num_players != 2 or game.chance:
            return Outcome(name, NOT_APPLICABLE, "needs a deterministic two-player game")
        minimax, alphabeta = searcher("minimax"), searcher("alphabeta")
        # alpha-beta with every enhancement (quiescence on the moves the spec marks noisy)
        # against minimax with the same quiescence search
        return self.cross_check(name, lambda s, d: alphabeta(game, s, depth=d).value,
                                lambda s, d: minimax(game, s, depth=d, quiescence=True).value, 3, _close)

    def expectimax_pruning_is_exact(self, searcher) -> Outcome:
        name, game = "expectimax_pruning_is_exact", self.game
        if not game.chance or game.num_players > 2 or \
                game.num_players == 2 and not game.zero_sum and game.constant_sum is None:
            return Outcome(name, NOT_APPLICABLE, "needs a chance game of 1 player or 2 zero/constant-sum players")
        expectimax = searcher("expectimax")
        pruning = expectimax(game, depth=1).extra.get("pruning", "off")
        if pruning.startswith("off"):
            return Outcome(name, NOT_APPLICABLE, f"pruning {pruning}")

        def pruned(state, depth):          # Star1 alone, then Star2
            return (expectimax(game, state, depth=depth, star2=False).value,
                    expectimax(game, state, depth=depth).value)

        def plain(state, depth):
            value = expectimax(game, state, depth=depth, star1=False, star2=False).value
            return value, value
        return self.cross_check(name, pruned, plain, 4,
                                lambda a, b: all(_close(x, y) for x, y in zip(a, b)))

    def maxn_pruning_is_exact(self, searcher) -> Outcome:
        name, game = "maxn_pruning_is_exact", self.game
        maxn = searcher("maxn")
        pruning = maxn(game, depth=1).extra.get("pruning", "off") if game.num_players >= 2 else None
        if pruning != "shallow":
            return Outcome(name, NOT_APPLICABLE, f"shallow pruning {pruning}" if pruning else "needs 2+ players")

        def vector(state, depth, prune=True):
            result = maxn(game, state, depth=depth, prune=prune)
            return tuple(result.values), result.best_action
        return self.cross_check(name, vector, lambda s, d: vector(s, d, prune=False), 3,
                                lambda a, b: a[1] == b[1] and all(_close(x, y) for x, y in zip(a[0], b[0])))

    # -- golden perft
    def perft(self):
        from framework import load
        from framework.perft import perft
        name = "perft_matches_golden"
        if self.path is None:
            return Outcome(name, NOT_APPLICABLE, "loaded from text")
        gold = golden_path(self.path)
        entries = read_golden(gold)
        if self.options:
            entries = [(o, c) for o, c in entries if options_key(o) == options_key(self.options)]
        if not entries:
            return Outcome(name, NOT_APPLICABLE, f"no golden counts in {gold}"
                           + (f" for {options_key(self.options)}" if self.options else ""))
        checked = []
        for options, counts in entries:
            got = perft(load(self.path, **options).initial_state(), len(counts))
            if got != counts:
                ply = next(i for i, (a, b) in enumerate(zip(got, counts)) if a != b)
                return Outcome(name, FAILED, f"{options_key(options)}: ply {ply + 1} has {got[ply]:,} "
                               f"nodes, the golden file {gold} says {counts[ply]:,}")
            checked.append(f"{options_key(options)} to ply {len(counts)}")
        return Outcome(name, PASSED, "; ".join(checked))

    # -- YAML and .game agree
    def syntaxes(self):
        from framework import load
        from framework.conformance.discover import twin
        from framework.perft import perft
        name = "syntaxes_agree"
        other_path = twin(self.path) if self.path is not None else None
        if other_path is None:
            return Outcome(name, NOT_APPLICABLE, "no version in the other syntax")
        try:
            other = load(other_path, **self.options)
        except SpecError as err:
            return Outcome(name, FAILED, f"{other_path} does not load: {err.message}")
        game = self.game
        if game.describe() != other.describe():
            return Outcome(name, FAILED, f"capabilities differ: {game.describe()} vs {other.describe()}")
        a, b = game.initial_state(), other.initial_state()
        if tuple(a) != tuple(b):
            return Outcome(name, FAILED, f"initial states differ: {tuple(a)} vs {tuple(b)}", [])
        for depth in range(1, 4):               # to ply 3, or less where the plies grow large
            counts = perft(a, depth)
            if counts != perft(b, depth):
                return Outcome(name, FAILED, f"perft to ply {depth}: {counts} vs {perft(b, depth)}")
            if counts[-1] > SYNTAX_PERFT_NODES:
                break

        def test(example):
            try:
                lockstep(*example)
            except Violation:
                raise
            except Exception:                    # noqa: BLE001 - errors of play: playing_raises_no_error
                return

        def lockstep(choices, seed):
            rng = random.Random(seed)
            x, y, path = a, b, []
            while not x.terminal_test() and len(path) < self.limit:
                mx, my = x.actions(), y.actions()
                tx = [game.action_text(m) for m in mx] if not x.is_chance() else mx
                ty = [other.action_text(m) for m in my] if not y.is_chance() else my
                if tx != ty or tuple(x) != tuple(y) or y.terminal_test():
                    raise Violation(name, f"after these actions {other_path.name} differs", path, y)
                i = len(path)
                k = choices[i] % len(mx) if i < len(choices) else rng.randrange(len(mx))
                x, y = x.result(mx[k]), y.result(my[k])
                path.append(mx[k])
            if x.returns() != y.returns() if x.terminal_test() and y.terminal_test() else \
                    x.terminal_test() != y.terminal_test():
                raise Violation(name, f"at the end {other_path.name} differs", path, y)
        violation = run_examples(test, _playout_strategy(), max(3, self.examples // 4), self.seed)
        return self.outcome(name, violation, f"same capabilities, initial state, perft to ply {depth} "
                            f"and playouts as {other_path.name}")


def _depth(state, most: int) -> int:
    """A search depth <= `most` that keeps a cross-check to a few thousand nodes."""
    b = max(2, len(state.actions()))
    depth = most
    while depth > 1 and b ** depth > 4_000:
        depth -= 1
    return depth


def check_game(path=None, *, text=None, fmt="yaml", options=None, examples=100, seed=None,
               max_length=None):
    """(name, outcomes) for the game spec at `path` (or in `text`)."""
    from framework import load, load_text
    options = dict(options or {})
    try:
        game = load(path, **options) if text is None else load_text(text, fmt, **options)
    except SpecError as err:
        return None, [Outcome("loads", FAILED, str(err))]
    checker = GameChecker(game, Path(path) if text is None else None, options, examples, seed, max_length)
    with scratch_storage():
        return game.name, [Outcome("loads", PASSED, "parsed, checked and compiled"), *checker.run()]
