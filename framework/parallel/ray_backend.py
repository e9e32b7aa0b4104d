"""The Ray back-end: tasks as Ray remote functions, on a local Ray runtime or a cluster.

Nothing here speaks to the network itself: Ray ships the task's arguments (spec text,
options, seeds: a few kilobytes) through its object store, runs the same task functions as
the local pool in Ray's worker processes, and returns their plain-data results.  A worker
that dies surfaces as a Ray error of that task only (`max_retries=0`: a task that kills its
worker is reported, not re-run), and a task over its time limit is cancelled.

`ray` is an optional extra: `pip install "plyspec[ray]"`.
"""
from __future__ import annotations

import time

from framework.parallel.base import Executor, Failure, Pending

_POLL = 0.2


def _call(ref, args):
    """Runs in a Ray worker: the same call a local worker makes."""
    import importlib
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)(*args)


class RayPool(Executor):
    """Tasks on Ray: `address` None starts (or reuses) a local runtime with `workers` CPUs."""

    def __init__(self, address: str | None = None, *, workers: int | None = None):
        try:
            import ray
        except ImportError:
            raise ValueError('--ray needs Ray: pip install "plyspec[ray]"') from None
        self.ray = ray
        self.address = address if address not in (None, "", "local") else None
        if not ray.is_initialized():
            options = dict(ignore_reinit_error=True, include_dashboard=False, log_to_driver=False,
                           logging_level="ERROR", configure_logging=True)
            if self.address:
                ray.init(address=self.address, **options)
            else:
                ray.init(num_cpus=workers or None, **options)
        self._remote = ray.remote(max_retries=0)(_call)
        self._fresh = ray.remote(max_retries=0, max_calls=1)(_call)     # a new worker per task

    @property
    def description(self) -> str:
        cpus = int(self.ray.cluster_resources().get("CPU", 0))
        return f"Ray {'cluster at ' + self.address if self.address else 'local runtime'} ({cpus} CPUs)"

    def run(self, ref, tasks, *, timeout=None, fresh=False):
        # at most one task per CPU in flight: a task's clock starts when it is submitted,
        # which is then (nearly) when it starts, and the object store holds little
        ray = self.ray
        window = max(1, int(ray.cluster_resources().get("CPU", 1)))
        pending = Pending(tasks)
        started = {}
        try:
            while pending or started:
                while pending and len(started) < window:
                    key, args = pending.pop()
                    remote = self._fresh if fresh else self._remote
                    started[remote.remote(ref, list(args))] = (key, time.monotonic())
                done, _ = ray.wait(list(started), num_returns=1, timeout=_POLL)
                for obj in done:
                    key, _ = started.pop(obj)
                    yield key, self._get(obj)
                if timeout is not None:
                    now = time.monotonic()
                    for obj, (key, since) in list(started.items()):
                        if now - since > timeout:
                            ray.cancel(obj, force=True)
                            started.pop(obj)
                            yield key, Failure("timeout", f"stopped after the task time limit of {timeout:g} s")
        finally:
            for obj in started:                          # Ctrl-C or an abandoned run
                ray.cancel(obj, force=True)

    def _get(self, obj):
        ray = self.ray
        try:
            return ray.get(obj)
        except ray.exceptions.RayTaskError as err:
            cause = err.cause if getattr(err, "cause", None) is not None else err
            return Failure.from_exception(cause)
        except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError) as err:
            return Failure("died", f"the Ray worker died: {type(err).__name__}")
        except ray.exceptions.OutOfMemoryError:
            return Failure("memory", "the Ray worker ran out of memory")
        except ray.exceptions.RayError as err:
            return Failure("died", f"{type(err).__name__}: {err}")

    def close(self):
        pass                      # the runtime stays up for the process; Ray shuts it at exit

