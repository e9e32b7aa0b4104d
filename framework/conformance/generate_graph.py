"""Random specs on graph boards (framework.graph), for the compiler-against-interpreter
campaign (framework.conformance.generate draws one spec in four from here): 1 to 7 points
`p0 ...` in one or two drawn rows, random links (n - 1 to 2n),
lines along the links, and rules that use what a graph board has: point names, line names
as sets, `neighbors`/`group`/`liberties`/`region`/`connected` over `links`, `line(board, k,
v)` along the declared lines and `in_line(board, c, v)`; no rows, columns or (x, y) cells."""
from __future__ import annotations

from hypothesis import strategies as st

from framework.conformance.generate import BOUND, _Gen


class GraphGen(_Gen):
    STEP, ORIGIN, NEAR = "links", "p0", ["links"]

    def __init__(self, draw):
        super().__init__(draw)
        self.own_dirs = []
        n = self.n = draw(st.integers(3, 7))
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        self.links = draw(st.lists(st.sampled_from(pairs), unique=True, min_size=min(len(pairs), n - 1),
                                           max_size=2 * n)) if pairs else []
        adjacent = {i: {j for a, b in self.links for j in (a, b) if i in (a, b) and j != i} for i in range(n)}
        self.lines = []
        for _ in range(draw(st.integers(1, 3))):            # paths along the links
            path = [draw(st.integers(0, n - 1))]
            for _ in range(draw(st.integers(1, 3))):
                options = sorted(adjacent[path[-1]] - set(path))
                if not options:
                    break
                path.append(draw(st.sampled_from(options)))
            if len(path) > 1:
                self.lines.append(path)

    def board(self) -> str:
        names = [f"p{i}" for i in range(self.n)]
        cut = self.draw(st.integers(0, self.n))
        rows = [r for r in (names[:cut], names[cut:]) if r]
        return ("board:\n  cells: [empty, " + ", ".join(self.players) + ", Z]\n"
                f"  points: [{', '.join('[' + ', '.join(r) + ']' for r in rows)}]\n"
                f"  links: [{', '.join(f'[p{a}, p{b}]' for a, b in self.links)}]\n"
                "  lines: {" + ", ".join(f"l{k}: [{', '.join(f'p{i}' for i in p)}]"
                                         for k, p in enumerate(self.lines)) + "}")

    def point(self) -> str:
        return f"p{self.draw(st.integers(0, self.n - 1))}"

    def cell(self, scope) -> str:
        cells = [v for v, t in scope.items() if t == "cell"]
        return self.pick(cells + [self.point()]) if cells else self.point()

    def none_cell(self) -> str:               # no builtin of a graph board gives `none`
        return self.point()

    def cell_int(self, c) -> str:
        return f"size(neighbors({c}, links))"

    def relation(self, a, b) -> str:          # where two points lie: linked, or in one group or line
        return self.pick([f"{b} in neighbors({a}, links)", f"{a} in group(board, {b}, links)",
                          f"size(neighbors({a}, links)) <= size(neighbors({b}, links))"]
                         + [f"({a} in l{k} and {b} in l{k})" for k in range(len(self.lines))])

    def dirs(self) -> str:
        return "links"

    def cells(self, scope) -> str:
        named = [f"l{k}" for k in range(len(self.lines))]
        through = f"(cells(board, {self.value(scope, 0)}) | {self.pick(named + ['cells(board, empty)'])})"
        return self.pick(named + [f"neighbors({self.cell(scope)}, links)", f"cells(board, {self.value(scope, 0)})",
                                  f"group(board, {self.cell(scope)}, links)",
                                  f"region({self.pick([self.cell(scope)] + named)}, links, {through})"])

    def bool_(self, scope, depth=2) -> str:
        if self.draw(st.integers(0, 2)) == 0:               # a graph board's own tests, often
            var = self.pick(BOUND)
            on_line = [f"p{i}" for line in self.lines for i in line]
            value = self.pick(["empty", self.value(scope, 0)])
            return self.pick([f"in_line(board, {self.pick(on_line or [self.cell(scope)])}, {value})",
                              f"in_line(board, {self.cell(scope)}, {value})",
                              f"line(board, {self.pick(['1', '2', '3', 'k'])}, {self.value(scope, 0)})",
                              f"(exists {var} in cell: in_line(board, {var}, {self.player(scope)}))"])
        return super().bool_(scope, depth)
