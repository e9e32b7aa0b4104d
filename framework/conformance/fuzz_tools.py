"""Fuzzing past the loaders (`plyspec fuzz --tools`): mutants of the shipped specs that load
are run through what a user runs next, with short budgets: for a game, perft to depth 2
(at most PERFT_NODES positions), a short solve by its searcher and by MCTS, and the
conformance suite (`plyspec test`, EXAMPLES playouts a property); for a planning problem,
grounding and a short A* plan, validated.  Each may end in a result (a failing property is
a result: the suite found the bug) or a `SpecError` (a rule that goes wrong in play is a
SpecRuntimeError); any other exception, or an input that outlasts INPUT_SECONDS, is a finding.

Mutations are drawn from a seeded `random.Random` (not Hypothesis: the conformance suite
inside uses Hypothesis, which does not nest): a line deleted, duplicated or two swapped; two
tokens swapped; a number made 0, -1, 1, 2 or huge; an identifier renamed to another of the
same spec; a token deleted.  One to three of them per mutant.  Only the small shipped specs
are used (a conformance run on draughts or Amazons takes tens of seconds).
"""
from __future__ import annotations

import random
import re
import tempfile
import time
from pathlib import Path

from framework.conformance.fuzz import Tally, _Timeout, _where
from framework.errors import SpecError
from framework.search.result import alarm

SEEDS = ("tictactoe.yaml", "tictactoe.game", "nim.yaml", "pig.yaml", "pig.game", "kalah.yaml",
         "connect_four.yaml", "mini_isolation.yaml", "tictactoe3.yaml", "slippery_isolation.yaml",
         "eight_puzzle.yaml", "hanoi.yaml", "hanoi.plan", "gripper.yaml", "monkey_bananas.plan",
         "spare_tire.yaml")
INPUT_SECONDS = 30           # one mutant's whole run; longer is a "slow" finding
PERFT_NODES = 20_000
SOLVE_SECONDS = 0.1
EXAMPLES = 2
NUMBERS = ("0", "-1", "1", "2", "99999", "1" + "0" * 30)
TOKEN = re.compile(r"[A-Za-z_]\w*|\d+|[^\w\s]")


def seed_files() -> list:
    """(format, text) of the shipped specs the mutants start from."""
    from framework.conformance.discover import shipped_specs, spec_kind
    out = []
    for path in shipped_specs():
        path = Path(path)
        if path.name in SEEDS:
            kind = spec_kind(path)
            fmt = ("game" if path.suffix == ".game" else "yaml") if kind == "game" else \
                ("plan" if path.suffix == ".plan" else "plan-yaml")
            out.append((fmt, path.read_text(encoding="utf-8")))
    return out


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits of `text`."""
    for _ in range(rng.randint(1, 3)):
        lines = text.split("\n")
        kind = rng.choice(("delete_line", "duplicate_line", "swap_lines", "swap_tokens", "number",
                           "rename", "delete_token"))
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        if kind == "delete_line":
            del lines[i]
        elif kind == "duplicate_line":
            lines.insert(j, lines[i])
        elif kind == "swap_lines":
            lines[i], lines[j] = lines[j], lines[i]
        else:
            tokens = list(TOKEN.finditer(text))
            if not tokens:
                continue
            a, b = rng.choice(tokens), rng.choice(tokens)
            if kind == "swap_tokens" and a.start() < b.start():
                text = (text[:a.start()] + b.group() + text[a.end():b.start()] + a.group()
                        + text[b.end():])
            elif kind == "number":
                numbers = [t for t in tokens if t.group().isdigit()] or [a]
                n = rng.choice(numbers)
                text = text[:n.start()] + rng.choice(NUMBERS) + text[n.end():]
            elif kind == "rename":
                names = sorted({t.group() for t in tokens if t.group()[0].isalpha()})
                if names:
                    old, new = rng.choice(names), rng.choice(names)
                    text = re.sub(rf"\b{re.escape(old)}\b", new, text, count=rng.randint(1, 3))
            elif kind == "delete_token":
                text = text[:a.start()] + text[a.end():]
            continue
        text = "\n".join(lines)
    return text


def exercise_game(game) -> None:
    """perft to depth 2, short solves, and the conformance suite on a loaded game."""
    from framework.conformance.games import GameChecker, scratch_storage
    from framework.search.registry import searcher
    level, seen = [game.initial_state()], 1
    for _ in range(2):
        nxt = []
        for state in level:
            if not state.terminal_test():
                nxt += [state.result(a) for a in state.actions()]
                seen += len(nxt)
            if seen > PERFT_NODES:
                break
        level = nxt
    own = "expectimax" if game.chance else "bfs" if game.num_players == 1 else \
        "maxn" if game.num_players > 2 else "alphabeta"
    for name in (own, "mcts"):
        searcher(name)(game, time_limit=SOLVE_SECONDS)
    with scratch_storage():
        GameChecker(game, None, {}, EXAMPLES, 0, 200, exhaustive=PERFT_NODES).run()


def exercise_planning(folder: Path, fmt: str, text: str) -> None:
    """Ground and plan briefly (A* with h_max), then validate a plan found."""
    import planners
    from framework.search.registry import searcher
    from planners.lifted.validate import validate_plan
    path = folder / ("spec.plan" if fmt == "plan" else "spec.yaml")
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    problem = planners.load(path)
    task = planners.ground(problem, max_operators=20_000)
    result = searcher("astar")(task, time_limit=SOLVE_SECONDS, heuristic="hmax")
    if result.extra.get("solved"):
        validate_plan(problem, [task.action_text(a) for a in result.pv])


def run_one(folder: Path, fmt: str, text: str, tally: Tally) -> str | None:
    """Load and exercise one mutant; returns the finding's text, or None."""
    import framework
    tally.inputs += 1
    tally.by_format[fmt] += 1
    stage = "load"
    try:
        with alarm(INPUT_SECONDS, _Timeout):
            if fmt in ("yaml", "game"):
                game = framework.load_text(text, fmt, file=f"fuzz.{fmt}")
                stage = "tools"
                exercise_game(game)
            else:
                exercise_planning(folder, fmt, text)
    except _Timeout:
        tally.slow += 1
        tally.add_finding(f"{fmt}: slow: over {INPUT_SECONDS} s", text, "")
        return f"{fmt}: slow"
    except SpecError:
        if stage == "load":
            tally.refused += 1
            return None
    except Exception as exc:                 # noqa: BLE001 - this is what the fuzzer looks for
        signature = f"{fmt}: {type(exc).__name__} at {_where(exc)}"
        tally.add_finding(signature, text, f"{type(exc).__name__}: {str(exc)[:300]}")
        return f"{signature}: {str(exc)[:300]}"
    tally.loaded += 1                        # loaded, and every tool ended cleanly
    return None


def campaign(inputs: int, *, seed: int | None = None, progress=None) -> Tally:
    """`inputs` mutants of the seed specs, round-robin; `progress(tally, news)` every few
    seconds and at each new kind of finding."""
    rng = random.Random(0 if seed is None else seed)
    seeds = seed_files()
    tally = Tally()
    start = last = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="plyspec-fuzz-") as folder:
        for number in range(inputs):
            fmt, text = seeds[number % len(seeds)]
            known = len(tally.findings)
            finding = run_one(Path(folder), fmt, mutate(text, rng), tally)
            now = time.perf_counter()
            tally.seconds = now - start
            if progress and finding and len(tally.findings) > known:
                progress(tally, f"new finding: {finding}")
            elif progress and now - last >= 5:
                last = now
                progress(tally, None)
    return tally
