"""Every child of a node in one generated call, for the searchers' loops:

    k_children(s)    [(action, successor)] of a decision node, [(probability, successor)]
                     of a chance node (framework/compiler/chance.py writes that part)
    k_successors(s)  the successors alone of a decision node (games with chance: expectimax
                     searches the decision nodes below a chance node without their actions)

The legal-move code and the apply code inline: a loop over the move list with the apply
code for each move, or, when no action has parameters, no move list at all (each move's
apply code where the legal-move code would append it).
"""
from __future__ import annotations

import re

from framework.compiler.common import _Source

_APPEND_NAME = re.compile(r"acts\.append\(ACTION_NAMES\[(\d+)\]\)")


class ChildrenMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def children_function(self, out: _Source, unpack: str, successors=False):
        """k_children(s): [(action, successor)] of a decision node, [(probability,
        successor)] of a chance node, in one call: the apply code inline in a loop over the
        moves (outcomes), each `return X` of it written `children.append((tag, X)); continue`.
        `successors`: k_successors(s), the successors alone of a decision node."""
        out(f"def k_{'successors' if successors else 'children'}(s):")
        out.indent()
        out("children = []")
        append = out.lines.append
        tag = None if successors else "action"
        if self.has_chance and not successors:
            self.chance_children(out, unpack)
        out(f"{unpack} = s")
        spec = self.c.spec
        self.positions.append(spec.positions.get("terminal") or spec.positions.get("goal") or spec.pos)
        if not spec.pass_rule and not self.single and not any(a.params or self.is_compound(a) for a in self.c.actions):
            self.fused_children(out, unpack, tag)
            return
        out("while True:                  # the moves, as k_actions makes them (s is not terminal)")
        moves = _Source()
        moves.depth = out.depth + 1
        self.legal(moves, "list", "acts or ['pass']" if spec.pass_rule else
                   f"acts or no_actions(POSITIONS[{len(self.positions) - 1}])")
        for line in moves.lines:
            text = line.lstrip()
            if text.startswith("return "):       # the end of move generation (never in a loop)
                pad = line[:len(line) - len(text)]
                out.lines += [f"{pad}acts = {text[7:]}", f"{pad}break"]
            else:
                append(line)
        out("for action in acts:")
        body = _Source()
        body.depth = out.depth + 1
        body(f"{unpack} = s")
        self.apply_dispatch(body)
        for line in _appending(body.lines, tag):
            append(line)
        out("return children")
        out.dedent()
        out()

    def fused_children(self, out: _Source, unpack: str, tag):
        """k_children's moves when no action has parameters: each `acts.append(name)` of
        the legal-move code (per mover) becomes that action's apply code in place (in a
        `while True` block, each `return X` written `children.append((name, X)); break`),
        followed by the fields unpacked again for the tests after it: no move list, no
        dispatch."""
        ret = f"return children or no_actions(POSITIONS[{len(self.positions) - 1}])"

        def emit(o):
            moves = _Source()
            moves.depth = o.depth
            self.legal_schemas(moves, "list", ret[7:])
            for line in moves.lines:
                text = line.lstrip()
                pad = line[:len(line) - len(text)]
                name = _APPEND_NAME.fullmatch(text)
                if text == "acts = []":
                    continue
                if text == ret and o.lines[-1] == f"{pad}{unpack} = s":
                    o.lines.pop()                  # no test reads the fields after the last move
                if name is None:
                    o.lines.append(line)
                    continue
                action = self.c.actions[int(name.group(1))]
                body = _Source()
                body.depth = len(pad) // 4 + 1
                if action.chance:
                    body(f"return {self.packed(f'{self.sig}, ({name.group(1)}, ()), False')}")
                else:
                    self.per_mover(body, lambda b: self.apply_body(b, action, {}))
                label = tag and repr(action.name)       # ACTION_NAMES[i], a constant
                if len(body.lines) == 1:                # one successor, written by no statement
                    o.lines += _appending([pad + body.lines[0].lstrip()], label, None)
                    continue
                o.lines.append(f"{pad}while True:")
                o.lines += _appending(body.lines, label, "break")
                o.lines.append(f"{pad}{unpack} = s")

        self.per_mover(out, emit)
        out.dedent()
        out()


def _appending(lines, tag, then="continue"):
    """Apply-code lines with each `return X` written `children.append((tag, X)); continue`
    (`children.append(X)` when `tag` is None; `then` instead of continue, if any)."""
    for line in lines:
        text = line.lstrip()
        if text.startswith("return "):
            pad = line[:len(line) - len(text)]
            yield f"{pad}children.append({text[7:]})" if tag is None else f"{pad}children.append(({tag}, {text[7:]}))"
            if then:
                yield f"{pad}{then}"
        else:
            yield line
