"""Recording the tree alpha-beta explores, for teaching: `alphabeta.search(..., trace=TreeTrace())`
or `plyspec solve SPEC --tree FILE`.

The recording holds, per iteration of the search (one when iterative deepening is off;
aspiration re-searches of the root are separate entries), the tree of the nodes searched:

    node:  {"move", "player" (who moves at this node), "window": [alpha, beta], "depth"
            (remaining plies), "value", "bound": "exact" | "lower" | "upper",
            "children": [...], "pruned": moves never searched after a cut-off}
    leaf:  {"move", "kind": "terminal" | "horizon" | "quiescence" | "table", "value"}

A child's "value" and "cutoff" are seen from its parent: the score the parent's mover
compared (negamax), `"cutoff": true` on the move that caused a beta cut-off, and
`"re-searched": true` when principal-variation search had to search a move again with the
full window after the null window failed.  A node's own "window" and "value" are from the
point of view of its own mover.  Moves are written as the game's action text.

The recording is bounded: after `max_nodes` recorded nodes, further nodes are counted but
not kept (`"truncated": true`, `"nodes_seen"`).  Recording costs time, so it is meant for
small searches (tic-tac-toe positions, Connect Four at low depths).
"""
from __future__ import annotations

import json
import math

_BOUND = {0: "exact", 1: "lower", 2: "upper"}       # tt.EXACT, LOWER, UPPER


class TreeTrace:
    """Collects the explored tree through the hooks alpha-beta calls."""

    def __init__(self, max_nodes: int = 2000):
        if max_nodes < 1:
            raise ValueError("a tree recording needs room for at least one node")
        self.max_nodes = max_nodes
        self.kept = 0
        self.seen = 0
        self.iterations: list = []        # [{"depth", "tree"}] roots in search order
        self._stack: list = []            # open node frames (None once over the limit)
        self._closed = None               # frame of the node searched last
        self.game = None

    # --- hooks called by alpha-beta -----------------------------------------------
    def open(self, state, alpha, beta, remaining) -> None:
        """A node's search starts (after a table miss)."""
        frame = None
        if self._keep():
            frame = {"player": state.player(), "window": [alpha, beta],
                     "depth": remaining, "children": [], "searched": 0}
        self._stack.append(frame)

    def answered(self, value) -> None:
        """A node was answered by the transposition table without a search."""
        self._closed = {"kind": "table", "value": value} if self._keep() else None

    def close(self, value, flag, moves) -> None:
        """The node opened last is done: its value, bound flag and number of moves."""
        frame = self._stack.pop()
        if frame is not None:
            frame["value"] = value
            frame["bound"] = _BOUND[flag]
            pruned = moves - frame.pop("searched")
            if pruned:
                frame["pruned"] = pruned
            if not self._stack:                  # a root: one iteration's tree
                self.iterations.append({"depth": frame["depth"], "tree": frame})
        self._closed = frame

    def child(self, action, score, kind, cutoff=False, researched=False) -> None:
        """The node opened last scored a child: `kind` is "node" (searched: the frame closed
        last) or a leaf kind; `score` is from the node's mover's point of view."""
        parent = self._stack[-1] if self._stack else None
        if parent is None:
            return
        parent["searched"] += 1
        if kind == "node":
            record = self._closed
            if record is None:
                return
        elif self._keep():
            record = {"kind": kind}
        else:
            return
        record["move"] = action
        record["score"] = score
        if cutoff:
            record["cutoff"] = True
        if researched:
            record["re-searched"] = True
        parent["children"].append(record)

    def _keep(self) -> bool:
        self.seen += 1
        if self.kept >= self.max_nodes:
            return False
        self.kept += 1
        return True

    # --- output -------------------------------------------------------------------------
    def to_dict(self, game) -> dict:
        names = game.player_names

        def convert(record):
            out = {}
            if "move" in record:
                out["move"] = game.action_text(record["move"])
            for key, value in record.items():
                if key in ("move", "children"):
                    continue
                if key == "player":
                    value = names[value]
                out[key] = _finite(value)
            if "children" in record:
                out["children"] = [convert(child) for child in record["children"]]
            return out

        return {"format": "plyspec-tree/1", "game": game.name, "options": game.options,
                "max_nodes": self.max_nodes, "nodes_seen": self.seen,
                "truncated": self.seen > self.kept,
                "iterations": [{"depth": _finite(it["depth"]), "tree": convert(it["tree"])}
                               for it in self.iterations]}

    def to_text(self, game) -> str:
        data = self.to_dict(game)
        lines = [f"{data['game']}: {len(data['iterations'])} root search(es)"
                 + (f", recording truncated after {data['max_nodes']:,} nodes"
                    if data["truncated"] else "")]
        for iteration in data["iterations"]:
            lines.append("")
            lines.append(f"iteration to depth {iteration['depth']}")
            _text(iteration["tree"], lines, "  ")
        return "\n".join(lines) + "\n"

    def write(self, path, game, *, force: bool = True) -> None:
        """Write the recording (atomically): JSON when `path` ends in .json, else indented text."""
        from framework.files import write_atomic
        text = json.dumps(self.to_dict(game), indent=1) + "\n" if str(path).endswith(".json") else self.to_text(game)
        write_atomic(path, text, force=force)


def _text(record, lines, indent) -> None:
    head = record.get("move", "root")
    if "score" in record:
        head += f" = {_number(record['score'])}"
    if "kind" in record:
        head += f"  ({record['kind']})"
    else:
        alpha, beta = record["window"]
        head += (f"  [{record['player']} to move, window {_number(alpha)}..{_number(beta)}, "
                 f"depth {record['depth']}: {_number(record['value'])} {record['bound']}]")
    if record.get("re-searched"):
        head += "  re-searched"
    if record.get("cutoff"):
        head += "  CUT-OFF"
    lines.append(indent + head)
    for child in record.get("children", ()):
        _text(child, lines, indent + "  ")
    if record.get("pruned"):
        lines.append(f"{indent}  ... {record['pruned']} move(s) pruned")


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def _number(value) -> str:
    if isinstance(value, str):
        return value
    if value and abs(value) < 1e-300:     # the edge of a null window next to 0
        return "+eps" if value > 0 else "-eps"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return f"{value:g}" if isinstance(value, float) else str(value)
