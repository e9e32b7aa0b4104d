"""`positions_do_not_repeat`: a game whose positions can recur needs a rule for it.

A position is a state (the player to move included).  When the rules let a position come
back (a cycle in the game graph: Nim allowing `take 0`, any game with reversible moves),
a game without a move-count limit has lines that never end, and a searcher that expands the
graph as a tree (`solve`, minimax) runs for ever.  So for a game that declares no
`max_length`, this property looks for a cycle two ways and reports the first it finds as
the action sequence to the repeated position followed by the actions that return to it:
- breadth-first: the distinct states nearest the start (at most `BFS_STATES`) are
  expanded, then a depth-first pass over that graph finds a cycle among them;
- on seeded random playouts: a playout that meets a state it has already visited.
Only the players' moves (and chance outcomes of probability 1) count as edges: a cycle that
passes through a chance outcome of probability below 1 recurs only by luck and is left with
probability 1 (Pig's position after both players roll a 1), so it is not reported.  A game
that declares `max_length` has its limit as its rule (every line ends), so the property does
not apply to it.
"""
from __future__ import annotations

import random
from collections import deque

from framework.conformance.report import Outcome, PASSED, FAILED, NOT_APPLICABLE

NAME = "positions_do_not_repeat"
BFS_STATES = 2_000
PLAYOUTS = 20
PLAYOUT_PLIES = 2_000


def positions_do_not_repeat(game, path_text, *, seed=None) -> Outcome:
    """The property's Outcome; `path_text(game, actions)` writes an action sequence."""
    if game.max_length is not None:
        return Outcome(NAME, NOT_APPLICABLE, f"the spec declares max_length {game.max_length}: "
                                             "every line ends")
    found = graph_cycle(game) or playout_cycle(game, seed)
    if found is None:
        return Outcome(NAME, PASSED, f"no repeated position among up to {BFS_STATES:,} states "
                                     f"breadth-first and on {PLAYOUTS} playouts")
    to_position, back = found
    return Outcome(NAME, FAILED,
                   f"a position repeats: after the first {len(to_position)} action(s) of the "
                   f"sequence, its last {len(back)} return to the same position; declare "
                   "max_length (a limit on the plies) so that every line ends",
                   path_text(game, [*to_position, *back]))


def graph_cycle(game, budget=BFS_STATES):
    """(actions to a position, actions from it back to it) for a cycle among the `budget`
    states nearest the start, or None."""
    start = game.initial_state()
    path = {start: []}                      # breadth-first: the shortest line to each state
    edges = {}
    queue = deque([start])
    while queue and len(path) < budget:
        state = queue.popleft()
        if state.terminal_test():
            edges[state] = []
            continue
        edges[state] = [(a, state.result(a)) for a in _forced(state)]
        for _, child in edges[state]:
            if child not in path:
                path[child] = [*path[state], _]
                queue.append(child)
    return _cycle_in(edges, start, path)


def _cycle_in(edges: dict, start, path: dict):
    """Depth-first (iteratively) over the expanded states: the first edge back to a state
    on the current line closes a cycle."""
    on_line = {start: 0}
    line = [(start, None)]                  # (state, action that led to it)
    stack = [iter(edges.get(start, ()))]
    done = set()
    while stack:
        step = next(stack[-1], None)
        if step is None:
            state, _ = line.pop()
            stack.pop()
            del on_line[state]
            done.add(state)
            continue
        action, child = step
        if child in on_line:
            first = on_line[child]
            back = [a for _, a in line[first + 1:]] + [action]
            return path[child], back
        if child in done or child not in edges:
            continue
        on_line[child] = len(line)
        line.append((child, action))
        stack.append(iter(edges[child]))
    return None


def _forced(state) -> list:
    """The moves of `state` that are edges of a cycle worth reporting: every action of a
    player, and only the outcomes of probability 1 at a chance node."""
    if state.is_chance():
        return [o for o, p in state.chance_outcomes() if p >= 1]
    return list(state.actions())


def playout_cycle(game, seed=None, playouts=PLAYOUTS, plies=PLAYOUT_PLIES):
    """(actions to a position, actions back to it) met on a seeded random playout, or None."""
    rng = random.Random(seed)
    for _ in range(playouts):
        state = game.initial_state()
        seen, actions = {state: 0}, []
        while not state.terminal_test() and len(actions) < plies:
            moves = state.actions()
            if not moves:
                break
            action = moves[rng.randrange(len(moves))]
            if state.is_chance() and action not in _forced(state):
                seen = {}                   # a cycle through a chance outcome is not reported
            actions.append(action)
            state = state.result(action)
            if state in seen:
                first = seen[state]
                return actions[:first], actions[first:]
            seen[state] = len(actions)
    return None
