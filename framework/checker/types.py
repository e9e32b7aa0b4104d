"""Type checking of expressions: every node's type, recorded in `Checked.types`.

`expect(node, scope, want, what)` resolves an expression (framework.checker.symbols) and
demands a type; `type(node, scope, where)` computes and records one.  A name's type comes
from the symbol it is bound to (and its resolution is recorded in `Checked.kinds` for the
compiler); `where` says which rule an expression sits in (`me` only in utilities, state
queries not in actions).  Calls are checked against the builtin signatures, domains
(`x in D`) by `domain`/`domain_size`.
"""
from __future__ import annotations

from framework import ast
from framework.checker.model import NUMERIC, check_name, describe, err


class TypesMixin:
    """Expression types; a mixin of `Checker` (framework.checker)."""

    def expect(self, node, scope, want, what, where="any", allow_none=False):
        node = self.resolve(node, scope)
        t = self.type(node, scope, where)
        if not self.compatible(t, want, allow_none):
            raise err(node.pos, f"{what} must be {describe(want)}, not {describe(t)}",
                      self._mismatch_hint(t, want))
        return node

    def _mismatch_hint(self, got, want):
        if want == "bool" and got in NUMERIC:
            return "compare it, e.g. `x > 0`"
        if want == "player" and got == "value":
            return "cell values that are not players cannot stand for a player"
        return None

    def compatible(self, got, want, allow_none=False):
        if got == want:
            return True
        if want == "num" and got == "int":
            return True
        if got == "none" and (want in ("cell",) or (want == "player" and allow_none)):
            return True
        if want == "value" and got == "player":
            return self._players_are_values()
        return False

    def _players_are_values(self):
        return bool(self.out.values) and all(p in self.out.values for p in self.out.players)

    def type(self, node, scope, where) -> str:
        t = self._type(node, scope, where)
        self.out.types[id(node)] = t
        return t

    def _type(self, node, scope, where):
        if isinstance(node, ast.Num):
            return "int" if isinstance(node.value, int) else "num"
        if isinstance(node, ast.Name):
            return self._name(node, where)
        if isinstance(node, ast.TupleExpr):
            if not self.out.has_board:
                raise err(node.pos, "a cell (x, y) needs a board")
            if self.out.graph is not None:
                raise err(node.pos, "a graph board has no cells (x, y)", "name a point: "
                          + ", ".join(self.out.graph.points[:3]) + (" ..." if len(self.out.graph.points) > 3 else ""))
            if len(node.items) != 2:
                raise err(node.pos, f"a cell has two coordinates (column, row), not {len(node.items)}")
            for item in node.items:
                if self.type(item, scope, where) != "int":
                    raise err(item.pos, "cell coordinates must be whole numbers")
            if all(isinstance(i, ast.Num) for i in node.items):
                x, y = (i.value for i in node.items)
                if not (0 <= x < self.out.width and 0 <= y < self.out.height):
                    raise err(node.pos, f"cell ({x}, {y}) is off the {self.out.width}x{self.out.height} board",
                              f"columns 0..{self.out.width - 1}, rows 0..{self.out.height - 1}")
            return "cell"
        if isinstance(node, ast.ListExpr):
            for item in node.items:
                if self.type(item, scope, where) != "int":
                    raise err(item.pos, "list elements must be whole numbers")
            return "list"
        if isinstance(node, ast.Unary):
            t = self.type(node.operand, scope, where)
            if node.op == "not":
                if t != "bool":
                    raise err(node.pos, f"`not` needs a condition, not {describe(t)}")
                return "bool"
            if t not in NUMERIC:
                raise err(node.pos, f"`-` needs a number, not {describe(t)}")
            return t
        if isinstance(node, ast.Binary):
            return self._binary(node, scope, where)
        if isinstance(node, ast.Cond):
            tt = self.type(node.test, scope, where)
            if tt != "bool":
                raise err(node.test.pos, f"the condition after `if` must be a condition, not {describe(tt)}")
            a, b = self.type(node.then, scope, where), self.type(node.else_, scope, where)
            joined = self._join(a, b)
            if joined is None:
                raise err(node.pos, f"the two branches differ: {describe(a)} and {describe(b)}",
                          "both sides of `if ... else` must have the same type")
            return joined
        if isinstance(node, ast.Index):
            return self._index(node, scope, where)
        if isinstance(node, ast.Quant):
            return self._quant(node, scope, where)
        if isinstance(node, ast.Call):
            return self._call(node, scope, where)
        if isinstance(node, ast.Range):
            raise err(node.pos, "a range `a..b` can only be a domain", "use it after `in`")
        raise err(getattr(node, "pos", None), "unsupported expression")

    def _quant(self, node, scope, where):
        sym = self.binders[id(node)]
        domain, t = self.domain(node.domain, scope, f"`{node.kind}` domain", where)
        self.domain_size(domain, t)
        check_name(sym.name, node.pos, "variable")
        sym.type = t
        bt = self.type(node.body, scope, where)
        if node.kind in ("exists", "forall", "count"):
            if bt != "bool":
                raise err(node.body.pos, f"`{node.kind}` needs a condition after `:`, not {describe(bt)}")
            return "int" if node.kind == "count" else "bool"
        if bt not in NUMERIC:
            raise err(node.body.pos, f"`{node.kind}` needs a number after `:`, not {describe(bt)}")
        return bt

    def _join(self, a, b):
        if a == b:
            return a
        if {a, b} == {"int", "num"}:
            return "num"
        if "none" in (a, b):
            other = b if a == "none" else a
            return other if other in ("cell", "player") else None
        if {a, b} == {"player", "value"} and self._players_are_values():
            return "value"
        return None

    def _name(self, node, where):
        check_name(node.id if not self.is_local(node) else self.binding(node).name, node.pos, "name")
        sym = self.binding(node)
        if sym.local:
            self.out.kinds[id(node)] = (sym.kind, sym.code)
            return sym.type
        if sym.kind == "unknown":
            raise self.unknown_name(node, sym)
        if sym.kind == "me" and where != "utility":
            raise err(node.pos, "`me` is only known in utilities and evaluation features",
                      "use `mover` for the player to move")
        self.out.kinds[id(node)] = (sym.kind, sym.info)
        if sym.kind == "var":
            if sym.info.is_array:
                return "list" if sym.info.type == "int" and not sym.info.per_player else "array"
            return sym.info.type
        return {"player": "player", "value": "value", "enum": sym.info[0] if sym.kind == "enum" else None,
                "board": "board", "option": "int", "bool": "bool", "none": "none", "mover": "player",
                "me": "player", "dirs": "dirs", "point": "cell", "line": "cellset"}[sym.kind]

    def _binary(self, node, scope, where):
        op = node.op
        if op in ("and", "or"):
            for side in (node.left, node.right):
                t = self.type(side, scope, where)
                if t != "bool":
                    raise err(side.pos, f"`{op}` needs conditions on both sides, not {describe(t)}")
            return "bool"
        a = self.type(node.left, scope, where)
        b = self.type(node.right, scope, where)
        if op in ("in", "notin"):
            if b != "cellset":
                raise err(node.right.pos, f"`in` needs a set of cells on the right, not {describe(b)}")
            if a != "cell":
                raise err(node.left.pos, f"only cells can be `in` a set of cells, not {describe(a)}")
            return "bool"
        if op in ("==", "!="):
            if self._join(a, b) is None:
                raise err(node.pos, f"cannot compare {describe(a)} with {describe(b)}",
                          self._compare_hint(node, a, b))
            return "bool"
        if op in ("<", "<=", ">", ">="):
            if a not in NUMERIC or b not in NUMERIC:
                bad = node.left if a not in NUMERIC else node.right
                raise err(bad.pos, f"`{op}` compares numbers, not {describe(a if bad is node.left else b)}")
            return "bool"
        if op in ("|", "&") or (op == "-" and a == "cellset"):
            if a != "cellset" or b != "cellset":
                raise err(node.pos, f"`{op}` combines sets of cells, not {describe(a)} and {describe(b)}",
                          "use `and` / `or` for conditions" if "bool" in (a, b) else None)
            return "cellset"
        if a not in NUMERIC or b not in NUMERIC:
            bad, bt = (node.left, a) if a not in NUMERIC else (node.right, b)
            raise err(bad.pos, f"`{op}` needs numbers, not {describe(bt)}",
                      "use col(c) and row(c) for a cell's coordinates" if bt == "cell" else None)
        if op == "/":
            return "num"
        return "num" if "num" in (a, b) else "int"

    def _compare_hint(self, node, a, b):
        if "value" in (a, b) and "player" in (a, b):
            return "name the players among the board's cell values to compare them"
        if "value" in (a, b):
            return "cell values are: " + ", ".join(self.out.values)
        return None
