"""A compulsory move read off the other action's count: `step` is legal only if `not
must_jump`, and `must_jump` says, in other words, that some `jump` is legal.

Strangers write the compulsory capture of draughts this way: the quiet move's precondition
has `not must_jump`, where `must_jump: exists a in cell: own(a) and exists b in cell:
can_jump(a, b)` repeats the jump's own precondition over its parameters.  Counted as
written, each position evaluates `must_jump` and then counts the jumps, the same masks
twice.  `compulsory` finds such pairs on the checked (inlined) rules, and legal.py counts
(tests, or lists where that keeps the spec's order) the jump first and reads `not must_jump`
as "no jump was found".

The rule is proved on the checked trees, for every spec:

- the conjunct of A's precondition is `not Q`, Q `exists x1 in D1: ... exists xn in Dn: ...`
  whose conjuncts (quantifiers of `exists` lifted out of `and`s: `P and exists y in D: R` is
  `exists y in D: P and R` when y is not read by P) are C1 ... Ck;
- action B has n parameters over D1 ... Dn (renamed: x_i is B's i-th parameter; bound
  variables compared by depth), has no chance and no `legal_after`: it is legal exactly where
  its test holds (a compound move's first step: a sequence exists when its first step does,
  whatever `prefer: longest` keeps of them);
- B's precondition's conjuncts are C1 ... Ck and others each implied where A's `not Q` is
  tested: the same as a conjunct of A that reads no parameter of A (`jumper == none`), or an
  `or` with such a disjunct (`jumper == none or jumper == a`);
- no C_i can raise a run-time error (`may_raise`; the player to move is never `none`), so
  not testing Q changes no error.

Then, wherever A's other state conjuncts hold, Q holds exactly when some B is legal.
Where the trees do not show it (Q written over other variables: a neighbour and the cell
beyond it, as English draughts' `must_capture`), `mask_pairs` proves the pair on the code
written for the player to move: Q's masks and B's "is there a move" read as the same
existential terms (framework/compiler/mask_terms.py; tests/test_mask_terms.py).
tests/test_compulsory.py plays generated specs of that shape, and Brazilian draughts (a
compound capture under `prefer: longest`), against the interpreter.
"""
from __future__ import annotations

from dataclasses import replace

from framework import ast
from framework.compiler.common import _Source, _names, _operands, may_raise
from framework.compiler.mask_terms import same_existence


class CompulsoryMixin:
    """Part of `Compiler` (framework.compiler): see the module docstring."""

    def read_off(self, mode: str):
        """({index of A: (index of B, A's conjunct `not Q`)}, the order legal.py writes the
        actions in: B first) for counting ("count"), testing ("any") or listing ("list").
        One B per game (the first).  A listing keeps the spec's order: it reads Q off only
        when every action before B is such an A (whose moves exist only where B has none, so
        B's moves first are the list in the spec's order) and B's moves go straight into the
        list (no `prefer: longest`, which lists compound moves apart); else it tests Q."""
        everything = list(range(len(self.c.actions)))
        if self.compulsory_pairs is None:
            self.compulsory_pairs = compulsory(self.c, self.types)
        found = self.compulsory_pairs or self.mask_pairs()
        if not found:
            return {}, everything
        first = min(b for b, _ in found.values())
        pairs = {a: pair for a, pair in found.items() if pair[0] == first}
        if mode == "list" and (self.c.prefer == "longest" or not set(range(first)) <= set(pairs)):
            return {}, everything
        return pairs, [first] + [i for i in everything if i != first]


    def mask_pairs(self) -> dict:
        """The pairs the trees do not show, proved on the code written for the player to move
        (framework/compiler/mask_terms.py): A's `not Q` where Q's masks and B's "is there a
        move" are the same existential terms.  Only with the mover known (per-mover code)."""
        if self.mover_const is None or self.tables is None:
            return {}
        found = self.mask_pairs_found.get(self.mover_const)
        if found is None:               # proved with no fact of the place it is asked from (kept for all)
            saved, self.and_facts, self.subst = (self.and_facts, self.subst), [], {}
            try:
                found = self.mask_pairs_found[self.mover_const] = self._mask_pairs()
            finally:
                self.and_facts, self.subst = saved
        return found

    def _mask_pairs(self) -> dict:
        found, actions = {}, self.c.actions
        boards = {f"b_{self.c.values[i]}": i for i in self.boards}
        for ai, a in enumerate(actions):
            if a.step or a.precondition is None:
                continue
            params = {p[0] for p in a.params}
            for cond in _operands("and", a.precondition):
                if _names(cond) & params or not (isinstance(cond, ast.Unary) and cond.op == "not"
                                                 and isinstance(cond.operand, ast.Quant)):
                    continue
                formula = self.expr(cond.operand, {})
                bodies = {name: (params_, body) for name, params_, body in self.outlined_source}
                for bi, b in enumerate(actions):
                    if bi == ai or b.step or b.chance is not None or b.legal_after is not None:
                        continue
                    code = _Source()
                    self.legal_schemas(code, "any", "acts", only=bi)
                    if same_existence(formula, code.lines, bodies, boards, len(self.c.values), self.tables.full):
                        found[ai] = (bi, cond)
                        break
                if ai in found:
                    break
        return found


def compulsory(checked, types) -> dict:
    """{index of A: (index of B, the conjunct `not Q` of A)} for the game's actions."""
    found = {}
    for ai, a in enumerate(checked.actions):
        if a.step or a.precondition is None:
            continue
        params = {p[0] for p in a.params}
        context = [c for c in _operands("and", a.precondition) if not _names(c) & params]
        for cond in context:
            if not (isinstance(cond, ast.Unary) and cond.op == "not" and isinstance(cond.operand, ast.Quant)):
                continue
            lifted = _lifted(cond.operand)
            if lifted is None:
                continue
            sure = frozenset(v for v, _ in lifted[0]) | {"mover"}        # (the player to move is never none)
            if any(may_raise(c, types, sure) for c in lifted[1]):
                continue
            rest = [c for c in context if c is not cond]
            b = next((bi for bi, b in enumerate(checked.actions) if bi != ai and _same_test(lifted, b, rest)), None)
            if b is not None:
                found[ai] = (b, cond)
                break
    return found


def _lifted(quant):
    """([(variable, domain)], [conjuncts]) of an `exists` chain, or None."""
    variables, conjuncts, todo = [], [], [quant]
    while todo:
        node = todo.pop(0)
        if not (isinstance(node, ast.Quant) and node.kind == "exists"):
            return None
        variables.append((node.var, node.domain))
        parts = _operands("and", node.body)
        for part in parts:
            if isinstance(part, ast.Quant) and part.kind == "exists":
                if any(part.var in _names(other) for other in parts if other is not part):
                    return None
                todo.append(part)
            else:
                conjuncts.append(part)
    names = [v for v, _ in variables]
    return (variables, conjuncts) if len(set(names)) == len(names) else None


def _same_test(lifted, b, context) -> bool:
    """Whether B's precondition is the lifted test over B's parameters plus conjuncts the
    `context` (A's conjuncts that read no parameter of A) implies."""
    variables, conjuncts = lifted
    if b.step or b.chance is not None or b.legal_after is not None or b.precondition is None \
            or len(b.params) != len(variables):
        return False
    rename = {}
    for (var, domain), (pname, pdomain, _) in zip(variables, b.params):
        if _renamed(domain, rename) != pdomain:
            return False
        rename[var] = pname
    wanted = [_bound_named(_renamed(c, rename)) for c in conjuncts]
    have = [_bound_named(c) for c in _operands("and", b.precondition)]
    context = [_bound_named(c) for c in context]
    return all(c in have for c in wanted) and \
        all(c in wanted or c in context or any(d in context for d in _operands("or", c)) for c in have)


def _bound_named(node, depth=0):
    """`node` with each quantifier's variable named by its depth (`§0`, `§1`, ...): the
    checker names bound variables apart (`e·3`, `e·5`), so equal tests compare equal."""
    if isinstance(node, ast.Quant):
        name = f"§{depth}"
        return replace(node, var=name, domain=_bound_named(node.domain, depth),
                       body=_bound_named(_renamed(node.body, {node.var: name}), depth + 1))
    return node if isinstance(node, ast.Name) else _children(node, lambda child: _bound_named(child, depth))


def _renamed(node, rename: dict):
    """`node` with the free names in `rename` replaced."""
    if not rename:
        return node
    if isinstance(node, ast.Name):
        return ast.Name(rename[node.id]) if node.id in rename else node
    if isinstance(node, ast.Quant):
        inner = {k: v for k, v in rename.items() if k != node.var}
        return replace(node, domain=_renamed(node.domain, rename), body=_renamed(node.body, inner))
    return _children(node, lambda child: _renamed(child, rename))


def _children(node, fn):
    """`node` with `fn` applied to each child node (in tuples too); a leaf as it is."""
    if not hasattr(node, "__dataclass_fields__"):
        return node
    changes = {}
    for name in node.__dataclass_fields__:
        value = getattr(node, name)
        if name != "pos" and isinstance(value, tuple):
            changes[name] = tuple(fn(v) for v in value)
        elif name != "pos" and hasattr(value, "__dataclass_fields__"):
            changes[name] = fn(value)
    return replace(node, **changes)
