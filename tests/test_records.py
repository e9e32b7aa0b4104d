"""`framework.records.dataclass` makes the class `dataclasses.dataclass` makes: every behaviour
checked side by side on the same class bodies."""
from __future__ import annotations

import copy
import dataclasses
import inspect
from dataclasses import field

import pytest

from framework.records import dataclass as record

NOPOS = ("file", 1)


def bodies():
    """Fresh class bodies (a decorator changes its class): name -> (options, make)."""
    def frozen_node():
        class Node:
            value: int | float
            args: tuple = ()
            pos: tuple = field(default=NOPOS, compare=False, repr=False)
        return Node

    def mutable():
        class Spec:
            """A spec."""
            name: str
            items: list = field(default_factory=list)
            extra: dict = field(default_factory=dict, compare=False)
            count: int = 0
        return Spec

    def own_repr_and_post_init():
        class Pos:
            file: str | None = None
            line: int | None = None

            def __repr__(self):
                return f"{self.file}:{self.line}"

            def __post_init__(self):
                object.__setattr__(self, "seen", True)
        return Pos

    def own_hash():
        class Keyed:
            key: str
            note: str = ""

            def __hash__(self):
                return hash(self.key)
        return Keyed

    def empty():
        class Empty:
            pass
        return Empty
    return {"frozen_node": ({"frozen": True}, frozen_node),
            "mutable": ({}, mutable),
            "mutable_no_eq": ({"eq": False}, mutable),
            "post_init": ({"frozen": True}, own_repr_and_post_init),
            "own_hash": ({"frozen": True}, own_hash),
            "empty": ({"frozen": True}, empty)}


def both(name):
    options, make = bodies()[name]
    theirs, ours = dataclasses.dataclass(**options)(make()), record(**options)(make())
    return theirs, ours


def instances(cls, name):
    if name == "frozen_node":
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


@pytest.mark.parametrize("name", sorted(bodies()))
def test_record_behaves_as_dataclass(name):
    theirs, ours = both(name)
    assert ours.__doc__ == theirs.__doc__
    assert ours.__match_args__ == theirs.__match_args__
    assert str(inspect.signature(ours)) == str(inspect.signature(theirs))
    assert dataclasses.is_dataclass(ours)
    assert ([(f.name, f.type, f.default, f.default_factory, f.repr, f.compare, f.hash, f.kw_only)
             for f in dataclasses.fields(ours)]
            == [(f.name, f.type, f.default, f.default_factory, f.repr, f.compare, f.hash, f.kw_only)
                for f in dataclasses.fields(theirs)])
    assert ({k: v for k, v in vars(ours).items() if not k.startswith("__")}.keys()
            == {k: v for k, v in vars(theirs).items() if not k.startswith("__")}.keys())
    assert (ours.__hash__ is None) == (theirs.__hash__ is None)
    a, b = instances(theirs, name), instances(ours, name)
    assert [repr(x) for x in a] == [repr(x) for x in b]
    assert [repr(vars(x)) for x in a] == [repr(vars(x)) for x in b]
    assert [[x == y for y in a] for x in a] == [[x == y for y in b] for x in b]
    assert [hash_or_error(x) for x in a] == [hash_or_error(x) for x in b]
    assert [repr(dataclasses.asdict(x)) for x in a] == [repr(dataclasses.asdict(x)) for x in b]
    assert ([repr(vars(dataclasses.replace(x))) for x in a]
            == [repr(vars(dataclasses.replace(x))) for x in b])
    again = ours(*[getattr(b[0], f.name) for f in dataclasses.fields(ours)])
    assert (again == b[0]) == (theirs(*[getattr(a[0], f.name) for f in dataclasses.fields(theirs)]) == a[0])
    assert b[0] != 1 and (b[0] == 1) == (a[0] == 1)
    for x in b:
        assert vars(copy.deepcopy(x)) == vars(x) == vars(copy.copy(x))


@pytest.mark.parametrize("name", ["frozen_node", "post_init", "own_hash", "empty"])
def test_frozen_record_refuses_assignment_as_dataclass_does(name):
    theirs, ours = both(name)
    for cls in (theirs, ours):
        obj = instances(cls, name)[0]
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
            obj.x = 1
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'x'"):
            del obj.x


def test_a_subclass_of_a_record_is_frozen_too():
    _, ours = both("frozen_node")

    @dataclasses.dataclass(frozen=True)
    class Sub(ours):
        extra: int = 0
    assert Sub(1, extra=2).extra == 2 and Sub(1) == Sub(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Sub(1).value = 2


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
    from framework import ast
    from planners import ast as pddl_ast, formula
    for cls in (ast.Pos, ast.Num, ast.Call, ast.GameSpec, pddl_ast.Atom, formula.Junction):
        assert type(cls.__dataclass_params__).__module__ == "framework.records", cls
