"""The shared conformance suite: properties every spec must have, as a library used by
`tests/test_conformance.py` and by `plyspec test SPEC...`.

    from framework.conformance import check_spec
    report = check_spec("game_specs/tictactoe.yaml", examples=50)
    print(report.text())            # one line per property: passed / failed / n/a
    assert not report.failed

Game specs: `loads`, `playouts_terminate`, the properties checked at every state of the
playouts (`games.STEP_PROPERTIES`), the searcher cross-checks (`games.SEARCH_PROPERTIES`),
`perft_matches_golden` and `syntaxes_agree`.  Planning problems: `loads` and
`plan_replays_to_goal`.  docs/conformance.md describes each.  Hypothesis draws the
playouts (an extra of the `test` install: `pip install "plyspec[test]"`).
"""
from __future__ import annotations


from framework.conformance.report import FAILED, NOT_APPLICABLE, PASSED, Outcome, SpecReport


def check_spec(path, *, options=None, examples=100, seed=None, max_length=None) -> SpecReport:
    """Runs every property on the spec at `path` (a game or a planning problem)."""
    from framework.conformance.discover import resolve, spec_kind
    path = resolve(path)
    kind = spec_kind(path)
    if kind == "planning":
        from framework.conformance.planning import check_planning
        name, outcomes = check_planning(path, options=options)
    else:
        from framework.conformance.games import check_game
        name, outcomes = check_game(path, options=options, examples=examples, seed=seed,
                                    max_length=max_length)
    return SpecReport(str(path), kind, name, outcomes)


def check_text(text, fmt="yaml", *, options=None, examples=100, seed=None, max_length=None) -> SpecReport:
    """Runs the game properties on a spec given as text."""
    from framework.conformance.games import check_game
    name, outcomes = check_game(text=text, fmt=fmt, options=options, examples=examples, seed=seed,
                                max_length=max_length)
    return SpecReport("<text>", "game", name, outcomes)


__all__ = ["check_spec", "check_text", "Outcome", "SpecReport", "PASSED", "FAILED",
           "NOT_APPLICABLE"]
