"""Checks of the rule sections after the actions: utilities and what is known of them,
evaluation features, display symbols and symmetries.

`_utility` reads `winner`, per-player `utility`, a single `utility` (zero-sum, or with
`me`) or `goal`, and infers the utility bounds (`bounds`, an interval per expression),
zero sum, constant sum (`constant_sum:` checked against the bounds) and the bound on the
sum of the utilities that max-n's shallow pruning needs.
"""
from __future__ import annotations

import math

from framework import ast
from framework.checker.model import err
from framework.checker.symbols import Scope
from framework.errors import did_you_mean


class RulesMixin:
    """Utilities, evaluation, display, symmetries; a mixin of `Checker` (framework.checker)."""

    def _utility(self):
        spec, out = self.spec, self.out
        n = len(out.players)
        if spec.utility is not None and spec.winner is not None:
            raise err(spec.positions.get("winner"), "give either `utility` or `winner`, not both")
        if spec.winner is not None:
            _, out.winner, out.utility_bounds = self.scoring("winner", spec.winner, "winner")
            out.zero_sum = n == 2
            out.constant_sum = 0 if n == 2 else None
        elif isinstance(spec.utility, dict):
            keys = spec.positions.get("utility_keys", {})
            u = {}
            for name, expr in spec.utility.items():
                if name not in out.players:
                    raise err(keys.get(name, expr.pos), f"`{name}` is not a player",
                              did_you_mean(name, out.players) or "players: " + ", ".join(out.players))
                u[out.players.index(name)] = self.expect(expr, Scope(), "num", f"utility of {name}", where="utility")
            missing = [p for i, p in enumerate(out.players) if i not in u]
            if missing:
                raise err(spec.positions.get("utility"), f"no utility for player {missing[0]}",
                          "give a utility for every player")
            out.utility = ("each", u)
            out.utility_bounds = _join_bounds([self.bounds(e) for e in u.values()])
        elif spec.utility is not None:
            form, e, out.utility_bounds = self.scoring("utility", spec.utility, "utility")
            out.utility, uses_me = (form, e), form == "me"
            out.zero_sum = not uses_me
            out.constant_sum = 0 if not uses_me else None
        elif spec.goal is not None:
            out.utility_bounds = (0, 1)
        else:
            raise err(spec.positions.get("terminal", spec.pos), "missing `utility` or `winner`",
                      "add `winner: EXPRESSION` (a player or none) or `utility:`")
        if spec.utility_bounds is not None:
            lo, hi = spec.utility_bounds
            if lo > hi:
                raise err(spec.positions.get("utility_bounds"), "utility_bounds: low is above high")
            out.utility_bounds = (lo, hi)
        if spec.zero_sum is not None:
            out.zero_sum = spec.zero_sum
            out.constant_sum = 0 if spec.zero_sum else out.constant_sum
        if spec.constant_sum is not None:
            self._declared_constant_sum(spec.constant_sum, n)
        out.max_utility_sum = self._max_utility_sum(n)

    def scoring(self, kind, expr, what):
        """A `winner` (a player or none) or single `utility` (zero-sum, or with `me`)
        expression checked: (form, checked expression, utility bounds), the form `winner`,
        `zero_sum` or `me` (as framework.compiler writes utilities)."""
        n = len(self.out.players)
        if kind == "winner":
            w = self.expect(self.resolve(expr, Scope()), Scope(), "player", what, where="utility", allow_none=True)
            return "winner", w, (-1, 1) if n == 2 else (0, 1)
        uses_me = self.mentions(expr, "me")
        if not uses_me and n != 2:
            raise err(expr.pos, "a single utility without `me` is the first player's "
                      "payoff in a two-player zero-sum game",
                      "use `me` for the player whose payoff it is, or give one per player")
        e = self.expect(expr, Scope(), "num", what, where="utility")
        lo, hi = self.bounds(e)
        return ("me", e, (lo, hi)) if uses_me else ("zero_sum", e, (min(lo, -hi), max(hi, -lo)))

    def _declared_constant_sum(self, total, n):
        """`constant_sum: S`: every terminal state's utilities add up to S."""
        out, pos = self.out, self.spec.positions.get("constant_sum")
        if isinstance(total, bool) or not isinstance(total, (int, float)) or not math.isfinite(total):
            raise err(pos, "constant_sum must be a number", "e.g. constant_sum: 1")
        if out.zero_sum and total != 0:
            raise err(pos, f"a zero-sum game's utilities sum to 0, not {total:g}",
                      "remove `zero_sum` or `constant_sum`")
        lo, hi = out.utility_bounds
        if not n * lo <= total <= n * hi:
            raise err(pos, f"{n} utilities within [{lo:g}, {hi:g}] cannot "
                      f"sum to {total:g}", "check `constant_sum` and `utility_bounds`")
        out.constant_sum = total

    def _max_utility_sum(self, n):
        """An upper bound on the sum of all players' utilities (for max-n shallow pruning):
        the constant sum when there is one; 1 for a `winner` game of 3+ players (one winner
        gets 1, or nobody); else the sum of each player's bound."""
        out = self.out
        if out.constant_sum is not None:
            return out.constant_sum
        if out.winner is not None and n > 2:
            return 1
        if isinstance(out.utility, tuple) and out.utility[0] == "each":
            return min(n * out.utility_bounds[1], sum(self.bounds(e)[1] for e in out.utility[1].values()))
        return n * out.utility_bounds[1]

    def bounds(self, node):
        """Interval of values a checked expression can take (for utility bounds)."""
        t = self.out.types.get(id(node))
        if isinstance(node, ast.Num):
            return (node.value, node.value)
        if isinstance(node, ast.Cond):
            return _join_bounds([self.bounds(node.then), self.bounds(node.else_)])
        if isinstance(node, ast.Unary) and node.op == "-":
            lo, hi = self.bounds(node.operand)
            return (-hi, -lo)
        if isinstance(node, ast.Binary) and node.op in ("+", "-", "*"):
            a, b = self.bounds(node.left), self.bounds(node.right)
            if node.op == "+":
                return (a[0] + b[0], a[1] + b[1])
            if node.op == "-":
                return (a[0] - b[1], a[1] - b[0])
            prods = [x * y for x in a for y in b if not (math.isinf(x) or math.isinf(y))]
            if len(prods) == 4:
                return (min(prods), max(prods))
        if isinstance(node, ast.Call) and node.func in ("count", "size", "moves") and self.out.has_board:
            return (0, self.out.width * self.out.height) if node.func != "moves" else (0, math.inf)
        if isinstance(node, ast.Name):
            kind = self.out.kinds.get(id(node))
            if kind and kind[0] == "var":
                return (kind[1].lo, kind[1].hi)
        if isinstance(node, ast.Index) and self._is_var(node.base):
            var = self.binding(node.base).info
            return (var.lo, var.hi)
        if t == "bool":
            return (0, 1)
        return (-math.inf, math.inf)

    def _evaluation(self):
        for f in self.spec.evaluation:
            per_player = self.mentions(f.value, "me")
            e = self.expect(f.value, Scope(), "num", f"feature `{f.name}`", where="utility")
            if not isinstance(f.weight, (int, float)) or isinstance(f.weight, bool):
                raise err(f.pos, f"weight of feature `{f.name}` must be a number")
            self.out.features.append((f.name, f.weight, e, per_player))

    def _display(self):
        out = self.out
        keys = self.spec.positions.get("display_keys", {})
        for name, symbol in self.spec.display:
            if name not in out.values:
                raise err(keys.get(name, self.spec.positions.get("display")),
                          f"display names `{name}`, which is not a cell value",
                          did_you_mean(name, out.values) or "cell values: " + ", ".join(out.values))
            out.display[name] = symbol

    def _symmetries(self):
        known = ("rotate", "half_turn", "reflect", "all")
        for s in self.spec.symmetries:
            if s not in known:
                raise err(self.spec.positions.get("symmetries"), f"unknown symmetry `{s}`",
                          did_you_mean(s, known) or "symmetries: rotate, half_turn, reflect, all")
        if self.spec.symmetries and not self.out.has_board:
            raise err(self.spec.positions.get("symmetries"), "symmetries need a board")
        if self.spec.symmetries and self.out.graph is not None:
            raise err(self.spec.positions.get("symmetries"), "symmetries need a grid board",
                      "a graph board's rotations and reflections are not known: remove `symmetries`")
        self.out.symmetries = tuple(self.spec.symmetries)


def _join_bounds(bs):
    return (min(b[0] for b in bs), max(b[1] for b in bs))
