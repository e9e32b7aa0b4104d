"""`framework.records.dataclass` makes the class `dataclasses.dataclass` makes: every behaviour
checked side by side on the same class bodies."""
from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest

from framework import records
from framework.records import dataclass as record

NOPOS = ("file", 1)
METHODS = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")


def bodies():
    """Fresh class bodies (a decorator changes its class): name -> (options, make(field))."""
    def frozen_node(field):
        class Node:
            value: int | float
            args: tuple = ()
            pos: tuple = field(default=NOPOS, compare=False, repr=False)
        return Node

    def mutable(field):
        class Spec:
            """A spec."""
            name: str
            items: list = field(default_factory=list)
            extra: dict = field(default_factory=dict, compare=False)
            count: int = 0
        return Spec

    def own_repr_and_post_init(field):
        class Pos:
            file: str | None = None
            line: int | None = None

            def __repr__(self):
                return f"{self.file}:{self.line}"

            def __post_init__(self):
                object.__setattr__(self, "seen", True)
        return Pos

    def own_hash(field):
        class Keyed:
            key: str
            note: str = ""

            def __hash__(self):
                return hash(self.key)
        return Keyed

    def empty(field):
        class Empty:
            pass
        return Empty
    return {"frozen_node": ({"frozen": True}, frozen_node),
            "mutable": ({}, mutable),
            "mutable_no_eq": ({"eq": False}, mutable),
            "post_init": ({"frozen": True}, own_repr_and_post_init),
            "own_hash": ({"frozen": True}, own_hash),
            "empty": ({"frozen": True}, empty),
            "slots": ({"frozen": True, "slots": True}, frozen_node)}


def both(name, field=records.field):
    """The class made by dataclasses (with dataclasses.field) and by records (with `field`)."""
    options, make = bodies()[name]
    return dataclasses.dataclass(**options)(make(dataclasses.field)), record(**options)(make(field))


def instances(cls, name):
    if name in ("frozen_node", "slots"):
        return [cls(1), cls(1, (2,), pos=("f", 3)), cls(2.5, args=(cls(1),))]
    if name.startswith("mutable"):
        return [cls("a"), cls("a", [1], {"x": 1}, 3), cls(name="b", count=2)]
    if name == "post_init":
        return [cls(), cls("f", 2), cls(line=3)]
    if name == "own_hash":
        return [cls("k"), cls("k", "other"), cls("j")]
    return [cls(), cls()]


def hash_or_error(obj):
    if type(obj).__hash__ is object.__hash__:
        return "identity"
    try:
        return hash(obj)
    except TypeError as err:
        return str(err).replace(type(obj).__qualname__, "X")


@pytest.mark.parametrize("field", [records.field, dataclasses.field])
@pytest.mark.parametrize("name", sorted(bodies()))
def test_record_behaves_as_dataclass(name, field):
    theirs, ours = both(name, field)
    assert ours.__doc__ == theirs.__doc__
    assert ours.__match_args__ == theirs.__match_args__
    assert ([(m, getattr(ours, m).__qualname__, getattr(ours, m).__module__) for m in METHODS if vars(ours).get(m)]
            == [(m, getattr(theirs, m).__qualname__, getattr(theirs, m).__module__) for m in METHODS if vars(theirs).get(m)])
    assert str(inspect.signature(ours)) == str(inspect.signature(theirs))
    assert dataclasses.is_dataclass(ours)
    for method in ("__eq__", "__hash__"):           # the very byte code dataclasses writes
        if vars(theirs).get(method) and vars(ours).get(method):
            assert vars(ours)[method].__code__.co_code == vars(theirs)[method].__code__.co_code
    assert ([(f.name, f.type, f.default, f.default_factory, f.repr, f.compare, f.hash, f.kw_only)
             for f in dataclasses.fields(ours)]
            == [(f.name, f.type, f.default, f.default_factory, f.repr, f.compare, f.hash, f.kw_only)
                for f in dataclasses.fields(theirs)])
    names = [f.name for f in dataclasses.fields(ours)]
    assert ({k: repr(v) for k, v in vars(ours).items() if not k.startswith("__")}
            == {k: repr(v) for k, v in vars(theirs).items() if not k.startswith("__")})
    assert ours.__slots__ == theirs.__slots__ if name == "slots" else "__slots__" not in vars(ours)
    assert (ours.__hash__ is None) == (theirs.__hash__ is None)
    a, b = instances(theirs, name), instances(ours, name)
    assert [repr(x) for x in a] == [repr(x) for x in b]
    state = (lambda x: repr(vars(x))) if name != "slots" else (lambda x: repr(x.__getstate__()))
    assert [state(x) for x in a] == [state(x) for x in b]
    assert [[x == y for y in a] for x in a] == [[x == y for y in b] for x in b]
    assert [hash_or_error(x) for x in a] == [hash_or_error(x) for x in b]
    assert [repr(dataclasses.asdict(x)) for x in a] == [repr(dataclasses.asdict(x)) for x in b]
    assert ([state(dataclasses.replace(x)) for x in a] == [state(dataclasses.replace(x)) for x in b]
            == [state(records.replace(x)) for x in b])
    if names:
        assert state(records.replace(b[0], **{names[0]: 7})) == state(dataclasses.replace(b[0], **{names[0]: 7}))
    again = ours(*[getattr(b[0], f.name) for f in dataclasses.fields(ours)])
    assert (again == b[0]) == (theirs(*[getattr(a[0], f.name) for f in dataclasses.fields(theirs)]) == a[0])
    assert b[0] != 1 and (b[0] == 1) == (a[0] == 1)
    for x in b:
        assert state(copy.deepcopy(x)) == state(x) == state(copy.copy(x))


@pytest.mark.parametrize("name", ["frozen_node", "post_init", "own_hash", "empty", "slots"])
def test_frozen_record_refuses_assignment_as_dataclass_does(name):
    theirs, ours = both(name)
    # (a field, and for classes with a __dict__ any other name)
    tried = [f.name for f in dataclasses.fields(ours)][:1] + (["x"] if name != "slots" else [])
    for cls in (theirs, ours):
        obj = instances(cls, name)[0]
        for attr in tried:
            with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot assign to field '{attr}'"):
                setattr(obj, attr, 1)
            with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot delete field '{attr}'"):
                delattr(obj, attr)


def test_a_subclass_of_a_record_is_frozen_too():
    _, ours = both("frozen_node")

    @dataclasses.dataclass(frozen=True)
    class Sub(ours):
        extra: int = 0
    assert Sub(1, extra=2).extra == 2 and Sub(1) == Sub(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Sub(1).value = 2


class Shipped:
    """A module-level record (pickle finds it by name)."""
    a: int
    b: tuple = ()


def test_records_pickle():
    for options in ({"frozen": True}, {"frozen": True, "slots": True}, {}):
        globals()["Shipped"] = cls = record(**options)(type("Shipped", (), {
            "__annotations__": {"a": "int", "b": "tuple"}, "b": (), "__qualname__": "Shipped",
            "__module__": __name__}))
        obj = cls(1, (2, 3))
        assert pickle.loads(pickle.dumps(obj)) == obj


def test_what_record_does_not_cover_is_dataclasses_own_work():
    class Ordered:
        x: int
    made = record(order=True)(Ordered)
    assert made(1) < made(2)
    with pytest.raises(TypeError, match="non-default argument 'y' follows default argument"):
        @record
        class Bad:
            x: int = 0
            y: int
    with pytest.raises(ValueError, match="mutable default"):
        @record
        class Mutable:
            x: list = []

    class Placeholders:                 # the names record's own __init__ template uses
        self_: int
        _p0: int
        _f1: int = 0
    made = record(frozen=True)(Placeholders)
    assert (made(1, 2)._p0, made(1, 2, _f1=3)._f1) == (2, 3)

    class Base:
        x: int
    base = record(Base)

    @record
    class Derived(base):
        y: int = 0
    assert [f.name for f in dataclasses.fields(Derived)] == ["x", "y"] and Derived(1).y == 0


def test_the_start_up_classes_are_records():
    """The AST and planning classes are built by `framework.records` (no compilation per
    class), not by `dataclasses.dataclass` (one exec per method)."""
    from framework import ast, game
    from framework.builtins.base import Builtin
    from framework.search.result import Result
    from planners.lifted import ast as pddl_ast, formula
    from planners.grounding import task
    for cls in (ast.Pos, ast.Num, ast.Call, ast.GameSpec, pddl_ast.Atom, formula.Junction,
                task.Operator, task.Task, Result, Builtin, game.Game):
        assert type(cls.__dataclass_params__).__module__ == "framework.records", cls


def test_templates_are_compiled_once_per_shape():
    """Two classes of one shape share the compiled template: the second compiles nothing,
    and its methods run the same byte code under its own names."""
    @record(frozen=True)
    class First:
        a: int
        b: int

    count = len(records._TEMPLATES)

    @record(frozen=True)
    class Second:
        x: str
        y: str

    assert len(records._TEMPLATES) == count
    assert First.__init__.__code__.co_code == Second.__init__.__code__.co_code
    assert Second.__init__.__code__.co_varnames[1:3] == ("x", "y") and Second("p", "q").y == "q"
