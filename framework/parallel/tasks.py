"""The task functions workers run, and what travels to them.

A spec travels as a `Spec` payload: its text, format and file name (plain data, so a Ray
cluster needs no shared file system).  A worker compiles each (text, options) once and keeps
the game by the hash of both (`game_of`).  Every task takes and returns plain data.
"""
from __future__ import annotations

import hashlib
import json
import random

_GAMES: dict = {}


def spec_payload(path) -> dict:
    """What a worker needs to compile the spec at `path` (or the shipped spec it names)."""
    from framework.conformance.discover import resolve
    from framework.loader import read_text, spec_format
    path = resolve(path)
    return {"text": read_text(path), "fmt": spec_format(path), "file": str(path)}


def game_of(spec: dict, options: dict):
    """The compiled game of a payload (cached per worker by the hash of text and options)."""
    key = hashlib.sha256(json.dumps([spec["text"], spec["fmt"], options], sort_keys=True,
                                    default=str).encode()).hexdigest()
    game = _GAMES.get(key)
    if game is None:
        from framework.loader import load_text
        game = _GAMES[key] = load_text(spec["text"], spec["fmt"], spec["file"], **options)
    return game


def _replay(game, texts):
    state = game.initial_state()
    for text in texts:
        state = state.result(game.parse_action(state, text))
    return state


def play_game(spec, options, agent_texts, index, seed, max_plies, move_time) -> dict:
    """Game `index` of a match between `agent_texts` (seats rotated by index), exactly as
    `framework.match.run_match` plays it."""
    from framework.agents import parse_agent
    from framework.match import play_indexed_game
    game = game_of(spec, options)
    agents = [parse_agent(text, game) for text in agent_texts]
    record = play_indexed_game(game, agents, index, seed=seed, max_plies=max_plies, move_time=move_time)
    return {"index": index, "seats": list(record.seats),
            "returns": None if record.returns is None else list(record.returns),
            "plies": record.plies, "thinking": record.thinking, "moves": record.moves}


def perft_below(spec, options, moves, depth) -> list:
    """Perft counts 1..depth below the position reached by the action texts `moves`."""
    from framework.perft import perft
    game = game_of(spec, options)
    return perft(_replay(game, moves), depth)


def solve_move(spec, options, move, algo, search_options, bound=None) -> dict:
    """The value, for the player to move at the root, of the root move `move` (the value
    of the position it leads to, searched by `algo` with `search_options`).

    With `bound` (alpha-beta on a two-player zero-sum game: the best value another root
    move is known to reach), only values above it are computed exactly; a value <= bound
    is an upper bound ("upper": True), enough to know the move is not better."""
    from framework.search.registry import searcher
    game = game_of(spec, options)
    root = game.initial_state()
    child = root.result(game.parse_action(root, move))
    mover = root.player()
    if child.terminal_test():
        return {"move": move, "value": child.returns()[mover], "values": list(child.returns()), "nodes": 1,
                "exact": True}
    if bound is not None:
        inf = float("inf")
        same = child.player() == mover
        search_options = {**search_options, "window": (bound, inf) if same else (-inf, -bound)}
    result = searcher(algo)(game, child, **search_options)
    values = getattr(result, "values", None)
    if values is not None:
        value = values[mover]
    elif child.player() == mover or child.is_chance():
        value = result.value
    elif game.zero_sum:                    # two players, zero-sum: the opponent's value negated
        value = -result.value
    else:
        raise ValueError(f"{algo} gives no value per player on this game: solve it without --workers")
    s = result.stats
    out = {"move": move, "value": value, "nodes": s.nodes, "expanded": s.expanded, "evaluations": s.evaluations,
           "cutoffs": s.cutoffs, "tt_hits": s.tt_hits, "depth": s.depth,
           "exact": bool(getattr(result, "complete", True)), "pv": [game.action_text(a) for a in result.pv]}
    if values is not None:
        out["values"] = list(values)
    elif game.zero_sum and game.num_players == 2:
        out["values"] = [value if p == mover else -value for p in range(2)]
    if bound is not None and value <= bound:
        out["upper"] = True
    return out


def spec_bundle(path) -> dict:
    """The files a conformance run of `path` reads, as {relative name: text}: the spec, its
    versions in the other syntaxes (same stem) and its golden perft file."""
    from pathlib import Path
    from framework.conformance.discover import SPEC_SUFFIXES
    from framework.conformance.golden import golden_path
    from framework.loader import read_text
    path = Path(path)
    files = {path.name: read_text(path)}
    for sibling in path.parent.glob(path.stem + ".*"):
        if sibling.suffix.lower() in SPEC_SUFFIXES and sibling.is_file():
            files[sibling.name] = read_text(sibling)
    gold = golden_path(path)
    if gold.is_file():
        files[f"golden/{gold.name}"] = read_text(gold, what="golden file")
    return files


def check_bundle(files, main, shown, options, examples, seed, max_length) -> dict:
    """The conformance report (as JSON) of `main` among `files` (see `spec_bundle`), written
    into a private temporary folder first, so the worker needs no access to the caller's
    files; `shown` is the name the report gives the spec."""
    import os
    import tempfile
    from framework.conformance import check_spec
    with tempfile.TemporaryDirectory(prefix="plyspec-test-") as folder:
        for name, text in files.items():
            target = os.path.join(folder, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as f:
                f.write(text)
        report = check_spec(os.path.join(folder, main), options=options, examples=examples,
                            seed=seed, max_length=max_length)
        data = report.to_json()
    data["spec"] = shown
    return data


def rng_for(seed, *keys) -> random.Random:
    return random.Random("/".join(str(k) for k in (seed, *keys)))


def perft_frontier(game, ply: int):
    """The positions exactly `ply` plies below the start, each once: ([(action texts of one
    path to it, number of paths)], counts at plies 1..ply).  Terminal positions before or at
    `ply` are counted and not kept; identical positions reached by different paths are
    searched once and their counts multiplied (perft counts paths)."""
    from framework.game import unchecked
    level = {game.initial_state(): ((), 1)}
    counts = []
    for _ in range(ply):
        following = {}
        total = 0
        for state, (path, paths) in level.items():
            if state.terminal_test():
                continue
            for action in state.actions():
                child = unchecked(type(state), "result")(state, action)    # a legal action
                total += paths
                if child in following:
                    following[child] = (following[child][0], following[child][1] + paths)
                else:
                    following[child] = (path + (game.action_text(action),), paths)
        counts.append(total)
        level = following
    return [entry for state, entry in level.items() if not state.terminal_test()], counts
