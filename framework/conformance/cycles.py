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
that declares a `repetition` or `max_moves` rule carries its history in its states
(framework.history), so none of its states can recur: the same search then confirms it and
the property passes naming the rule.  It does not apply to puzzles (searched as graphs) nor
to chance games without such a rule (their cycles are a matter for value iteration, and
expectimax refuses an endless line).  `max_length` is a claim about playouts (checked by
`playouts_end_within_max_length`), not a rule: it does not excuse a cycle.
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
    if game.num_players == 1 and game.has_goal:
        return Outcome(NAME, NOT_APPLICABLE, "a puzzle is searched as a graph (bfs, A*): a position "
                                             "met again is simply not expanded again")
    if game.chance and not declared_rule(game):
        return Outcome(NAME, NOT_APPLICABLE, "a chance game may come back to a position through its "
                                             "outcomes (Pig: a turn that scores nothing); its exact "
                                             "values need value iteration or a bound on its length "
                                             "(expectimax refuses a line past 100,000 plies)")
    found = graph_cycle(game, BFS_STATES) or playout_cycle(game, seed, PLAYOUTS)   # (read now: the detail names them)
    rule = declared_rule(game)
    if found is None:
        return Outcome(NAME, PASSED, f"no repeated position among up to {BFS_STATES:,} states "
                                     f"breadth-first and on {PLAYOUTS} playouts"
                                     + (f" (the spec declares {rule})" if rule else ""))
    to_position, back = found
    return Outcome(NAME, FAILED,
                   f"a position repeats: {return_text(to_position, back)}; declare what a "
                   "repetition means (`repetition: draw`, `loss` or `forbidden`) or a move limit "
                   "(`max_moves: N`) so that every line ends",
                   path_text(game, [*to_position, *back]))


def return_text(to_position, back) -> str:
    """How a line (`to_position` then `back`) repeats a position, in words: "the last 4
    actions return to the initial position" (never "after the first 0 actions")."""
    def actions(n):
        return f"{n} action{'' if n == 1 else 's'}"
    where = "the initial position" if not to_position else \
        f"the position after the first {actions(len(to_position))}"
    return f"the last {actions(len(back))} return to {where}" if len(back) != 1 else \
        f"the last action returns to {where}"


def endless_line(game, seed=0):
    """(actions to a position, actions back to it) when `game` declares no rule for it and a
    position can repeat among the states nearest the start or on a few playouts (chance
    cycles excepted, see `_forced`), else None: what `plyspec solve` checks before an exact
    search that would otherwise never end."""
    if declared_rule(game) or (game.num_players == 1 and game.has_goal):
        return None
    return graph_cycle(game) or playout_cycle(game, seed, playouts=5, plies=500)


def declared_rule(game) -> str | None:
    """The spec's rules on repetition and move counts, as text (None: neither)."""
    spec = getattr(game, "spec", None)
    rules = [f"{key} {rule.result}" for key, rule in
             (("repetition", getattr(spec, "repetition", None)), ("max_moves", getattr(spec, "max_moves", None)))
             if rule is not None]
    return " and ".join(rules) or None


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
