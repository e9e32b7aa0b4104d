"""Benchmark of the two-player searchers (not a test; prints tables).

1. Nodes and time of plain alpha-beta and of each enhancement added in turn, on
   tic-tac-toe (solved) and Connect Four 7x6 to a fixed depth.
2. Nodes per second of `framework.search.minimax` on the compiled tic-tac-toe spec beside
   a hand-written Python minimax (tuple board, plain functions) in the same process.

    python benchmarks/bench_adversarial.py [--depth 8] [--repeat 3]
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from framework import load                                 # noqa: E402
from framework.search import alphabeta, minimax            # noqa: E402

SWITCHES = ("tt", "ordering", "killers", "history", "id", "aspiration", "pvs", "quiescence")
STEPS = ("tt", "ordering", "killers", "history", "id", "aspiration", "pvs", "quiescence")


def enhancement_rows(game, depth, repeat):
    """(label, nodes, seconds, value, best action) for plain alpha-beta and each switch
    turned on in turn (best time of `repeat` runs)."""
    config = dict.fromkeys(SWITCHES, False)
    rows = []
    for step in (None, *STEPS):
        if step is not None:
            config[step] = True
        runs = [alphabeta.search(game, depth=depth, **config) for _ in range(repeat)]
        best = min(runs, key=lambda r: r.stats.time_s)
        label = "plain alpha-beta" if step is None else f"+ {step}"
        rows.append((label, best.stats.nodes, best.stats.time_s, best.value,
                     game.action_text(best.best_action)))
    return rows


LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def hand_winner(board):
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def hand_minimax(board, player, counter):
    """Value for X of `board` with `player` to move; counter[0] counts the nodes."""
    counter[0] += 1
    winner = hand_winner(board)
    if winner is not None:
        return 1 if winner == "X" else -1
    if "." not in board:
        return 0
    other = "O" if player == "X" else "X"
    values = [hand_minimax(board[:i] + (player,) + board[i + 1:], other, counter)
              for i in range(9) if board[i] == "."]
    return max(values) if player == "X" else min(values)


def traverse(state, counter):
    """Visit every state below `state` through the course interface, searching nothing:
    what the compiled states alone cost."""
    counter[0] += 1
    if state.terminal_test():
        return state.utility(0)
    for action in state.actions():
        traverse(state.result(action), counter)
    return 0


def best_of(repeat, run):
    """(nodes, seconds, value) of the fastest of `repeat` runs of `run(counter)`."""
    best = None
    for _ in range(repeat):
        counter = [0]
        start = time.perf_counter()
        value = run(counter)
        elapsed = time.perf_counter() - start
        if best is None or elapsed < best[1]:
            best = (counter[0], elapsed, value)
    return best


def nodes_per_second(repeat):
    game = load(ROOT / "game_specs" / "tictactoe.yaml")
    ours = min((minimax.search(game) for _ in range(repeat)), key=lambda r: r.stats.time_s)
    walk = best_of(repeat, lambda counter: traverse(game.initial_state(), counter))
    hand = best_of(repeat, lambda counter: hand_minimax((".",) * 9, "X", counter))
    return (ours.stats.nodes, ours.stats.time_s, ours.value), walk, hand


def print_table(title, header, rows):
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(" --- " for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=8, help="Connect Four 7x6 depth (default 8)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per row, best time kept")
    args = parser.parse_args(argv)

    tictactoe = load(ROOT / "game_specs" / "tictactoe.yaml")
    connect_four = load(ROOT / "game_specs" / "connect_four.yaml")
    header = ("alpha-beta", "tic-tac-toe nodes", "time (s)", f"Connect Four 7x6 depth {args.depth} nodes",
              "time (s)", "value, move")
    rows = []
    for (label, n1, t1, _, _), (_, n2, t2, v2, move) in zip(
            enhancement_rows(tictactoe, None, args.repeat),
            enhancement_rows(connect_four, args.depth, args.repeat)):
        rows.append((label, f"{n1:,}", f"{t1:.3f}", f"{n2:,}", f"{t2:.3f}", f"{v2:g}, {move}"))
    print_table("Each enhancement added in turn (tic-tac-toe solved; value 0 throughout)", header, rows)

    ours, walk, hand = nodes_per_second(args.repeat)
    assert ours[2] == hand[2] == 0 and ours[0] == walk[0] == hand[0] == 549_946
    hand_rate = hand[0] / hand[1]
    print_table("Full tic-tac-toe minimax (549,946 nodes), same process",
                ("", "time (s)", "nodes/s", "vs hand-written"),
                [(label, f"{seconds:.3f}", f"{nodes / seconds:,.0f}", f"{nodes / seconds / hand_rate:.2f}x")
                 for label, (nodes, seconds, _) in (
                     ("framework.search.minimax on game_specs/tictactoe.yaml", ours),
                     ("the same compiled states, bare traversal (no search)", walk),
                     ("hand-written Python minimax (tuple board, plain functions)", hand))])


if __name__ == "__main__":
    main()
