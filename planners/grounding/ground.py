"""Grounding: instantiate a lifted `PlanningProblem` into a compact `Task`.

The problem is first normalised (`planners.grounding.normalise`: ADL formulas split into
conjunctive schemas, conditional effects, derived-predicate rules), then only what can
matter is instantiated:
- relaxed reachability (`planners.grounding.reachability`) over the operator schemas, the
  conditional effects (each with its operator's precondition) and the rules;
- static facts (of predicates no effect changes and no rule derives) are decided at
  grounding time and vanish from the task, as do negative conditions on facts that can
  never hold, and effect conditions already implied by the operator's precondition;
- a conditional effect stays one effect of its operator (conditions, adds, deletes),
  a universal effect one effect per object it ranges over: nothing is multiplied out;
- backward relevance: only facts that the goal depends on (through operators and
  effects changing relevant facts, and rules deriving them) are kept;
- the remaining facts become bits of a Python int; operators, effects and axioms masks.
"""
from __future__ import annotations

from itertools import product
from operator import itemgetter

from planners.lifted.ast import Equality, FunctionTerm, PlanningProblem
from planners.lifted.check import subtypes
from planners.grounding.normalise import Rule, normalise
from planners.grounding.reachability import Schema, reachable
from planners.grounding.task import Operator, Task

DEFAULT_MAX_OPERATORS = 1_000_000
COMPILE_SECONDS_PER_OPERATOR = 60e-6     # compiling the successor function, measured on airport


def _relevant_facts(ground_ops, axioms, goal: set, tick) -> set:
    """Backward relevance: goal facts, and the conditions of every operator or effect that
    adds or deletes a relevant fact and of every rule deriving one, until nothing new
    appears.  Other facts cannot matter."""
    relevant = set(goal)
    changed = True
    while changed:
        size = len(relevant)
        for _, pre, absent, add, delete, _, effects in ground_ops:
            tick()
            if not relevant.isdisjoint(add) or not relevant.isdisjoint(delete):
                relevant |= pre | absent
            for e_pre, e_absent, e_add, e_delete in effects:
                if not relevant.isdisjoint(e_add) or not relevant.isdisjoint(e_delete):
                    relevant |= pre | absent | e_pre | e_absent
        for head, pre, absent, _ in axioms:
            if head in relevant:
                relevant |= pre | absent
        changed = len(relevant) != size
    return relevant


def _cost_table(problem: PlanningProblem) -> dict:
    return {(v.term.function, tuple(a.name for a in v.term.args)): v.value
            for v in problem.function_values}


def _action_cost(schema, binding, costs: dict, unit: float):
    cost = schema.cost
    if cost is None:
        return unit
    if isinstance(cost, FunctionTerm):
        key = (cost.function, tuple(binding[t.name] if t.variable else t.name
                                    for t in cost.args))
        if key not in costs:
            raise cost.pos.error(f"no value for `({' '.join([key[0], *key[1]])})` in the initial "
                                 "state", "add it to :init as (= (function args) value)")
        cost = costs[key]
    return int(cost) if float(cost).is_integer() else cost


class _Instantiator:
    """Grounds the atoms and conditions of a binding against what reachability found.
    Each atom and condition list is turned once into getters of its arguments from a
    binding (`_arguments`), kept by identity: grounding asks for the same few lifted
    atoms millions of times (settlers' universal effects)."""

    def __init__(self, reachable_facts: set, static: set, init: set):
        self.reachable, self.static, self.init = reachable_facts, static, init
        self._atoms: dict = {}               # id(atom) -> (atom, predicate, getter)
        self._plans: dict = {}               # id(conditions) -> (conditions, steps)

    def atom(self, atom, binding):
        """(predicate, object names) of `atom` under `binding`."""
        entry = self._atoms.get(id(atom))
        if entry is None:
            entry = self._atoms[id(atom)] = (atom, atom.predicate, _arguments(atom.args))
        return entry[1], entry[2](binding)

    def _steps(self, conditions) -> list:
        """(kind, a, b, positive) per condition: kind EQUAL with getters of both sides,
        else STATIC or FLUENT with the predicate and the getter of the arguments."""
        steps = []
        for cond in conditions:
            if isinstance(cond, Equality):
                steps.append((EQUAL, _term(cond.left), _term(cond.right), cond.positive))
            else:
                predicate = cond.atom.predicate
                steps.append((STATIC if predicate in self.static else FLUENT, predicate,
                               _arguments(cond.atom.args), cond.positive))
        self._plans[id(conditions)] = conditions, steps
        return steps

    def conditions(self, conditions, binding):
        """(facts required, facts required absent) of fluent facts, or None when a static
        condition, an equality or an unreachable positive condition makes them false."""
        plan = self._plans.get(id(conditions))
        steps = plan[1] if plan is not None else self._steps(conditions)
        pre, absent = set(), set()
        reachable, init = self.reachable, self.init
        for kind, a, b, positive in steps:
            if kind is EQUAL:
                if (a(binding) == b(binding)) != positive:
                    return None
                continue
            fact = a, b(binding)
            if kind is STATIC:
                if (fact in init) != positive:
                    return None
            elif positive:
                if fact not in reachable:
                    return None
                pre.add(fact)
            elif fact in reachable:
                absent.add(fact)
        return None if pre & absent else (pre, absent)


EQUAL, STATIC, FLUENT = "equal", "static", "fluent"


def _arguments(terms):
    """binding -> the tuple of object names of `terms` (variables looked up)."""
    names = tuple(t.name for t in terms)
    variables = [i for i, t in enumerate(terms) if t.variable]
    if len(variables) == len(names) >= 2:
        return itemgetter(*names)
    if not variables:
        return lambda binding: names
    if len(variables) == 1:                 # one variable among constants (or alone)
        i = variables[0]
        head, name, tail = names[:i], names[i], names[i + 1:]
        return lambda binding: (*head, binding[name], *tail)
    return lambda binding: tuple(binding[t.name] if t.variable else t.name for t in terms)


def _term(term):
    """binding -> the object name of `term`."""
    name = term.name
    return (lambda binding: binding[name]) if term.variable else (lambda binding: name)


def _effects(schema, binding, pre, absent, ground, objects_of):
    """The unconditional adds and deletes of an operator and its conditional effects as
    {(conditions, absent conditions): (adds, deletes)}."""
    add = {ground.atom(a, binding) for a in schema.add}
    delete = {ground.atom(a, binding) for a in schema.delete}
    conditional: dict = {}
    for effect in schema.effects:
        names = [p.name for p in effect.params]
        for values in product(*(objects_of[p.type] for p in effect.params)):
            full = {**binding, **dict(zip(names, values))}
            found = ground.conditions(effect.conditions, full)
            if found is None:
                continue
            e_pre, e_absent = found[0] - pre, found[1] - absent
            if e_pre & absent or e_absent & pre:
                continue                                 # can never fire
            fact = ground.atom(effect.atom, full)
            if not e_pre and not e_absent:
                (add if effect.positive else delete).add(fact)
                continue
            adds, deletes = conditional.setdefault((frozenset(e_pre), frozenset(e_absent)),
                                                   (set(), set()))
            (adds if effect.positive else deletes).add(fact)
    return add, delete - add, conditional


def _needed(copies: list, ground_ops: list, pre: set, absent: set) -> bool:
    """Whether an operator copy (from another clause of a split precondition, the same
    effects) is needed: not when `copies` holds one with weaker or equal conditions; else
    it is recorded as the next of `ground_ops`, and the copies it subsumes (stronger
    conditions) are set to None there, so that which copies stay does not depend on the
    order the objects are declared in."""
    if any(p <= pre and n <= absent for p, n, _ in copies):
        return False
    for p, n, i in copies:
        if pre <= p and absent <= n:
            ground_ops[i] = None
    copies[:] = [c for c in copies if ground_ops[c[2]] is not None]
    copies.append((pre, absent, len(ground_ops)))
    return True


def ground(problem: PlanningProblem, *, max_operators: int = DEFAULT_MAX_OPERATORS,
           budget=None) -> Task:
    """The compact task of a checked planning problem.  `budget` (a search Budget) is
    ticked once per binding and operator: its BudgetExceeded stops a grounding that would
    outlast the time given to the whole plan."""
    tick = budget.tick if budget is not None else (lambda: None)
    below = subtypes(problem)
    objects_of = {t: [o.name for o in problem.objects if o.type in below[t]] for t in below}
    norm = normalise(problem, objects_of)
    fluent = {a.predicate for s in norm.schemas
              for a in [*s.add, *s.delete, *(e.atom for e in s.effects)]}
    fluent |= {rule.name for rule in norm.rules}
    static = {p.name for p in problem.predicates} - fluent
    op_schemas = [Schema(s, objects_of, static) for s in norm.schemas]
    effect_schemas = [Schema(Rule(s.name, s.params + e.params, s.preconditions + e.conditions,
                                  e.atom, s.pos), objects_of, static)
                      for s in norm.schemas for e in s.effects if e.positive]
    rule_schemas = [Schema(rule, objects_of, static) for rule in norm.rules]
    init = {(a.predicate, tuple(t.name for t in a.args)) for a in problem.init}
    facts, instances = reachable(op_schemas + effect_schemas + rule_schemas, init,
                                 max_operators, tick)
    reachable_facts = {(predicate, args) for predicate, bucket in facts.by_predicate.items()
                       if predicate in fluent for args in bucket}
    ground = _Instantiator(reachable_facts, static, init)
    goal = ground.conditions(norm.goal, {})
    uses_costs = any(a.cost is not None for a in problem.actions)
    costs = _cost_table(problem)
    ground_ops, axioms, seen = [], [], {}
    is_rule = {id(s) for s in rule_schemas}
    is_op = {id(s) for s in op_schemas}
    for schema, full in (instances if goal is not None else ()):
        tick()
        lifted = schema.action
        binding = dict(zip(schema.params, full))
        found = ground.conditions(lifted.preconditions, binding)
        if found is None:
            continue
        pre, absent = found
        if id(schema) in is_rule:
            axioms.append((ground.atom(lifted.head, binding), pre, absent,
                           norm.strata[lifted.name]))
        elif id(schema) in is_op:
            add, delete, conditional = _effects(lifted, binding, pre, absent, ground, objects_of)
            name = problem.action_text(lifted.name, full[:lifted.arity])
            key = (name, frozenset(add), frozenset(delete),
                   frozenset((k, frozenset(a), frozenset(d)) for k, (a, d) in conditional.items()))
            if not _needed(seen.setdefault(key, []), ground_ops, pre, absent):
                continue
            ground_ops.append((name, pre, absent, add, delete,
                               _action_cost(lifted, binding, costs, 0 if uses_costs else 1),
                               [(set(p), set(n), a, d) for (p, n), (a, d) in conditional.items()]))
    ground_ops = [op for op in ground_ops if op is not None]
    goal_pre, goal_absent = goal if goal is not None else (set(), set())
    relevant = _relevant_facts(ground_ops, axioms, goal_pre | goal_absent, tick)
    return _task(problem, relevant, ground_ops, axioms, init, goal_pre, goal_absent,
                 solvable=goal is not None, tick=tick, budget=budget)


def _task(problem, relevant, ground_ops, axioms, init, goal_pre, goal_absent, solvable,
          tick, budget) -> Task:
    names = sorted(relevant)
    bit = {fact: 1 << i for i, fact in enumerate(names)}
    mask = (lambda facts_: sum(bit.get(f, 0) for f in facts_))
    operators = []
    for name, pre, absent, add, delete, cost, effects in ground_ops:
        tick()
        add_mask, delete_mask, pre_mask = mask(add), mask(delete), mask(pre)
        masked = tuple((mask(p), mask(n), mask(a), mask(d)) for p, n, a, d in effects)
        masked = tuple(e for e in masked if e[2] | e[3])
        if add_mask & ~pre_mask or delete_mask or masked:   # else it changes no relevant fact
            operators.append(Operator(name, pre_mask, mask(absent), add_mask, delete_mask, cost,
                                      masked))
    operators.sort(key=lambda op: op.name)
    if budget is not None:          # Task compiles the successor function: one step, not interrupted
        budget.ahead(COMPILE_SECONDS_PER_OPERATOR * len(operators))
    layers: dict = {}
    for head, pre, absent, stratum in axioms:
        if head in relevant:
            layers.setdefault(stratum, []).append((bit[head], mask(pre), mask(absent)))
    facts = [problem.fact_text(p, args) for p, args in names]
    goal = mask(goal_pre)
    if not solvable:                # a goal no state reaches: a fact nothing adds
        goal = 1 << len(facts)
        facts.append("(the goal is unreachable)")
    return Task(
        name=problem.name,
        facts=facts,
        operators=operators,
        initial=mask(init),
        goal=goal,
        goal_absent=mask(goal_absent),
        axioms=[layers[k] for k in sorted(layers)],
    )
