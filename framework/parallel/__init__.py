"""One execution layer for work that splits into independent tasks (tournament games, perft
subtrees, root moves, planning tasks, conformance runs), with three back-ends behind one
interface (`base.Executor`):

- `base.InProcess`  (`--workers 0`): in this process, for debugging;
- `local.LocalPool` (default, `--workers N`, N = the number of cores): worker processes;
- `ray_backend.RayPool` (`--ray` for a local Ray runtime, `--ray ADDRESS` to join a cluster).

Task functions live in `tasks.py` and take specs as text (each worker compiles a spec once
and keeps it by the hash of its text and options); `journal.py` streams results to a JSON
lines file as they finish so that an interrupted run can `--resume`; `tournament.py` holds
the round-robin schedule and its statistics (confidence intervals, Elo).
"""
from __future__ import annotations

from framework.parallel.base import Executor, Failure, InProcess


def make_executor(workers: int | None = None, ray: str | None = None, *,
                  memory_mb: int | None = None, start: bool = False) -> Executor:
    """The back-end the command line asked for: `ray` is None (local), "" or "local" (a
    local Ray runtime) or a cluster address; `workers` 0 means this process; `start`
    boots local workers at once (while the caller still prepares the tasks)."""
    if ray is not None:
        from framework.parallel.ray_backend import RayPool
        return RayPool(ray or None, workers=workers)
    if workers == 0:
        return InProcess()
    from framework.parallel.local import LocalPool
    return LocalPool(workers, memory_mb=memory_mb, start=start)


__all__ = ["Executor", "Failure", "InProcess", "make_executor"]
