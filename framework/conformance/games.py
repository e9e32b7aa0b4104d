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

This module owns `GameChecker` (which property runs on what) and `check_game`; the property
names, limits and playouts are in playouts.py, the per-state properties in step_checks.py,
the Hypothesis runs and the breadth-first sweep in explore.py.
"""
from __future__ import annotations

import math
import random
from pathlib import Path

from framework.conformance.golden import MAX_GOLDEN_STATES, golden_path, options_key, read_golden
from framework.conformance.report import FAILED, NOT_APPLICABLE, PASSED, Outcome
from framework.conformance.cycles import NAME as CYCLES, positions_do_not_repeat
from framework.conformance.symmetry import NAME as SYMMETRY, SAMPLE_EVERY as SYMMETRY_EVERY
from framework.conformance.explore import _playout_strategy, exhaust, run_examples, scratch_storage, shortest, sweep
from framework.conformance.playouts import EXHAUSTIVE_STATES, PROPERTIES, STEP_PROPERTIES, STEP_WALK, SWEEP_STATES, \
    SYNTAX_PERFT_NODES, Violation, _bounds_the_sum, _limit, error_text, path_text, walk
from framework.conformance.step_checks import StepChecks, _close
from framework.errors import SpecError


# the properties checked on every reachable state of a small game (cheap ones)
EXPLORED = ("playing_raises_no_error", "actions_exist_exactly_at_nonterminal_states")


# ------------------------------------------------------------------------ the checks
class GameChecker:
    """Runs every property on one loaded game."""

    def __init__(self, game, path=None, options=None, examples=100, seed=None, max_length=None,
                 exhaustive=EXHAUSTIVE_STATES):
        self.game, self.path, self.options = game, path, dict(options or {})
        self.examples, self.seed, self.exhaustive = examples, seed, exhaustive
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
        explored = explore(self, checks, active, results)
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
                out.append(Outcome(name, PASSED, explored + detail if name in EXPLORED else detail))
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
        try:
            entries = read_golden(gold)
        except SpecError as err:                # the file, not the rules: say which and why
            return Outcome(name, FAILED, str(err).splitlines()[0])
        if self.options:
            entries = [(o, c) for o, c in entries if options_key(o) == options_key(self.options)]
        if not entries:
            return Outcome(name, NOT_APPLICABLE, f"no golden counts in {gold}"
                           + (f" for {options_key(self.options)}" if self.options else ""))
        checked = []
        for options, counts in entries:
            start = load(self.path, **options).initial_state()
            depth = 0           # ply by ply: counting ply d builds the states of plies < d,
            while depth < len(counts) and sum(counts[:depth]) <= MAX_GOLDEN_STATES:  # checked
                depth += 1
                got = perft(start, depth)
                if got != counts[:depth]:
                    ply = next(i for i, (a, b) in enumerate(zip(got, counts)) if a != b)
                    return Outcome(name, FAILED, f"{options_key(options)}: ply {ply + 1} has "
                                   f"{got[ply]:,} nodes, the golden file {gold} says {counts[ply]:,}")
            checked.append(f"{options_key(options)} to ply {depth}" + (
                "" if depth == len(counts) else f" (of {len(counts)}: deeper plies build more than "
                f"{MAX_GOLDEN_STATES:,} states)"))
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


def explore(checker, checks, active, results) -> str:
    """The properties of EXPLORED on every reachable state, breadth-first up to
    `checker.exhaustive` states (so on the whole of a small game, which random playouts may
    miss); their failures go to `results`.  Returns how much was explored, as text."""
    wanted = {name: getattr(checks, name) for name in EXPLORED if name in active and name != EXPLORED[0]}
    errors = EXPLORED[0] in active
    if not (wanted or errors) or not checker.exhaustive:
        return ""
    found, seen, complete = exhaust(checker.game, wanted, checker.exhaustive, errors)
    for name, violation in found.items():
        results[name] = checker.outcome(name, violation, "")
        active.discard(name)
    return f"every one of the {seen:,} reachable states; " if complete else \
        f"the {seen:,} states nearest the start (of more); "


def _depth(state, most: int) -> int:
    """A search depth <= `most` that keeps a cross-check to a few thousand nodes."""
    b = max(2, len(state.actions()))
    depth = most
    while depth > 1 and b ** depth > 4_000:
        depth -= 1
    return depth


def check_game(path=None, *, text=None, fmt="yaml", options=None, examples=100, seed=None,
               max_length=None, exhaustive=EXHAUSTIVE_STATES):
    """(name, outcomes) for the game spec at `path` (or in `text`)."""
    from framework import load, load_text
    options = dict(options or {})
    try:
        game = load(path, **options) if text is None else load_text(text, fmt, **options)
    except SpecError as err:
        return None, [Outcome("loads", FAILED, str(err))]
    checker = GameChecker(game, Path(path) if text is None else None, options, examples, seed, max_length,
                          exhaustive)
    with scratch_storage():
        return game.name, [Outcome("loads", PASSED, "parsed, checked and compiled"), *checker.run()]
