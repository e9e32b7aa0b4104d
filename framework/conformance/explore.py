"""Finding counterexamples: Hypothesis runs (`run_examples`, in a private scratch folder,
`scratch_storage`), the breadth-first search of the states nearest the start (`sweep`,
`shortest`), which gives a failing property its shortest action sequence, and the
exploration of every reachable state of a small game (`exhaust`).
"""
from __future__ import annotations

from collections import deque

from framework.conformance.playouts import SHORTEST_BUDGET, Violation, error_text


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


def exhaust(game, checks: dict, budget, errors=True) -> tuple:
    """Breadth-first over every distinct state reachable from the initial state, until
    `budget` distinct states have been seen, running the cheap checks of `checks` at each
    and, with `errors`, reporting a move list or a move whose rules fail under
    `playing_raises_no_error`: ({name: the first, so shortest, Violation}, states seen,
    whether every reachable state was seen and checked).  States are kept with their parent (not their
    whole line), so a large budget is cheap."""
    from framework.errors import NoChanceOutcomes, NoLegalActions
    name = "playing_raises_no_error"
    wanted = len(checks) + errors
    found = {}
    start = game.initial_state()
    parent = {start: None}                  # state -> (parent state, action), None at the start
    queue = deque([start])

    def line(state):
        path = []
        while parent[state] is not None:
            state, action = parent[state]
            path.append(action)
        return path[::-1]
    complete = True
    while queue and len(found) < wanted:
        state = queue.popleft()
        for prop, check in checks.items():
            if prop not in found:
                try:
                    check(state, [], None, None)
                except Violation as violation:
                    violation.path = line(state)
                    found[prop] = violation
                except (NoLegalActions, NoChanceOutcomes):   # reported by the properties that own them
                    pass
                except Exception as exc:          # noqa: BLE001 - the rules fail inside the check
                    if errors:
                        found.setdefault(name, Violation(name, error_text(exc), line(state), state))
        try:
            if state.terminal_test():
                continue
            moves = state.actions() if not state.is_chance() else [o for o, _ in state.chance_outcomes()]
        except (NoLegalActions, NoChanceOutcomes):   # reported by the properties that own them
            continue
        except Exception as exc:                  # noqa: BLE001 - the rules fail here
            if errors:
                found.setdefault(name, Violation(name, error_text(exc), line(state), state))
            continue
        for a in moves:
            try:
                child = state.result(a)
            except Exception as exc:              # noqa: BLE001 - the rules fail on this move
                if errors:
                    found.setdefault(name, Violation(name, error_text(exc), [*line(state), a], state))
                continue
            if child not in parent:
                if len(parent) >= budget:
                    complete = False
                    queue.clear()
                    break
                parent[child] = (state, a)
                queue.append(child)
    return found, len(parent), complete and len(found) < wanted


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
