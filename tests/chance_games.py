"""Small hand-written games with the compiled-state interface, for testing the chance and
many-player searchers independently of the spec compiler.

* `dice_pig(goal, faces, turn_limit)`: Pig with a die whose faces other than the bust face
  add `faces[i]` to the turn total (Piglet: one coin face adds 1); the game ends when a
  player's score plus turn total reaches the goal (that player wins) or after
  `turn_limit` turns (the higher score wins, a tie is worth 1/2).  Exact `Fraction`
  probabilities and utilities.
* `random_chance_tree(seed, ...)`: a random tree of decision nodes (1 or 2 players,
  zero-sum when 2, the same player sometimes moving twice) and chance nodes, integer
  utilities in [-10, 10] ([0, 10] for one player), a heuristic estimate in the same range
  at every inner node.
* `random_vector_tree(seed, ...)`: a random n-player tree, players in any order, leaf
  utilities and estimates non-negative integers summing to 10, optional chance nodes.
* `tictactoe(players)`: 3x3 tic-tac-toe for 2 players (zero-sum, +1/-1) or 3 players
  (winner 1, others 0, draw 1/3 each).
* `chain(length)`: a one-player game `length` decisions deep, each followed by a
  one-outcome chance node (for deep-recursion tests).
* `coalition(game, me)`: the two-sided reduction of a many-player game (me against the
  others, zero-sum on my utility), for checking paranoid search against alpha-beta.
"""
from __future__ import annotations

import random
from fractions import Fraction

from framework.game import CHANCE, Game

HALF = Fraction(1, 2)


def _game(name, players, root, evaluate=None, **capabilities):
    return Game(name=name, player_names=tuple(players), _initial=lambda: root,
                _evaluate=evaluate, has_evaluation=evaluate is not None,
                _action_text=str, **capabilities)


# --------------------------------------------------------------------------- Pig
class PigState:
    """(mover, scores, turn total, turns played, rolling?) of a Pig game; `rolling` marks
    the chance node between the decision to roll and the die."""

    __slots__ = ("rules", "key")

    def __init__(self, rules, mover, scores, total, turns, rolling=False):
        self.rules = rules
        self.key = (mover, scores, total, turns, rolling)

    def __eq__(self, other):
        return self.key == other.key

    def __hash__(self):
        return hash(self.key)

    def __repr__(self):
        return f"PigState{self.key}"

    def _winner(self):
        mover, scores, total, turns, _ = self.key
        goal, _, turn_limit = self.rules
        if scores[mover] + total >= goal:
            return mover
        if turns >= turn_limit:
            return None if scores[0] == scores[1] else int(scores[1] > scores[0])
        return -1                             # game goes on

    def terminal_test(self):
        mover, scores, total, turns, _ = self.key
        return scores[mover] + total >= self.rules[0] or turns >= self.rules[2]

    def returns(self):
        winner = self._winner()
        if winner is None:
            return (HALF, HALF)
        return (Fraction(1), Fraction(0)) if winner == 0 else (Fraction(0), Fraction(1))

    def utility(self, player):
        return self.returns()[player]

    def is_chance(self):
        return self.key[4]

    def player(self):
        return CHANCE if self.key[4] else self.key[0]

    def actions(self):
        return [] if self.key[4] or self.terminal_test() else ["roll", "hold"]

    def chance_outcomes(self):
        faces = self.rules[1]
        p = Fraction(1, len(faces) + 1)
        return [(0, p)] + [(face, p) for face in faces]

    def result(self, move):
        mover, scores, total, turns, rolling = self.key
        rules = self.rules
        if rolling:
            if move == 0:                     # bust: the turn total is lost
                return PigState(rules, 1 - mover, scores, 0, turns + 1)
            return PigState(rules, mover, scores, total + move, turns)
        if move == "roll":
            return PigState(rules, mover, scores, total, turns, True)
        banked = tuple(s + total if p == mover else s for p, s in enumerate(scores))
        return PigState(rules, 1 - mover, banked, 0, turns + 1)


def dice_pig(goal=2, faces=(1,), turn_limit=6, evaluate=None):
    """Pig as a Game: `faces=(1,)` is Piglet (a coin), `faces=(2, 3, 4, 5, 6)` a die."""
    root = PigState((goal, tuple(faces), turn_limit), 0, (0, 0), 0, 0)
    return _game(f"pig{goal}", ["A", "B"], root, evaluate, chance=True,
                 constant_sum=Fraction(1), utility_bounds=(0, 1))


def pig_estimate(state, player):
    """A heuristic win probability in [0, 1]: 1/2 plus the score lead over twice the goal."""
    mover, scores, total, _, _ = state.key
    mine = scores[player] + (total if mover == player else 0)
    theirs = scores[1 - player] + (total if mover != player else 0)
    return HALF + Fraction(mine - theirs, 2 * state.rules[0])


# ---------------------------------------------------------------- explicit trees
class TreeState:
    """A node of an explicit game tree; `value` is the utility vector at leaves and the
    vector of heuristic estimates at inner nodes."""

    __slots__ = ("mover", "moves", "children", "probabilities", "value")

    def __init__(self, mover, value, children=(), probabilities=None):
        self.mover = mover
        self.value = value
        self.children = list(children)
        self.moves = list(range(len(self.children)))
        self.probabilities = probabilities

    def terminal_test(self):
        return not self.children

    def is_chance(self):
        return self.probabilities is not None

    def player(self):
        return self.mover

    def actions(self):
        return [] if self.probabilities is not None else self.moves

    def chance_outcomes(self):
        return list(zip(self.moves, self.probabilities))

    def result(self, move):
        return self.children[move]

    def returns(self):
        return self.value

    def utility(self, player):
        return self.value[player]


def _tree_game(name, players, root, **capabilities):
    return _game(name, players, root, lambda state, player: state.value[player], **capabilities)


def _random_probabilities(rng, count):
    weights = [rng.randint(1, 6) for _ in range(count)]
    return [Fraction(w, sum(weights)) for w in weights]


def _random_tree(rng, depth, players, values, chance_share, branching=(2, 3),
                 outcomes=(2, 4)):
    """A random tree; `values()` draws a value vector (leaf utilities or estimates)."""

    def build(level, mover):
        if level == 0 or (level < depth - 1 and rng.random() < 0.1):
            return TreeState(mover, values())
        if level < depth and rng.random() < chance_share:
            count = rng.randint(*outcomes)
            kids = [build(level - 1, rng.randrange(players)) for _ in range(count)]
            return TreeState(CHANCE, values(), kids, _random_probabilities(rng, count))
        kids = [build(level - 1, (mover + 1) % players if rng.random() < 0.8 else mover)
                for _ in range(rng.randint(*branching))]
        return TreeState(mover, values(), kids)

    return build(depth, 0)


def random_chance_tree(seed, depth=6, players=2, chance_share=0.4):
    """A random expectimax tree as a Game (see the module docstring)."""
    rng = random.Random(seed)
    if players == 1:
        root = _random_tree(rng, depth, 1, lambda: (rng.randint(0, 10),), chance_share)
        return _tree_game(f"solo-tree-{seed}", ["max"], root, chance=True, utility_bounds=(0, 10))

    def zero_sum_pair():
        v = rng.randint(-10, 10)
        return (v, -v)

    root = _random_tree(rng, depth, 2, zero_sum_pair, chance_share)
    return _tree_game(f"chance-tree-{seed}", ["max", "min"], root, chance=True, zero_sum=True,
                      constant_sum=0, utility_bounds=(-10, 10))


def random_vector_tree(seed, depth=6, players=3, total=10, chance_share=0.0):
    """A random n-player tree with non-negative constant-sum leaf vectors, as a Game."""
    rng = random.Random(seed)

    def split():
        cuts = sorted(rng.randint(0, total) for _ in range(players - 1))
        return tuple(b - a for a, b in zip([0] + cuts, cuts + [total]))

    root = _random_tree(rng, depth, players, split, chance_share)
    return _tree_game(f"vector-tree-{seed}", [f"P{i}" for i in range(players)], root,
                      chance=chance_share > 0, constant_sum=total, utility_bounds=(0, total))


# --------------------------------------------------------------- tic-tac-toe
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToeState:
    """Board as a tuple of 9 cells (-1 empty, else the player's index); actions are
    (column, row) pairs."""

    __slots__ = ("board", "mover", "players", "winner")

    def __init__(self, board, mover, players):
        self.board = board
        self.mover = mover
        self.players = players
        self.winner = next((board[a] for a, b, c in LINES
                            if board[a] >= 0 and board[a] == board[b] == board[c]), None)

    def __eq__(self, other):
        return self.board == other.board and self.mover == other.mover

    def __hash__(self):
        return hash((self.board, self.mover))

    def terminal_test(self):
        return self.winner is not None or -1 not in self.board

    def is_chance(self):
        return False

    def player(self):
        return self.mover

    def actions(self):
        if self.terminal_test():
            return []
        return [(i % 3, i // 3) for i, cell in enumerate(self.board) if cell < 0]

    def result(self, action):
        column, row = action
        board = list(self.board)
        board[3 * row + column] = self.mover
        return TicTacToeState(tuple(board), (self.mover + 1) % self.players, self.players)

    def returns(self):
        n = self.players
        if self.winner is None:
            return (0, 0) if n == 2 else (Fraction(1, n),) * n
        if n == 2:
            return (1, -1) if self.winner == 0 else (-1, 1)
        return tuple(int(p == self.winner) for p in range(n))

    def utility(self, player):
        return self.returns()[player]


def tictactoe(players=2, board="........."):
    """Tic-tac-toe from `board` (a 9-character string of '.', 'X', 'O', 'Y', rows from the
    top); the mover is the player whose turn it is after the marks already placed."""
    symbols = "XOY"
    cells = tuple(-1 if ch == "." else symbols.index(ch) for ch in board)
    root = TicTacToeState(cells, sum(c >= 0 for c in cells) % players, players)
    if players == 2:
        return _game("tictactoe", "XO", root, zero_sum=True, constant_sum=0,
                     utility_bounds=(-1, 1))
    return _game("tictactoe3", symbols[:players], root, constant_sum=1, utility_bounds=(0, 1))


# ---------------------------------------------------------------- chain, reduction
def chain(length):
    """A one-player game: `length` decisions in a row, each followed by a chance node
    with one outcome; the utility is 1."""
    node = TreeState(0, (1,))
    for _ in range(length):
        node = TreeState(0, (0,), [TreeState(CHANCE, (0,), [node], [Fraction(1)])])
    return _game(f"chain-{length}", ["solo"], node, chance=True, utility_bounds=(0, 1))


class CoalitionState:
    """A state of the two-sided reduction: player 0 is `me`, player 1 all the others."""

    __slots__ = ("inner", "me")

    def __init__(self, inner, me):
        self.inner = inner
        self.me = me

    def __eq__(self, other):
        return self.inner == other.inner

    def __hash__(self):
        return hash(self.inner)

    def terminal_test(self):
        return self.inner.terminal_test()

    def is_chance(self):
        return False

    def player(self):
        return 0 if self.inner.player() == self.me else 1

    def actions(self):
        return self.inner.actions()

    def result(self, action):
        return CoalitionState(self.inner.result(action), self.me)

    def utility(self, player):
        mine = self.inner.utility(self.me)
        return mine if player == 0 else -mine

    def returns(self):
        return (self.utility(0), self.utility(1))


def coalition(game, me=0):
    """The zero-sum two-player reduction of `game` from player `me`'s point of view."""
    low, high = game.utility_bounds
    root = CoalitionState(game.initial_state(), me)
    return _game(f"{game.name}-coalition", ["me", "others"], root,
                 lambda state, player: (1 if player == 0 else -1) * game.evaluate(state.inner, me),
                 zero_sum=True, constant_sum=0,
                 utility_bounds=(min(low, -high), max(high, -low)))
