"""Random well-typed game specs, for testing the compiler against the interpreter at scale.

`check_one(text)` compares the compiled game with the interpreter, and the compiled game's
kernel (framework.kernel) with its course interface (framework.conformance.kernel_check).
`spec_texts()` is a Hypothesis strategy of YAML specs the checker accepts: a small board
(one in four a graph board: framework.conformance.generate_graph) with a non-player value,
an integer, a flag, a list and a per-player variable, an option (its default computed from
another), a chance action of one or two outcome variables (uniform, joint or per-variable
probabilities), a compound move (`continue` into a step that fills a neighbouring cell, with
or without `prefer: longest`), `let` locals, `prev(p)`, connectivity (`connected`, `group`,
`liberties`, `region` over every direction set, `knight` and a `directions:` set of the
spec's own included; rows and columns as sets), an enumeration variable, sowing loops over
the list (generate_lists.py), list indexes and cell coordinates of arithmetic over `n` (in
range or not: compiler/int_ranges.py), rules that may fail during play (a store to a cell
that may be `none`: `drop` on a full or missing column, `cell(x, y)` off the board;
`col`/`row` of such a cell; an index off a list; `max` over an empty domain: the two games
must fail alike), `legal_after`, a move from cell to cell
relating the two cells' rows and columns, `!=` tests of a cell's value, a definition large
enough to be written as a function (compiler/outline.py), the capture trap (bound variables
named like the callers' arguments), an effect definition (its local named like the callers',
a parameter assigned), a range chosen by a condition, nested conditionals, conditional
stores and effects on every kind of target.  The campaign behind `plyspec fuzz
--differential` over these specs is `differential.campaign`.
"""
from __future__ import annotations

from hypothesis import strategies as st

from framework.conformance.generate_lists import sowing_loop

BOUND = ("t", "c", "x", "i")            # bound names, deliberately the same as parameters'
ORDERS = ("ab", "ba")                   # the cells a relation compares, either way round


@st.composite
def spec_texts(draw) -> str:
    from framework.conformance.generate_graph import GraphGen   # one spec in four on a graph board
    return (GraphGen if draw(st.integers(0, 3)) == 0 else _Gen)(draw).spec()


class _Gen:
    STEP, ORIGIN, NEAR = "orthogonal", "(0, 0)", ["orthogonal", "diagonal", "queen"]   # grid constants
    def __init__(self, draw):
        self.draw = draw
        self.players = draw(st.sampled_from([["A", "B"], ["A", "B", "C"]]))
        self.w = draw(st.integers(1, 4))
        self.h = draw(st.integers(1, 3))
        self.size = draw(st.integers(1, 3))
        self.calls = False          # definitions may be called (not inside their own bodies)
        self.runs = False           # the effect definition `e` may be run (not inside its body)
        self.locals = 0             # `let` variables made so far (each gets a new name)
        steps = st.tuples(st.integers(-2, 2), st.integers(-2, 2)).filter(lambda s: s != (0, 0))
        self.own_dirs = draw(st.lists(steps, max_size=3, unique=True))   # a `directions:` set, if any

    def pick(self, options):
        return self.draw(st.sampled_from(options))

    def depth_ok(self, depth):
        return depth > 0 and self.draw(st.booleans())

    # --------------------------------------------------------------- expressions
    def int_(self, scope, depth=2) -> str:
        leaves = ["0", "1", "2", "k", "m", "n", f"h[{self.draw(st.integers(0, self.size - 1))}]", f"h[n % {self.size}]",
                  "count(board, Z)", "size(cells(board, empty))", f"s[{self.player(scope)}]",
                  f"size({self.pick(['group', 'liberties'])}(board, {self.cell(scope)}, {self.dirs()}))"]
        leaves += [self.cell_int(v) for v, t in scope.items() if t == "cell"]
        leaves += [v for v, t in scope.items() if t == "int"]
        if self.rare():                   # may fail during play: a cell that may be none, an index
            leaves = [self.cell_int(self.none_cell()), f"h[{self.pick(['k', 'n', 'n // 2 - 1', 'abs(n - 3) % 4'])}]",
                      f"(max {self.pick(BOUND)} in 0..k - 2: n)", "(count v in hue: v != hue)"]
        if not self.depth_ok(depth):
            return self.pick(leaves)
        form = self.draw(st.integers(0, 6))
        a, b = self.int_(scope, depth - 1), self.int_(scope, depth - 1)
        if form == 0:
            return f"({a} + {b})"
        if form == 1:
            return f"({a} - {b})"
        if form == 2:
            return f"({a} if {self.bool_(scope, depth - 1)} else {b})"
        if form == 3 and self.draw(st.booleans()):
            var = self.pick(BOUND)
            return f"(count {var} in cell: {self.bool_({**scope, var: 'cell'}, depth - 1)})"
        if form == 3:                     # a range chosen by a condition
            var = self.pick(BOUND)
            domain = self.pick([f"(0..{self.int_(scope, 0)} if {self.bool_(scope, 0)} else 1..k)", "0..2", "k..3"])
            return f"(sum {var} in {domain}: {self.int_({**scope, var: 'int'}, depth - 1)})"
        if form == 4 and self.calls:
            return f"f({a})"
        if form == 5:
            return f"max({a}, {b})"
        return f"abs({a})"

    def relation(self, a, b) -> str:
        return _relation(self.pick, a, b)

    def cell_int(self, c) -> str:
        return f"{self.pick(['col', 'row'])}({c})"

    def rare(self) -> bool:
        """True now and then: for the constructs that may fail during play, so that most
        generated games still play on."""
        return self.draw(st.integers(0, 9)) == 0

    def cell(self, scope) -> str:
        cells = [v for v, t in scope.items() if t == "cell"]
        if self.rare():
            return self.none_cell()
        fixed = f"({self.draw(st.integers(0, self.w - 1))}, {self.draw(st.integers(0, self.h - 1))})"
        return self.pick(cells + [fixed]) if cells else fixed

    def none_cell(self) -> str:
        """A cell that may be `none`: off the board, or the drop into a full column."""
        x, y = self.draw(st.integers(0, self.w - 1)), self.draw(st.integers(0, self.h - 1))
        return self.pick([f"cell(k - 1, {y})", "drop(board, k)", f"drop(board, {x})", f"({x}, n)", f"cell({x} + n % 3 - 1, n // 3)"])

    def enum_value(self, scope) -> str:
        """An enumeration value: a name, the variable `hue`, or a conditional of them."""
        names = ["red", "green", "blue", "hue"] + [v for v, t in scope.items() if t == "enum"]
        if self.draw(st.booleans()):
            return f"({self.pick(names)} if {self.bool_(scope, 0)} else {self.pick(names)})"
        return self.pick(names)

    def dirs(self) -> str:
        return self.pick(["orthogonal", "diagonal", "queen", "hex", "knight"] + (["mine"] if self.own_dirs else []))

    def cells(self, scope) -> str:
        """A set of cells: a row, a column, a value's cells or a group."""
        k = self.draw(st.integers(-1, 3))
        through = f"(cells(board, {self.value(scope, 0)}) | {self.pick([f'row_cells({k})', 'cells(board, empty)'])})"
        return self.pick([f"row_cells({k})", f"column_cells({k})", f"cells(board, {self.value(scope, 0)})",
                          f"group(board, {self.cell(scope)}, {self.dirs()})",
                          f"region({self.pick([self.cell(scope), f'column_cells({k})'])}, {self.dirs()}, {through})"])

    def player(self, scope) -> str:
        return self.pick(["mover", "next(mover)", "prev(mover)"] + self.players
                         + [v for v, t in scope.items() if t == "player"])

    def value(self, scope, depth=1) -> str:
        plain = ["empty", "Z", self.player(scope)]
        if self.depth_ok(depth):
            return f"({self.player(scope)} if {self.bool_(scope, depth - 1)} else {self.pick(['Z', 'empty'])})"
        return self.pick(plain)

    def bool_(self, scope, depth=2) -> str:
        leaves = ["flag", "full(board)", f"board[{self.cell(scope)}] {self.pick(['==', '!='])} {self.value(scope, 0)}",
                  f"hue {self.pick(['==', '!='])} {self.pick(['red', 'green', 'blue'])}",
                  self.relation(self.cell(scope), self.cell(scope)),
                  f"{self.int_(scope, 0)} < {self.int_(scope, 0)}", f"line(board, 2, {self.player(scope)})"]
        if not self.depth_ok(depth):
            return self.pick(leaves)
        form = self.draw(st.integers(0, 8))
        if form == 8:              # a neighbourhood quantifier (compiled to masks inside a quantifier over cells)
            var = self.pick(BOUND)
            return f"(exists {var} in neighbors({self.cell(scope)}, {self.dirs()}): " \
                   f"{self.bool_({**scope, var: 'cell'}, depth - 1)})"
        if form == 7:
            return f"connected(board, {self.cells(scope)}, {self.cells(scope)}, {self.dirs()}, {self.value(scope, 0)})"
        if form == 0:
            return f"({self.bool_(scope, depth - 1)} and {self.bool_(scope, depth - 1)})"
        if form == 1:
            return f"({self.bool_(scope, depth - 1)} or {self.bool_(scope, depth - 1)})"
        if form == 2:
            return f"not {self.bool_(scope, depth - 1)}"
        if form == 3:
            var = self.pick(BOUND)
            kind, domain = self.pick(["exists", "forall"]), self.pick(["cell", "cell", "0..2", "1..k"])  # 0..2: unrolled
            if domain == "cell" and self.draw(st.integers(0, 3)) == 0:     # the cell read as its group only
                group = f"group(board, {var}, {self.dirs()})"
                outer = {k: t for k, t in scope.items() if k != var}           # (the bound cell hides them)
                return f"({kind} {var} in {self.cells(scope)}: size({group}) > {self.int_(outer, 0)})"
            inner = {**scope, var: "cell" if domain == "cell" else "int"}    # (masks and tests left)
            return f"({kind} {var} in {domain}: {self.bool_(inner, 0)} and {self.bool_(inner, depth - 1)})"
        if form == 4 and self.calls:
            return f"g({self.cell(scope)}, {self.player(scope)})"
        if form == 5:
            return f"{self.cell(scope)} in neighbors({self.cell(scope)}, {self.dirs()})"
        if form == 6:              # a conditional test (masks: both branches, chosen by the test's mask)
            return f"({self.bool_(scope, depth - 1)} if {self.bool_(scope, depth - 1)} else {self.bool_(scope, 0)})"
        return f"{self.int_(scope, depth - 1)} == {self.int_(scope, depth - 1)}"

    # --------------------------------------------------------------- effects
    def effect(self, scope, depth=2) -> str:
        form = self.draw(st.integers(0, 9 if depth > 0 else 3))
        if form == 9 and self.runs:
            return f"e({self.cell(scope)}, {self.player(scope)})"
        if form == 8:
            return f"hue = {self.enum_value(scope)}"
        if form == 7:
            self.locals += 1                  # braces group, they do not end a local's scope
            local = f"u{self.locals}"
            inner = {**scope, local: "int"}
            return f"{{ let {local} = {self.int_(scope, 1)}; {self.effect(inner, depth - 1)}; " \
                   f"{local} {self.pick(['=', '+=', '-='])} {self.int_(inner, 0)}; h[0] = min(abs({local}), 9) }}"
        if form == 0:
            return f"board[{self.cell(scope)}] = {self.value(scope)}"
        if form == 1:
            return f"n = {self.int_(scope, 1)}"
        if form == 2:
            return f"flag = {self.bool_(scope, 1)}"
        if form == 3:                         # an item, or a sowing loop (generate_lists.py)
            target = self.pick([f"h[{self.draw(st.integers(0, self.size - 1))}]", f"s[{self.player(scope)}]", None])
            return sowing_loop(self, scope) if target is None else f"{target} {self.pick(['=', '+=', '-='])} {self.int_(scope, 0)}"
        if form == 4:
            return f"if {self.bool_(scope, 1)} then {{ {self.effect(scope, depth - 1)} }} " \
                   f"else {{ {self.effect(scope, depth - 1)} }}"
        if form == 5 and self.draw(st.booleans()):
            return f"board[{self.cells(scope)}] = {self.value(scope, 0)}"
        if form == 5:
            var = self.pick(BOUND)
            inner = {**scope, var: "cell"}
            return f"for {var} in cells(board, Z) do {{ if {self.bool_(inner, 0)} then board[{var}] = empty }}"
        return f"turn = {self.player(scope)}"

    # --------------------------------------------------------------- the spec
    def spec(self) -> str:
        players = self.players
        lines = [
            "game: Generated",
            f"players: [{', '.join(players)}]",
            f"options: {{k: {self.draw(st.integers(1, 3))}, m: '{self.pick(['k + 1', 'k * 2 - 1', 'max(k, 2)'])}'}}",
            self.board(),
        ] + ([f"directions: {{mine: {[list(s) for s in self.own_dirs]}}}"] if self.own_dirs else []) + [
            "state:",
            "  n: {type: '0..9', initial: 0}",
            "  flag: {type: bool, initial: false}",
            f"  h: {{type: '0..9', size: {self.size}, initial: 1}}",
            "  s: {type: '0..9', per: player, initial: 0}",
            f"  hue: {{type: [red, green, blue], initial: {self.pick(['red', 'green', 'blue'])}}}",
            "define:",
            f"  f(x): '{self._q(self._trap_f())}'",
            f"  g(c, p): '{self._q(self._trap_g())}'",
            "  big(c, p): 'g(c, p) or (f(n) > 1 and not g(c, next(p)))'",   # large: written as a function
        ]
        self.calls = True
        lines += [f"  e(c, p): {{then: '{self._q(self._effect_definition())}'}}", "actions:"]
        self.runs = True
        c = self.pick(BOUND)
        extra = self.pick(["", f" and {self.bool_({c: 'cell'}, 1)}", f" and not g({c}, {self.player({})})"])
        lines += [f"  put({c} in cell):",
                  f"    if: '{self._q(f'board[{c}] == empty' + extra)}'",
                  f"    then: '{self._q(self._effects({c: 'cell'}))}'"] + self._legal_after({c: 'cell'})
        ab = {"a": "cell", "b": "cell"}      # moves drawn from masks of cells and tables of where cells lie
        lines += ["  hop(a in cell, b in cell):",
                  f"    if: '{self._q(f'board[a] == mover and {self.relation(*self.pick(ORDERS))} and ' + self.bool_(ab, 1))}'",
                  f"    then: '{self._q('board[b] = board[a]; board[a] = empty; n += 1; ' + self._effects(ab))}'"]
        i = self.pick(BOUND)
        guard = "n < 8 and " + self.pick([f"({self.bool_({i: 'int'}, 1)} or h[0] < 3)", f"f({i}) > 0"])
        lines += [f"  bump({i} in 0..{self.draw(st.integers(0, 2))}):",
                  f"    if: '{self._q(guard)}'",
                  f"    then: '{self._q(self._effects({i: 'int'}))}'"] + self._legal_after({i: 'int'})
        v = self.pick(BOUND)
        lines += [f"  tint({v} in hue):",
                  f"    if: '{self._q(f'n < 8 and {v} != hue and ' + self.bool_({v: 'enum'}, 0))}'",
                  f"    then: '{self._q(f'hue = {v}; n += 1; ' + self._effects({v: 'enum'}))}'"]
        lines += self._chance()
        lines += self._compound()
        lines += [f"terminal: '{self._q('full(board) or n >= 9 or (flag and ' + self.bool_({}, 1) + ')')}'"]
        winner = self.draw(st.booleans()) or len(players) > 2
        if winner:
            cases = " else ".join(f"{p} if line(board, 2, {p})" for p in players)
            lines.append(f"winner: '{cases} else none'")
            score = f"winner: '{self._q(self.player({}))} if {self._q(self.bool_({}, 1))} else none'"
        else:
            lines.append(f"utility: '{self._q(self.int_({}, 1))}'")
            score = f"utility: '{self._q(self.int_({}, 1))}'"
        return "\n".join(lines + _history_rules(self.pick, winner and len(players) == 2, score)) + "\n"

    def board(self) -> str:
        return f"board: {{width: {self.w}, height: {self.h}, cells: [empty, {', '.join(self.players)}, Z]}}"

    def _legal_after(self, scope) -> list[str]:
        """Maybe `legal_after`: a condition on the position the move leaves (with the
        action's parameter, and `big`, a definition large enough to be written as a function)."""
        test = self.pick(["", self.bool_(scope, 1), f"not big({self.cell(scope)}, {self.player(scope)})",
                          f"big({self.cell(scope)}, mover) and n < 6"])
        return [f"    legal_after: '{self._q(test)}'"] if test else []

    def _chance(self) -> list[str]:
        """Maybe a chance action `roll`: d in 1..m (and maybe e in 0..1), uniform (no
        probability), a joint probability, or one per variable."""
        if not self.draw(st.booleans()):
            return []
        m = self.draw(st.integers(1, 3))
        two = self.draw(st.booleans())
        weights = ["", f"1 / {m}", f"d / {m * (m + 1) // 2}"]
        if two:
            weights += [f"(d + e) / {m * (m + 1) + m}", f"d / {m * (m + 1) // 2}, (1 + e) / 3"]
        weight = self.pick(weights)
        return ["  roll:",
                f"    chance: d in 1..{m}" + (", e in 0..1" if two else "")] + \
            ([f"    probability: '{weight}'"] if weight else []) + \
            [f"    then: '{self._q(self._effects({'d': 'int', 'e': 'int'} if two else {'d': 'int'}))}'"]

    def _compound(self) -> list[str]:
        """Maybe a compound move: `walk` lifts a piece of the mover and goes on filling
        empty neighbouring cells with Z while it can (each step fills one: it ends)."""
        if not self.draw(st.booleans()):
            return []
        extra = self.pick(["", f"; flag = {self.bool_({'b': 'cell'}, 0)}", f"; turn = {self.player({})}"])
        lines = ["  walk(c in cell):",
                 "    if: board[c] == mover",
                 "    then: 'board[c] = empty; continue more(c)'",
                 "steps:",
                 f"  more(a in cell, b in neighbors(a, {self.STEP})):",
                 f"    if: '{self._q('board[b] == empty and ' + self.bool_({'a': 'cell', 'b': 'cell'}, 1))}'",
                 f"    then: '{self._q('board[b] = Z' + extra)}; continue more(b)'"]
        return lines + (["prefer: longest"] if self.draw(st.booleans()) else [])

    def _trap_f(self) -> str:
        """f(x): a count whose bound name may equal the caller's argument (`f(i)` with `i`
        bound in the count is the capture trap)."""
        var = self.pick([b for b in BOUND if b != "x"])
        return f"count {var} in 0..3: {var} < x + n"

    def _trap_g(self) -> str:
        """g(c, p): a neighbourhood test that uses its parameter inside the quantifier, whose
        bound name may equal the caller's argument."""
        var = self.pick([b for b in BOUND if b != "c"])
        dirs = self.pick(self.NEAR)
        return f"exists {var} in cell: {var} in neighbors(c, {dirs}) and board[{var}] == p"

    def _effect_definition(self) -> str:
        """e(c, p): effects over a cell and a player, with a local named like the callers'
        first local (`u1`: hygiene) and an assignment to a parameter (parameters are locals
        holding the arguments' values)."""
        scope = {"c": "cell", "p": "player"}
        self.locals = 1                   # the body's own locals from u2; the callers' from u1
        body = [f"let u1 = {self.int_(scope, 1)}", self.effect({**scope, "u1": "int"}, 1),
                self.pick(["p = next(p)", f"c = {self.ORIGIN}", f"u1 += {self.int_(scope, 0)}"]),
                f"s[p] = min(abs(u1), 9)", f"board[c] = {self.value(scope, 0)}"]
        self.locals = 0
        return "; ".join(body)

    def _effects(self, scope) -> str:
        return "; ".join(self.effect(scope) for _ in range(self.draw(st.integers(1, 3))))

    @staticmethod
    def _q(text: str) -> str:
        return text.replace("'", "''")


def _history_rules(pick, can_lose, score) -> list[str]:
    """Maybe `repetition` and / or `max_moves` (their meaning is written twice: in
    framework.history and in the interpreter); `score` scores the final position
    (`winner: EXPR` or `utility: EXPR`); `over` compares part of the state."""
    over = pick(["board", "board, mover", "n, hue", "board, s, mover"])
    rules = [[], [], ["repetition: draw"], ["repetition: {result: forbidden, count: 2}"],
             ["max_moves: 4"], ["repetition: {result: draw, count: 3}", "max_moves: {limit: 6, result: draw}"],
             [f"repetition: {{result: draw, over: [{over}]}}"], [f"repetition: {{result: forbidden, over: [{over}]}}"],
             [f"repetition: {{{score}, count: 2, over: [{over}]}}"], [f"max_moves: {{limit: 5, {score}}}"],
             [f"repetition: {{{score}}}", f"max_moves: {{limit: 6, {score}}}"]]
    if can_lose:
        rules += [["repetition: loss"], ["max_moves: {limit: 3, result: loss}"]]
    return pick(rules)


def _relation(pick, a: str, b: str) -> str:
    """Where two cells lie (a table of cells in the compiled game: compiler/masks.py)."""
    part, other = pick(["col", "row"]), pick(["col", "row"])
    if pick([True, False]):
        return f"abs({part}({a}) - {part}({b})) <= {pick(['0', '1', 'k'])}"
    return f"{part}({a}) {pick(['==', '<=', '!='])} {other}({b}) + {pick(['0', '1', '-1', 'k', 'h[0]'])}"


def check_one(text: str, *, bfs_states=40, playouts=3, plies=30):
    """None, or (kind, message, path) for a generated spec: `refused` when the checker
    rejects it (a generator bug), `differs` when compiled and interpreted games disagree."""
    from framework import load_text
    from framework.checker import check
    from framework.conformance.differential import Difference, _both, find_difference
    from framework.conformance.kernel_check import walk_difference
    from framework.errors import SpecError, SpecRuntimeError
    from framework.interpreter import InterpretedGame, interpret_text
    try:
        game = load_text(text)
    except SpecRuntimeError as err:          # a rule fails on the initial state: so must the interpreter's
        def compiled():
            raise err
        try:
            _both(compiled, lambda: interpret_text(text).initial_state(), [], "to build the initial state")
        except Difference as difference:
            return ("differs", difference.message, [])
        return None
    except SpecError as err:
        # the checker may prove an error the generator cannot foresee (a constant assigned
        # outside a variable's range): a correct refusal, not a finding
        if "initial state" in err.message or "out of range" in err.message:
            return None
        return ("refused", str(err), [])
    difference = find_difference(game, InterpretedGame(check(game.spec, {})), bfs_states=bfs_states,
                                 playouts=playouts, plies=plies)
    if difference is not None:
        return "differs", difference.message, difference.path
    found = walk_difference(game, bfs_states=bfs_states // 2, playouts=1, plies=plies)   # (half the cost)
    return None if found is None else ("differs", f"kernel and course interface: {found[0]}", found[1])

