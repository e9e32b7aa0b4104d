"""The builtin registry: every function of the spec language, one module per family.

Each family module (lines, rays, neighbours, connectivity, gravity, counting, cell_arithmetic, players,
queries, numeric) lists its `Builtin` records in `BUILTINS`; a record holds the signature
the checker uses, the lowering the compiler uses, the run-time helpers of the generated
code, the one-line doc and the interpreter's meaning (see framework.builtins.base).  To add
a builtin, add a record to a family module (or a new module listed in `_FAMILIES`) and its
test: docs/architecture.md walks through it.
"""
from __future__ import annotations

from framework.builtins import (cell_arithmetic, connectivity, counting, gravity, lines, neighbours, numeric,
                                players, queries, rays)
from framework.builtins.base import Builtin

_FAMILIES = (lines, rays, neighbours, connectivity, gravity, counting, cell_arithmetic, players, queries, numeric)
_REGISTRY = {b.name: b for family in _FAMILIES for b in family.BUILTINS}

# The names the language defines besides the functions (the checker's special names and the
# domains a parameter ranges over), with the one-line doc an editor shows on hover.
CONSTANTS = {
    "mover": "the player to move: in an action, the player making it",
    "me": "in `utility` and `evaluation`: the player whose value is being computed",
    "none": "no player or no cell value: the winner of a draw, an empty `cell` variable",
    "true": "the boolean true",
    "false": "the boolean false",
    "cell": "every cell of the board, as (column, row): `c in cell`; also a state variable type",
    "player": "every player, in turn order: `p in player`; also a state variable type",
}

__all__ = ["Builtin", "CONSTANTS", "get", "all", "names", "runtime_namespace", "table"]


def get(name: str) -> Builtin | None:
    """The builtin called `name`, or None."""
    return _REGISTRY.get(name)


def all() -> tuple:   # noqa: A001 (the registry's documented API)
    """Every builtin, family by family."""
    return tuple(_REGISTRY.values())


def names() -> list:
    return list(_REGISTRY)


def runtime_namespace() -> dict:
    """The run-time helpers of all builtins, by the names generated code calls them."""
    out = {}
    for b in _REGISTRY.values():
        out.update(b.runtime)
    return out


def table() -> str:
    """The Markdown table of all builtins (docs/architecture.md holds it; a test keeps it current)."""
    rows = [f"| `{b.usage()}` | {b.doc} | `{b.lower.__module__}` |" for b in _REGISTRY.values()]
    return "\n".join(["| builtin | meaning | module |", "|---|---|---|"] + rows)
