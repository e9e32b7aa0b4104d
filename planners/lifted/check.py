"""Static checks of a lifted planning problem, shared by the PDDL and YAML front-ends:
duplicate names, unknown types / predicates / objects / parameters / functions, wrong
arities and type cycles.  Every mistake raises a SpecError at its position with a
did-you-mean hint where a close name exists.
"""
from __future__ import annotations

from framework.errors import SpecError, SpecErrors, all_errors, did_you_mean
from planners.lifted.formula import Junction, Negation, formulas_of, quantified_params
from planners.lifted.ast import (ROOT_TYPE, Atom, Equality, FunctionTerm, Literal, PlanningProblem,
                          Pos, Term, TypeDef, either_members)


def _unique(items, what: str) -> dict:
    """name -> item; a second definition of a name is an error at its position."""
    seen = {}
    for item in items:
        if item.name in seen:
            first = seen[item.name].pos
            raise item.pos.error(f"duplicate {what} `{item.name}`",
                                 f"`{item.name}` is already defined at line {first.line}")
        seen[item.name] = item
    return seen


class _Checker:
    def __init__(self, problem: PlanningProblem):
        self.problem = problem
        self._complete_types()
        self.types = {t.name: t for t in problem.types}
        self.below = subtypes(problem)
        self.objects = _unique(problem.objects, "object")
        self.predicates = _unique(problem.predicates, "predicate")
        self.functions = _unique(problem.functions, "function")
        _unique(problem.actions, "action")

    def _complete_types(self):
        """Declares implicit parent types (PDDL allows `truck - vehicle` without declaring
        `vehicle`) and refuses cycles.  A type may be declared more than once with other
        parents (IPC's storage declares `area - object` and `area crate - surface`): it
        then has them all, as Fast Downward reads it."""
        declared: dict[str, list] = {}
        for t in self.problem.types:
            if t.name != ROOT_TYPE:
                declared.setdefault(t.name, []).append(t)
        for defs in list(declared.values()):
            for t in defs:
                if t.parent != ROOT_TYPE and t.parent not in declared:
                    declared[t.parent] = [TypeDef(t.parent, ROOT_TYPE, t.pos)]
                    self.problem.types.append(declared[t.parent][0])
        parents = {name: {t.parent for t in defs} for name, defs in declared.items()}
        for name, defs in declared.items():
            if name in _ancestors(parents, name):
                raise defs[0].pos.error(f"type `{name}` is its own ancestor (a cycle in the "
                                        "type hierarchy)")

    def type_name(self, name: str, pos: Pos):
        for member in either_members(name) or ():
            self.type_name(member, pos)
        if name != ROOT_TYPE and name not in self.types and either_members(name) is None:
            raise pos.error(f"unknown type `{name}`", did_you_mean(name, [*self.types, ROOT_TYPE]))

    def check(self):
        """Checks the declarations, then every action, initial fact and goal; one's mistake
        does not hide another's: all are raised together (a SpecErrors), one per place in
        the text.  Uses are checked only once the declarations they rely on are sound."""
        p = self.problem
        self.all_of([*((self.type_name, obj.type, obj.pos) for obj in p.objects),
                     *((self.signature, d.params) for d in (*p.predicates, *p.functions))])
        self.all_of([*((self.action, action) for action in p.actions),
                     *((self.atom, atom, {}) for atom in p.init),
                     *((self.function_term, value.term, {}) for value in p.function_values),
                     *((self.condition, cond, {}) for cond in p.goal),
                     *((self.formula, f, {}) for f in [p.goal_formula] if f is not None),
                     *((self.derived, rule) for rule in p.derived)])

    @staticmethod
    def all_of(steps):
        errors, places = [], set()
        for method, *args in steps:
            try:
                method(*args)
            except SpecError as err:
                for e in all_errors(err):
                    if (e.file, e.line, e.col) not in places:  # a generated item: once per place
                        places.add((e.file, e.line, e.col))
                        errors.append(e)
        if errors:
            raise errors[0] if len(errors) == 1 else SpecErrors(errors)

    def action(self, action):
        params = self.params(action.params)
        for cond in action.preconditions:
            self.condition(cond, params)
        if action.condition is not None:
            self.formula(action.condition, params)
        for atom in [*action.add, *action.delete]:
            self.atom(atom, params)
        for effect in action.effects:
            scope = {**params, **self.params(effect.params)}
            if effect.condition is not None:
                self.formula(effect.condition, scope)
            self.atom(effect.atom, scope)
        self.not_derived(action)
        if isinstance(action.cost, FunctionTerm):
            self.function_term(action.cost, params)
        elif action.cost is not None and action.cost < 0:
            raise action.pos.error(f"action `{action.name}` has a negative cost")

    def derived(self, rule):
        params = self.params(rule.params)
        self.atom(rule.head, params)
        self.formula(rule.body, params)

    def not_derived(self, action):
        """An action may not change a derived predicate (PDDL 2.2)."""
        derived = {rule.head.predicate for rule in self.problem.derived}
        for atom in [*action.add, *action.delete, *(e.atom for e in action.effects)]:
            if atom.predicate in derived:
                raise atom.pos.error(f"action `{action.name}` changes the derived predicate "
                                     f"`{atom.predicate}`",
                                     "derived predicates are computed from the others, never set")

    def formula(self, formula, params: dict):
        """An ADL formula: its literals and equalities, quantified variables in scope."""
        if isinstance(formula, (Literal, Equality)):
            self.condition(formula, params)
        elif isinstance(formula, Negation):
            self.formula(formula.part, params)
        elif isinstance(formula, Junction):
            for part in formula.parts:
                self.formula(part, params)
        else:
            self.formula(formula.body, {**params, **self.params(formula.params)})

    def signature(self, params):
        """A predicate's or function's parameters: only their types matter, so a name may
        repeat (IPC files declare `(in ?obj ?obj)`, as Fast Downward accepts)."""
        for param in params:
            self.type_name(param.type, param.pos)

    def params(self, params) -> dict:
        seen = _unique(params, "parameter")
        for param in params:
            self.type_name(param.type, param.pos)
            self.not_an_object(param)
        return seen

    def not_an_object(self, param):
        """In YAML and `.plan` specs a variable is written without PDDL's `?`, so a
        parameter named like an object would hide that object wherever it is used."""
        obj = self.objects.get(param.name)
        if obj is not None and self.problem.action_style == "call":
            raise param.pos.error(
                f"parameter `{param.name}` has the name of the object `{param.name}` "
                f"(line {obj.pos.line}): a name in a signature declares a parameter",
                f"to mean the object, give the parameter its own name and require it: "
                f"`p - {obj.type}` and `p == {param.name}` in `pre`; else rename the parameter")

    def condition(self, cond, params: dict):
        if isinstance(cond, Equality):
            self.term(cond.left, params)
            self.term(cond.right, params)
        else:
            assert isinstance(cond, Literal)
            self.atom(cond.atom, params)

    def atom(self, atom: Atom, params: dict):
        self.application("predicate", atom.predicate, atom.args, atom.pos, self.predicates, params)

    def function_term(self, term: FunctionTerm, params: dict):
        self.application("function", term.function, term.args, term.pos, self.functions, params)

    def application(self, what: str, name: str, args, pos: Pos, known: dict, params: dict):
        """`name(args)`: a known predicate or function, the right arity, known terms."""
        definition = known.get(name)
        if definition is None:
            raise pos.error(f"unknown {what} `{name}`", did_you_mean(name, known))
        self.arity(pos, what, name, len(definition.params), len(args))
        for term, declared in zip(args, definition.params):
            self.term(term, params)
            self.compatible(term, params, declared.type, name)

    def compatible(self, term: Term, params: dict, expected: str, where: str):
        """An object or a parameter must be of the expected type or one of its subtypes,
        so grounding never makes an ill-typed fact."""
        actual = params[term.name].type if term.variable else self.objects[term.name].type
        if actual in self.below[expected] or (either_members(actual) and
                                              self.below[actual] - {actual} <= self.below[expected]):
            return
        what = "parameter" if term.variable else "object"
        raise term.pos.error(f"{what} `{term.name}` is {_a(actual)}, `{where}` expects "
                             f"{_a(expected)} here",
                             f"give `{term.name}` the type {expected} (or one of its subtypes)"
                             if term.variable else None)

    @staticmethod
    def arity(pos: Pos, what: str, name: str, expected: int, given: int):
        if expected != given:
            raise pos.error(f"{what} `{name}` takes {expected} argument(s), {given} given")

    def term(self, term: Term, params: dict):
        if term.variable:
            if term.name not in params:
                raise term.pos.error(f"unknown parameter `{term.name}`",
                                     did_you_mean(term.name, params) or
                                     "declare it in the action's parameters")
        elif term.name not in self.objects:
            raise term.pos.error(f"unknown object `{term.name}`",
                                 did_you_mean(term.name, [*self.objects, *params]))


def check(problem: PlanningProblem) -> PlanningProblem:
    """Raises a SpecError for the mistakes in `problem` (a SpecErrors when there are
    several, reading as the first); returns it unchanged."""
    _Checker(problem).check()
    return problem


def _a(type_name: str) -> str:
    """`a place`, `an object`, `a (either truck plane)`."""
    return ("an " if type_name[0] in "aeiouAEIOU" else "a ") + type_name


def _ancestors(parents: dict[str, set], name: str) -> set:
    """Every type above `name` along every parent (`parents`: type -> its parents' names);
    `name` itself only through a cycle."""
    seen, todo = set(), list(parents.get(name, ()))
    while todo:
        parent = todo.pop()
        if parent not in seen:
            seen.add(parent)
            todo += parents.get(parent, ())
    return seen


def subtypes(problem: PlanningProblem) -> dict[str, set[str]]:
    """type -> the set of that type and all its descendants; an `either` type used by a
    parameter -> the union of its members' sets."""
    below = {ROOT_TYPE: {ROOT_TYPE}}
    parents: dict[str, set] = {}
    for t in problem.types:
        below.setdefault(t.name, set()).add(t.name)
        parents.setdefault(t.name, set()).add(t.parent)
    for name in parents:
        for parent in _ancestors(parents, name):
            below.setdefault(parent, {parent}).add(name)
    params = [p for d in (*problem.predicates, *problem.functions, *problem.actions,
                          *problem.derived, *(e for a in problem.actions for e in a.effects))
              for p in d.params]
    params += [p for f in formulas_of(problem) for p in quantified_params(f)]
    for param in params:
        members = either_members(param.type)
        if members is not None and param.type not in below:
            below[param.type] = {param.type}.union(*(below.get(m, {m}) for m in members))
    return below
