"""What the conformance check of a game plays: the property names, the playout limits, the
`Violation` a failed property raises, the random playout (`walk`) and how a failure is
written (`error_text`, `path_text`).
"""
from __future__ import annotations

import random

from framework.conformance.cycles import NAME as CYCLES
from framework.conformance.symmetry import NAME as SYMMETRY
from framework.errors import NoChanceOutcomes, NoLegalActions, SpecError


DEFAULT_MAX_LENGTH = 10_000      # plies a playout may take when the spec declares no max_length
PUZZLE_WALK = 200                # plies of a random walk in a puzzle that declares no max_length
STEP_WALK = 1_000                # plies of a playout on which every state is checked
SHORTEST_BUDGET = 20_000         # states the search for a shorter counterexample may visit
SYNTAX_PERFT_NODES = 20_000      # the two syntaxes are compared by perft up to the ply past this
SWEEP_STATES = 2_000             # states nearest the start checked exhaustively, before playouts
EXHAUSTIVE_STATES = 50_000       # distinct states explored for moves that fail and states without
                                 # moves: every reachable state of a game that has no more
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
