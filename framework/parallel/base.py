"""What every back-end provides: `Executor.run(ref, tasks)` yields (key, result) as tasks
finish, where a result is whatever the task function returned or a `Failure`.

A task is (key, args): `ref` names a module-level function as "module:function", and the
worker calls it with `*args`.  Arguments and results are plain data (text, numbers, lists,
dicts), so the same task runs in this process, in a local worker or on a Ray cluster.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass


@dataclass(frozen=True)
class Failure:
    """A task that gave no result: `kind` is error | died | timeout | memory."""

    kind: str
    message: str
    details: str = ""

    @classmethod
    def from_exception(cls, err: BaseException, details: str = "") -> "Failure":
        from framework.errors import SpecError
        if isinstance(err, SpecError):
            return cls("error", str(err))
        if isinstance(err, MemoryError):
            return cls("memory", "the worker ran out of memory")
        return cls("error", f"{type(err).__name__}: {err}", details)

    def to_json(self) -> dict:
        return {"failure": self.kind, "message": self.message}


class Executor:
    """Runs tasks; `with` closes the workers."""

    description = "this process"

    def run(self, ref: str, tasks, *, timeout: float | None = None, fresh: bool = False):
        """Yields (key, result or Failure) as tasks finish.  `fresh`: each task in a new
        worker process, for tasks whose results could depend on what ran before them in the
        same process (the conformance suite's random draws do)."""
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Pending:
    """The tasks not handed out yet, drawn from an iterable only as they are needed (a run
    of 10^12 games is never listed), those handed back (`append`) first."""

    def __init__(self, tasks):
        self._tasks, self._back = iter(tasks), []      # _back: a stack, its end first

    def count_upto(self, n: int) -> int:
        """How many tasks remain, counting at most `n`."""
        more = list(itertools.islice(self._tasks, max(0, n - len(self._back))))
        self._back[:0] = more[::-1]
        return min(n, len(self._back))

    def __bool__(self) -> bool:
        return self.count_upto(1) > 0

    def pop(self):
        self.count_upto(1)
        return self._back.pop()

    def append(self, task) -> None:
        self._back.append(task)


class InProcess(Executor):
    """`--workers 0`: every task in this process, in order (for debugging and profiling);
    a task's exception is its Failure, but a crash or a hang takes the process with it."""

    def run(self, ref, tasks, *, timeout=None, fresh=False):
        import importlib
        import traceback
        module, _, name = ref.partition(":")
        function = getattr(importlib.import_module(module), name)
        for key, args in tasks:
            try:
                yield key, function(*args)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as err:
                yield key, Failure.from_exception(err, traceback.format_exc(limit=-3))
