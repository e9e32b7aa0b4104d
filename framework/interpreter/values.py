"""The interpreter's values and states: players and cell values as tagged ints, the
run-time `RuleError`, the `Snapshot` a state is, and the direction sets the builtins walk."""
from __future__ import annotations

from dataclasses import dataclass, replace

from framework.errors import SpecRuntimeError

DIRECTIONS = {
    "orthogonal": ((1, 0), (-1, 0), (0, 1), (0, -1)),
    "diagonal": ((1, 1), (-1, -1), (1, -1), (-1, 1)),
    "knight": ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)),
}
DIRECTIONS["queen"] = DIRECTIONS["king"] = DIRECTIONS["orthogonal"] + DIRECTIONS["diagonal"]
DIRECTIONS["hex"] = DIRECTIONS["orthogonal"] + ((1, -1), (-1, 1))      # a rhombus of hexagons
LINE_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
_UNSET = object()


class PlayerId(int):
    """A player (its index), tagged so that it can stand for the cell value of its name."""


class CellValue(int):
    """A cell value (its index in the board's list of values)."""


class RuleError(SpecRuntimeError):
    """A rule the interpreter cannot evaluate (a name it cannot read, a definition calling
    itself: what the checker should have refused).  The failures of a rule during play (an
    index off a list, a division by zero, a value out of its declared range, `board[none]`
    written) are raised as the compiled games raise them, by the helpers of
    framework.runtime, so that both say the same thing at the same place."""


@dataclass(frozen=True)
class Snapshot:
    board: tuple            # cell-value index per cell, row-major; () without a board
    vars: tuple             # (name, value) pairs in declaration order
    mover: int

    def get(self, name):
        for key, value in self.vars:
            if key == name:
                return value
        raise KeyError(name)

    def with_var(self, name, value) -> "Snapshot":
        return replace(self, vars=tuple((k, value if k == name else v) for k, v in self.vars))
