"""The function-level kernel written under the State class: the same legal-move and effect
code over plain tuples and raw parameter values, for the searchers' inner loops.

The packed state is the plain tuple of the State's fields (`tuple(state)`; its hash is the
state's hash, and `_new(State, packed)` is the course-interface view of it).  A raw action
names a cell parameter by its bit index and an enum by its index (ints as they are), so
that applying it decodes nothing; a compound move is one raw action, its first step's raw
values followed by the later steps' (framework.compiler.compound), and `prefer` is applied
as State.actions() applies it (k_count counts the preferred moves).  Written for every game:

    k_actions(s)  the raw actions, in the order of State.actions()
    k_count(s)    how many there are (a bit count where move generation is a mask)
    k_apply(s, a) the successor, a plain tuple (the parent is not terminal)
    k_leaves(s, acts)  the sum of k_count(k_apply(s, a)) over the moves a of s (acts, when
                  given, are k_actions(s)), in one loop that builds no successor (perft's last ply)
    k_leaves_hot(s, acts, seen, hot)  k_leaves on a line `seen` (framework.history_line.Line)
                  of a game whose repetition rule ends it: a successor whose key occurred
                  `hot` times on it counts 0 (framework.history_kernel's last ply)
    k_leaves2(s, acts)  (the sum of k_count, the sum of k_leaves) over the children of s,
                  in two loops that build no child (perft's last two plies; not in a game
                  with a pass rule, nor where k_leaves's loop is over MAX_FUSED_CHARS long:
                  it holds the apply code of every schema inside the legal-move code of
                  every schema, which grows with the square of the rules)
    k_children(s) [(a, k_apply(s, a))] over the moves of the non-terminal s, in one call
                  (the moves generated and applied inline: the searchers' loops;
                  framework/compiler/children.py writes it)
    k_utility(s, me), k_returns(s)  player me's utility, every player's (0 until terminal)
    k_action(a)   the course-interface action of raw action a

In a game with chance the packed state keeps the State's `pending` field (the chance
action awaiting its outcome, None at decision nodes) before `terminal`; there
    k_outcomes(s) the [(outcome, probability)] of the chance node s, as State.chance_outcomes()
                  (kept by `pending` when no chance action reads the state)
and k_actions / k_apply at a chance node take its outcomes, as State.actions() / result()
do, k_children gives [(probability, successor)], and k_successors(s) a decision node's
successors without their actions.  Perft runs chance games on the
course interface, so they get no k_count / k_leaves.
"""
from __future__ import annotations

import re

from framework.compiler.common import MAX_FUSED_CHARS, MAX_SPECIALISED_PLAYERS, _IDENT, _Source
from framework.compiler.terminal_code import _before_no_move, _given, _truth

_CAN_MOVE = re.compile(r"_can_move\([^()]*\)")
_CAN_MOVE_ONLY = re.compile(r"[()\s]*(?:(?:not|and|or)[()\s]+)*[()\s]*")
_NO_MOVES = re.compile(r"return n or no_actions\(POSITIONS\[\d+\]\)$")
_NO_MOVES_LIST = re.compile(r"return (.+) or no_actions\(POSITIONS\[\d+\]\)$")
_WRITES_BOARD = re.compile(r"\bb_\w+\s*[|&^+\-]?=(?!=)")


class KernelMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def has_kernel(self) -> bool:
        return True

    def packed_names(self) -> list:
        """The names a packed state unpacks to: the fields, `pending` (chance), `terminal`."""
        return self.fields + (["pending"] if self.has_chance else []) + ["terminal"]

    def kernel_functions(self, out: _Source):
        unpack = ", ".join(self.packed_names())
        self.raw = True
        out("# The kernel: plain tuples and raw actions (framework/compiler/kernel.py).")
        out("def k_actions(s):")
        out.indent()
        out(f"{unpack} = s")
        out("if terminal:")
        out("    return ()")
        if self.has_chance:
            out("if pending:")
            out(f"    return [outcome for outcome, _ in _outcomes({self.sig}, pending)]")
        spec = self.c.spec
        self.positions.append(spec.positions.get("terminal") or spec.positions.get("goal") or spec.pos)
        self.legal(out, "list", "acts or ['pass']" if self.c.spec.pass_rule else
                   f"acts or no_actions(POSITIONS[{len(self.positions) - 1}])")
        out.dedent()
        out()
        if self.has_chance:
            self.outcomes_kernel(out, unpack)
        else:
            self.count_function(out, unpack)
        out("def k_apply(s, action):")
        out.indent()
        out(f"{unpack} = s")
        if self.has_chance:
            self.resolve_chance(out, None)
        self.apply_dispatch(out)
        out.dedent()
        out()
        if not self.has_chance:
            self.leaves_function(out, unpack)
        self.children_function(out, unpack)
        if self.has_chance:
            self.children_function(out, unpack, successors=True)
        self.utility_function(out, kernel=True)
        out("def k_returns(s):")
        out(f"    {unpack} = s")
        out("    if not terminal:")
        out(f"        return {(0,) * self.n}")
        out(f"    return ({''.join(f'_utility({self.sig}, {p}), ' for p in range(self.n))})")
        out()
        self.raw = False
        self.kernel_action(out)

    def count_function(self, out: _Source, unpack: str):
        out("def k_count(s):")
        out.indent()
        out(f"{unpack} = s")
        out("if terminal:")
        out("    return 0")
        self.legal(out, "count", self.counted_moves())
        out.dedent()
        out()

    def counted_moves(self) -> str:
        """What the move count returns: `n`, 1 for a pass, or the error of a state that is
        not terminal and has no move (as k_actions and State.actions raise it)."""
        if self.c.spec.pass_rule:
            return "n or 1"
        spec = self.c.spec
        self.positions.append(spec.positions.get("terminal") or spec.positions.get("goal") or spec.pos)
        return f"n or no_actions(POSITIONS[{len(self.positions) - 1}])"

    def leaves_function(self, out: _Source, unpack: str, level: int = 1):
        """k_leaves(s, acts=None): the successors' move counts summed in one loop over the
        moves `acts` of s (k_actions(s) when not given): the apply code with `count_after`
        at its end, each `return X` of it written `total += X; continue`; one loop per
        player to move when that code names the mover (no test of the mover per move).
        Level 2, k_leaves2(s, acts): (the children's move counts, the grandchildren's) in
        two nested loops that build only the children (`grand_after`); not written for a
        game with a pass rule (its passes are moves made by another path), nor when the
        loop of k_leaves is over MAX_FUSED_CHARS long (its size is about the square's)."""
        if level == "hot":
            out("def k_leaves_hot(s, acts, _seen, _hot):")
            out("    _bloom = _seen.bloom")
            out("    total = 0")
        elif level == 1:
            out("def k_leaves(s, acts=None):")
            out("    if acts is None:")
            out("        acts = k_actions(s)")
            out("    total = 0")
        else:
            out("def k_leaves2(s, _moves):")          # (`acts` is the children's move list)
            out("    near = far = 0")
        out(f"    {unpack} = s")
        self.leaf_count, result = (1, "total") if level != 2 else (2, "near, far")
        self.hot_leaves = level == "hot"
        moves = "acts" if level != 2 else "_moves"
        body = self.leaves_loop(unpack, moves, "s", "total", result, 1)
        if self.n > MAX_SPECIALISED_PLAYERS or "mover" not in _IDENT.findall("\n".join(body[2:])):
            out.lines += body
        else:
            for i in range(self.n):
                last = i == self.n - 1
                out("    # player %d to move" % i if last else f"    if mover == {i}:")
                self.mover_const = i
                out.lines += self.leaves_loop(unpack, moves, "s", "total", result, 1 + (not last))
                self.mover_const = None
        self.leaf_count, self.hot_leaves = 0, False
        out()
        if level == 1 and not self.c.spec.pass_rule and len("\n".join(body)) <= MAX_FUSED_CHARS:
            self.leaves_function(out, unpack, 2)
        if level == 1 and self.c.repetition and self.c.repetition[0] != "forbidden":
            self.leaves_function(out, unpack, "hot")

    def leaves_loop(self, unpack: str, acts: str, source: str, total: str, result, depth: int) -> list:
        """The lines, at `depth`, of a loop over the moves `acts` of the packed state named
        `source`: its apply code with each `return X` written `total += X; continue`, then
        `return result` (when given)."""
        body = _Source()
        body.depth = depth + 1
        self.apply_dispatch(body)
        pad = "    " * depth
        lines = self.hoist_occupied(body.lines, pad) + [f"{pad}for action in {acts}:", f"{pad}    {unpack} = {source}"]
        for line in body.lines:
            text = line.lstrip()
            if text.startswith("return "):
                indent = line[:len(line) - len(text)]
                lines += ([] if text == "return 0" else [f"{indent}{total} += {text[7:]}"]) + [f"{indent}continue"]
            else:
                lines.append(line)
        return lines + ([f"{pad}return {result}"] if result else [])

    def hoist_occupied(self, body: list, pad: str) -> list:
        """The move loop's invariant: until the first line that writes a bitboard (with no
        block opened before it), the occupied cells are the parent's, the same for every
        move.  Their complement (else their mask) is computed once before the loop
        (`_free<n>`), and those lines read it; returns the line that computes it, if any."""
        occupied = self.occupied()
        if not self.boards:
            return []
        for i, line in enumerate(body):
            text = line.strip()
            if text.endswith(":") and not text.startswith("#"):
                return []                     # a block: its lines may run after a write
            if _WRITES_BOARD.search(line):
                break
        else:
            return []
        for code in (f"~{occupied}", occupied):
            if any(code in line for line in body[:i + 1]):
                name = self.fresh("free")             # a loop inside the loop has its own
                body[:i + 1] = [line.replace(code, name) for line in body[:i + 1]]
                return [f"{pad}{name} = {code}"]
        return []

    def grand_after(self, out: _Source, terminal: str, next_player):
        """The end of k_leaves2's apply code: nothing when the child (its fields in the
        locals) is terminal, else its moves (`_a2`: the legal-move code inline when it
        has one exit, else k_actions) added to `near` and their successors' move counts,
        k_leaves's loop inline, to `far`."""
        unpack = ", ".join(self.fields + ["terminal"])
        saved, self.mover_const = self.mover_const, next_player
        spec = self.c.spec
        self.positions.append(spec.positions.get("terminal") or spec.positions.get("goal") or spec.pos)
        moves = _Source()
        moves.depth = out.depth
        self.legal(moves, "list", f"acts or no_actions(POSITIONS[{len(self.positions) - 1}])")
        returns = [line for line in moves.lines if line.lstrip().startswith("return ")]
        exit_ = _NO_MOVES_LIST.match(returns[0].strip()) if returns == moves.lines[-1:] else None
        inlined, can = self.inline_terminal(terminal), f"_can_move({self.sig_with_mover('turn')})"
        before = _before_no_move(inlined, can)
        read_off = exit_ and (before is not None or can in inlined and _CAN_MOVE_ONLY.fullmatch(_CAN_MOVE.sub("", inlined))
                              and (_given(inlined, can, True), _given(inlined, can, False)) == ("False", "True"))
        test = before if read_off else _truth(terminal)     # read off: terminal (after `before`) when no move
        if test is not None:
            out(f"if {test}:")
            out("    return 0")
        out("mover = turn")                     # (a compound move's walk reads it)
        out(f"_c = ({self.sig_with_mover('turn')}, False)")
        pad = returns[0][:len(returns[0]) - len(returns[0].lstrip())] if returns else ""
        if read_off:
            out.lines += moves.lines[:-1] + [f"{pad}_a2 = {exit_.group(1)}", f"{pad}if not _a2:", f"{pad}    return 0"]
        elif returns == moves.lines[-1:]:
            out.lines += moves.lines[:-1] + [f"{pad}_a2 = {returns[0].lstrip()[7:]}"]
        else:                                   # a move list of several exits (one per mover): called
            out("_a2 = k_actions(_c)")
        out("near += len(_a2)")
        self.leaf_count = 1
        out.lines += self.leaves_loop(unpack, "_a2", "_c", "far", None, out.depth)
        self.leaf_count = 2
        self.mover_const = saved
        out("return 0")

    def count_after(self, out: _Source, terminal: str, next_player):
        """The end of k_leaves's apply code: 0 when the successor (its fields in the locals, its
        player in `turn`, a constant `next_player` when known) is terminal, else how many
        moves it has.  When the terminal test is made of whether players can move (`not
        can_move(B) and not can_move(W)`), the next player's moves are counted first and the
        count answers its `can_move`."""
        if self.leaf_count == 2:
            self.grand_after(out, terminal, next_player)
            return
        if self.hot_leaves:
            _hot_test(self, out)
        saved, self.mover_const = self.mover_const, next_player
        count = _Source()
        count.depth = out.depth
        self.legal(count, "count", self.counted_moves())
        self.mover_const = saved
        if "mover" in _IDENT.findall(count.text()):
            out("mover = turn")
        occupied = self.occupied()
        if self.boards and (terminal + count.text()).count(occupied) > 1:      # the child's occupied cells, once
            out(f"_o = {occupied}")
            terminal = terminal.replace(occupied, "_o")
            count.lines = [line.replace(occupied, "_o") for line in count.lines]
        terminal = self.inline_terminal(terminal)
        turn_can = f"_can_move({self.sig_with_mover('turn')})"      # the counted player's
        can = turn_can if turn_can in terminal else None if next_player is None else \
            f"_can_move({self.sig_with_mover(str(next_player))})"
        returns = [line.strip() for line in count.lines if line.strip().startswith("return ")]
        before = _before_no_move(terminal, can) if can else None       # `A or not can_move(..)`
        if can and can in terminal and all(_NO_MOVES.match(line) for line in returns) and (before is not None or (
                _CAN_MOVE_ONLY.fullmatch(_CAN_MOVE.sub("", terminal))
                and (_given(terminal, can, True), _given(terminal, can, False)) == ("False", "True"))):
            if before is not None:              # A first, as written
                out(f"if {before}:")
                out("    return 0")
            out.lines += [_NO_MOVES.sub("return n", line) for line in count.lines]   # terminal: no move, n = 0
            return
        last = count.lines[-1].strip()
        if can and can in terminal and last.startswith("return ") and _CAN_MOVE_ONLY.fullmatch(_CAN_MOVE.sub("", terminal)) \
                and not any(line.strip().startswith("return ") for line in count.lines[:-1]):
            out.lines += count.lines[:-1]
            when = {value: _given(terminal, can, value) for value in (True, False)}
            test = {"False": "not n and ", "True": "n or "}.get(when[True])
            out(f"if {test}({when[False]}):" if test else f"if (({when[True]}) if n else ({when[False]})):")
            out("    return 0")
            out.lines.append(count.lines[-1])
            return
        out(f"if {_truth(terminal)}:")
        out("    return 0")
        out.lines += count.lines

    def inline_terminal(self, terminal: str) -> str:
        """`terminal`, or when it is the call `_terminal(fields, turn)` of a game with no
        goal, the terminal condition itself with the mover `turn` (so that count_after can
        see the `can_move` in it)."""
        if terminal != f"_terminal({self.sig_with_mover('turn')})" or self.c.goal is not None or self.c.terminal is None:
            return terminal
        saved = self.mover_const, self.mover_code
        self.mover_const, self.mover_code = None, "turn"
        try:
            code = self.expr(self.c.terminal, {})
        finally:
            self.mover_const, self.mover_code = saved
        return code if _CAN_MOVE.search(code) else terminal

    def kernel_action(self, out: _Source):
        """k_action(a): the course-interface action of a raw action."""
        out("def k_action(a):")
        out.indent()
        if self.c.spec.pass_rule:
            out("if a == 'pass':")
            out("    return a")
        for ai, a in enumerate(self.c.actions):
            types = [p[2] for p in a.params]
            if a.step:
                continue
            if a.chance is None and self.is_compound(a):    # the first step's values, then the later steps'
                first = 0 if self.single else 1
                code = [self.external(t, f"a[{k + first}]") for k, t in enumerate(types)]
                name = "" if self.single else "a[0], "
                move = f"({name}{''.join(x + ', ' for x in code)}) + {self.raw_tail(f'a[{len(types) + first}:]')}"
                if not self.single:
                    out(f"if a[0] == ACTION_NAMES[{ai}]:")
                out(f"{'' if self.single else '    '}return {move}")
            elif self.single:
                values = ["a"] if len(types) == 1 else [f"a[{k}]" for k in range(len(types))]
                code = [self.external(t, v) for t, v in zip(types, values)]
                out(f"return {code[0]}" if len(types) == 1 else f"return ({''.join(x + ', ' for x in code)})")
            elif not types:
                out(f"if a == ACTION_NAMES[{ai}]:")
                out("    return a")
            else:
                code = [self.external(t, f"a[{k + 1}]") for k, t in enumerate(types)]
                out(f"if a[0] == ACTION_NAMES[{ai}]:")
                out(f"    return (a[0], {''.join(x + ', ' for x in code)})")
        if not self.single:
            out("raise KeyError(a)")
        out.dedent()
        out()


def _hot_test(compiler, out: _Source):
    """In k_leaves_hot (written when a repetition ends the game: draw, loss or scored):
    0 for a successor whose repetition key (framework.history: the fields `over` names,
    else the whole packed position, not terminal) occurred `_hot` times on the line
    `_seen`, which that rule ends (its bit in the line's 256-bit mask tested first: most
    keys have not occurred).  framework.history_kernel calls it for perft's last ply
    instead of building every successor; a terminal successor counts 0 either way."""
    from framework.history import over_indices
    fields = [f if f != "mover" else "turn" for f in compiler.fields]
    over = over_indices(compiler.c, compiler.fields)
    key = fields + ["False"] if over is None else [fields[i] for i in over]
    out(f"_k = {key[0] if len(key) == 1 else '(' + ', '.join(key) + ')'}")
    out("if _bloom >> (hash(_k) & 255) & 1 and _seen.count(_k) >= _hot:")
    out("    return 0")
