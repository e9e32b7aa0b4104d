"""Benchmark: compiled specs against idiomatic hand-written Python, side by side.

    python benchmarks/bench_compiled.py [--repeat 3]

1. full tic-tac-toe tree traversal through the public state interface
   (terminal_test / actions / result), 549,946 nodes;
2. Connect Four 7x6 perft(6).
Each is timed for the compiled spec and for a hand-written version (tuple board, plain
functions) in the same process; the best of --repeat runs is reported with nodes/s and the
ratio compiled / hand-written.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import framework  # noqa: E402

# ---------------------------------------------------------------- hand-written tic-tac-toe
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe:
    __slots__ = ("board", "to_move")

    def __init__(self, board=(None,) * 9, to_move="X"):
        self.board, self.to_move = board, to_move

    def winner(self):
        b = self.board
        for i, j, k in LINES:
            if b[i] is not None and b[i] == b[j] == b[k]:
                return b[i]
        return None

    def terminal_test(self):
        return self.winner() is not None or None not in self.board

    def actions(self):
        return [] if self.terminal_test() else [i for i, v in enumerate(self.board) if v is None]

    def result(self, action):
        b = self.board
        return TicTacToe(b[:action] + (self.to_move,) + b[action + 1:], "O" if self.to_move == "X" else "X")


# ---------------------------------------------------------------- hand-written Connect Four
W, H = 7, 6


class ConnectFour:
    __slots__ = ("board", "to_move")

    def __init__(self, board=None, to_move=1):
        self.board = board or tuple((0,) * H for _ in range(W))   # columns, row 0 at the bottom
        self.to_move = to_move

    def has_line(self, p):
        b = self.board
        for c in range(W):
            for r in range(H):
                if b[c][r] != p:
                    continue
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    n = 1
                    while n < 4:
                        cc, rr = c + dc * n, r + dr * n
                        if 0 <= cc < W and 0 <= rr < H and b[cc][rr] == p:
                            n += 1
                        else:
                            break
                    if n == 4:
                        return True
        return False

    def terminal_test(self):
        return self.has_line(1) or self.has_line(2) or all(col[-1] for col in self.board)

    def actions(self):
        return [] if self.terminal_test() else [c for c in range(W) if self.board[c][-1] == 0]

    def result(self, c):
        col = self.board[c]
        r = col.index(0)
        new_col = col[:r] + (self.to_move,) + col[r + 1:]
        return ConnectFour(self.board[:c] + (new_col,) + self.board[c + 1:], 3 - self.to_move)


def traverse(state):
    nodes, stack = 0, [state]
    while stack:
        s = stack.pop()
        nodes += 1
        if s.terminal_test():
            continue
        for a in s.actions():
            stack.append(s.result(a))
    return nodes


def perft(state, depth):
    nodes, stack = 0, [(state, 0)]
    while stack:
        s, d = stack.pop()
        if d == depth:
            nodes += 1
            continue
        if s.terminal_test():
            continue
        for a in s.actions():
            stack.append((s.result(a), d + 1))
    return nodes


def best_time(fn, repeat):
    best, value = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t)
    return best, value


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ttt = framework.load(ROOT / "game_specs" / "tictactoe.yaml").initial_state()
    c4 = framework.load(ROOT / "game_specs" / "connect_four.yaml").initial_state()
    rows = [
        ("tic-tac-toe full tree", lambda: traverse(ttt), lambda: traverse(TicTacToe())),
        ("Connect Four perft(6)", lambda: perft(c4, 6), lambda: perft(ConnectFour(), 6)),
    ]
    print(f"{'benchmark':<24}{'nodes':>10}{'compiled n/s':>15}{'hand n/s':>12}{'ratio':>8}")
    for name, compiled, hand in rows:
        tc, nc = best_time(compiled, args.repeat)
        th, nh = best_time(hand, args.repeat)
        assert nc == nh, (name, nc, nh)
        print(f"{name:<24}{nc:>10,}{nc / tc:>15,.0f}{nh / th:>12,.0f}{th / tc:>7.2f}x")


if __name__ == "__main__":
    main()
