"""The spec's own direction sets (`directions:`): each a name and a list of (dx, dy) steps,
checked and declared beside the built-in sets (orthogonal, diagonal, queen, king, knight,
hex), so that every builtin taking a direction set takes it.  Called once by the checker
(`declare_directions`, after the board); name resolution (`Checker.directions`), the
compiler, the loader and the interpreter read the result (`Checked.directions`: name -> steps)."""
from __future__ import annotations

from framework.errors import SpecError

MAX_STEPS = 64          # steps in one set
MAX_STRIDE = 64         # |dx|, |dy| of one step


def declare_directions(checker, builtin_sets: dict) -> dict:
    """Every direction set the spec can name: the built-in ones and the spec's own."""
    sets = dict(builtin_sets)
    for name in (n for n in sets if n in checker.globals):     # a graph board's `links`, named before it
        at = next((o.pos for o in checker.spec.options if o.name == name), checker.spec.board.pos)
        raise SpecError.at(at, f"`{name}` is the direction set of a graph board", "pick another name")
    for d in checker.spec.directions:
        if checker.out.graph is not None:
            raise SpecError.at(d.pos, "a graph board has no direction sets of its own",
                               "its points' neighbours are its links: neighbors(c, links)")
        if d.name in builtin_sets:
            raise SpecError.at(d.pos, f"`{d.name}` is a built-in direction set",
                               f"use it as it is ({_text(builtin_sets[d.name])}) or pick another name")
        checker._declare(d.name, "direction set", d.name, d.pos, "direction set")
        sets[d.name] = _steps(d)
    return sets


def _steps(d) -> tuple:
    steps = d.steps if isinstance(d.steps, tuple) else (d.steps,)
    if not steps or len(steps) > MAX_STEPS:
        raise SpecError.at(d.pos, f"direction set `{d.name}` needs 1 to {MAX_STEPS} steps, has {len(steps)}",
                           "e.g. directions: {ring: [[1, 0], [0, 1], [-1, 0], [0, -1]]}")
    out = []
    for step in steps:
        ok = isinstance(step, tuple) and len(step) == 2 and all(
            isinstance(x, int) and not isinstance(x, bool) and abs(x) <= MAX_STRIDE for x in step)
        if not ok:
            raise SpecError.at(d.pos, f"direction set `{d.name}`: the step {_shown(step)} is not a pair of "
                               f"whole numbers (dx, dy) of at most {MAX_STRIDE}",
                               "write each step as [dx, dy] (`.game`: (dx, dy)), dx to the right, dy down")
        if step == (0, 0):
            raise SpecError.at(d.pos, f"direction set `{d.name}`: the step (0, 0) does not move",
                               "remove it")
        if step in out:
            raise SpecError.at(d.pos, f"direction set `{d.name}` lists the step {_shown(step)} twice",
                               "remove the repeat")
        out.append(step)
    return tuple(out)


def _shown(step) -> str:
    return f"({', '.join(map(str, step))})" if isinstance(step, tuple) else repr(step)


def _text(steps) -> str:
    return ", ".join(_shown(s) for s in steps)
