"""Benchmark of the chance and many-player searchers (not a test; prints tables).

1. Expectimax on Pig with and without Star1 / Star2 pruning, each without and with the
   transposition table: the standard game (goal 100) to a fixed depth with the spec's
   evaluation, and a turn-limited Pig solved exactly.
2. Max-n on three-player tic-tac-toe (whole game tree) with and without shallow pruning.
   The spec's utilities (`winner`: 1 for the winner, 0 otherwise) sum to at most 1, which
   the checker infers (`game.max_utility_sum`); with only the per-player bound known
   (3 players x 1) shallow pruning could never cut.  The rows "draw = 1/3" use a
   hand-written copy of the game (tests/chance_games.py, exact `Fraction` utilities, hence
   slower per node) whose constant sum 1 is declared.
3. MCTS (UCT) iterations per second on Connect Four, tic-tac-toe and Pig.

Every row takes the best time of `--repeat` runs.

    python benchmarks/bench_chance_multi.py [--pig-depth 11] [--repeat 3] [--mcts-seconds 2]
"""
from __future__ import annotations

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from framework import load                                 # noqa: E402
from framework.search import expectimax, maxn, mcts        # noqa: E402
from chance_games import tictactoe                         # noqa: E402

SPECS = ROOT / "game_specs"
PRUNING = (("plain expectimax", dict(star1=False, star2=False)),
           ("Star1", dict(star1=True, star2=False)),
           ("Star2", dict(star1=True, star2=True)))


def fastest(run, repeat):
    return min((run() for _ in range(repeat)), key=lambda result: result.stats.time_s)


def print_table(title, header, rows):
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    print(f"\n{title}\n")
    print("| " + " | ".join(str(h).ljust(w) for h, w in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(str(c).rjust(w) if isinstance(c, (int, float)) or c[:1].isdigit()
                                else str(c).ljust(w) for c, w in zip(row, widths)) + " |")


def expectimax_rows(repeat, depth):
    rows = []
    cases = [(f"Pig goal 100, depth {depth}", load(str(SPECS / "pig.yaml")), depth),
             ("Pig goal 8, 3 turns, exact", load(str(SPECS / "pig.yaml"), goal=8, turn_limit=3), None)]
    for label, game, limit in cases:
        for tt in (False, True):
            for name, switches in PRUNING:
                result = fastest(lambda: expectimax.search(game, depth=limit, tt=tt, **switches), repeat)
                rows.append((label, name + (" + table" if tt else ""), f"{result.stats.nodes:,}",
                             f"{result.stats.tt_hits:,}", f"{result.stats.time_s:.3f}",
                             f"{result.stats.nodes / result.stats.time_s:,.0f}", f"{result.value:.6f}"))
    return rows


def maxn_rows(repeat):
    rows = []
    cases = [("spec (sum <= 1 inferred)", load(str(SPECS / "tictactoe3.yaml"))),
             ("hand-written, draw = 1/3 (sum 1 declared)", tictactoe(3))]
    for label, game in cases:
        for prune in (False, True):
            result = fastest(lambda: maxn.search(game, prune=prune), repeat)
            pruning = result.extra["pruning"].split(":")[0]
            rows.append((label, f"prune=True ({pruning})" if prune else "plain max-n",
                         f"{result.stats.nodes:,}", f"{result.stats.cutoffs:,}",
                         f"{result.stats.time_s:.3f}",
                         "(" + ", ".join(f"{float(v):.3f}" for v in result.values) + ")"))
    return rows


def mcts_rows(seconds):
    rows = []
    for label, game in (("Connect Four 7x6", load(str(SPECS / "connect_four.yaml"))),
                        ("tic-tac-toe", load(str(SPECS / "tictactoe.yaml"))),
                        ("Pig goal 100", load(str(SPECS / "pig.yaml")))):
        result = mcts.search(game, time_limit=seconds, seed=1)
        iterations = result.extra["iterations"]
        rows.append((label, f"{iterations:,}", f"{result.stats.time_s:.2f}",
                     f"{iterations / result.stats.time_s:,.0f}", f"{result.stats.nodes:,}",
                     game.action_text(result.best_action)))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pig-depth", type=int, default=11, help="depth of the Pig search (plies)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row (best time kept)")
    parser.add_argument("--mcts-seconds", type=float, default=2.0, help="time per MCTS run")
    args = parser.parse_args(argv)
    print_table("Expectimax on Pig (the same value in every row of a game)",
                ("game", "search", "nodes", "table hits", "seconds", "nodes/s", "value"),
                expectimax_rows(args.repeat, args.pig_depth))
    print_table("Max-n on three-player tic-tac-toe, whole tree",
                ("game", "search", "nodes", "cut-offs", "seconds", "value vector"),
                maxn_rows(args.repeat))
    print_table("MCTS (UCT), random playouts to the end",
                ("game", "iterations", "seconds", "iterations/s", "tree nodes", "best move"),
                mcts_rows(args.mcts_seconds))


if __name__ == "__main__":
    main()
