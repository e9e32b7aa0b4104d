"""The local back-end: a pool of worker processes on this machine, one task at a time each.

Unlike `concurrent.futures` or `multiprocessing.Pool`, the scheduler always knows which task
each worker runs, so a worker that dies (killed, out of memory, a crash in C code) fails only
that task, which is reported as a `Failure`; the worker is replaced and the rest go on.  A task
over its time limit is stopped the same way.  Workers ignore SIGINT: Ctrl-C reaches the parent,
which stops them all (`close`) and keeps the results that had arrived.

Workers are started with the `spawn` method (no state inherited from the parent: threads,
open files, Ray), optionally with an address-space limit (`memory_mb`), and import the task
function named "module:function" when it first comes.  A SIGTERM to the parent stops the
pool like Ctrl-C, and on Linux a worker dies with its parent even when the parent is killed.
"""
from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
import time
import traceback
from multiprocessing.connection import wait

from framework.parallel.base import Executor, Failure, Pending

_POLL = 0.2          # seconds between checks of task deadlines when nothing arrives


def _worker(conn, memory_mb):
    """Worker loop: receive (key, "module:function", args), send (key, result or Failure)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    if memory_mb:
        import resource
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    functions = {}
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        key, ref, args = message
        try:
            if ref not in functions:
                module, _, name = ref.partition(":")
                functions[ref] = getattr(importlib.import_module(module), name)
            reply = (key, functions[ref](*args))
        except MemoryError:
            reply = (key, Failure("memory", "the worker ran out of memory"))
        except Exception as err:                        # reported as that task's failure
            reply = (key, Failure.from_exception(err, traceback.format_exc(limit=-3)))
        try:
            conn.send(reply)
        except Exception as err:                        # a result that cannot be pickled
            conn.send((key, Failure("error", f"cannot send the result: {err}")))


def _die_with_parent():
    """Ask Linux to kill this worker when its parent dies (even by SIGKILL), so no task
    goes on running unseen; elsewhere the closed pipe ends an idle worker."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)            # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:                        # the parent died before the request
        os._exit(1)


class LocalPool(Executor):
    """`workers` processes on this machine."""

    def __init__(self, workers: int | None = None, *, memory_mb: int | None = None, start: bool = False):
        self.size = max(1, workers or os.cpu_count() or 1)
        self.memory_mb = memory_mb
        self._context = multiprocessing.get_context("spawn")
        self._slots = []                                # [process, connection, task or None, deadline]
        if start:          # start the workers now, so they boot while the caller prepares the tasks
            self._slots = [self._start() for _ in range(self.size)]

    @property
    def description(self) -> str:
        return f"{self.size} local worker process{'es' if self.size != 1 else ''}"

    def _start(self):
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_worker, args=(child, self.memory_mb), daemon=True)
        process.start()
        child.close()
        return [process, parent, None, None]

    def run(self, ref, tasks, *, timeout=None, fresh=False):
        pending = Pending(tasks)
        if not self._slots:
            self._slots = [self._start() for _ in range(pending.count_upto(self.size) or 1)]
        running = 0
        while pending or running:
            for slot in self._slots:                    # hand out work to idle workers
                if slot[2] is None and pending:
                    key, args = pending.pop()
                    try:
                        slot[1].send((key, ref, args))
                    except (BrokenPipeError, OSError):  # died while idle: replace, retry the task
                        pending.append((key, args))
                        slot[:] = self._start()
                        continue
                    slot[2], slot[3] = key, (time.monotonic() + timeout if timeout else None)
                    running += 1
            ready = wait([s[1] for s in self._slots if s[2] is not None] +
                         [s[0].sentinel for s in self._slots if s[2] is not None], timeout=_POLL)
            now = time.monotonic()
            for slot in self._slots:
                process, conn, key, deadline = slot
                if key is None:
                    continue
                if conn in ready:
                    try:
                        got, value = conn.recv()
                    except (EOFError, OSError):         # died while sending
                        got, value = key, _death(process)
                    slot[2] = slot[3] = None
                    running -= 1
                    if fresh and pending:
                        self._replace(slot)
                    yield got, value
                elif process.sentinel in ready or not process.is_alive():
                    running -= 1
                    failure = _death(process)
                    slot[:] = self._start()
                    yield key, failure
                elif deadline is not None and now > deadline:
                    running -= 1
                    process.kill()
                    process.join()
                    slot[:] = self._start()
                    yield key, Failure("timeout", f"stopped after the task time limit of {timeout:g} s")

    def _replace(self, slot):
        """A new worker in place of an idle one (which is asked to stop)."""
        try:
            slot[1].send(None)
        except (BrokenPipeError, OSError):
            pass
        slot[1].close()
        slot[:] = self._start()

    def close(self):
        for process, conn, _, _ in self._slots:
            try:
                conn.send(None)
            except Exception:
                pass
        deadline = time.monotonic() + 0.5
        for process, conn, _, _ in self._slots:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
            conn.close()
        self._slots = []


def _death(process) -> Failure:
    process.join(1)
    code = process.exitcode
    if code is not None and code < 0:
        try:
            what = signal.Signals(-code).name
        except ValueError:
            what = f"signal {-code}"
        return Failure("died", f"the worker process was killed ({what})")
    return Failure("died", f"the worker process exited with code {code}")
