"""What the language server knows about a planning file: a YAML planning spec, a `.plan`
file or a PDDL domain or problem.

The diagnostics come from the same front-ends and checker as `plyspec check`; the name
index from the positions those front-ends keep (every predicate, object, action and
parameter of a `PlanningProblem`, its sections and the places types and options are
used) and, for PDDL, from `planners.formats.pddl_names` (a problem is indexed with the domain
file beside it, so that its predicates and types lead there).
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from framework.lsp.analysis import Analysis, Occurrence, Symbol

YAML_KEYWORDS = ("problem", "domain", "options", "types", "objects", "predicates", "derived",
                 "actions", "init", "goal", "pre", "add", "del", "cost", "when", "forall", "if")
PLAN_KEYWORDS = ("problem", "domain", "options", "types", "objects", "predicates", "derived",
                 "action", "pre", "add", "del", "cost", "when", "forall", "if", "init", "goal")
PDDL_KEYWORDS = ("define", "domain", "problem", ":domain", ":requirements", ":types", ":constants",
                 ":predicates", ":functions", ":action", ":parameters", ":precondition", ":effect",
                 ":objects", ":init", ":goal", ":metric", "and", "not", "or", "imply", "exists",
                 "forall", "when", "either", "increase", "total-cost", "minimize")
COMPLETION_KINDS = {"predicate": "Function", "function": "Function", "object": "EnumMember",
                    "type": "Class", "parameter": "Variable", "option": "Constant"}
# what a used name may be declared as
MEANS = {"predicate": ("predicate", "function"), "object": ("object",), "type": ("type",),
         "parameter": ("parameter",), "variable": ("parameter",), "option": ("option",)}


def analyse_planning(path: str, text: str, result: Analysis) -> None:
    """Reads the YAML or `.plan` spec, indexes its names, then checks it (SpecError)."""
    from planners.lifted.check import check
    if Path(path).suffix.lower() == ".plan":
        from planners.formats.plan_text import parse_plan_text
        problem = parse_plan_text(text, path)
    else:
        from planners.formats.yaml_spec import parse_yaml
        problem = parse_yaml(text, path)
    _index_problem(problem, result)
    check(problem)


def analyse_pddl(path: str, text: str, result: Analysis, opened: dict) -> None:
    """Indexes the PDDL file (with its domain, for a problem), then checks it alone as
    `plyspec check FILE.pddl` does (SpecError).  A problem's domain is the text open in
    the editor if it is open (`opened`: path -> text), else the file on disk."""
    from framework.errors import SpecError
    from framework.files import read_text
    from planners.formats.pddl_alone import check_pddl_text, domain_beside
    from planners.formats.pddl_names import pddl_names
    names = pddl_names(text)
    domain = domain_text = None
    if names.kind == "problem":
        domain = domain_beside(path)
        if domain is not None:
            domain_text = opened.get(str(domain.resolve()))
            try:
                domain_text = read_text(domain, what="PDDL domain") if domain_text is None else domain_text
                _index_pddl(pddl_names(domain_text), result, str(domain))
                result.files[str(domain)] = domain_text.split("\n")
            except SpecError:
                pass
    _index_pddl(names, result, None)
    if domain is None or domain_text is None or str(domain.resolve()) not in opened:
        check_pddl_text(text, path)
        return
    import tempfile                      # the open domain's text, checked under its own name
    with tempfile.TemporaryDirectory(prefix="plyspec-lsp-") as folder:
        copy = Path(folder) / domain.name
        copy.write_text(domain_text, encoding="utf-8")
        try:
            check_pddl_text(text, path, copy)
        except SpecError as err:
            from framework.errors import all_errors
            for e in [err, *all_errors(err)]:
                if e.file == str(copy):
                    e.file = str(domain)
            raise


def _index_pddl(names, result: Analysis, file) -> None:
    for d in names.declared:
        shown = f"{d.kind} `{d.name}`" if d.kind not in ("predicate", "function", "action") else d.kind
        result.symbols.append(Symbol(d.name, d.kind, d.line, d.col, f"{shown}: `{d.detail}`", d.scope, file))
    if file is None:
        result.occurrences.extend(Occurrence(u.name, u.line, u.col, u.end_col, False, u.scope, u.kind)
                                  for u in names.used)
        result.sections = dict(names.sections)


# ------------------------------------------------------------------ YAML and .plan specs
def _index_problem(problem, result: Analysis) -> None:
    add = result.symbols.append
    sig = _signature_text(problem)
    for t in problem.types:
        add(_symbol(t.name, "type", t.pos, f"type `{t.name}`" +
                    (f", a subtype of `{t.parent}`" if t.parent != "object" else "")))
    by_place = {}
    for obj in problem.objects:
        by_place.setdefault((obj.pos.line, obj.pos.col), []).append(obj)
    for group in by_place.values():
        many = f" (one of {group[0].name} ... {group[-1].name}, {len(group)} objects)" if len(group) > 1 else ""
        for obj in group:
            add(_symbol(obj.name, "object", obj.pos, f"object `{obj.name}` of type `{obj.type}`{many}"))
    for name, value in problem.options.items():
        where = problem.positions.get(f"option {name}")
        if where is not None:
            add(_symbol(name, "option", where, f"option `{name}` (default {value}; "
                        f"override with --set {name}=...)"))
    for p in problem.predicates:
        add(_symbol(p.name, "predicate", p.pos, f"predicate `{sig(p.name, p.params)}`"))
    for a in problem.actions:
        add(_symbol(a.name, "action", a.pos, f"action `{sig(a.name, a.params)}`" + _effects_text(problem, a)))
        for p in a.params:
            add(_symbol(p.name, "parameter", p.pos, f"parameter `{p.name} - {p.type}` of `{a.name}`", a.name))
        _variables([a.condition, *a.effects], a.name, result)
        _uses([a.preconditions, a.condition, a.effects], result, a.name)
        _uses([*a.add, *a.delete, a.cost], result, a.name)
    _variables([problem.goal_formula, *problem.derived], None, result)
    _uses([problem.init, problem.function_values, problem.goal, problem.goal_formula,
           problem.derived], result, None)
    for kind, name, pos in problem.name_uses:
        _use(result, name, pos, None, kind)
    result.occurrences = list(dict.fromkeys(result.occurrences))   # a generated item: once per name
    result.sections = {name: pos.line for name, pos in problem.positions.items() if " " not in name}


def _variables(nodes, scope, result: Analysis) -> None:
    """The variables of quantifiers, `forall` effects and derived-predicate heads, declared
    in `scope` (an action's name, or None)."""
    from planners.lifted.formula import DerivedRule, Effect, quantified_params
    for node in nodes:
        if isinstance(node, (Effect, DerivedRule)):
            inner = node.condition if isinstance(node, Effect) else node.body
            params = [*node.params, *quantified_params(inner)]
        else:
            params = list(quantified_params(node))
        for p in params:
            result.symbols.append(_symbol(p.name, "parameter", p.pos,
                                          f"variable `{p.name} - {p.type}`", scope))


def _signature_text(problem):
    if problem.action_style == "call":
        return lambda name, params: name + (f"({', '.join(f'{p.name} - {p.type}' for p in params)})"
                                            if params else "")
    return lambda name, params: "(" + " ".join([name, *(f"?{p.name} - {p.type}" for p in params)]) + ")"


def _effects_text(problem, action) -> str:
    def atoms(items):
        return ", ".join(problem.fact_text(a.predicate, [t.name for t in a.args]) for a in items) or "-"
    pre = ", ".join(_condition_text(problem, c) for c in action.preconditions) or "-"
    return f"\n\npre: {pre}\n\nadd: {atoms(action.add)}\n\ndel: {atoms(action.delete)}"


def _condition_text(problem, cond) -> str:
    atom = getattr(cond, "atom", None)
    if atom is not None:
        return ("" if cond.positive else "not ") + problem.fact_text(atom.predicate, [t.name for t in atom.args])
    if hasattr(cond, "left"):
        return f"{cond.left} {'==' if cond.positive else '!='} {cond.right}"
    return type(cond).__name__.lower()          # a condition this summary does not spell out


def _symbol(name, kind, pos, detail, scope=None) -> Symbol:
    return Symbol(name, kind, pos.line, pos.col, detail, scope)


def _use(result: Analysis, name: str, pos, scope, kind) -> None:
    end = pos.end_col if pos.end_col and pos.end_col > pos.col else pos.col + len(name)
    result.occurrences.append(Occurrence(name, pos.line, pos.col, end, False, scope, kind))


def _uses(node, result, scope) -> None:
    """Every atom, function term and term below `node` (any planning AST node or list of
    them, whatever conditions the AST grows), recorded with the action they are in."""
    from planners.lifted.ast import Atom, FunctionTerm, Term
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(reversed(n))
        elif isinstance(n, Term):
            _use(result, n.name, n.pos, scope, "parameter" if n.variable else "object")
        elif isinstance(n, (Atom, FunctionTerm)):
            _use(result, n.predicate if isinstance(n, Atom) else n.function, n.pos, scope, "predicate")
            stack.extend(reversed(n.args))
        elif dataclasses.is_dataclass(n) and not isinstance(n, type):
            stack.extend(reversed([getattr(n, f.name) for f in dataclasses.fields(n) if f.name != "pos"]))


def planning_completions(result: Analysis, scope: str | None, at_line_start: bool, path: str) -> list:
    """[(label, CompletionItemKind name, detail)] in a planning file."""
    suffix = Path(path).suffix.lower()
    items = []
    if suffix == ".pddl":
        items += [(k, "Keyword", "PDDL") for k in PDDL_KEYWORDS]
    elif at_line_start:
        items += [(k if suffix == ".plan" else f"{k}:", "Keyword", "section")
                  for k in (PLAN_KEYWORDS if suffix == ".plan" else YAML_KEYWORDS)]
    for s in result.symbols:
        if s.kind in COMPLETION_KINDS and s.scope in (None, scope):
            label = f"?{s.name}" if suffix == ".pddl" and s.kind == "parameter" else s.name
            items.append((label, COMPLETION_KINDS[s.kind], s.detail.split("\n")[0]))
    return items
