"""`dataclass`, `field`, `replace`, `asdict`: the `dataclasses` module's, made cheaply, for
the classes on the start-up path.

`dataclasses.dataclass` compiles every generated method with its own `exec` and builds the
class docstring with `inspect.signature`: about 1 ms per class, and the AST, the planning
task and the search results are some 40 classes; importing `dataclasses` also imports
`inspect` (~10 ms).  Together that was a third of what `plyspec plan` spent on a small task.
`framework.records.dataclass` makes the same class (the same `__init__` signature and
behaviour, `__repr__`, `__eq__`, `__hash__`, frozen `__setattr__` / `__delattr__`,
`__match_args__`, docstring, class-level defaults, `__slots__`) without compiling per class:
`__init__`, `__eq__` and `__hash__` are compiled once per shape (number of fields...) over
placeholder names and renamed (`CodeType.replace`: the byte code `dataclasses` generates),
`__repr__` and the frozen `__setattr__` are closures (no cache file: loading the compiled
templates from disk saved nothing measurable, 213 vs 219 ms best `plyspec check`).  The
`dataclasses` module is imported only when something asks for `__dataclass_fields__`
(`dataclasses.fields`, `asdict`, `is_dataclass`...): a lazy class attribute then makes the
real `dataclasses.Field` objects.  The common subset is covered (init, repr, eq, frozen,
slots; per field default, default_factory, repr, compare, hash); a class needing more (a
dataclass base, ClassVar / InitVar / KW_ONLY, order, kw_only, init=False fields, an own
`__init__` or frozen `__setattr__`, a mutable default, a non-default field after a default
one, annotations that are not strings) is handed to `dataclasses.dataclass` itself, which
also raises its errors.  tests/test_records.py checks every behaviour against
`dataclasses.dataclass`.
"""
from __future__ import annotations

import reprlib
import sys
import types

_SIMPLE = {"init", "repr", "eq", "frozen", "slots"}
_UNSUPPORTED = ("ClassVar", "InitVar", "KW_ONLY")
_RESERVED = {"self", "other", "hash", "NotImplemented", "__class__", "_F", "_setattr"}


class _Missing:
    def __repr__(self):
        return "MISSING"


class _Factory:
    def __repr__(self):
        return "<factory>"


MISSING, _HAS_FACTORY = _Missing(), _Factory()


class FieldSpec:
    """What `field(...)` says of one field; `dataclasses.Field` objects are made from it only
    when something asks for `__dataclass_fields__` (so `dataclasses` is not imported before)."""

    def __init__(self, default=MISSING, default_factory=MISSING, init=True, repr=True,
                 hash=None, compare=True, metadata=None, kw_only=MISSING):
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.default, self.default_factory, self.init, self.repr = default, default_factory, init, repr
        self.hash, self.compare, self.metadata, self.kw_only = hash, compare, metadata, kw_only
        self.name = self.type = None

    def real(self):
        """The `dataclasses.Field` of this field (its name and type set)."""
        import dataclasses
        options = {k: getattr(self, k) for k in ("init", "repr", "hash", "compare", "metadata")}
        if self.default is not MISSING:
            options["default"] = self.default
        if self.default_factory is not MISSING:
            options["default_factory"] = self.default_factory
        f = dataclasses.field(kw_only=self.kw_only is True, **options)
        f.name, f.type, f._field_type = self.name, self.type, dataclasses._FIELD
        return f

    @classmethod
    def of(cls, f) -> FieldSpec:
        """The spec of a `dataclasses.Field` (given by `dataclasses.field` in a class body)."""
        import dataclasses
        def own(v):
            return MISSING if v is dataclasses.MISSING else v
        return cls(own(f.default), own(f.default_factory), f.init, f.repr, f.hash, f.compare,
                   f.metadata, own(f.kw_only))


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None,
          compare=True, metadata=None, kw_only=MISSING) -> FieldSpec:
    """`dataclasses.field`, for the classes of `dataclass` below."""
    return FieldSpec(default, default_factory, init, repr, hash, compare, metadata, kw_only)


class _LazyFields:
    """`__dataclass_fields__`: the `dataclasses.Field` objects, made on first access."""

    def __init__(self, owner, specs):
        self.owner, self.specs = owner, specs

    def __get__(self, obj, cls=None):
        fields = {f.name: f.real() for f in self.specs}
        type.__setattr__(self.owner, "__dataclass_fields__", fields)
        return fields


class _Params:
    """What `dataclasses` reads of `__dataclass_params__` (a dataclass subclassing a record)."""

    def __init__(self, init, repr, eq, frozen):
        self.init, self.repr, self.eq, self.frozen = init, repr, eq, frozen
        self.order = self.unsafe_hash = False


def dataclass(cls=None, /, **options):
    """`@dataclass`, `@dataclass(frozen=True, eq=False, ...)`: as `@dataclasses.dataclass`."""
    if cls is None:
        return lambda c: dataclass(c, **options)
    params = {"init": True, "repr": True, "eq": True, "frozen": False, "slots": False}
    params.update(options)
    fields = None if set(options) - _SIMPLE else _fields(cls, params["frozen"])
    if params.pop("slots") and fields is not None:
        if cls.__bases__ != (object,) or "__slots__" in cls.__dict__:
            fields = None
        else:
            cls = _slotted(cls, fields, params["frozen"])
    if fields is None:
        import dataclasses
        for name, value in list(cls.__dict__.items()):
            if isinstance(value, FieldSpec):
                setattr(cls, name, value.real())
        return dataclasses.dataclass(cls, **options)
    _build(cls, fields, **params)
    return cls


def _slotted(cls, fields, frozen):
    """The class again, with `__slots__` for its fields (as `dataclass(slots=True)` does)."""
    names = tuple(f.name for f in fields)
    body = {k: v for k, v in cls.__dict__.items() if k not in names + ("__dict__", "__weakref__")}
    new = type(cls)(cls.__name__, cls.__bases__, {**body, "__slots__": names})
    new.__qualname__ = cls.__qualname__
    if frozen:
        def __getstate__(self):
            return [getattr(self, name) for name in names]

        def __setstate__(self, state):
            for name, value in zip(names, state):
                object.__setattr__(self, name, value)
        new.__getstate__, new.__setstate__ = __getstate__, __setstate__
    return new


def replace(obj, /, **changes):
    """`dataclasses.replace`."""
    names = getattr(type(obj), "__record_fields__", None)
    if names is None or type(obj).__dict__.get("__record_fields__") is None:
        import dataclasses
        return dataclasses.replace(obj, **changes)
    for name in names:
        if name not in changes:
            changes[name] = getattr(obj, name)
    return obj.__class__(**changes)


def asdict(obj) -> dict:
    """`dataclasses.asdict`."""
    import dataclasses
    return dataclasses.asdict(obj)


def _fields(cls, frozen):
    """The class's FieldSpecs, or None when this module cannot build it."""
    if type(cls) is not type or any("__dataclass_fields__" in vars(b) for b in cls.__mro__[1:]):
        return None
    if "__init__" in cls.__dict__ or frozen and ("__setattr__" in cls.__dict__
                                                 or "__delattr__" in cls.__dict__):
        return None
    fields, defaulted = [], False
    real = getattr(sys.modules.get("dataclasses"), "Field", ())
    for name, ann in cls.__dict__.get("__annotations__", {}).items():
        if (not isinstance(ann, str) or any(word in ann for word in _UNSUPPORTED)
                or name in _RESERVED or name[:2] in ("_p", "_f") and name[2:].isdigit()):
            return None
        default = cls.__dict__.get(name, MISSING)
        f = (default if isinstance(default, FieldSpec) else FieldSpec.of(default)
             if real and isinstance(default, real) else FieldSpec(default=default))
        if not f.init or f.kw_only is True or not (f.hash is None or f.hash is True):
            return None
        if f.default is not MISSING and f.default.__class__.__hash__ is None:
            return None                                 # a mutable default: dataclass refuses it
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        if defaulted and not has_default:
            return None
        defaulted = defaulted or has_default
        f.name, f.type, f.kw_only = name, ann, False
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
        compared = [f.name for f in fields if f.compare]
        mine = "".join(f"self._p{i}," for i in range(len(compared)))
        made["__eq__"] = _template(
            f"def __eq__(self, other):\n  if other.__class__ is self.__class__:\n"
            f"    return ({mine})==({mine.replace('self.', 'other.')})\n  return NotImplemented",
            compared)
    own_hash = cls.__dict__.get("__hash__", MISSING)
    explicit_hash = not (own_hash is MISSING or (own_hash is None and "__eq__" in cls.__dict__))
    if eq and frozen and not explicit_hash:
        hashed = [f.name for f in fields if f.hash or f.hash is None and f.compare]
        made["__hash__"] = _template("def __hash__(self):\n  return hash(("
                                     + "".join(f"self._p{i}," for i in range(len(hashed))) + "))",
                                     hashed)
    if frozen:
        made["__setattr__"], made["__delattr__"] = _frozen(cls, names)
    for name, fn in made.items():
        fn.__name__, fn.__qualname__, fn.__module__ = name, f"{cls.__qualname__}.{name}", cls.__module__
        setattr(cls, name, fn)
    if "__init__" in made:
        cls.__init__.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    if eq and not frozen and not explicit_hash:
        cls.__hash__ = None
    for f in fields:
        if "__slots__" in cls.__dict__:
            break                                   # the fields are slots, defaults in __init__
        if f.name in cls.__dict__ and f.default is MISSING:
            delattr(cls, f.name)
        elif f.default is not MISSING:
            setattr(cls, f.name, f.default)
    cls.__dataclass_fields__ = _LazyFields(cls, fields)
    cls.__record_fields__ = names
    cls.__dataclass_params__ = _Params(init, repr, eq, frozen)
    if "__match_args__" not in cls.__dict__:
        cls.__match_args__ = names
    if not cls.__doc__:
        cls.__doc__ = cls.__name__ + "(" + ", ".join(_shown(f) for f in fields) + ")"


_TEMPLATES = {}     # the source of a method over placeholder names -> its code object


def _init(fields, frozen, post_init):
    """`__init__(self, <fields>)`: a code object compiled once per shape (number of fields,
    which have factories, frozen, __post_init__) over the names _p0, _p1, ..., renamed to
    the fields' names, with the defaults as `__defaults__`: no compilation per class."""
    params, body, space, defaults = [], [], {"_setattr": object.__setattr__, "_F": _HAS_FACTORY}, []
    for i, f in enumerate(fields):
        value = f"_p{i}"
        if f.default_factory is not MISSING:
            space[f"_f{i}"] = f.default_factory
            value = f"_f{i}() if _p{i} is _F else _p{i}"
            defaults.append(_HAS_FACTORY)
        elif f.default is not MISSING:
            defaults.append(f.default)
        params.append(f"_p{i}")         # (defaults live in __defaults__, not in the code)
        body.append(f"_setattr(self, '_p{i}', {value})" if frozen else f"self._p{i} = {value}")
    if post_init:
        body.append("self.__post_init__()")
    text = f"def __init__(self, {', '.join(params)}):\n  " + "\n  ".join(body or ["pass"])
    return _template(text, [f.name for f in fields], space, tuple(defaults) or None)


def _template(text: str, names: list, space=None, defaults=None):
    """The function `text` defines over the placeholders _p0, _p1, ... (parameters,
    attributes and attribute-name strings), with `names` in their place: `text` is compiled
    once per process, the class's function is its code object with the names replaced, so
    it runs the very byte code `dataclasses` would generate for the class."""
    if text not in _TEMPLATES:
        scope = {}
        exec(text, scope)
        _TEMPLATES[text] = scope[text[4:text.index("(")]].__code__
    code = _TEMPLATES[text]
    rename = {f"_p{i}": name for i, name in enumerate(names)}
    code = code.replace(co_varnames=tuple(rename.get(n, n) for n in code.co_varnames),
                        co_names=tuple(rename.get(n, n) for n in code.co_names),
                        co_consts=tuple(rename.get(c, c) if isinstance(c, str) else c
                                        for c in code.co_consts))
    return types.FunctionType(code, space if space is not None else {"__builtins__": __builtins__},
                              code.co_name, defaults)


def _repr(names: tuple):
    def __repr__(self):
        return self.__class__.__qualname__ + "(" + ", ".join(
            f"{name}={getattr(self, name)!r}" for name in names) + ")"
    return __repr__


def _frozen(cls, names: tuple):
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            from dataclasses import FrozenInstanceError
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            from dataclasses import FrozenInstanceError
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __setattr__, __delattr__


def _shown(f) -> str:
    """One parameter as `inspect.signature` prints it in a dataclass's docstring."""
    if f.default_factory is not MISSING:
        return f"{f.name}: {f.type!r} = <factory>"
    return f"{f.name}: {f.type!r}" + ("" if f.default is MISSING else f" = {f.default!r}")
