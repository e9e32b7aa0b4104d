"""Local lists: a list variable written item by item again and again in one block of effects
(a sowing loop: `for k in 1..hand do { ... house[pos] += 1 }`) is a Python list while that
part of the block runs, converted back to the state's tuple once at its end, instead of a
new tuple built for every item written (`set_item`).

A run of consecutive effects of a block qualifies for a variable when every place the run
names the variable reads or writes one item of it (`house[i]`, definitions inlined
included: the checked rules carry their bodies), so no code of the run can tell a list
from a tuple: an item read, an item write and the range checks around them mean the same
on both, and the errors come from the same tests in the same order.  It is worth the two
conversions when the run writes the variable inside a `for` effect or at least
MIN_WRITES times.  A definition written once as a function (compiler/outline.py) and
called there is given `tuple(list)`: it may be memoised, and a memory's key is hashable.

A list of at most MAX_ITEM_LOCALS items that the run reads and writes only at constant
indexes (`store[mover]` in code written for one mover, `store[South]`) is instead one
Python local per item (`_v_store_0, _v_store_1 = v_store` ... `v_store = (_v_store_0,
_v_store_1)`): an item is then a local's load and store, with no list built.
"""
from __future__ import annotations

from framework import ast
from framework.compiler.common import _static_int

MIN_WRITES = 3              # item writes outside loops that pay for list() and tuple()
MAX_ITEM_LOCALS = 8         # a list held as one local per item is at most this long


def constant_index(compiler, node):
    """The index `node` names whatever the state, when known while compiling (a number, a
    player: `mover` in code written for one mover), else None."""
    value = _static_int(node)
    return compiler.player_const(node) if value is None else value


def item_locals(compiler, effects, name, size):
    """The locals holding the items of the list `name` while the run `effects` lasts, when
    it is short and every index the run reads or writes it at is constant; else None.  (No
    code of the run is given the list itself: effects may not query the legal moves, and a
    definition written as a function is given the items' tuple, compiler/outline.py.)"""
    if size is None or size > MAX_ITEM_LOCALS:
        return None
    stack = list(effects)
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, ast.Index) and isinstance(n.base, ast.Name) and n.base.id == name:
            index = constant_index(compiler, n.index)
            if index is None or not 0 <= index < size:
                return None
        elif hasattr(n, "__dataclass_fields__"):
            stack.extend(getattr(n, f) for f in n.__dataclass_fields__ if f != "pos")
    return [f"_v_{name}_{j}" for j in range(size)]


def _only_items(node, name) -> bool:
    """Whether every `Name(name)` under `node` is the base of an item access."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
            continue
        if isinstance(n, ast.Name) and n.id == name:
            return False
        if isinstance(n, ast.Index) and isinstance(n.base, ast.Name) and n.base.id == name:
            stack.append(n.index)
            continue
        if hasattr(n, "__dataclass_fields__"):
            stack.extend(getattr(n, f) for f in n.__dataclass_fields__ if f != "pos")
    return True


def _writes(effect, name, in_loop=False) -> int:
    """How many item writes of `name` the effect holds (MIN_WRITES for one inside a loop)."""
    if isinstance(effect, ast.Assign):
        t = effect.target
        hit = isinstance(t, ast.Index) and isinstance(t.base, ast.Name) and t.base.id == name
        return (MIN_WRITES if in_loop else 1) if hit else 0
    if isinstance(effect, ast.IfEffect):
        return sum(_writes(e, name, in_loop) for e in effect.then + effect.else_)
    if isinstance(effect, ast.ForEffect):
        return sum(_writes(e, name, True) for e in effect.body)
    return 0


def local_list_runs(effects, names) -> dict:
    """For a block of effects: {first effect's index: (last effect's index, variable)} for
    each longest run of effects where `variable` (one of `names`, the list variables) may
    be a local list (see the module docstring); runs of different variables may overlap."""
    runs = {}
    for name in names:
        start = None
        for i, e in enumerate(list(effects) + [None]):
            ok = e is not None and not (isinstance(e, ast.LetEffect) and e.name == name) and _only_items(e, name)
            if ok and start is None:
                start = i
            elif not ok and start is not None:
                if sum(_writes(x, name) for x in effects[start:i]) >= MIN_WRITES:
                    runs.setdefault(start, []).append((i - 1, name))
                start = None
    return runs
