"""Run-time support the generated game modules import: board tables and bit helpers
(the builtins' own helpers live with them in framework.builtins).

Cells are bit positions in a row-major layout with one spare (always empty) column per
row, so that shifting a bitboard never wraps from one row into the next:
cell (col, row) -> row * (width + 1) + col.  `none` (no cell) is -1; every per-cell table
has one extra trailing entry so that indexing it with -1 yields "nothing".
"""
from __future__ import annotations

import functools
import reprlib

from framework.errors import SpecError
from framework.graph import Graph, step_cells


class IllegalAction(ValueError):
    """`state.result(action)` was given an action that is not legal in that state."""


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60
SHOWN_CHARS = 200           # the most an error message shows of a value a caller gave


def shown_value(value) -> str:
    """A value a caller gave (an action, a chance outcome), as an error message shows it: its
    repr with long strings, long containers and deep nesting elided (reprlib), at most
    SHOWN_CHARS characters, never raising (not even for an int too long to print)."""
    try:
        text = _REPR.repr(value)
    except Exception:           # a repr that raises (reprlib catches only some), an int past sys.int_info
        text = f"<{type(value).__name__}>"
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


class UnknownPlayer(ValueError):
    """A method taking a player was given neither a player's index nor a player's name."""


class BoardTables:
    """Per-cell lookup tables of one board size."""

    def __init__(self, width: int, height: int, direction_sets: dict):
        self.width, self.height = width, height
        self.stride = stride = width + 1
        self.span = height * stride
        self.cells = tuple(r * stride + c for r in range(height) for c in range(width))
        self.full = sum(1 << i for i in self.cells)
        self.xy = [None] * (self.span + 1)        # index -> (col, row)
        self.col = [0] * (self.span + 1)
        self.row = [0] * (self.span + 1)
        for i in self.cells:
            self.xy[i] = (i % stride, i // stride)
            self.col[i], self.row[i] = i % stride, i // stride
        self.index = {self.xy[i]: i for i in self.cells}
        self.column_masks = [sum(1 << (r * stride + c) for r in range(height)) for c in range(width)]
        self.neighbors, self.rays = {}, {}
        for name, dirs in direction_sets.items():
            self.neighbors[name] = [self._neighbors(i, dirs) if i in self.index.values() else 0
                                    for i in range(self.span)] + [0]
            self.rays[name] = [tuple(self._ray(i, d) for d in dirs) if self.xy[i] and not isinstance(dirs, Graph) else ()
                               for i in range(self.span)] + [()]

    def cell(self, x: int, y: int) -> int:
        return y * self.stride + x if 0 <= x < self.width and 0 <= y < self.height else -1

    def _neighbors(self, i, dirs):
        return sum(1 << self.cell(x, y) for x, y in step_cells(self.xy[i], dirs) if self.cell(x, y) >= 0)

    def _ray(self, i, d):
        x, y = self.xy[i]
        out = []
        while True:
            x, y = x + d[0], y + d[1]
            j = self.cell(x, y)
            if j < 0:
                return tuple(out)
            out.append(j)

    def line_shifts(self):
        """Bit distance between consecutive cells: across, down, down-right, down-left."""
        return (1, self.stride, self.stride + 1, self.stride - 1)

    def permutations(self, kinds):
        """Cell permutations (index -> index) for the declared symmetries, identity first:
        the rotations and reflections that map the board onto itself (on a rectangle, the
        half turn and the two axis reflections; on a square, the eight of the dihedral group);
        `half_turn` alone is the turn by 180 degrees (Hex's rhombus has no other)."""
        w, h = self.width, self.height
        maps = [lambda x, y: (x, y)]
        if ("all" in kinds or "rotate" in kinds) and w == h:
            maps += [lambda x, y: (w - 1 - y, x), lambda x, y: (w - 1 - x, h - 1 - y),
                     lambda x, y: (y, h - 1 - x)]
        elif {"all", "rotate", "half_turn"} & set(kinds):   # a rectangle maps onto itself by a half turn only
            maps += [lambda x, y: (w - 1 - x, h - 1 - y)]
        if "all" in kinds or "reflect" in kinds:
            base = list(maps)
            maps += [lambda x, y, f=f: f(w - 1 - x, y) for f in base]
        perms = []
        for f in maps:
            perm = {i: self.index[f(*self.xy[i])] for i in self.cells}
            perm[-1] = -1
            if perm not in perms:
                perms.append(perm)
        return perms


MEMO_ENTRIES = 1 << 14     # the values a memoised definition keeps (framework/compiler/outline.py)
MEMO_TRIAL = 4096          # its first calls, which decide whether it stays memoised
MEMO_HITS = 0.25           # ... by the share of them answered from memory


def memoise(function):
    """A definition written as a function (framework/compiler/outline.py), remembering its
    last MEMO_ENTRIES values by its arguments (the state fields it reads and its own).  It
    is a pure function of them, so a remembered value is what the call would return; a call
    that raises remembers nothing; `typed`: 1 and True are separate keys.  After its first
    MEMO_TRIAL calls the module's global of that name is rebound to the memoised function
    when at least MEMO_HITS of them were answered from memory, else to the plain function
    (a position is seldom seen twice: the memory would cost more than it saves), so
    later calls pay no trial."""
    cached = functools.lru_cache(maxsize=MEMO_ENTRIES, typed=True)(function)
    function.__globals__.setdefault("_MEMO_CACHES", []).append(cached)     # (forget_memos)
    calls = 0

    def trial(*args):
        nonlocal calls
        calls += 1
        if calls == MEMO_TRIAL:
            info = cached.cache_info()
            keep = info.hits >= MEMO_HITS * (info.hits + info.misses)
            function.__globals__[function.__name__] = cached if keep else function
        return cached(*args)
    return trial


def forget_memos(namespace: dict):
    """Empty the memories of a generated module's memoised definitions (a kernel's
    `forget`: perft and the searches start each run cold, so a run repeated in one process
    does not read the values the last one left)."""
    for cached in namespace.get("_MEMO_CACHES", ()):
        cached.cache_clear()


LOOP_KEYS = 4096           # the outcomes a loop's dict table keeps (framework/compiler/loop_tables.py)


def loop_table(sizes):
    """An empty table of a loop's outcomes over keys in known ranges: nested lists of
    None, sizes[0] the outermost (framework/compiler/loop_tables.py)."""
    return [None] * sizes[0] if len(sizes) == 1 else [loop_table(sizes[1:]) for _ in range(sizes[0])]


def loop_outcome(table, key: tuple, run, lows=None):
    """The outcome of a tabled loop (framework/compiler/loop_tables.py) for the values `key`
    of the locals it reads: run(*key), or False when that raises (the loop itself then
    runs and raises as it does), kept in `table`: a dict while it holds fewer than
    LOOP_KEYS, or nested lists (loop_table) indexed by each value less its range's `lows`."""
    try:
        outcome = run(*key)
    except Exception:
        outcome = False
    if lows is None:
        if len(table) < LOOP_KEYS:
            table[key] = outcome
        return outcome
    for value, low in zip(key[:-1], lows):
        table = table[value - low]
    table[key[-1] - lows[-1]] = outcome
    return outcome


def bits(mask: int) -> list:
    """Indices of the set bits of `mask`, lowest first (a new list)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class cell_table(dict):
    """q << 16 | r -> made(q, r), computed at the first use: the cells where a relation of
    three cells holds beside q and r (framework/compiler/relations.py `relation`), at most one
    entry per pair of cells."""

    def __init__(self, made):
        super().__init__()
        self.made = made

    def __missing__(self, key: int) -> int:
        found = self[key] = self.made(key >> 16, key & 0xFFFF)
        return found


BITS_REMEMBERED = 1 << 16


class _Bits(dict):
    """mask -> the tuple of bits(mask), computed once per mask: a game's search asks for the
    same few board masks again and again (perft(7) of draughts: 649); at most
    BITS_REMEMBERED are kept.  `board_bits` is its `__getitem__`, a call with no Python
    frame once a mask is known; the generated game modules call it as `bits`."""

    def __missing__(self, mask: int) -> tuple:
        if len(self) >= BITS_REMEMBERED:
            self.clear()
        found = self[mask] = tuple(bits(mask))
        return found


board_bits = _Bits().__getitem__


def cells_mask(cells, off: int) -> int:
    """The mask of the board cells among `cells`, with bit `off` set when one of them is
    -1 (off the board): a quantifier's visited cells (compiler/range_masks.py)."""
    mask = 0
    for c in cells:
        mask |= 1 << (c if c >= 0 else off)
    return mask


def moves_mask(moves, off: int) -> int:
    """The mask of the cells of `moves` ((cell, move) pairs), with bit `off` set when two
    of them share a cell (compiler/range_masks.py GridMovesMixin)."""
    mask = 0
    for c, _ in moves:
        mask |= 1 << off if mask >> c & 1 else 1 << c
    return mask


def permute(mask: int, perm: dict) -> int:
    out = 0
    for i in bits(mask):
        out |= 1 << perm[i]
    return out


def set_item(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def item(items: tuple, index, name: str, pos):
    """`items[index]` for a rule reading a list, or a SpecRuntimeError at `pos` when the
    index is off the list (Python would read from the end for a negative one)."""
    if not 0 <= index < len(items):
        bad_index(items, index, name, pos)
    return items[index]


def bad_index(items: tuple, index, name: str, pos):
    from framework.errors import SpecRuntimeError
    raise SpecRuntimeError.at(pos, f"index {index} is outside `{name}`, whose indexes are 0..{len(items) - 1}",
                              "guard the rule with a precondition on the index")


MAX_SPAN = 100_000        # values a range computed during play may have (as the checker's MAX_DOMAIN)


def span(lo, hi, pos):
    """`range(lo, hi + 1)` for a domain whose bounds depend on the state, refused with a
    SpecRuntimeError at `pos` when it is larger than MAX_SPAN (a loop would not end)."""
    if hi - lo + 1 > MAX_SPAN:
        from framework.errors import SpecRuntimeError
        raise SpecRuntimeError.at(pos, f"the range {lo}..{hi} has more than {MAX_SPAN:,} values",
                                  "bound the range's ends")
    return range(lo, hi + 1)


def no_actions(pos):
    from framework.errors import NoLegalActions
    raise NoLegalActions.at(pos, "a state that is not terminal has no legal action",
                            "make `terminal` true in such states, or declare `pass: true`")


def no_outcomes(pos):
    from framework.errors import NoChanceOutcomes
    raise NoChanceOutcomes.at(pos, "a chance node has no outcome of positive probability",
                              "make the chance domain non-empty in every state where the action is legal, "
                              "or guard the action with a precondition")


MAX_MOVE_STEPS = 100         # a compound move of more steps is taken to repeat forever


def endless_move(pos):
    from framework.errors import SpecRuntimeError
    raise SpecRuntimeError.at(pos, f"a compound move went on for {MAX_MOVE_STEPS} steps: its steps can "
                              "repeat forever", "make each step change what the next step's condition "
                              "reads (e.g. remove the piece jumped over)")


def divide(a, b, op: str, pos):
    """`a op b` for `/`, `//` and `%`; a SpecRuntimeError at `pos` when `b` is zero."""
    if b == 0:
        from framework.errors import SpecRuntimeError
        raise SpecRuntimeError.at(pos, "division by zero in a rule", "guard the rule so the divisor is never 0")
    return a // b if op == "//" else a % b if op == "%" else a / b


def overflow(error: OverflowError, pos):
    """A number in a rule grew too large for a float: a SpecRuntimeError at the rule."""
    from framework.errors import SpecRuntimeError
    raise SpecRuntimeError.at(pos, f"a number in this rule grew too large ({error})",
                              "keep the rule's values within a float's range (about 1e308)") from None


def out_of_range(variable: tuple, value, lo, hi, initial=False):
    """A state variable left its declared range (or, `initial`, starts outside it, being
    computed from options): a SpecError at its declaration.  `variable` is (name, position
    of the declaration or None)."""
    name, pos = variable
    if initial:
        message = f"the initial value of `{name}` would be {value}, outside its range {lo}..{hi}"
        hint = "check the options it is computed from"
    else:
        message = f"state variable `{name}` would become {value}, outside its range {lo}..{hi}"
        hint = "widen the type's range or guard the action with a precondition"
    from framework.errors import SpecRuntimeError
    raise (SpecError if initial else SpecRuntimeError).at(pos, message, hint)


# ------------------------------------------------------------------ cells that are `none`
# A cell expression may be `none` (`drop` on a full column, `cell(x, y)` off the board, a
# cell variable not yet set; a pair `(x, y)` off the board is `none` too).  Reading
# `board[none]` gives no value (equal to no cell value), `c in S` is false, and the
# builtins that give a set of cells (`neighbors`, `slide`, `between`, `group`,
# `liberties`) give the empty set; writing `board[none]` and asking `col(none)` or
# `row(none)` are errors.  The generated code calls these only where a cell may be
# `none`; the reference interpreter raises the same errors.

def off_board(pos):
    """`board[c] = v` with `c` none: a SpecRuntimeError at the store."""
    from framework.errors import SpecRuntimeError
    raise SpecRuntimeError.at(pos, "board[none] is not a cell of the board",
                              "guard the action so the cell exists (e.g. `if: drop(board, x) != none`)")


def no_cell(func: str, pos):
    """`col(none)` or `row(none)`: a SpecRuntimeError at the call."""
    from framework.errors import SpecRuntimeError
    raise SpecRuntimeError.at(pos, f"{func}(none): the cell is `none`, which has no {'column' if func == 'col' else 'row'}",
                              "guard the rule so the cell is not `none` (e.g. `c != none and col(c) == 0`)")


def cell_part(table, c: int, func: str, pos) -> int:
    """`col(c)` / `row(c)` for a cell that may be `none` (-1)."""
    if c < 0:
        no_cell(func, pos)
    return table[c]


def drop_cell(column_masks, x: int, occupied: int) -> int:
    """`drop(board, x)` for a column that may be off the board: `none` (-1) there."""
    if not 0 <= x < len(column_masks):
        return -1
    return (column_masks[x] & ~occupied).bit_length() - 1


def extreme(kind: str, values, pos):
    """`min x in D: E` / `max x in D: E`; over an empty domain a SpecRuntimeError at the
    quantifier (not a silent 0)."""
    found = min(values, default=None) if kind == "min" else max(values, default=None)
    if found is None:
        from framework.errors import SpecRuntimeError
        raise SpecRuntimeError.at(pos, f"`{kind}` over an empty domain has no value",
                                  "guard the rule so the domain is not empty, or use `sum` or `count`")
    return found
