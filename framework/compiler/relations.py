"""Tests of where a cell lies beside one or two other cell variables, and cells computed
from their rows and columns, as tables the generated module makes (masks.py's conditions
and quantifiers over cells read them): `relation` (`row(b) == row(a) + 1`: `_REL<k>[q]`;
e strictly between c and d: `_REL<k>[q << 16 | r]`, each pair's mask made at its first
use by runtime.cell_table), an `and` chain's such conjuncts joined into one table
(`three_cells`, `joined_parts`), and `cell_at` (`cell(x, y)` of one or two cells' rows and
columns: `_AT<k>[q][c]`).  Only code that reads the cells' rows and columns, whole numbers
and arithmetic that cannot fail becomes a table (masks.py `_geometric`).
"""
from __future__ import annotations

from framework import ast
from framework.compiler.common import _operands
from framework.compiler.masks import _geometric, _name_nodes, _plain


class RelationsMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def relation(self, node, var, env):
        """A test of where cell `var` lies, alone or beside one other cell variable q
        (`row(b) == row(a) + 1`, `abs(col(b) - col(a)) <= 1`): a table, made when the module
        loads, of the cells where it holds (for each q: `_REL<k>[q]`), when the test's code
        reads nothing but the two cells' rows and columns, whole numbers and arithmetic.
        Beside two cell variables q and r (e lies between c and d): a table whose mask for
        (q, r) is made at its first use, `_REL<k>[q << 16 | r]` (runtime.cell_table)."""
        if not _plain(node):
            return None
        others = sorted(self._other_cells(node, var, env))
        if len(others) > 2:
            return None
        names = ("_q", "_r")[:len(others)]
        inner = {**env, var: "_c", **dict(zip(others, names))}
        code = self.expr(node, inner)
        if not _geometric(code, {"_c", *names}):
            return None
        key = (code, bool(others)) if len(others) < 2 else (code, 2)
        name = self.relations.get(key)
        if name is None:
            name = self.relations[key] = f"_REL{len(self.relations)}"
            cells = f"sum(1 << _c for _c in ALL_CELLS if {code})"
            self.helpers[name] = (f"# {name}{('', '[q]', '[q << 16 | r]')[len(others)]}: the cells c where {code}\n{name} = "
                                  + (cells, f"tuple({cells} for _q in range(len(ROW)))",
                                     f"cell_table(lambda _q, _r: {cells})")[len(others)] + "\n")
        if len(others) == 2:
            q, r = (env[o] if env[o].isidentifier() else f"({env[o]})" for o in others)
            return f"{name}[{q} << 16 | {r}]"
        return f"{name}[{env[others[0]]}]" if others else name

    def three_cells(self, node, var, env, outer):
        """For an `and` chain whose plain conjuncts (`_plain`) name two cell variables
        besides `var` (e lies between c and d): one `relation` table of those conjuncts,
        and the mask of the others; else None."""
        ops = _operands("and", node)
        plain = [o for o in ops if _plain(o)]
        if node.op != "and" or len(plain) < 2 \
                or len(set().union(*(self._other_cells(o, var, env) for o in plain))) != 2:
            return None
        joined = plain[0]
        for o in plain[1:]:
            joined = self._made(ast.Binary, node, "and", joined, o)
        table = self.relation(joined, var, env)
        if table is None:
            return None
        rest = [self.cells_where(o, var, env, outer) for o in ops if not _plain(o)]
        return None if None in rest else self._share(f"({' & '.join([table] + rest)})")

    def joined_parts(self, parts, var, env) -> list:
        """An `and` chain's `parts` with the leading plain ones (`_plain`) joined into one
        when they name two cell variables besides `var`: one `relation` table of three
        cells instead of one per part (quantifier_cells, effects.py where_cells)."""
        k = next((i for i, p in enumerate(parts) if not _plain(p)), len(parts))
        if k < 2 or len(set().union(*(self._other_cells(p, var, env) for p in parts[:k]))) != 2:
            return parts
        joined = parts[0]
        for p in parts[1:k]:
            joined = self._made(ast.Binary, p, "and", joined, p)
        return [joined] + parts[k:]

    def _other_cells(self, node, var, env) -> set:
        """The cell variables other than `var` that `node` names."""
        return {n.id for n in _name_nodes(node) if n.id != var and self._cell_var(n, env)}

    def cell_at(self, node, env):
        """`cell(x, y)` whose coordinates read nothing but the rows and columns of one or two
        cell variables, whole numbers and arithmetic (`over(c, d)`, `beyond(c, m)`): a table
        made when the module loads (`_AT<k>[q][c]`, -1 off the board, as CELL gives), read
        instead of a call per use; else None."""
        if not all(_plain(a) for a in node.args):
            return None
        cells = sorted({n.id for a in node.args for n in _name_nodes(a) if self._cell_var(n, env)})
        if not 1 <= len(cells) <= 2:
            return None
        names = ("_c", "_q")[:len(cells)]
        inner = {**env, **dict(zip(cells, names))}
        x, y = (self.expr(a, inner) for a in node.args)
        if not all(_geometric(code, set(names)) for code in (x, y)):
            return None
        key = ("cell", x, y, len(cells))
        name = self.relations.get(key)
        if name is None:
            name = self.relations[key] = f"_AT{len(self.relations)}"
            table = f"tuple(CELL({x}, {y}) for _c in range(len(ROW)))"
            if len(cells) == 2:
                table = f"tuple({table} for _q in range(len(ROW)))"
            self.helpers[name] = f"# {name}{'[q]' if len(cells) == 2 else ''}[c]: cell({x}, {y})\n{name} = {table}\n"
        return f"{name}{''.join(f'[{env[v]}]' for v in reversed(cells))}"
