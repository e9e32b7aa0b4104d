"""The work budget of a spec's rules, checked before anything runs: the values one
evaluation of a rule (a precondition for one binding of its action's parameters, an
effect, the terminal test...) can visit is the product of the domains of its nested
quantifiers and `for` loops, and the bindings an action tries are the product of its
parameters' (and chance variables') domains; each must stay within `MAX_NESTED_WORK`.  A domain whose bounds depend on the state counts as the most values a
range may have during play (`runtime.MAX_SPAN`).  Two nested quantifiers over 100,000
values each would otherwise take 10^10 steps while the game loads (the initial state's
rules) or on the first move, before any `--time` could stop them.  A separate pass of
the checker, run on its output (the resolved rules, options folded in).
"""
from __future__ import annotations

from framework import ast
from framework.checker.constants import NotConstant
from framework.checker.model import err
from framework.runtime import MAX_SPAN

MAX_NESTED_WORK = 10_000_000       # values one evaluation of a rule may visit


def check_nested_work(checker, out) -> None:
    """A SpecError at the innermost quantifier (or `for`, or parameter) where the product of
    the nested domains passes MAX_NESTED_WORK (`checker` folds the constant bounds)."""
    sizes = _Sizes(checker, out)
    for action in out.actions:
        outer = [(name, domain) for name, domain, _ in action.params]
        if action.chance is not None:
            outer += [(name, domain) for name, domain, _ in action.chance.variables]
        factor = 1
        for name, domain in outer:
            factor *= sizes.of(domain)
            sizes.within(factor, getattr(domain, "pos", action.pos), f"the parameters of `{action.name}`")
        sizes.walk((action.precondition, action.effects, action.noisy, action.legal_after), 1)
    utility = out.utility[1] if isinstance(out.utility, tuple) else out.utility
    sizes.walk((out.init, out.turn, out.terminal, out.goal, out.winner, utility,
                [feature[2] for feature in out.features]), 1)


class _Sizes:
    def __init__(self, checker, out):
        self.fold = checker.fold
        self.cells = max(1, out.width * out.height)
        self.players = len(out.players)
        self.enums: dict = {}
        for type_name, _ in out.enums.values():
            self.enums[type_name] = self.enums.get(type_name, 0) + 1

    def of(self, domain) -> int:
        """The most values `domain` can have."""
        if isinstance(domain, ast.Range):
            try:
                return max(0, int(self.fold(domain.hi)) - int(self.fold(domain.lo)) + 1)
            except (NotConstant, TypeError, ValueError):
                return MAX_SPAN
        if isinstance(domain, ast.Name) and domain.id == "player":
            return self.players
        if isinstance(domain, ast.Name) and domain.id in self.enums:
            return self.enums[domain.id]
        return self.cells                       # `cell` or a set of cells

    @staticmethod
    def within(work: int, pos, what: str):
        if work > MAX_NESTED_WORK:
            raise err(pos, f"{what} range over {work:,} combinations of values, more than "
                           f"{MAX_NESTED_WORK:,} (the product of the nested domains)",
                      "use smaller domains, or fewer nested quantifiers")

    def walk(self, node, factor: int):
        if isinstance(node, (list, tuple, dict)):
            for item in (node.values() if isinstance(node, dict) else node):
                self.walk(item, factor)
            return
        fields = getattr(type(node), "__record_fields__", None)
        if fields is None or not type(node).__module__ == ast.__name__:
            return
        if isinstance(node, (ast.Quant, ast.ForEffect)):
            inner = factor * self.of(node.domain)
            self.within(inner, node.pos, "the nested quantifiers (and `for` loops) here")
            self.walk(node.domain, factor)
            self.walk(node.body, inner)
            return
        for name in fields:
            self.walk(getattr(node, name), factor)
