"""Retrograde analysis: the exact win / draw / loss value of a two-player deterministic game
whose positions may repeat, by working backwards over the whole graph of positions.

The positions reachable from the root are enumerated (breadth-first), each once, with its
moves.  Then, for each player, its attractor is computed backwards from the terminal
positions it wins: a position is won for P when P is to move and some move reaches a
position won for P, or the other player is to move and every move does.  A position in
neither attractor is a draw: both players can keep the other from winning, by reaching a
drawn terminal position or by playing for ever.  So a line that never ends counts as a
draw, which is what the graph-history interaction needs:

- with `repetition: draw` (any count) the value of a position whose history holds only
  itself (the initial state) is exactly this value.  The winner's strategy (always move
  to a position won in fewer moves) never meets a position twice, so the rule never stops
  it; and a player who can hold a draw never enters a position the other wins, so no rule
  can make that player lose.  The history in the states is then dropped (the graph is that
  of the positions, a few thousand where the tree of histories is astronomically larger);
  from a state whose history holds other positions the search is refused, since a win may
  need to pass a position the history has already used up;
- without a rule (`--algo retrograde` asked for by name) the answer is the value of the
  game in which endless play is a draw, the usual convention;
- with `loss`, `forbidden`, a scored result, `over` or `max_moves`, the history changes the game and the
  search is refused (alpha-beta searches the states, history included).

Utilities must be a win (+1), a draw (0) or a loss (-1).  The best action at a won
position is a move to the position won soonest (the line of play is then the shortest
win); at a drawn position a move that keeps the draw; at a lost one the longest defence.
`node_limit` bounds the positions enumerated, `time_limit` the time; either, or Ctrl-C,
ends the search with `complete=False`, no value and the first legal move.  Memory: each
position is kept with its moves (a few hundred bytes), so millions of positions take GBs.
"""
from __future__ import annotations

from collections import deque

from framework.search.result import Budget, BudgetExceeded, Result, Stats
from framework.game import unchecked
from framework.search.twoplayer import fallback_action, per_player_values

NAME = "retrograde"
PROGRESS_EVERY = 100_000            # positions between progress reports


def search(game, state=None, *, time_limit=None, node_limit=None, progress=None) -> Result:
    """The win / draw / loss value of `state` (default: the initial state) for its mover."""
    game.require(players=2, chance=False, algorithm=NAME)
    root = game.initial_state() if state is None else state
    position = _position_of(game, root)
    budget = Budget(time_limit, node_limit)
    try:
        graph = _enumerate(position(root), budget, progress)
    except (BudgetExceeded, KeyboardInterrupt) as stop:
        return Result(NAME, best_action=fallback_action(root), complete=False,
                      stats=Stats(nodes=budget.nodes, time_s=budget.elapsed()),
                      extra={"interrupted": True} if isinstance(stop, KeyboardInterrupt) else {})
    nodes, index = graph
    ranks = [_attractor(nodes, player) for player in (0, 1)]
    root_node = index[position(root)]
    mover = root.player()
    value = _value(ranks, root_node, mover)
    pv = _line(nodes, ranks, root_node)
    stats = Stats(nodes=len(nodes), expanded=sum(1 for n in nodes if n[2]), time_s=budget.elapsed())
    return Result(NAME, value=value, values=per_player_values(game, mover, value),
                  best_action=pv[0] if pv else None, pv=pv, stats=stats,
                  extra={"positions": len(nodes)})


def _position_of(game, root):
    """The key of a state in the graph: the position alone under `repetition: draw`."""
    spec = getattr(game, "spec", None)
    repetition, limit = getattr(spec, "repetition", None), getattr(spec, "max_moves", None)
    if repetition is None and limit is None:
        return lambda s: s
    if limit is not None or repetition.result != "draw" or repetition.over:
        rule = "move limit" if limit is not None else "repetition rule " + repr(repetition.result) + \
            (" over part of the state" if repetition.over else "")
        raise ValueError(f"{NAME} cannot search {game.name!r}: its {rule} "
                         "makes the history part of the game; use alphabeta")
    if len(root[1]) != 1:
        raise ValueError(f"{NAME} gives the value of a position without history; this state has "
                         f"{len(root[1])} earlier positions: use alphabeta")
    return lambda s: s[0]


def _enumerate(start, budget, progress):
    """(nodes, index): every position reachable from `start`, each as [state, mover,
    [(action, child index)], value for player 0 when terminal]."""
    index = {start: 0}
    nodes = [[start, start.player(), [], None]]
    result = unchecked(type(start), "result")
    queue = deque([0])
    while queue:
        node = nodes[queue.popleft()]
        state = node[0]
        budget.tick()
        if state.terminal_test():
            node[3] = state.utility(0)
            if node[3] not in (-1, 0, 1):
                raise ValueError(f"{NAME} needs utilities of +1, 0 or -1 (a win, a draw, a loss); "
                                 f"a terminal state has {node[3]}")
            continue
        for action in state.actions():
            child = result(state, action)
            k = index.get(child)
            if k is None:
                k = index[child] = len(nodes)
                nodes.append([child, child.player(), [], None])
                queue.append(k)
            node[2].append((action, k))
        if progress is not None and len(nodes) % PROGRESS_EVERY < len(node[2]):
            progress(Stats(nodes=len(nodes), time_s=budget.elapsed()))
    return nodes, index


def _attractor(nodes, player) -> list:
    """rank[i]: the number of moves within which `player` forces a win from node i (None:
    not a forced win)."""
    won = 1 if player == 0 else -1
    parents = [[] for _ in nodes]
    left = [len(n[2]) for n in nodes]             # moves of the other player not yet known won
    for i, node in enumerate(nodes):
        for _, k in node[2]:
            parents[k].append(i)
    rank = [None] * len(nodes)
    frontier = [i for i, n in enumerate(nodes) if n[3] == won]
    for i in frontier:
        rank[i] = 0
    step = 0
    while frontier:
        step += 1
        later = []
        for k in frontier:
            for i in parents[k]:
                if rank[i] is not None:
                    continue
                if nodes[i][1] == player:
                    rank[i] = step
                    later.append(i)
                else:
                    left[i] -= 1
                    if left[i] == 0:
                        rank[i] = step
                        later.append(i)
        frontier = later
    return rank


def _value(ranks, i, mover) -> int:
    if ranks[mover][i] is not None:
        return 1
    return -1 if ranks[1 - mover][i] is not None else 0


def _line(nodes, ranks, i) -> list:
    """The principal line from node i: the fastest win, the longest defence, or a move
    that keeps the draw, until the end or a position met again."""
    line, seen = [], {i}
    while nodes[i][2]:
        mover = nodes[i][1]
        mine, theirs = ranks[mover], ranks[1 - mover]
        moves = nodes[i][2]
        if mine[i] is not None:
            action, k = min((m for m in moves if mine[m[1]] is not None), key=lambda m: mine[m[1]])
        elif theirs[i] is not None:
            action, k = max(moves, key=lambda m: theirs[m[1]])
        else:
            action, k = next(m for m in moves if theirs[m[1]] is None)
        line.append(action)
        if k in seen:
            break
        seen.add(k)
        i = k
    return line
