"""Type checking of what applies to something: indexing, builtin calls and domains.

`_index` (the board by a cell, a list by a number, a per-player variable by a player),
`_call` (a builtin against its signature from the registry, framework.builtins, with the
special cases of min/max, count and opponent), `domain` (what may follow `in`: `cell`,
`player`, an enumeration, a range or a set of cells) and `domain_size` (a range's size,
within `MAX_DOMAIN`).
"""
from __future__ import annotations

from framework import ast
from framework.checker.constants import NotConstant
from framework.checker.model import BUILTINS, MAX_DOMAIN, NUMERIC, STATE_QUERIES, describe, err
from framework.checker.graph import graph_only_error
from framework.errors import did_you_mean


class CallsMixin:
    """Indexing, calls and domains; a mixin of `Checker` (framework.checker)."""

    def _is_var(self, node) -> bool:
        sym = self.binding(node) if isinstance(node, ast.Name) else None
        return sym is not None and sym.kind == "var"

    def _index(self, node, scope, where):
        base = node.base
        if isinstance(base, ast.Name) and base.id == "board" and not self.is_local(base):
            if not self.out.has_board:
                raise err(base.pos, "this spec has no board")
            self.type(base, scope, where)
            t = self.type(node.index, scope, where)
            if t != "cell":
                raise err(node.index.pos, f"the board is indexed by a cell, not {describe(t)}",
                          "write board[c] with c a cell or (column, row)")
            return "value"
        bt = self.type(base, scope, where)
        is_var = self._is_var(base)
        if bt == "list" and not is_var:
            if self.type(node.index, scope, where) != "int":
                raise err(node.index.pos, "a list is indexed by a whole number")
            return "int"
        if not is_var or bt not in ("array", "list"):
            raise err(node.pos, f"{describe(bt)} cannot be indexed",
                      "only the board, lists and per-player variables take [ ]")
        var = self.binding(base).info
        it = self.type(node.index, scope, where)
        want = "player" if var.per_player else "int"
        if it != want:
            raise err(node.index.pos, f"`{var.name}` is indexed by {describe(want)}, not {describe(it)}")
        if want == "int" and isinstance(node.index, ast.Num) and not 0 <= node.index.value < var.size:
            raise err(node.index.pos, f"index {node.index.value} is out of range 0..{var.size - 1} of `{var.name}`")
        return var.type

    def _call(self, node, scope, where):
        name = node.func
        if name not in BUILTINS:
            raise err(node.pos, f"unknown function `{name}`",
                      did_you_mean(name, list(BUILTINS) + list(self.defines)))
        graph_only_error(self.out, node)
        if name in STATE_QUERIES and where in ("action", "turn", "effects"):
            raise err(node.pos, f"`{name}` cannot be used in actions or the turn rule",
                      "it is for terminal tests, utilities and evaluation")
        args = node.args
        types = [self.type(a, scope, where) for a in args]
        if name in ("min", "max"):
            if len(args) == 1 and types[0] == "list":
                return "int"
            if len(args) < 2:
                raise err(node.pos, f"`{name}` needs at least two numbers (or one list)")
            for a, t in zip(args, types):
                if t not in NUMERIC:
                    raise err(a.pos, f"`{name}` takes numbers, not {describe(t)}")
            return "num" if "num" in types else "int"
        if name == "count" and len(args) == 1 and types[0] == "cellset":
            raise err(node.pos, "count of a set is written `size(S)`", "write size(...)")
        sig, result = BUILTINS[name]
        if not self.out.has_board and ({"board", "cell"} & set(sig) or result in ("cell", "cellset")):
            raise err(node.pos, f"`{name}` needs a board", "declare `board:` first")
        if len(args) != len(sig):
            raise err(node.pos, f"`{name}` takes {len(sig)} argument(s), got {len(args)}",
                      f"{name}({', '.join(sig)})")
        if name == "opponent" and len(self.out.players) != 2:
            raise err(node.pos, "`opponent` needs a two-player game", "use next(p)")
        if name == "region" and types[0] in ("cell", "none"):
            sig = ("cell",) + sig[1:]                # the region from one cell
        for a, t, want in zip(args, types, sig):
            if want == "*":
                if t not in NUMERIC:
                    raise err(a.pos, f"`{name}` takes a number, not {describe(t)}")
                continue
            if not self.compatible(t, want):
                raise err(a.pos, f"argument of `{name}` must be {describe(want)}, not {describe(t)}",
                          f"{name}({', '.join(sig)})")
        if name == "line" and isinstance(args[1], ast.Num) and args[1].value < 1:
            raise err(args[1].pos, "a line needs at least one cell")
        return types[0] if result == "*" else result

    def domain(self, node, scope, what, where="action"):
        """(checked domain expression, element type)."""
        node = self.resolve(node, scope)
        if isinstance(node, ast.Name) and not self.is_local(node):
            if node.id == "cell":
                if not self.out.has_board:
                    raise err(node.pos, "`cell` needs a board", "declare `board:` first")
                return node, "cell"
            if node.id == "player":
                return node, "player"
            if self._is_var(node) and self.binding(node).info.type.startswith("enum:"):
                return node, self.binding(node).info.type
        if isinstance(node, ast.Range):
            for side in (node.lo, node.hi):
                t = self.type(side, scope, where)
                if t != "int":
                    raise err(side.pos, f"range bounds must be whole numbers, not {describe(t)}")
            return node, "int"
        t = self.type(node, scope, where)
        if t == "cellset":
            return node, "cell"
        raise err(node.pos, f"{what} must be `cell`, `player`, an enumeration, a range a..b "
                  f"or a set of cells, not {describe(t)}")

    def domain_size(self, domain, t):
        if isinstance(domain, ast.Range):
            try:
                lo, hi = self.fold(domain.lo), self.fold(domain.hi)
            except NotConstant:
                return None
            if hi - lo + 1 > MAX_DOMAIN:
                raise err(domain.pos, f"domain {lo}..{hi} is too large (at most {MAX_DOMAIN} values)")
            return max(0, hi - lo + 1)
        return None
