"""The checker's part for the rules that end a game from its history: `repetition` (what a
repeated position means) and `max_moves` (a move-count limit).

`check_end_rules(checker)` (part of the checker package) runs after the utility rules (it needs to know who can win) and
sets `Checked.repetition` = (result, count) and `Checked.max_moves` = (limit, result), or
leaves them None; `Checked.repetition_over` = the names of the parts of the state a
repetition compares (None: the whole state), and `Checked.end_scores[key]` = (form,
expression) for a rule that scores the final position (`winner: EXPR` or `utility: EXPR`,
read as the `winner` / `utility` sections are).  A rule whose result is `draw` gives every
player 0, so the utility bounds are widened to hold 0 (and a scored rule to hold its
scores); `loss` (the player whose move triggers the rule loses, the other wins) needs two
players and a `winner` rule.  The meaning is given by
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
        if rule.outcome is None and rule.result not in results:
            raise SpecError.at(rule.pos, f"unknown {key} result `{rule.result}`",
                               did_you_mean(rule.result, results) or f"{key} results: {', '.join(results)}"
                               + "; or `winner: EXPR` / `utility: EXPR` to score the final position")
        if rule.result == "loss" and (len(out.players) != 2 or out.winner is None):
            raise SpecError.at(rule.pos, f"{key} `loss` needs two players and a `winner` rule "
                                         "(the player whose move triggers it loses, the other wins)",
                               "use `draw`" + (" or `forbidden`" if key == "repetition" else ""))
        if key == "repetition":
            count = 2 if rule.count is None else _number(checker, rule, "repetition count", 2, MAX_COUNT)
            out.repetition = (rule.result, count)
            out.repetition_over = _over(checker, rule.over)
        else:
            out.max_moves = (_number(checker, rule, "max_moves limit", 1, MAX_MOVES), rule.result)
        if rule.result == "draw":
            _allow_a_draw(checker, rule)
        elif rule.outcome is not None:
            _allow_a_score(checker, rule, key)


def _over(checker, names) -> tuple | None:
    """The parts of the state a repetition compares (`board`, `mover`, state variables),
    or None for the whole state."""
    out, seen = checker.out, []
    parts = (["board"] if out.has_board else []) + [v.name for v in out.variables] + ["mover"]
    for name in names:
        if name.id not in parts:
            raise SpecError.at(name.pos, f"`{name.id}` is not a part of the state a repetition can compare",
                               did_you_mean(name.id, parts) or "over: " + ", ".join(parts))
        if name.id in seen:
            raise SpecError.at(name.pos, f"`{name.id}` is named twice in `over`", "name each part once")
        seen.append(name.id)
    return tuple(seen) or None


def _allow_a_score(checker, rule, key) -> None:
    """`winner: EXPR` / `utility: EXPR`: the final position scored like the `winner` /
    `utility` sections; the utility bounds widen to hold the scores, and a constant sum
    must be kept."""
    out, n = checker.out, len(checker.out.players)
    form, expr, (lo, hi) = checker.scoring(rule.result, rule.outcome, f"{key} {rule.result}")
    out.end_scores[key] = (form, expr)
    keeps_zero = form == "zero_sum" or (form == "winner" and n == 2)
    if out.constant_sum is not None and not (keeps_zero and out.constant_sum == 0):
        raise SpecError.at(rule.outcome.pos, f"the utilities always sum to {out.constant_sum:g}, but this "
                                             f"{rule.result} need not",
                           "score with `winner`, or a utility without `me` in a two-player zero-sum game")
    if checker.spec.utility_bounds is None:
        low, high = out.utility_bounds
        out.utility_bounds = (min(low, lo), max(high, hi))
    if out.constant_sum is None:
        out.max_utility_sum = max(out.max_utility_sum, 1 if form == "winner" else n * out.utility_bounds[1])


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
