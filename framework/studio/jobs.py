"""Work that may take long (an agent's move, a search tree, a plan, a conformance run) runs
in a child process under a time budget, so that the server stays responsive, a request can
cancel it and nothing runs past its cap.

Two kinds of child: `forked(fn)` runs `fn()` in a forked copy of the server (it sees the
session's game and state as they are) and sends back its JSON-ready result; `command(argv)`
runs a `plyspec` sub-command (`plan --json`, `test --json`) and reads its JSON output, its
stderr lines being the progress.  Either is killed once its budget plus a grace has passed
(status "timeout") or when cancelled (status "cancelled").
"""
from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from framework.errors import SpecError

MAX_RUNNING = 4          # jobs running at once; more are refused (429) until one ends
GRACE_SECONDS = 5.0      # past its budget a job is killed
KEPT = 50                # finished jobs remembered (the oldest are forgotten; a tree can be large)
RUNNING, DONE, FAILED, CANCELLED, TIMEOUT = "running", "done", "failed", "cancelled", "timeout"


class Busy(Exception):
    """Too many jobs are running."""


class Job:
    """One piece of work: its status, progress line, result (a dict) or error message."""

    def __init__(self, kind: str, seconds: float, on_done=None, on_end=None):
        self.id = f"j{next(_ids)}"
        self.kind, self.seconds, self.on_done, self.on_end = kind, seconds, on_done, on_end
        self.status, self.progress, self.result, self.error = RUNNING, "", None, None
        self.started, self.ended = time.monotonic(), None
        self._kill = None
        self._lock = threading.Lock()

    def to_json(self) -> dict:
        end = self.ended or time.monotonic()
        return {"id": self.id, "kind": self.kind, "status": self.status, "progress": self.progress,
                "result": self.result, "error": self.error, "seconds": round(end - self.started, 3),
                "budget_s": self.seconds}

    @property
    def finished(self) -> bool:
        return self.status != RUNNING

    def cancel(self) -> None:
        self._finish(CANCELLED, error="cancelled")

    def _finish(self, status, result=None, error=None) -> None:
        with self._lock:
            if self.status != RUNNING:
                return
            if status == DONE and self.on_done is not None:
                try:
                    result = self.on_done(result)
                except (SpecError, ValueError) as err:
                    status, error = FAILED, getattr(err, "message", str(err))
            self.status, self.result, self.error, self.ended = status, result, error, time.monotonic()
        if self._kill is not None:
            self._kill()
        if self.on_end is not None:          # whatever the end: remove the job's files
            self.on_end()


_ids = itertools.count(1)
_jobs: dict = {}


def get(job_id: str) -> Job | None:
    return _jobs.get(job_id)


def _register(job: Job) -> None:
    if sum(not j.finished for j in _jobs.values()) >= MAX_RUNNING:
        raise Busy(f"{MAX_RUNNING} jobs are running; wait for one to end or cancel one")
    _jobs[job.id] = job
    finished = [k for k, j in _jobs.items() if j.finished]
    for k in finished[:max(0, len(finished) - KEPT)]:
        del _jobs[k]


def preload() -> None:
    """Import every game searcher and the lecture tree now, in the server: a child forked
    while another thread held the import lock would wait for it forever."""
    import framework.search.lecture_tree  # noqa: F401
    from framework.search.registry import GAME_SEARCHERS, searcher
    for name in GAME_SEARCHERS:
        searcher(name)


def forked(kind: str, fn, seconds: float, on_done=None) -> Job:
    """`fn()` in a forked child; its result (JSON-ready) becomes the job's."""
    job = Job(kind, seconds, on_done)
    _register(job)
    receive, send = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(target=_child, args=(fn, send), daemon=True)
    child.start()
    send.close()
    job._kill = lambda: child.is_alive() and child.kill()

    def watch():
        try:
            if receive.poll(seconds + GRACE_SECONDS):
                ok, value = receive.recv()
                job._finish(DONE, result=value) if ok else job._finish(FAILED, error=value)
            else:
                job._finish(TIMEOUT, error=f"stopped after {seconds + GRACE_SECONDS:g} s")
        except (EOFError, OSError):
            job._finish(FAILED, error="the worker ended without an answer (out of memory?)")
        finally:
            receive.close()
            child.join(1)
            job._kill()
    threading.Thread(target=watch, daemon=True).start()
    return job


def _child(fn, send) -> None:
    try:
        answer = (True, fn())
    except (SpecError, ValueError) as err:
        answer = (False, getattr(err, "message", None) or str(err))
    except MemoryError:
        answer = (False, "out of memory; ask for less")
    except Exception as err:                     # a bug: reported, not a traceback in the page
        answer = (False, f"plyspec failed ({type(err).__name__}: {err}); please report it")
    try:
        send.send(answer)
    finally:
        os._exit(0)


ROOT = Path(__file__).resolve().parents[2]     # where the framework and planners packages are


def command(kind: str, argv: list, seconds: float, on_done=None, cwd=None, on_end=None) -> Job:
    """`plyspec ARGV` (with --json among them) in a child process (in folder `cwd`); its JSON
    output becomes the job's result, its last stderr line the progress; `on_end()` runs once
    the job has ended, however it ended."""
    job = Job(kind, seconds, on_done, on_end)
    try:
        _register(job)
    except Busy:
        if on_end is not None:
            on_end()
        raise
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    child = subprocess.Popen([sys.executable, "-m", "framework", *argv], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, env=env,
                             cwd=cwd)
    job._kill = lambda: child.poll() is None and child.kill()
    errors, out = [], []

    def read_stderr():
        for line in child.stderr:
            line = line.rstrip()
            if line:
                job.progress = line[:300]
                errors.append(line)
                del errors[:-20]

    def watch():
        readers = [threading.Thread(target=read_stderr, daemon=True),
                   threading.Thread(target=lambda: out.append(child.stdout.read()), daemon=True)]
        for reader in readers:
            reader.start()
        try:
            child.wait(timeout=seconds + GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            job._finish(TIMEOUT, error=f"stopped after {seconds + GRACE_SECONDS:g} s")
            return
        for reader in readers:
            reader.join(2)
        try:
            job._finish(DONE, result=json.loads(out[0]))
        except (ValueError, IndexError):
            job._finish(FAILED, error="\n".join(errors[-8:]) or f"plyspec exited with {child.returncode}")
    threading.Thread(target=watch, daemon=True).start()
    return job


def budget(value, default: float, cap: float, name: str) -> float:
    """A budget from a request: `default` when absent, a number in (0, cap] otherwise."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= cap:
        raise ValueError(f"{name} must be a number above 0 and at most {cap:g}")
    return float(value)
