"""Where the shared IPC tasks are, how to load one, and the first states a task reaches,
for the planning tests."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

import planners
from framework.errors import SpecError


def shared_pddl() -> Path:
    """../shared/pddl beside the checkout, or $PLYSPEC_SHARED/pddl."""
    root = os.environ.get("PLYSPEC_SHARED")
    base = Path(root) if root else Path(__file__).resolve().parents[2] / "shared"
    return base / "pddl"


def require_pddl() -> Path:
    folder = shared_pddl()
    if not folder.is_dir():
        pytest.skip(f"the IPC tasks are not at {folder} (set PLYSPEC_SHARED)")
    return folder


def domain_file(task_file: Path) -> Path:
    """The domain of a task: domainNN.pddl beside taskNN.pddl, else domain.pddl."""
    own = task_file.with_name(task_file.name.replace("task", "domain"))
    return own if own.exists() else task_file.with_name("domain.pddl")


def ipc_task(domain: str, number: int, **kw):
    folder = require_pddl() / domain
    task_file = folder / f"task{number:02d}.pddl"
    return planners.ground(planners.load(domain_file(task_file), task_file), **kw)


# A small problem in both spec formats, for error-position tests
TOUR_YAML = """\
objects: {place: [A, B, C]}
predicates: [At(x - place), Visited(x - place)]
actions:
  Go(x - place, y - place):
    pre: [At(x), x != y]
    add: [At(y), Visited(y)]
    del: [At(x)]
init: [At(A)]
goal: [Visited(C)]
"""
TOUR_PLAN = """\
problem Tour
objects place: A, B, C
predicates At(x - place), Visited(x - place)
action Go(x - place, y - place)
  pre At(x), x != y
  add At(y), Visited(y)
  del At(x)
init At(A)
goal Visited(C)
"""

# Shortest plan lengths from ../shared/TRUTHS.md
SHORTEST = {
    ("gripper", 1): 11, ("gripper", 2): 17, ("gripper", 3): 23, ("gripper", 4): 29,
    ("blocks", 1): 6, ("blocks", 4): 12, ("blocks", 7): 12, ("blocks", 10): 20,
    ("logistics", 1): 20, ("logistics", 2): 19,
    ("miconic", 2): 7, ("miconic", 3): 10, ("miconic", 4): 14, ("miconic", 5): 17,
    ("depot", 1): 10, ("satellite", 1): 9, ("rovers", 1): 10,
}


def assert_spec_error(path: Path, good: str, old: str, new: str, where: str, message: str,
                      hint: str | None = None) -> str:
    """Writes `good` with `old` replaced by `new` to `path`, loads it and checks the
    SpecError: location `where` (line:col), `message`, a caret line and the `hint`."""
    assert old in good
    path.write_text(good.replace(old, new))
    with pytest.raises(SpecError) as err:
        planners.load(path)
    text = str(err.value)
    assert text.startswith(f"{path}:{where}: error: "), text
    assert message in text
    assert "^" in text.splitlines()[2]
    if hint:
        assert hint in text
    return text


def breadth_first_states(task, count: int = 40) -> list:
    """The first `count` states of a breadth-first exploration of `task`."""
    seen, frontier = [task.initial], [task.initial]
    known = {task.initial}
    while frontier and len(seen) < count:
        for _, child, _ in task.successors(frontier.pop(0)):
            if child not in known and len(seen) < count:
                known.add(child)
                seen.append(child)
                frontier.append(child)
    return seen
