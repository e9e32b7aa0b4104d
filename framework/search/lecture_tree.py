"""Record the whole tree of a textbook minimax or alpha-beta search, to draw it in a lecture.

`trace(game, state, depth=..., algorithm="alphabeta")` searches like the textbook
algorithm (no table, no move ordering: children in the game's action order) and returns
the root `TreeNode`.  Every node records the action that led to it, the player to move,
its value, and for alpha-beta the window (alpha, beta) it was entered with and the actions
whose subtrees were cut off.  Values and windows are shown from the root player's point
of view (MAX = the player to move at the root), as a lecture draws them; the search itself
is negamax.  `plyspec tree` (framework.cli.tree_cmd) draws the result as text, Graphviz
DOT or SVG.  To inspect what the enhanced alpha-beta does (table answers, null-window
re-searches, iterations), record it instead with `alphabeta.search(..., trace=TreeTrace())`
or `plyspec solve --tree FILE` (framework.search.trace).

A tree is for reading, so its size is capped (`max_nodes`, default 2,000, and at most
`MAX_DEPTH` plies deep): a bigger tree raises `TreeTooBig` before anything is drawn.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from framework.search.twoplayer import leaf_scorers, require_two_player

ALGORITHMS = ("minimax", "alphabeta")
MAX_DEPTH = 200


class TreeTooBig(ValueError):
    """The search visits more nodes than a drawing can show."""


@dataclass
class TreeNode:
    action: Any                    # the action leading here (None at the root)
    player: int                    # player to move (the root player is MAX)
    maximizing: bool
    kind: str = "inner"            # inner | terminal | horizon (depth cut-off)
    value: float | None = None     # from the root player's point of view
    alpha: float = -math.inf       # window on entry (alpha-beta), root player's view
    beta: float = math.inf
    children: list = field(default_factory=list)
    pruned: list = field(default_factory=list)   # actions whose subtrees were cut off

    def size(self) -> int:
        return 1 + sum(child.size() for child in self.children)


def trace(game, state=None, *, depth=None, algorithm="alphabeta", max_nodes=2_000, evaluate=None) -> TreeNode:
    """The search tree of `algorithm` (minimax or alphabeta) from `state` (default: the
    initial state), `depth` plies deep (None: to the end of the game)."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"tree: algorithm must be one of {', '.join(ALGORITHMS)}, not {algorithm!r}")
    require_two_player(game, f"tree ({algorithm})")
    root_state = game.initial_state() if state is None else state
    root_player = root_state.player()
    terminal_score, horizon_score = leaf_scorers(game, root_state, evaluate)
    prune = algorithm == "alphabeta"
    visited = 0

    def visit(state, action, ply, alpha, beta):
        """Negamax value of `state` for its mover, in the window (alpha, beta); records
        the node (converted to the root player's view) and returns (value, node)."""
        nonlocal visited
        visited += 1
        if visited > max_nodes:
            raise TreeTooBig(f"the tree has more than {max_nodes:,} nodes; lower the depth, start "
                             "from a later position or raise the limit")
        if ply > MAX_DEPTH:
            raise TreeTooBig(f"the tree is more than {MAX_DEPTH} plies deep; give a depth")
        me = state.player()
        sign = 1 if me == root_player else -1
        node = TreeNode(action, me, sign == 1)
        if prune:
            node.alpha, node.beta = (alpha, beta) if sign == 1 else (-beta, -alpha)
        if state.terminal_test():
            node.kind, value = "terminal", terminal_score(state, me)
        elif ply == depth:
            node.kind, value = "horizon", horizon_score(state, me)
        else:
            value = -math.inf
            actions = state.actions()
            for i, child_action in enumerate(actions):
                child = state.result(child_action)
                flip = -1 if child.player() != me else 1
                low, high = (-beta, -alpha) if flip == -1 else (alpha, beta)
                child_value, child_node = visit(child, child_action, ply + 1, low, high)
                node.children.append(child_node)
                value = max(value, flip * child_value)
                alpha = max(alpha, value)
                if prune and alpha >= beta:
                    node.pruned = actions[i + 1:]
                    break
        node.value = sign * value
        return value, node

    return visit(root_state, None, 0, -math.inf, math.inf)[1]
