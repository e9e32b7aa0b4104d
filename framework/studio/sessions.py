"""A game being played in the studio: its states from the start, the move list, and the
view the page draws (board, variables, legal actions with the cells they name, chance
outcomes with their probabilities, the returns at the end).

Moves come from the page (an action's index or text), from a chance draw, or from an
agent (`framework.agents`: `random`, `alphabeta:depth=6`, ...) searching in a child process
(`jobs.forked`); the agent's value, depth, nodes and principal variation go into the move
list.  Search trees for the teaching view are `framework.search.lecture_tree.trace`, the
tree `plyspec tree` draws.
"""
from __future__ import annotations

import itertools
import math
import random
import threading

from framework.errors import SpecError
from framework.history import position

MAX_SESSIONS = 100            # the oldest session is forgotten past this
MAX_ACTIONS_SHOWN = 5_000     # legal actions sent to the page (more are counted, not listed)
MAX_PLIES = 10_000


class Conflict(Exception):
    """The request does not fit the session's state (a move at the end, a stale answer)."""


def _number(v):
    """A value for JSON: ±inf as the strings "inf" / "-inf", whole floats as ints."""
    if v is None:
        return None
    if isinstance(v, float):
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        if math.isnan(v):
            return None
        return int(v) if v.is_integer() else round(v, 6)
    return v


class Session:
    def __init__(self, game, source: dict, seed: int = 0):
        self.id = f"s{next(_ids)}"
        self.game, self.source = game, source
        self.states = [game.initial_state()]
        self.moves = []                      # {ply, player, text, by, search}
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        from framework import ast
        from framework.lint import names_in     # a spec that walks the `hex` directions is drawn as
        self.shear = 0.5 if game.spec is not None and any(      # a rhombus: each row half a cell on
            isinstance(n, ast.Name) and n.id == "hex" for n in names_in(game.spec)) else 0

    @property
    def state(self):
        return self.states[-1]

    # -- moves -------------------------------------------------------------------------
    def play(self, *, index=None, text=None, by="human", search=None, expect_ply=None) -> None:
        """Play the legal action (or, at a chance node, the outcome) given by its index in
        the view's list or by its text."""
        with self.lock:
            if expect_ply is not None and expect_ply != len(self.moves):
                raise Conflict("the game moved on while the agent was thinking; ask again")
            state, game = self.state, self.game
            if state.terminal_test():
                raise Conflict("the game is over")
            if len(self.moves) >= MAX_PLIES:
                raise Conflict(f"the game has reached {MAX_PLIES:,} plies")
            if state.is_chance():
                outcomes = state.chance_outcomes()
                if index is None and text is None:
                    from framework.match import draw_chance
                    chosen = draw_chance(state, self.rng)
                else:
                    texts = [game.outcome_text(state, o) for o, _ in outcomes]
                    chosen = outcomes[_pick(index, text, texts)][0]
                move_text, player, by = game.outcome_text(state, chosen), "chance", "chance"
                search = {"probability": float(dict(outcomes)[chosen])}
            else:
                actions = state.actions()
                if index is None and text is not None:
                    chosen = game.parse_action(state, text)
                else:
                    chosen = actions[_pick(index, None, actions)]
                move_text, player = game.action_text(chosen), game.player_names[state.player()]
            self.states.append(state.result(chosen))
            self.moves.append({"ply": len(self.moves) + 1, "player": player, "text": move_text,
                               "by": by, "search": search})

    def undo(self, plies: int) -> None:
        with self.lock:
            if not isinstance(plies, int) or isinstance(plies, bool) or plies < 1:
                raise ValueError("plies must be a whole number of at least 1")
            if plies > len(self.moves):
                raise Conflict(f"only {len(self.moves)} plies to take back")
            del self.states[-plies:]
            del self.moves[-plies:]

    # -- what the page draws -----------------------------------------------------------
    def view(self) -> dict:
        game, state = self.game, self.state
        inner = position(state)
        terminal = state.terminal_test()
        view = {"id": self.id, "source": self.source, "game": _describe(game), "ply": len(self.moves),
                "moves": self.moves, "terminal": terminal, "text": str(state),
                "board": game.view.board(inner) if game.view else None,
                "variables": game.view.variable_texts(inner) if game.view else [],
                "to_move": None, "chance": None, "actions": [], "actions_total": 0,
                "returns": None, "result": None}
        if view["board"] is not None:
            view["board"]["shear"] = self.shear
        if terminal:
            returns = list(state.returns())
            view["returns"] = [_number(r) for r in returns]
            best = [p for p, r in zip(game.player_names, returns) if r == max(returns)]
            view["result"] = ("draw" if len(best) > 1 else f"{best[0]} wins") if len(returns) > 1 else \
                f"the end: {_number(returns[0])}"
        elif state.is_chance():
            view["to_move"] = "chance"
            view["chance"] = [{"index": i, "text": game.outcome_text(state, o), "probability": float(p)}
                              for i, (o, p) in enumerate(state.chance_outcomes())]
        else:
            view["to_move"] = game.player_names[state.player()]
            actions = state.actions()
            view["actions_total"] = len(actions)
            cells = game.view.action_cells if game.view else (lambda a: [])
            view["actions"] = [{"index": i, "text": game.action_text(a), "cells": [list(c) for c in cells(a)],
                                "column": a if type(a) is int else None}
                               for i, a in enumerate(actions[:MAX_ACTIONS_SHOWN])]
        return view


def _pick(index, text, items) -> int:
    if text is not None:
        if text not in items:
            raise SpecError(f"`{text}` is not a chance outcome here", hint="outcomes: " + ", ".join(items))
        return items.index(text)
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(items):
        raise ValueError(f"index must be a whole number from 0 to {len(items) - 1}")
    return index


def _describe(game) -> dict:
    d = game.describe()
    bounds = [_number(float(b)) for b in d["utility_bounds"]]
    return {"name": d["name"], "players": d["players"], "chance": d["chance"], "zero_sum": d["zero_sum"],
            "options": d["options"], "utility_bounds": bounds, "has_evaluation": d["has_evaluation"]}


_ids = itertools.count(1)
_sessions: dict = {}


def add(session: Session) -> Session:
    _sessions[session.id] = session
    while len(_sessions) > MAX_SESSIONS:
        del _sessions[next(iter(_sessions))]
    return session


def get(session_id: str) -> Session | None:
    return _sessions.get(session_id)


# -- work done in a child process (jobs.forked) -------------------------------------------
def agent_move(game, state, agent, seconds: float, node_cap: int) -> dict:
    """The move `agent` (framework.agents.Agent) chooses in `state`, with what its search
    found; a searcher stops after `seconds` and `node_cap` nodes at most."""
    if agent.name not in ("random", "first"):
        agent.options["time_limit"] = seconds
        agent.options["node_limit"] = min(agent.options.get("node_limit", node_cap), node_cap)
    actions = state.actions()
    action = agent.choose(game, state)
    found = {"index": actions.index(action), "text": game.action_text(action), "agent": agent.text}
    last = agent.last
    if last is not None:
        found.update(value=_number(last.value), depth=last.stats.depth, nodes=last.stats.nodes,
                     time_s=round(last.stats.time_s, 3), complete=last.complete,
                     pv=_pv_text(game, state, last.pv))
    return found


def _pv_text(game, state, pv) -> list:
    """The principal variation as action texts (chance outcomes as outcome texts)."""
    out = []
    for a in pv:
        if state.terminal_test():
            break
        try:
            out.append(game.outcome_text(state, a) if state.is_chance() else game.action_text(a))
            state = state.result(a)
        except Exception:              # a PV that does not replay (a table's move): cut it there
            break
    return out


def tree(game, state, algorithm: str, depth, max_nodes: int) -> dict:
    """The lecture tree of `algorithm` from `state` as nested JSON, with each node's entry and
    exit step (a depth-first walk: a node is entered, its children are searched, then its
    value is final and its cut-offs known) and the totals the page shows."""
    from framework.search.lecture_tree import TreeTooBig, trace
    try:
        root = trace(game, state, depth=depth, algorithm=algorithm, max_nodes=max_nodes)
    except TreeTooBig as err:
        raise ValueError(f"{err}") from None
    step = itertools.count()
    totals = {"nodes": 0, "pruned": 0, "cutoffs": 0}

    def walk(node):
        totals["nodes"] += 1
        totals["pruned"] += len(node.pruned)
        totals["cutoffs"] += bool(node.pruned)
        entry = {"action": None if node.action is None else game.action_text(node.action),
                 "player": game.player_names[node.player] if node.player >= 0 else "chance",
                 "max": node.maximizing, "kind": node.kind, "value": _number(node.value),
                 "alpha": _number(node.alpha), "beta": _number(node.beta), "enter": next(step)}
        entry["children"] = [walk(child) for child in node.children]
        entry["pruned"] = [game.action_text(a) for a in node.pruned]
        entry["exit"] = next(step)
        return entry

    out = walk(root)
    pv, node = [], root        # the principal variation: the child whose value is the node's
    while node.children:
        node = next((c for c in node.children if c.value == node.value), node.children[0])
        pv.append(game.action_text(node.action))
    return {"root": out, "steps": next(step), "pv": pv, "algorithm": algorithm, "depth": depth, **totals}
