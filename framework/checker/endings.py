"""The checker's part for the rules that end a game from its history: `repetition` (what a
repeated position means) and `max_moves` (a move-count limit).

`check_end_rules(checker)` (part of the checker package) runs after the utility rules (it needs to know who can win) and
sets `Checked.repetition` = (result, count) and `Checked.max_moves` = (limit, result), or
leaves them None.  A rule whose result is `draw` gives every player 0, so the utility bounds
are widened to hold 0; `loss` (the player whose move triggers the rule loses, the other
wins) needs two players and a `winner` rule.  The meaning is given by
`framework.history` (compiled games) and the reference interpreter.
"""
from __future__ import annotations

from framework.errors import SpecError, did_you_mean

REPETITION_RESULTS = ("draw", "loss", "forbidden")
LIMIT_RESULTS = ("draw", "loss")
MAX_COUNT = 100                  # the occurrence that triggers a repetition rule, at most
MAX_MOVES = 1_000_000            # a move-count limit, at most


def check_end_rules(checker) -> None:
    spec, out = checker.spec, checker.out
    for key, results in (("repetition", REPETITION_RESULTS), ("max_moves", LIMIT_RESULTS)):
        rule = getattr(spec, key)
        if rule is None:
            continue
        if rule.result not in results:
            raise SpecError.at(rule.pos, f"unknown {key} result `{rule.result}`",
                               did_you_mean(rule.result, results) or f"{key} results: {', '.join(results)}")
        if rule.result == "loss" and (len(out.players) != 2 or out.winner is None):
            raise SpecError.at(rule.pos, f"{key} `loss` needs two players and a `winner` rule "
                                         "(the player whose move triggers it loses, the other wins)",
                               "use `draw`" + (" or `forbidden`" if key == "repetition" else ""))
        if key == "repetition":
            count = 2 if rule.count is None else _number(checker, rule, "repetition count", 2, MAX_COUNT)
            out.repetition = (rule.result, count)
        else:
            out.max_moves = (_number(checker, rule, "max_moves limit", 1, MAX_MOVES), rule.result)
        if rule.result == "draw":
            _allow_a_draw(checker, rule)


def _number(checker, rule, what, low, high) -> int:
    value = int(checker.constant(rule.count, what, "int"))
    if not low <= value <= high:
        raise SpecError.at(rule.count.pos or rule.pos, f"{what} is {value}; it must be from {low} to {high:,}",
                           "a repetition count of 2 ends the game at the first repetition, 3 at the "
                           "third occurrence" if what == "repetition count" else None)
    return value


def _allow_a_draw(checker, rule) -> None:
    """A draw gives every player 0: the bounds must hold 0 and a constant sum must be 0."""
    out = checker.out
    if out.constant_sum not in (None, 0):
        raise SpecError.at(rule.pos, f"a draw gives every player 0, but the utilities always sum to "
                                     f"{out.constant_sum}", "use `forbidden`, or `loss` in a two-player game")
    lo, hi = out.utility_bounds
    out.utility_bounds = (min(lo, 0), max(hi, 0))
    out.max_utility_sum = max(out.max_utility_sum, 0)
