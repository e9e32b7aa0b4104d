"""Grounding: instantiate a lifted `PlanningProblem` into a compact `Task`.

Only what can matter is instantiated:
- relaxed reachability: starting from the initial facts, an action schema is
  instantiated with the bindings whose positive preconditions are all reachable
  (a join over lookup tables of the reachable facts), its add effects become
  reachable, until nothing new appears;
- static facts (of predicates no action adds or deletes) are decided at grounding time
  and vanish from the task, as do negative preconditions on facts that can never hold;
- backward relevance: only facts that the goal depends on (through the preconditions of
  operators changing relevant facts) are kept; operators changing none of them go;
- the remaining facts become bits of a Python int, the operators precondition / absent /
  add / delete masks.

A limit on the number of ground operators (`max_operators`) turns a grounding that would
exhaust memory into a clear ValueError.
"""
from __future__ import annotations

from itertools import product

from framework.errors import LimitError
from planners.ast import Equality, FunctionTerm, PlanningProblem
from planners.check import subtypes
from planners.task import Operator, Task

DEFAULT_MAX_OPERATORS = 1_000_000
COMPILE_SECONDS_PER_OPERATOR = 60e-6     # compiling the successor function, measured on airport


class _Schema:
    """An action schema prepared for instantiation: its positive preconditions in join
    order, and the constraints checked once every parameter is bound."""

    def __init__(self, action, problem: PlanningProblem, objects_of: dict, static: set):
        self.action = action
        self.params = [p.name for p in action.params]
        self.domains = [objects_of[p.type] for p in action.params]
        self.domain_sets = [set(d) for d in self.domains]
        self.slot = {name: i for i, name in enumerate(self.params)}
        positives = [c.atom for c in action.preconditions if not isinstance(c, Equality) and c.positive]
        self.join = self._join_order(positives, static)
        self.negative_static = [self._pattern(c.atom) for c in action.preconditions
                                if not isinstance(c, Equality) and not c.positive
                                and c.atom.predicate in static]
        self.equalities = [(self._arg(c.left), self._arg(c.right), c.positive)
                           for c in action.preconditions if isinstance(c, Equality)]

    def _arg(self, term):
        """A parameter slot (int) or an object name (str)."""
        return self.slot[term.name] if term.variable else term.name

    def _pattern(self, atom):
        return atom.predicate, tuple(self._arg(t) for t in atom.args)

    def _join_order(self, atoms, static):
        """Static atoms first, then those sharing the most already-bound parameters.
        Each step is (predicate, argument positions known before it, how to build the
        lookup key from constants and bound slots, (position, slot) pairs it binds)."""
        steps, bound, left = [], set(), list(atoms)
        while left:
            best = max(left, key=lambda a: (sum(t.variable and t.name in bound for t in a.args),
                                            a.predicate in static, -len(a.args)))
            left.remove(best)
            positions, key, binds = [], [], []
            for position, term in enumerate(best.args):
                if not term.variable or term.name in bound:
                    positions.append(position)
                    key.append((term.variable, self._arg(term)))
                else:
                    binds.append((position, self.slot[term.name]))
            steps.append((best.predicate, tuple(positions), key, binds))
            bound.update(t.name for t in best.args if t.variable)
        return steps

    def bindings(self, facts: "_Facts", tick, limit: int):
        """Every full binding (a tuple of object names) whose positive preconditions are
        reachable facts and whose constraints hold.  `tick()` is called for every binding
        tried; more than `limit` partial bindings, or tries, are a LimitError."""
        partial = [[None] * len(self.params)]
        tries = 0
        for predicate, positions, key, binds in self.join:
            table = facts.table(predicate, positions)
            extended = []
            for binding in partial:
                lookup = tuple(binding[v] if is_slot else v for is_slot, v in key)
                for fact in table.get(lookup, ()):
                    tick()
                    new = self._bind(binding, binds, fact)
                    if new is not None:
                        extended.append(new)
                if len(extended) > limit:
                    self._too_many(limit)
            partial = extended
            if not partial:
                return
        for binding in partial:
            free = [i for i, value in enumerate(binding) if value is None]
            for values in product(*(self.domains[i] for i in free)):
                tick()
                tries += 1
                if tries > limit:
                    self._too_many(limit)
                full = list(binding)
                for i, value in zip(free, values):
                    full[i] = value
                if self._constraints_hold(full, facts):
                    yield tuple(full)

    def _too_many(self, limit: int):
        pos = self.action.pos
        raise LimitError(f"grounding action `{self.action.name}` tries more than {limit:,} bindings of its "
                         "parameters", file=pos.file, line=pos.line, col=pos.col, source_line=pos.source_line,
                         hint="give its parameters preconditions that bind them, or pass a larger "
                              "--max-operators (bindings tried: 10 per allowed operator)")

    def _bind(self, binding, binds, fact):
        """`binding` extended by the values `fact` gives its unbound slots, or None when
        a value has the wrong type or a slot repeated in the atom gets two values."""
        new = list(binding)
        for position, slot in binds:
            value = fact[position]
            if new[slot] is None:
                if value not in self.domain_sets[slot]:
                    return None
                new[slot] = value
            elif new[slot] != value:
                return None
        return new

    def _constraints_hold(self, full, facts) -> bool:
        value = (lambda a: full[a] if isinstance(a, int) else a)
        for left, right, positive in self.equalities:
            if (value(left) == value(right)) != positive:
                return False
        for predicate, args in self.negative_static:
            if (predicate, tuple(value(a) for a in args)) in facts:
                return False
        return True

    def ground_atom(self, atom, full):
        return atom.predicate, tuple(full[self.slot[t.name]] if t.variable else t.name
                                     for t in atom.args)


class _Facts:
    """The reachable facts by predicate, with lookup tables by the values at some
    argument positions, kept up to date as facts are added."""

    def __init__(self, facts):
        self.by_predicate: dict[str, set] = {}
        self.tables: dict[str, dict] = {}
        for predicate, args in facts:
            self.add(predicate, args)

    def __contains__(self, fact) -> bool:
        return fact[1] in self.by_predicate.get(fact[0], ())

    def size(self, predicate: str) -> int:
        return len(self.by_predicate.get(predicate, ()))

    def add(self, predicate: str, args: tuple) -> bool:
        """Adds a fact; False when it was known."""
        bucket = self.by_predicate.setdefault(predicate, set())
        if args in bucket:
            return False
        bucket.add(args)
        for positions, table in self.tables.get(predicate, {}).items():
            table.setdefault(tuple(args[i] for i in positions), []).append(args)
        return True

    def table(self, predicate: str, positions: tuple) -> dict:
        """{values at `positions`: [argument tuples]} for `predicate`."""
        tables = self.tables.setdefault(predicate, {})
        if positions not in tables:
            table = tables[positions] = {}
            for args in self.by_predicate.get(predicate, ()):
                table.setdefault(tuple(args[i] for i in positions), []).append(args)
        return tables[positions]


def _reachable(schemas, init: set, max_operators: int, tick):
    """Relaxed reachability: the reachable facts and the reachable (schema, binding)s.
    A schema is instantiated again only when a predicate of its preconditions has
    gained facts since its last instantiation."""
    facts = _Facts(init)
    found: dict = {}
    last_sizes: dict = {}
    changed = True
    while changed:
        changed = False
        for schema in schemas:
            sizes = tuple(facts.size(step[0]) for step in schema.join)
            if last_sizes.get(id(schema)) == sizes:
                continue
            last_sizes[id(schema)] = sizes
            for full in schema.bindings(facts, tick, 10 * max_operators):
                key = (id(schema), full)
                if key in found:
                    continue
                found[key] = (schema, full)
                if len(found) > max_operators:
                    pos = schema.action.pos
                    raise LimitError(f"grounding exceeds {max_operators:,} operators (here at "
                                     f"action `{schema.action.name}`)", file=pos.file,
                                     line=pos.line, col=pos.col, source_line=pos.source_line,
                                     hint="pass a larger max_operators (--max-operators) or "
                                          "state the problem more tightly")
                for atom in schema.action.add:
                    if facts.add(*schema.ground_atom(atom, full)):
                        changed = True
    return facts, list(found.values())


def _relevant_facts(ground_ops, goal: set, tick) -> set:
    """Backward relevance: goal facts, and the preconditions of every operator that adds
    or deletes a relevant fact, until nothing new appears.  Other facts cannot matter."""
    relevant = set(goal)
    changed = True
    while changed:
        size = len(relevant)
        for _, pre, absent, add, delete, _ in ground_ops:
            tick()
            if not relevant.isdisjoint(add) or not relevant.isdisjoint(delete):
                relevant |= pre
                relevant |= absent
        changed = len(relevant) != size
    return relevant


def _cost_table(problem: PlanningProblem) -> dict:
    return {(v.term.function, tuple(a.name for a in v.term.args)): v.value
            for v in problem.function_values}


def _action_cost(schema, full, costs: dict, unit: float):
    cost = schema.action.cost
    if cost is None:
        return unit
    if isinstance(cost, FunctionTerm):
        key = (cost.function, tuple(full[schema.slot[t.name]] if t.variable else t.name
                                    for t in cost.args))
        if key not in costs:
            raise cost.pos.error(f"no value for `({' '.join([key[0], *key[1]])})` in the initial "
                                 "state", "add it to :init as (= (function args) value)")
        cost = costs[key]
    return int(cost) if float(cost).is_integer() else cost


def ground(problem: PlanningProblem, *, max_operators: int = DEFAULT_MAX_OPERATORS,
           budget=None) -> Task:
    """The compact task of a checked planning problem.  `budget` (a search Budget) is
    ticked once per binding and operator: its BudgetExceeded stops a grounding that would
    outlast the time given to the whole plan."""
    tick = budget.tick if budget is not None else (lambda: None)
    below = subtypes(problem)
    objects_of = {t: [o.name for o in problem.objects if o.type in below[t]] for t in below}
    fluent = {a.predicate for action in problem.actions for a in [*action.add, *action.delete]}
    static = {p.name for p in problem.predicates} - fluent
    schemas = []
    for action in problem.actions:
        tick()
        schemas.append(_Schema(action, problem, objects_of, static))
    init = {(a.predicate, tuple(t.name for t in a.args)) for a in problem.init}
    facts, instances = _reachable(schemas, init, max_operators, tick)

    reachable = {(predicate, args) for predicate, bucket in facts.by_predicate.items()
                 if predicate in fluent for args in bucket}
    goal_facts = [((c.atom.predicate, tuple(t.name for t in c.atom.args)), c.positive)
                  for c in problem.goal]
    solvable = (all((fact in init) == positive for fact, positive in goal_facts
                    if fact[0] in static)
                and all(fact in reachable for fact, positive in goal_facts
                        if positive and fact[0] in fluent))
    uses_costs = any(a.cost is not None for a in problem.actions)
    costs = _cost_table(problem)
    ground_ops = []
    for schema, full in (instances if solvable else ()):
        tick()
        action = schema.action
        conditions = [(schema.ground_atom(c.atom, full), c.positive)
                      for c in action.preconditions if not isinstance(c, Equality)]
        pre = {f for f, positive in conditions if positive and f in reachable}
        absent = {f for f, positive in conditions if not positive and f in reachable}
        if pre & absent:
            continue
        add = {schema.ground_atom(a, full) for a in action.add}
        delete = {schema.ground_atom(a, full) for a in action.delete} - add
        ground_ops.append((problem.action_text(action.name, full), pre, absent, add, delete,
                           _action_cost(schema, full, costs, 0 if uses_costs else 1)))
    # every goal fact keeps its bit: an unreachable one then makes the task unsolvable (else its
    # goal mask would lose it and an empty plan would seem to reach the goal)
    relevant = _relevant_facts(ground_ops, {f for f, _ in goal_facts}, tick)

    names = sorted(relevant)
    bit = {fact: 1 << i for i, fact in enumerate(names)}
    mask = (lambda facts_: sum(bit.get(f, 0) for f in facts_))
    operators = []
    for name, pre, absent, add, delete, cost in ground_ops:
        tick()
        add_mask, delete_mask, pre_mask = mask(add), mask(delete), mask(pre)
        if add_mask & ~pre_mask or delete_mask:      # else it changes no relevant fact
            operators.append(Operator(name, pre_mask, mask(absent), add_mask, delete_mask, cost))
    operators.sort(key=lambda op: op.name)
    if budget is not None:          # Task compiles the successor function: one step, not interrupted
        budget.ahead(COMPILE_SECONDS_PER_OPERATOR * len(operators))
    return Task(
        name=problem.name,
        facts=[problem.fact_text(p, args) for p, args in names],
        operators=operators,
        initial=mask(init),
        goal=mask(f for f, positive in goal_facts if positive),
        goal_absent=mask(f for f, positive in goal_facts if not positive),
    )

