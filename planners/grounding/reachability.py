"""Relaxed reachability, the first half of grounding (`planners.grounding.ground`): starting
from the initial facts, a schema (an operator schema, a conditional effect with its
operator's precondition, a derived-predicate rule) is instantiated with the bindings
whose positive conditions are all reachable (a join over lookup tables of the reachable
facts); its added atoms become reachable, until nothing new appears.  Negative
conditions on static facts and equalities are checked once a binding is complete.

A limit on the number of instances (`max_operators`) turns a grounding that would
exhaust memory into a clear LimitError.
"""
from __future__ import annotations

from itertools import product

from framework.errors import LimitError
from planners.lifted.ast import Equality


class Schema:
    """An action schema prepared for instantiation: its positive preconditions in join
    order, and the constraints checked once every parameter is bound."""

    def __init__(self, action, objects_of: dict, static: set):
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

    def bindings(self, facts: "Facts", tick, limit: int, old: tuple = None, now: tuple = None):
        """Every full binding (a tuple of object names) whose positive preconditions are
        reachable facts and whose constraints hold.  `tick()` is called for every binding
        tried; more than `limit` partial bindings, or tries, are a LimitError.

        With `old` and `now` (per join step, how many facts of its predicate there were at
        the last instantiation and are now), only the bindings that use at least one fact
        added since are made (semi-naive evaluation): for each step `i` whose predicate
        gained facts, the steps before it join old facts only, step `i` new facts only and
        the steps after it any fact up to `now`, so each binding is made once."""
        if old is None:
            yield from self._bindings_in(facts, tick, limit, [(0, None)] * len(self.join))
            return
        for i, (before, after) in enumerate(zip(old, now)):
            if before < after:
                ranges = [(0, o) for o in old[:i]] + [(before, after)] + [(0, n) for n in now[i + 1:]]
                yield from self._bindings_in(facts, tick, limit, ranges)

    def _bindings_in(self, facts, tick, limit, ranges):
        """The bindings whose fact at each join step was added within that step's range
        (a half-open range of the predicate's fact numbers; None: no upper bound)."""
        partial = [[None] * len(self.params)]
        tries = 0
        for (predicate, positions, key, binds), (low, high) in zip(self.join, ranges):
            table = facts.table(predicate, positions)
            number = facts.number.get(predicate, {})
            extended = []
            for binding in partial:
                lookup = tuple(binding[v] if is_slot else v for is_slot, v in key)
                for fact in table.get(lookup, ()):
                    n = number[fact]
                    if n < low:
                        continue
                    if high is not None and n >= high:
                        break           # the table's lists are in the order facts were added
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


class Facts:
    """The reachable facts by predicate, with lookup tables by the values at some
    argument positions, kept up to date as facts are added."""

    def __init__(self, facts):
        self.by_predicate: dict[str, set] = {}
        self.number: dict[str, dict] = {}       # predicate -> {arguments: order of addition}
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
        number = self.number.setdefault(predicate, {})
        number[args] = len(number)
        for positions, table in self.tables.get(predicate, {}).items():
            table.setdefault(tuple(args[i] for i in positions), []).append(args)
        return True

    def table(self, predicate: str, positions: tuple) -> dict:
        """{values at `positions`: [argument tuples]} for `predicate`."""
        tables = self.tables.setdefault(predicate, {})
        if positions not in tables:
            table = tables[positions] = {}
            for args in self.number.get(predicate, ()):        # in the order of addition
                table.setdefault(tuple(args[i] for i in positions), []).append(args)
        return tables[positions]


def reachable(schemas, init: set, max_operators: int, tick):
    """Relaxed reachability: the reachable facts and the reachable (schema, binding)s.
    A schema is instantiated again only when a predicate of its preconditions has
    gained facts since its last instantiation, and then only with the bindings that use
    one of those facts (`Schema.bindings`)."""
    facts = Facts(init)
    found: dict = {}
    last_sizes: dict = {}
    changed = True
    while changed:
        changed = False
        for schema in schemas:
            sizes = tuple(facts.size(step[0]) for step in schema.join)
            before = last_sizes.get(id(schema))
            if before == sizes:
                continue
            last_sizes[id(schema)] = sizes
            for full in schema.bindings(facts, tick, 10 * max_operators, before, sizes):
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
