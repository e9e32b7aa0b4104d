"""The Ray back-end: tasks as Ray remote functions, on a local Ray runtime or a cluster.

Nothing here speaks to the network itself: Ray ships the task's arguments (spec text,
options, seeds: a few kilobytes) through its object store, runs the same task functions as
the local pool in Ray's worker processes, and returns their plain-data results.  A worker
that dies surfaces as a Ray error of that task only (`max_retries=0`: a task that kills its
worker is reported, not re-run), and a task over its time limit is cancelled.

`ray` is an optional extra: `pip install "plyspec[ray]"`.

A local runtime (`--ray` without an address) listens on every network interface: Ray 2.60
has no option to bind it to 127.0.0.1 (`_node_ip_address` changes only the address it
advertises; measured with `ss -ltnp`), and anyone who reaches an unauthenticated runtime
can run code.  So plyspec starts one only with Ray's token authentication on
(RAY_AUTH_MODE=token, Ray >= 2.52) and, unless the user gave a token, a fresh random one
in this process's environment (Ray would otherwise write ~/.ray/auth_token readable by
all); with RAY_AUTH_MODE set to anything else, or a Ray without token authentication, the
local runtime is refused with a message.  A cluster (`--ray ADDRESS`) is the user's: see
docs/scale.md for running one safely.
"""
from __future__ import annotations

import os
import secrets
import sys
import time

from framework.parallel.base import Executor, Failure, Pending

_POLL = 0.2


def _call(ref, args):
    """Runs in a Ray worker: the same call a local worker makes."""
    import importlib
    module, _, name = ref.partition(":")
    return getattr(importlib.import_module(module), name)(*args)


REFUSED = ("--ray without an address starts a local Ray runtime, which listens on every "
           "network interface; plyspec starts one only with Ray's token authentication "
           "(Ray >= 2.52 and RAY_AUTH_MODE unset or `token`). Use --workers N on one machine, "
           "or --ray ADDRESS for a cluster you run (docs/scale.md)")


def _require_token_auth() -> None:
    """Before a local runtime starts: token authentication asked for (ValueError if the
    environment turns it off), with a random token unless the user gave one."""
    mode = os.environ.get("RAY_AUTH_MODE")
    if mode is not None and mode.lower() != "token":
        raise ValueError(REFUSED)
    if "ray" not in sys.modules:            # read by Ray when it is imported
        os.environ["RAY_AUTH_MODE"] = "token"
    if not os.environ.get("RAY_AUTH_TOKEN") and not os.environ.get("RAY_AUTH_TOKEN_PATH"):
        os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)


def _token_auth_on() -> bool:
    """Whether the running Ray authenticates every connection with a token."""
    try:
        from ray._raylet import AuthenticationMode, get_authentication_mode
    except ImportError:                     # a Ray without token authentication (< 2.52)
        return False
    return get_authentication_mode() == AuthenticationMode.TOKEN


class RayPool(Executor):
    """Tasks on Ray: `address` None starts (or reuses) a local runtime with `workers` CPUs."""

    def __init__(self, address: str | None = None, *, workers: int | None = None):
        self.address = address if address not in (None, "", "local") else None
        if self.address is None:
            _require_token_auth()
        try:
            import ray
        except ImportError:
            raise ValueError('--ray needs Ray: pip install "plyspec[ray]"') from None
        self.ray = ray
        if not ray.is_initialized():
            options = dict(ignore_reinit_error=True, include_dashboard=False, log_to_driver=False,
                           logging_level="ERROR", configure_logging=True)
            if self.address:
                ray.init(address=self.address, **options)
            else:
                ray.init(num_cpus=workers or None, **options)
                if not _token_auth_on():
                    ray.shutdown()
                    raise ValueError(REFUSED)
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

