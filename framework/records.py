"""`dataclass`: `dataclasses.dataclass`, made cheaply, for the classes on the start-up path.

`dataclasses.dataclass` compiles every generated method with its own `exec` and builds the
class docstring with `inspect.signature`: about 1 ms per class, and the AST, the planning
task and the search results are some 40 classes, a third of what `plyspec plan` and
`plyspec check` spend before doing any work.  `framework.records.dataclass` makes the same class (the same
`__init__`, `__repr__`, `__eq__`, `__hash__`, frozen `__setattr__` / `__delattr__`,
`__match_args__`, docstring, class-level defaults and the `__dataclass_fields__` that
`dataclasses.fields`, `replace`, `asdict` and `is_dataclass` read) with one `exec` per class.
It covers the common subset (init, repr, eq, frozen; per field default, default_factory,
repr, compare, hash); a class needing more (a dataclass base, ClassVar / InitVar / KW_ONLY,
order, slots, kw_only, init=False fields, an own `__setattr__`, a mutable default, a
non-default field after a default one, annotations that are not strings) is handed to
`dataclasses.dataclass` itself, which also raises its errors.  tests/test_records.py
checks every generated behaviour against `dataclasses.dataclass`.
"""
from __future__ import annotations

import dataclasses
import re
import reprlib
import types
from dataclasses import MISSING, Field
from operator import attrgetter

_SIMPLE = {"init", "repr", "eq", "frozen"}
_UNSUPPORTED = ("ClassVar", "InitVar", "KW_ONLY")
_RESERVED = {"self", "_F", "_setattr"}
_PLACEHOLDER = re.compile(r"_[pf][0-9]+")


class _Factory:
    def __repr__(self):
        return "<factory>"


_HAS_FACTORY = _Factory()


class _Params:
    """What `dataclasses` reads of `__dataclass_params__` (a dataclass subclassing a record)."""

    def __init__(self, init, repr, eq, frozen):
        self.init, self.repr, self.eq, self.frozen = init, repr, eq, frozen
        self.order = self.unsafe_hash = False


def dataclass(cls=None, /, **options):
    """`@dataclass`, `@dataclass(frozen=True, eq=False, ...)`: as `@dataclasses.dataclass`."""
    if cls is None:
        return lambda c: dataclass(c, **options)
    params = {"init": True, "repr": True, "eq": True, "frozen": False}
    if set(options) - _SIMPLE:
        return dataclasses.dataclass(cls, **options)
    params.update(options)
    fields = _fields(cls, params["frozen"])
    if fields is None:
        return dataclasses.dataclass(cls, **options)
    _build(cls, fields, **params)
    return cls


def _fields(cls, frozen):
    """The class's dataclasses.Field objects, or None when this module cannot build it."""
    if type(cls) is not type or any(hasattr(b, "__dataclass_fields__") for b in cls.__mro__[1:]):
        return None
    if "__init__" in cls.__dict__ or frozen and ("__setattr__" in cls.__dict__
                                                 or "__delattr__" in cls.__dict__):
        return None
    fields, defaulted = [], False
    for name, ann in cls.__dict__.get("__annotations__", {}).items():
        if (not isinstance(ann, str) or any(word in ann for word in _UNSUPPORTED)
                or name in _RESERVED or _PLACEHOLDER.fullmatch(name)):
            return None
        default = cls.__dict__.get(name, MISSING)
        f = default if isinstance(default, Field) else dataclasses.field(default=default)
        if not f.init or f.kw_only is True or not (f.hash is None or f.hash is True):
            return None
        if f.default is not MISSING and f.default.__class__.__hash__ is None:
            return None                                 # a mutable default: dataclass refuses it
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        if defaulted and not has_default:
            return None
        defaulted = defaulted or has_default
        f.name, f.type, f._field_type, f.kw_only = name, ann, dataclasses._FIELD, False
        fields.append(f)
    return fields


def _build(cls, fields, init, repr, eq, frozen):
    names = tuple(f.name for f in fields)
    made = {}
    if init and "__init__" not in cls.__dict__:
        made["__init__"] = _init(fields, frozen, hasattr(cls, "__post_init__"))
    if repr and "__repr__" not in cls.__dict__:
        made["__repr__"] = reprlib.recursive_repr()(_repr(tuple(f.name for f in fields if f.repr)))
    if eq and "__eq__" not in cls.__dict__:
        key = _key(tuple(f.name for f in fields if f.compare))
        made["__eq__"] = lambda self, other: (key(self) == key(other)
                                              if other.__class__ is self.__class__ else NotImplemented)
    own_hash = cls.__dict__.get("__hash__", MISSING)
    explicit_hash = not (own_hash is MISSING or (own_hash is None and "__eq__" in cls.__dict__))
    if eq and frozen and not explicit_hash:
        hashed = _key(tuple(f.name for f in fields if f.hash or f.hash is None and f.compare))
        made["__hash__"] = lambda self: hash(hashed(self))
    if frozen:
        made["__setattr__"], made["__delattr__"] = _frozen(cls, names)
    for name, fn in made.items():
        fn.__name__, fn.__qualname__ = name, f"{cls.__qualname__}.{name}"
        setattr(cls, name, fn)
    if "__init__" in made:
        cls.__init__.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    if eq and not frozen and not explicit_hash:
        cls.__hash__ = None
    for f in fields:
        if isinstance(cls.__dict__.get(f.name), Field):
            if f.default is MISSING:
                delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
    cls.__dataclass_fields__ = {f.name: f for f in fields}
    cls.__dataclass_params__ = _Params(init, repr, eq, frozen)
    if "__match_args__" not in cls.__dict__:
        cls.__match_args__ = names
    if not cls.__doc__:
        cls.__doc__ = cls.__name__ + "(" + ", ".join(_shown(f) for f in fields) + ")"


_TEMPLATES = {}     # the source of an __init__ over placeholder names -> its code object


def _init(fields, frozen, post_init):
    """`__init__(self, <fields>)`: a code object compiled once per shape (number of fields,
    which have defaults or factories, frozen, __post_init__) over the names _p0, _p1, ...,
    renamed to the fields' names: no compilation per class."""
    params, body, space, defaults = [], [], {"_setattr": object.__setattr__, "_F": _HAS_FACTORY}, []
    for i, f in enumerate(fields):
        value = f"_p{i}"
        if f.default_factory is not MISSING:
            space[f"_f{i}"] = f.default_factory
            value = f"_f{i}() if _p{i} is _F else _p{i}"
            defaults.append(_HAS_FACTORY)
        elif f.default is not MISSING:
            defaults.append(f.default)
        params.append(f"_p{i}" + ("=None" if f.default is not MISSING
                                  or f.default_factory is not MISSING else ""))
        body.append(f"_setattr(self, '_p{i}', {value})" if frozen else f"self._p{i} = {value}")
    if post_init:
        body.append("self.__post_init__()")
    text = f"def __init__(self, {', '.join(params)}):\n  " + "\n  ".join(body or ["pass"])
    if text not in _TEMPLATES:
        scope = {}
        exec(text, scope)
        _TEMPLATES[text] = scope["__init__"].__code__
    code = _TEMPLATES[text]
    rename = {f"_p{i}": f.name for i, f in enumerate(fields)}
    code = code.replace(co_varnames=tuple(rename.get(n, n) for n in code.co_varnames),
                        co_names=tuple(rename.get(n, n) for n in code.co_names),
                        co_consts=tuple(rename.get(c, c) if isinstance(c, str) else c
                                        for c in code.co_consts))
    return types.FunctionType(code, space, "__init__", tuple(defaults) or None)


def _key(names: tuple):
    """self -> the tuple of its attributes `names` (what a dataclass compares and hashes)."""
    if not names:
        return lambda self: ()
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda self: (get(self),)
    return attrgetter(*names)


def _repr(names: tuple):
    def __repr__(self):
        return self.__class__.__qualname__ + "(" + ", ".join(
            f"{name}={getattr(self, name)!r}" for name in names) + ")"
    return __repr__


def _frozen(cls, names: tuple):
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__


def _shown(f) -> str:
    """One parameter as `inspect.signature` prints it in a dataclass's docstring."""
    if f.default_factory is not MISSING:
        return f"{f.name}: {f.type!r} = <factory>"
    return f"{f.name}: {f.type!r}" + ("" if f.default is MISSING else f" = {f.default!r}")
