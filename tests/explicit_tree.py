"""A tiny game given as an explicit tree, implementing the `Game` + state interface.

The tree is nested lists: a leaf is a number (its utility for player 0, MAX; player 1 gets
the negation), an inner node is a list of subtrees.  Players alternate by depth, MAX at the
root.  An inner node may be written `(estimate, [children...])` to give the evaluation a
depth-limited search sees there (for player 0; 0 when not given), or
`(estimate, [children...], {noisy child indices})` to mark moves noisy for quiescence
search.  Actions are child indices.  Every call to `utility` is counted in `game.leaf_visits`, independently of the
searchers' own statistics.

`uniform_tree(b, d, order)` builds the trees of Knuth & Moore's analysis: every inner node
has `b` children, all leaves at depth `d`, distinct values, children ordered best-first for
the mover (`order="best"`) or worst-first (`"worst"`).
"""
from __future__ import annotations

from framework.game import Game


def explicit_tree_game(tree, name: str = "explicit tree") -> Game:
    children: list[list[int]] = []        # node id -> child ids
    leaf_value: list[float] = []          # node id -> utility for player 0 (leaves)
    estimate: list[float] = []            # node id -> evaluation for player 0 (inner nodes)
    mover: list[int] = []
    noisy: list[set] = []                 # node id -> indices of its noisy moves

    def add(subtree, depth: int) -> int:
        node = len(children)
        children.append([])
        mover.append(depth % 2)
        if isinstance(subtree, (int, float)):
            leaf_value.append(subtree)
            estimate.append(subtree)
            noisy.append(set())
            return node
        if isinstance(subtree, tuple):
            guess, kids, *marked = subtree
        else:
            guess, kids, marked = 0, subtree, []
        noisy.append(set(marked[0]) if marked else set())
        leaf_value.append(0)
        estimate.append(guess)
        children[node] = [add(kid, depth + 1) for kid in kids]
        return node

    add(tree, 0)

    class TreeState(tuple):
        __slots__ = ()

        def actions(self):
            return list(range(len(children[self[0]])))

        def player(self):
            return mover[self[0]]

        def result(self, action):
            return TreeState((children[self[0]][action],))

        def terminal_test(self):
            return not children[self[0]]

        def utility(self, player):
            game.leaf_visits += 1
            value = leaf_value[self[0]]
            return value if player == 0 else -value

        def returns(self):
            return (self.utility(0), self.utility(1))

        def is_chance(self):
            return False

        def chance_outcomes(self):
            return []

        def __str__(self):
            return f"node {self[0]}"

    def evaluate(state, player):
        value = estimate[state[0]]
        return value if player == 0 else -value

    def is_noisy(state, action):
        return action in noisy[state[0]]

    def parse_action(state, text):
        return int(text)

    game = Game(name=name, player_names=("MAX", "MIN"), zero_sum=True, constant_sum=0,
                has_evaluation=True, state_class=TreeState,
                _initial=lambda: TreeState((0,)), _evaluate=evaluate,
                _is_noisy=is_noisy if any(noisy) else None,
                _action_text=str, _parse_action=parse_action)
    game.leaf_visits = 0
    return game


def negamax_value(tree, player: int = 0) -> float:
    """Exact value of a plain nested-list tree for `player` to move at its root."""
    if isinstance(tree, (int, float)):
        return tree if player == 0 else -tree
    return max(-negamax_value(kid, 1 - player) for kid in tree)


def uniform_tree(branching: int, depth: int, order: str = "best"):
    """Uniform tree with distinct leaf values and perfect ("best") or worst ("worst") move
    ordering at every node.

    A leaf's value (for MAX) is its path read as a number in base `branching`, where the
    digit for choosing child i is i or branching-1-i: MAX's children then come in
    descending order for "best" and ascending for "worst", MIN's the other way.  Each
    subtree's values fill an interval, so with the worst order every later child is better
    for the mover than all before it and no ancestor's bound can prune anything.
    """
    def build(level: int, prefix: int):
        if level == depth:
            return prefix
        max_to_move = level % 2 == 0
        ascending = max_to_move == (order == "worst")
        return [build(level + 1, prefix * branching + (i if ascending else branching - 1 - i))
                for i in range(branching)]

    return build(0, 0)
