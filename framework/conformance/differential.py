"""`compiled_agrees_with_interpreter`: the compiled game against the reference interpreter.

Both games are walked in lockstep, breadth-first from the initial state (the states nearest
the start, where most rules fire first) and then along seeded random playouts.  At every
state they must agree on the player to move, the terminal test, the returns, the legal
actions (as canonical texts), the chance outcomes and their probabilities, and the
evaluation; and for every action, either both give a state or both raise the same
`SpecRuntimeError` (message, line and column: a rule that fails during play, such as
`board[none]` written or an index off a list, fails alike in both; any other exception is a
difference).  The first difference is reported with the action sequence that leads to it.  The compiler is
clever (bitboards, tables, specialised code); the interpreter is obvious: when they differ,
the compiled game is the suspect.  `campaign` runs this over random generated specs
(framework.conformance.generate): `plyspec fuzz --differential`.
"""
from __future__ import annotations

import math
import random
from collections import deque

NAME = "compiled_agrees_with_interpreter"
BFS_STATES = 150
PLAYOUTS = 6
PLAYOUT_PLIES = 80


class Difference(Exception):
    def __init__(self, message, path):
        super().__init__(message)
        self.message, self.path = message, path


def _close(a, b) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def _moves(game, state):
    """{text: move} of a compiled state (actions, or outcomes at a chance node)."""
    if state.is_chance():
        return {game.outcome_text(state, o): o for o, _ in state.chance_outcomes()}
    return {game.action_text(a): a for a in state.actions()}


def _imoves(igame, state):
    if state.is_chance():
        return {igame.outcome_text(state, o): o for o, _ in state.chance_outcomes()}
    return {a: a for a in state.actions()}


def _failure(exc) -> str:
    """How an exception reads in a Difference: its type and positioned message."""
    where = f"{exc.line}:{exc.col}: " if getattr(exc, "line", None) is not None else ""
    return f"{type(exc).__name__}: {where}{getattr(exc, 'message', None) or exc}"


def _same_failures(mine, theirs, path, what):
    """Raises Difference unless the two exceptions are the same SpecRuntimeError."""
    from framework.errors import SpecRuntimeError
    for who, exc in (("compiled game", mine), ("interpreter", theirs)):
        if not isinstance(exc, SpecRuntimeError):
            raise Difference(f"the {who} {what} with {_failure(exc)} (a rule's failure must be a "
                             f"positioned SpecRuntimeError)", path)
    if (mine.message, mine.line, mine.col) != (theirs.message, theirs.line, theirs.col):
        raise Difference(f"both games {what.replace('fails', 'fail')}, differently: compiled "
                         f"{_failure(mine)}; interpreter {_failure(theirs)}", path)


def _both(mine, theirs, path, what):
    """(mine(), theirs()), or None when both raise the same SpecRuntimeError; a Difference
    when only one raises or they raise differently."""
    out = []
    for call in (mine, theirs):
        try:
            out.append((call(), None))
        except Exception as exc:                 # noqa: BLE001 - compared below
            out.append((None, exc))
    (a, mine_error), (b, their_error) = out
    if (mine_error is None) != (their_error is None):
        who, exc = ("compiled game", mine_error) if mine_error is not None else ("interpreter", their_error)
        raise Difference(f"only the {who} fails {what}: {_failure(exc)}", path)
    if mine_error is not None:
        _same_failures(mine_error, their_error, path, f"fails {what}")
        return None
    return a, b


def compare_state(game, igame, cs, its, path) -> dict:
    """Raises Difference unless the two states agree; returns {text: (compiled move, interpreted move)}."""
    def differ(what, mine, theirs):
        raise Difference(f"{what}: compiled {mine!r}, interpreter {theirs!r}", path)

    if cs.terminal_test() != its.terminal_test():
        differ("terminal test", cs.terminal_test(), its.terminal_test())
    if cs.terminal_test():
        returns = _both(cs.returns, its.returns, path, "to give the returns")
        if returns is not None and (len(returns[0]) != len(returns[1]) or
                                    not all(_close(x, y) for x, y in zip(*returns))):
            differ("returns", *returns)
        return {}
    if cs.player() != its.player():
        differ("player to move", cs.player(), its.player())
    moves = _both(lambda: _moves(game, cs), lambda: _imoves(igame, its), path, "to list the actions")
    if moves is None:
        return {}
    mine, theirs = moves
    if sorted(mine) != sorted(theirs):
        extra, missing = sorted(set(mine) - set(theirs)), sorted(set(theirs) - set(mine))
        raise Difference(f"legal actions: compiled has {extra or 'nothing more'}, "
                         f"the interpreter also has {missing or 'nothing more'}", path)
    if cs.is_chance():
        pa = {game.outcome_text(cs, o): p for o, p in cs.chance_outcomes()}
        pb = {igame.outcome_text(its, o): p for o, p in its.chance_outcomes()}
        for text in pa:
            if not _close(pa[text], pb[text]):
                differ(f"probability of {text}", pa[text], pb[text])
    elif game.has_evaluation:
        for p in range(game.num_players):
            values = _both(lambda: game.evaluate(cs, p), lambda: igame.evaluate(its, p), path, "to evaluate")
            if values is not None and not _close(*values):
                differ(f"evaluation for {game.player_names[p]}", *values)
    return {text: (mine[text], theirs[text]) for text in mine}


def _step(cs, its, move, path):
    """Both successors, or None when both raise; a Difference when only one does."""
    errors = []
    results = []
    for state, m in ((cs, move[0]), (its, move[1])):
        try:
            results.append(state.result(m))
            errors.append(None)
        except Exception as exc:                 # noqa: BLE001 - an error is an outcome to compare
            results.append(None)
            errors.append(exc)
    if (errors[0] is None) != (errors[1] is None):
        who = "the compiled game" if errors[0] is not None else "the interpreter"
        exc = errors[0] if errors[0] is not None else errors[1]
        raise Difference(f"only {who} fails here: {_failure(exc)}", path)
    if errors[0] is not None:
        _same_failures(errors[0], errors[1], path, "fails to make the move")
        return None
    return tuple(results)


def find_difference(game, igame, *, bfs_states=BFS_STATES, playouts=PLAYOUTS,
                    plies=PLAYOUT_PLIES, seed=0):
    """None, or the first Difference found (breadth-first, then on random playouts)."""
    try:
        start = _both(game.initial_state, igame.initial_state, [], "to build the initial state")
        if start is None:
            return None
        queue = deque([(*start, [])])
        seen = 0
        while queue and seen < bfs_states:
            cs, its, path = queue.popleft()
            seen += 1
            for text, move in sorted(compare_state(game, igame, cs, its, path).items()):
                pair = _step(cs, its, move, path + [text])
                if pair is not None:
                    queue.append((*pair, path + [text]))
        rng = random.Random(seed)
        for _ in range(playouts):
            cs, its, path = game.initial_state(), igame.initial_state(), []
            while len(path) < plies:
                moves = compare_state(game, igame, cs, its, path)
                if not moves:
                    break
                text = rng.choice(sorted(moves))
                pair = _step(cs, its, moves[text], path + [text])
                if pair is None:
                    break
                (cs, its), path = pair, path + [text]
    except Difference as difference:
        return difference
    return None


def agrees_with_interpreter(game, options=None, *, seed=None):
    """The Outcome of the property for a compiled game (see the module docstring)."""
    from framework.checker import check
    from framework.conformance.report import FAILED, PASSED, Outcome
    from framework.interpreter import InterpretedGame
    igame = InterpretedGame(check(game.spec, dict(options or {})))
    difference = find_difference(game, igame, bfs_states=BFS_STATES, playouts=PLAYOUTS, plies=PLAYOUT_PLIES,
                                 seed=seed or 0)   # read now: a test may lower them
    if difference is None:
        return Outcome(NAME, PASSED, f"the {BFS_STATES} states nearest the start and {PLAYOUTS} random "
                                     f"playouts agree with the reference interpreter")
    return Outcome(NAME, FAILED, difference.message, difference.path)


def campaign(inputs: int, *, seed=None, progress=None, every: float = 5.0) -> dict:
    """Generate `inputs` specs and compare each compiled game with the interpreter; returns
    {"inputs", "refused", "differs", "findings": [(kind, message, path, spec text)], "seconds"}.
    Derandomized (the same specs on every run) unless `seed` is given; Hypothesis keeps no
    database, so nothing is written anywhere."""
    import time
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as seeded
    from framework.conformance.generate import check_one, spec_texts
    tally = {"inputs": 0, "refused": 0, "differs": 0, "findings": []}
    start = last = time.perf_counter()

    @settings(max_examples=inputs, derandomize=seed is None, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @given(spec_texts())
    def one(text):
        nonlocal last
        tally["inputs"] += 1
        found = check_one(text)
        if found is not None:
            tally[found[0]] += 1
            if len(tally["findings"]) < 20:
                tally["findings"].append((*found, text))
        if progress and time.perf_counter() - last >= every:
            last = time.perf_counter()
            progress(tally, time.perf_counter() - start)

    from framework.conformance.games import scratch_storage
    with scratch_storage():
        (seeded(seed)(one) if seed is not None else one)()
    tally["seconds"] = round(time.perf_counter() - start, 1)
    return tally
