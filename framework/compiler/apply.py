"""The successor of a move, as generated code: the action's dispatch and parameter decoding
(`apply_dispatch`), its effects, the next player and the successor's terminal test
(`apply_body`, `child_terminal`), the `_apply<i>` functions chance actions resolve to, and
the `_after<i>` tests of `legal_after` (an action's condition on the position it leaves).
"""
from __future__ import annotations

from framework import ast
from framework.compiler.common import UNSET_TURN, _IDENT, _Source, _operands, _is_name, _assigns_turn, _is_bool


class ApplyMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def apply_dispatch(self, out: _Source):
        """The successor of the state whose fields are unpacked, for the `action` in scope:
        the schema it names, its parameters decoded, the effects applied."""
        c = self.c
        if c.spec.pass_rule:
            out("if action == 'pass':")
            nxt = f"(mover + 1) % {self.n}" if self.n > 1 else "0"
            out(f"    return {self.make_call(self.sig_with_mover(nxt))}")
        for ai, a in enumerate(c.actions):
            if a.step:
                continue
            types = [p[2] for p in a.params]
            compound = a.chance is None and self.is_compound(a)
            rest = f"action[{len(types) + (not self.single)}:]"     # the later steps' values
            if self.single and compound:
                raw = [f"action[{k}]" for k in range(len(types))]
            elif self.single:
                raw = ["action"] if len(types) == 1 else [f"action[{k}]" for k in range(len(types))]
                if not types:
                    raw = []
                    out("if action != ():")
                    out("    raise KeyError(action)")
                elif len(types) > 1:
                    out(f"if len(action) != {len(types)}:")
                    out("    raise KeyError(action)")
            elif not types and not compound:
                out(f"if action == ACTION_NAMES[{ai}]:")
                out.indent()
                raw = []
            else:
                out(f"if action[0] == ACTION_NAMES[{ai}]:")
                out.indent()
                if not compound:
                    out(f"if len(action) != {len(types) + 1}:")
                    out("    raise KeyError(action)")
                raw = [f"action[{k + 1}]" for k in range(len(types))]
            args = [self.decode(t, r) for t, r in zip(types, raw)]
            if a.chance:
                fields = self.sig
                pending = "".join(x + ", " for x in args)
                out(f"return {self.packed(f'{fields}, ({ai}, ({pending})), False')}")
            else:
                env = {}
                for (pname, _, _), arg, r in zip(a.params, args, raw):
                    env[pname] = arg if arg == r else f"p_{pname}"
                    if arg != r:
                        out(f"p_{pname} = {arg}")
                if compound:
                    self.apply_compound(out, ai, a, env, rest)
                else:
                    self.per_mover(out, lambda o: self.apply_body(o, a, env))
            if not self.single:
                out.dedent()
        if not self.single:
            out("raise KeyError(action)")

    def make_call(self, fields, pending="()"):
        extra = f", {pending}" if self.has_chance else ""
        if self.leaf_count:
            return f"k_count({self.packed(f'{fields}, _terminal({fields})')})"
        return self.packed(f"{fields}{extra}, _terminal({fields})")

    def packed(self, values: str) -> str:
        """A successor made of `values`: a State (called: cheaper than tuple.__new__), or a
        plain tuple in the kernel."""
        return f"({values})" if self.raw else f"State(({values}))"

    def apply_functions(self, out: _Source):
        """_apply<i>(fields, params, outcome): the successor state once chance has chosen the
        outcome of action i (the other actions are applied inside State.result)."""
        for ai, a in enumerate(self.c.actions):
            if not a.chance:
                continue
            names = [p[0] for p in a.params] + a.chance.names
            out(f"def _apply{ai}({', '.join([self.sig] + [f'p_{n}' for n in names])}):")
            out.indent()
            env = {n: f"p_{n}" for n in names}
            self.apply_body(out, a, env, frame=False)
            out.dedent()
            out()

    def legal_after_functions(self, out: _Source):
        """_after<i>(fields, params): whether action i's `legal_after` holds in the position
        its effects leave (run on the function's own copies of the fields; `mover` stays the
        player who moved).  Legal-move generation calls it for each candidate move."""
        for ai, a in enumerate(self.c.actions):
            if a.legal_after is None:
                continue
            env = {p[0]: f"p_{p[0]}" for p in a.params}
            out(f"def _after{ai}({', '.join([self.sig] + list(env.values()))}):")
            out.indent()

            def emit(o, a=a, env=env):
                self.note_param_ranges(a)
                self.written = {"mover"}
                if _assigns_turn(a.effects):
                    o(f"turn = {UNSET_TURN}")
                self.effects(a.effects, env, o)
                o(f"return {self.expr(a.legal_after, env)}")
            self.per_mover(out, emit)
            out.dedent()
            out()

    def apply_body(self, out: _Source, a, env, frame=True):
        """The effects of action `a`, the next player and the return of the successor.  With
        `frame`, the parent (a state with `terminal` in scope) is known not to be terminal
        unless `terminal` says so, which lets the successor's terminal test skip what the
        effects cannot have changed."""
        out(f"# {len(a.effects)} effect(s) of action #{self.c.actions.index(a)}")
        self.note_param_ranges(a)
        self.written = {"mover"}
        sets_turn = _assigns_turn(a.effects)
        if self.c.turn is not None:
            turn_rule = self.expr(self.c.turn, {})
        elif self.mover_const is not None:
            turn_rule = str((self.mover_const + 1) % self.n)
        else:
            turn_rule = f"(mover + 1) % {self.n}" if self.n > 1 else "0"
        if sets_turn:
            out(f"turn = {UNSET_TURN}")
        known_empty = self.known_empty(a)
        mark, depth = len(out.lines), out.depth
        self.effects(a.effects, env, out, tuple(known_empty))
        if sets_turn:
            out(f"if turn == {UNSET_TURN}:")
            out(f"    turn = {turn_rule}")
        else:
            out(f"turn = {turn_rule}")
        child = self.sig_with_mover("turn")
        terminal, exact = self.child_terminal() if frame else (f"_terminal({child})", True)
        for field, was in self.unchanged.items():    # the values before the effects (child_terminal)
            if was in terminal:
                out.lines.insert(mark, "    " * depth + f"{was} = {field}")
        if not exact:
            out("# terminal: the tests that read what this move wrote (the others failed in the parent)")
        if self.leaf_count:
            self.count_after(out, terminal, int(turn_rule) if not sets_turn and turn_rule.isdigit() else None)
            return
        pending = ", ()" if self.has_chance else ""
        out(f"return {self.packed(f'{child}{pending}, {terminal}')}")

    def child_terminal(self):
        """(code, exact): the successor's terminal test given that the parent's failed: a
        disjunct of the terminal (or goal) condition that reads no field the effects wrote
        is still false (exact: none was left out).  Should the parent be terminal after all,
        the whole test is made.  A disjunct whose written fields are all lists (tuples,
        which a write replaces) is tested only when one of them is not the parent's tuple
        (`self.unchanged`: field -> the local apply_body keeps the parent's in): the same
        tuples mean the same values, for which the parent's test failed (Ultimate
        tic-tac-toe's big board, written on the few moves that decide a small board)."""
        saved = self.mover_const, self.mover_code
        self.mover_const, self.mover_code = None, "turn"
        kept, exact = [], True
        fields = set(self.fields[:-1])
        lists = {f"v_{v.name}" for v in self.c.variables if v.is_array}
        self.unchanged = {}
        for d in _operands("or", self.c.terminal) + _operands("or", self.c.goal):
            code = self.expr(d, {})
            names = set(_IDENT.findall(code))
            reads = (names & fields) | ({"mover"} if "turn" in names else set())
            if reads & self.written:
                code = code if _is_bool(d, self) else f"bool({code})"
                changed = None
                if reads & self.written <= lists:
                    changed = " or ".join(f"{f} is not {self.unchanged.setdefault(f, f'_was_{f}')}"
                                          for f in sorted(reads & self.written))
                if kept and changed and kept[-1][0] == changed:    # one test for a run of such disjuncts
                    kept[-1][1].append(code)
                else:
                    kept.append((changed, [code]))
            else:
                exact = False
        self.mover_const, self.mover_code = saved
        kept = [" or ".join(codes) if changed is None else f"(({changed}) and ({' or '.join(codes)}))"
                for changed, codes in kept]
        if not exact and not self.raw:           # the kernel applies moves to non-terminal states only
            kept.append(f"(terminal and _terminal({self.sig_with_mover('turn')}))")
        return " or ".join(kept) or "False", exact

    def known_empty(self, a) -> list:
        """Cells the precondition of `a` proves to hold the initial value (so cells of the
        board, never `none`): a cell parameter it requires to, and `drop(board, X)` when it
        requires the top cell `(X, 0)` of a column X on the board to (the column is not full)."""
        found = [ast.Name(p[0]) for p in a.params if p[2] == "cell" and self._requires_default(a, p[0])]
        board = self.c.spec.board
        for cond in _operands("and", a.precondition):
            if isinstance(cond, ast.Binary) and cond.op == "==":
                for x, y in ((cond.left, cond.right), (cond.right, cond.left)):
                    if self.is_board_read(x) and isinstance(x.index, ast.TupleExpr) and x.index.items[1] == ast.Num(0) \
                            and self.in_bounds(x.index.items[0], self.c.width) and self.const_value(y) == self.c.default_value:
                        found.append(ast.Call("drop", (ast.Name(board.name), x.index.items[0])))
        return found

    def _requires_default(self, a, pname):
        for cond in _operands("and", a.precondition):
            if isinstance(cond, ast.Binary) and cond.op == "==":
                for x, y in ((cond.left, cond.right), (cond.right, cond.left)):
                    if self.is_board_read(x) and _is_name(x.index, pname) and self.const_value(y) == self.c.default_value:
                        return True
        return False
