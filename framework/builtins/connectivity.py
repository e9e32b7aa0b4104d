"""Connectivity: `connected(board, A, B, dirs, v)`, `group(board, c, dirs)`,
`liberties(board, c, dirs)` (Hex's win test, Go's captures) and `region(A, dirs, S)` (the
cells of any set S joined to A inside S: rings, territories), lowered to bitboard flood fill.

A flood grows a set of cells by one step in every direction of `dirs` at once and keeps
the cells that may be crossed, until it stops growing.  For direction sets whose steps move
at most one column (orthogonal, diagonal, king, queen, hex) a step is a handful of shifts of
the whole bitboard (the spare column of every row stops a shift from wrapping; see
framework.runtime); for the others (knight, custom sets with longer steps) it is the union
of the precomputed neighbour masks of the cells reached so far.  The reference interpreter
gives each builtin its plain meaning: a breadth-first search over (column, row) cells.
"""
from __future__ import annotations

from framework import ast
from framework.builtins.base import Builtin
from framework.builtins.rays import shifts
from framework.graph import step_cells


def step_by_table(neighbors, cells: int) -> int:
    """Run-time helper: the cells one step from any cell of `cells`, by the neighbour table."""
    out = 0
    while cells:
        low = cells & -cells
        out |= neighbors[low.bit_length() - 1]
        cells ^= low
    return out


def connected(flood, a: int, b: int, through: int) -> bool:
    """Run-time helper: whether the cells of `through` join a cell of a to a cell of b."""
    return flood(a, through, b) & b != 0


def group(c: int, masks: tuple, flood) -> int:
    """Run-time helper: the cells of c's value joined to c (0 when c is none)."""
    if c < 0:
        return 0
    for mask in masks:
        if mask >> c & 1:
            return flood(1 << c, mask, 0)
    return 0


def groups(cells: int, masks: tuple, flood):
    """Run-time helper: the distinct groups (as `group`) of the cells of `cells`, each once,
    in the order of their lowest cell in `cells` (compiler/quantifiers.py over_groups)."""
    while cells:
        low = cells & -cells
        found = group(low.bit_length() - 1, masks, flood)
        yield found
        cells &= ~(found | low)


def groups_meeting(flood, cells: int, sets: tuple) -> int:
    """Run-time helper: the cells of `cells` whose group (joined by `flood` through `cells`)
    meets every set of `sets`: `exists c in cells(board, p): P(group(board, c, DIRS))` with P
    a conjunction of `g & S != 0` (Y's and Hex's wins) is this mask non-zero, one flood per
    set through what the last left, not one per group (compiler/quantifiers.py over_groups)."""
    for found in sets:
        cells = flood(cells & found, cells, 0)
        if not cells:
            break
    return cells


def cell_bits(c: int) -> int:
    """Run-time helper: the set holding cell c alone (empty when c is none)."""
    return 1 << c if c >= 0 else 0


def liberties(c: int, masks: tuple, flood, step, empty: int) -> int:
    """Run-time helper: the empty cells next to c's group."""
    stones = group(c, masks, flood)
    return step(stones) & empty & ~stones


def liberties_upto(c: int, masks: tuple, flood, step, empty: int, cap: int) -> int:
    """Run-time helper: the number of c's liberties, or `cap` when there are at least that
    many: a stone's empty neighbours are liberties of its group, so a stone with `cap` of
    them is answered without flooding the group (`capped_liberties`)."""
    if c >= 0 and not empty >> c & 1 and (step(1 << c) & empty).bit_count() >= cap:
        return cap
    n = liberties(c, masks, flood, step, empty).bit_count()
    return n if n < cap else cap


def capped_liberties(compiler, node, env):
    """`size(liberties(board, c, dirs)) OP K` for a constant K from 0 to 3 and a comparison
    OP compares the count capped at K + 1 alike (`liberties_upto`): Go's capture, atari and
    suicide tests, where most stones have an empty neighbour.  None for any other node."""
    if not (isinstance(node, ast.Binary) and node.op in ("==", "!=", "<", "<=", ">", ">=")
            and isinstance(node.left, ast.Call) and node.left.func == "size"
            and isinstance(node.left.args[0], ast.Call) and node.left.args[0].func == "liberties"
            and isinstance(node.right, ast.Num) and node.right.value in (0, 1, 2, 3)):
        return None
    call = _lower_liberties(compiler, node.left.args[0], env)
    return f"(liberties_upto({call[len('liberties('):-1]}, {node.right.value + 1}) {node.op} {node.right.value})"


def _helpers(compiler, dirs):
    """Emit `_step_<dirs>(m)` (cells one step from m) and `_flood_<dirs>(reach, through,
    target)` (the cells of `through` joined to `reach & through`; stops early once it meets
    `target`) into the generated module, and return their names."""
    step, flood = f"_step_{dirs}", f"_flood_{dirs}"
    if flood in compiler.helpers:
        return step, flood
    steps = compiler.c.directions[dirs]
    if shifts(steps):
        deltas = sorted({dx + dy * compiler.tables.stride for dx, dy in steps})
        grow = " | ".join(f"m << {d}" if d > 0 else f"m >> {-d}" for d in deltas)
        compiler.helpers[step] = (f"def {step}(m):\n    \"\"\"Cells one {dirs} step from the cells of m.\"\"\"\n"
                                  f"    return ({grow}) & FULL\n")
        grow_reach = f"({grow.replace('m', 'reach')}) & through | reach"
    else:
        compiler.helpers[step] = (f"def {step}(m):\n    \"\"\"Cells one {dirs} step from the cells of m.\"\"\"\n"
                                  f"    return step_by_table(NEIGHBORS_{dirs}, m)\n")
        grow_reach = f"step_by_table(NEIGHBORS_{dirs}, reach) & through | reach"
    compiler.helpers[flood] = "\n".join([
        f"def {flood}(reach, through, target):",
        f'    """Cells of through joined to reach & through by {dirs} steps (early out on target)."""',
        "    reach &= through",
        "    while not reach & target:",
        f"        grow = {grow_reach}",
        "        if grow == reach:",
        "            break",
        "        reach = grow",
        "    return reach"]) + "\n"
    return step, flood


def _dirs(compiler, node):
    return compiler.kinds[id(node)][1]


def _value_masks(compiler):
    """The tuple of every cell value's bitboard, in the board's value order."""
    masks = [f"FULL & ~{compiler.occupied()}" if i == compiler.c.default_value else f"b_{v}"
             for i, v in enumerate(compiler.c.values)]
    return f"({', '.join(masks)},)"


def _lower_connected(compiler, node, env):
    _, a, b, dirs, v = node.args
    _, flood = _helpers(compiler, _dirs(compiler, dirs))
    return f"connected({flood}, {compiler.expr(a, env)}, {compiler.expr(b, env)}, {compiler.value_mask(v, env)})"


def _lower_group(compiler, node, env):
    _, c, dirs = node.args
    _, flood = _helpers(compiler, _dirs(compiler, dirs))
    return f"group({compiler.expr(c, env)}, {_value_masks(compiler)}, {flood})"


def _region_flood(compiler, node, env):
    """The code of `region(A, dirs, S)`'s flood (its helper's name), seeds and cells through."""
    seeds, dirs, through = node.args
    _, flood = _helpers(compiler, _dirs(compiler, dirs))
    start = compiler.expr(seeds, env)
    if compiler.types.get(id(seeds)) != "cellset":           # one cell (or none)
        start = f"cell_bits({start})"
    return flood, start, compiler.expr(through, env)


def _lower_region(compiler, node, env):
    flood, start, through = _region_flood(compiler, node, env)
    return f"{flood}({start}, {through}, 0)"


def region_meets(compiler, node, env):
    """`region(A, dirs, S) & T` (either way round) where only its emptiness is asked (`size(..)
    > 0`, `== 0`, ...): a mask non-zero exactly when the region meets T, from a flood that
    stops once it does (a path to a goal row: Quoridor's `reaches`).  None for any other node."""
    if not (isinstance(node, ast.Binary) and node.op == "&"):
        return None
    for region, target in ((node.left, node.right), (node.right, node.left)):
        if isinstance(region, ast.Call) and region.func == "region":
            flood, start, through = _region_flood(compiler, region, env)
            return f"meets({flood}, {start}, {through}, {compiler.expr(target, env)})"
    return None


def meets(flood, start: int, through: int, target: int) -> int:
    """Run-time helper: the cells of `target` in the region of `start` through `through`
    that a flood stopping at the first of them finds (0 when the region misses target)."""
    return flood(start, through, target) & target


def _lower_liberties(compiler, node, env):
    _, c, dirs = node.args
    step, flood = _helpers(compiler, _dirs(compiler, dirs))
    empty = f"(FULL & ~{compiler.occupied()})"
    return f"liberties({compiler.expr(c, env)}, {_value_masks(compiler)}, {flood}, {step}, {empty})"


# ------------------------------------------------------------------ the interpreter's meaning
def _reach(ev, s, seeds, dirs, value):
    """The cells holding `value` joined to a seed holding it."""
    return _search(seeds, dirs, lambda c: ev.on_board(c) and ev.read(s, c) == value)


def _search(seeds, dirs, inside) -> frozenset:
    """Breadth-first search: the cells for which `inside` holds joined to a seed it holds for."""
    todo = [c for c in seeds if inside(c)]
    seen = set(todo)
    while todo:
        for n in step_cells(todo.pop(0), dirs):
            if n not in seen and inside(n):
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


def _interpret_connected(ev, node, args, s):
    _, a, b, dirs, v = args
    return bool(_reach(ev, s, a, dirs, ev.as_value(v)) & b)


def _interpret_group(ev, node, args, s):
    _, c, dirs = args
    return _reach(ev, s, [c], dirs, ev.read(s, c)) if ev.on_board(c) else frozenset()


def _interpret_region(ev, node, args, s):
    seeds, dirs, through = args
    return _search([] if seeds is None else [seeds] if isinstance(seeds, tuple) else seeds, dirs,
                   through.__contains__)


def _interpret_liberties(ev, node, args, s):
    stones = _interpret_group(ev, node, args, s)
    dirs = args[2]
    return frozenset(n for c in stones for n in step_cells(c, dirs)
                     if ev.on_board(n) and n not in stones and ev.read(s, n) == ev.c.default_value)


BUILTINS = (
    Builtin("connected", ("board", "cellset", "cellset", "dirs", "value"), "bool",
            "true when a chain of v-cells, each one step of dirs from the next, joins a cell of A to a cell of B",
            _lower_connected, runtime={"connected": connected, "step_by_table": step_by_table}, interpret=_interpret_connected),
    Builtin("group", ("board", "cell", "dirs"), "cellset",
            "the cells holding c's value joined to c by chains of dirs steps through that value (c's group)",
            _lower_group, runtime={"group": group, "groups": groups, "groups_meeting": groups_meeting,
                                   "step_by_table": step_by_table}, interpret=_interpret_group),
    Builtin("liberties", ("board", "cell", "dirs"), "cellset",
            "the cells holding the initial value one dirs step from c's group (its liberties)",
            _lower_liberties, runtime={"liberties": liberties, "liberties_upto": liberties_upto, "group": group, "step_by_table": step_by_table},
            interpret=_interpret_liberties),
    Builtin("region", ("cellset", "dirs", "cellset"), "cellset",
            "the cells of S joined to A (a set of cells, or one cell) by chains of dirs steps inside S",
            _lower_region, runtime={"cell_bits": cell_bits, "meets": meets, "step_by_table": step_by_table},
            interpret=_interpret_region),
)
