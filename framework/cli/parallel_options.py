"""The options and the run loop shared by the commands that spread work over workers
(`tournament`, `match`, `perft --split`, `solve --workers`, `plan` over many tasks, `test`).

`drive` runs the tasks on the executor the options ask for, skips the ones a resumed
results file already holds, streams each finished one to that file, shows a progress bar
on a terminal (nothing when stderr is not one), and on Ctrl-C stops the workers and returns
what had finished, flagged as interrupted.
"""
from __future__ import annotations

import argparse
import os
import sys

from framework.cli.common import positive_int, positive_number


def add_parallel_options(p, *, results: bool = True) -> None:
    g = p.add_argument_group("workers")
    g.add_argument("--workers", type=_workers, default=None, metavar="N",
                   help="worker processes (default: one per core; 0 runs everything in this process)")
    g.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="run the tasks on Ray: a local runtime, or the cluster at ADDRESS "
                        '(e.g. ray://head:10001); needs pip install "plyspec[ray]"')
    g.add_argument("--task-time", type=positive_number, default=None, metavar="SECONDS",
                   help="stop any single task after this long and report it as timed out")
    g.add_argument("--memory-mb", type=positive_int, default=None, metavar="MB",
                   help="address-space limit per local worker; a task over it is reported as out of memory")
    if results:
        g.add_argument("-o", "--output", metavar="FILE.jsonl",
                       help="stream each finished task to this JSON-lines file as it finishes")
        g.add_argument("--resume", action="store_true",
                       help="continue the run recorded in --output, playing only what it lacks")
        g.add_argument("--force", action="store_true", help="replace an existing --output file")


def _workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of workers, e.g. --workers 4, not {text!r}")
    if value < 0:
        raise argparse.ArgumentTypeError("the number of workers cannot be negative")
    return value


def executor(args, *, start: bool = False):
    """The executor the options ask for; `start` boots local workers at once."""
    from framework.parallel import make_executor
    return make_executor(args.workers, args.ray, memory_mb=args.memory_mb, start=start)


def check_outputs(args, *files) -> None:
    """The checks a command makes before any work: `--resume` names an existing `-o` file,
    and every other output in `files` (a path or None) could be written (framework.files)."""
    from framework.errors import UsageError
    from framework.files import check_output
    output = getattr(args, "output", None)
    if getattr(args, "resume", False):
        if not output:
            raise UsageError("--resume continues the run recorded in -o FILE.jsonl; give -o",
                             hint="e.g. -o run.jsonl --resume")
        if not os.path.exists(output):
            raise ValueError(f"--resume: {output} does not exist")
    for path in files:
        if path:
            check_output(path, force=args.force)


def drive(args, ref, tasks, *, header=None, on_result=None, label="tasks", fresh=False, pool=None,
          total=None, known=None, check=None):
    """Runs `tasks` [(key, args)] on `pool` (default: the executor the options ask for; it
    is closed at the end either way); returns ({key: result or Failure}, interrupted).  With
    --output, results are streamed there and a --resume skips (and returns) what it holds,
    each record checked (`Journal`: `known(key)`, default the keys of `tasks`, and the
    command's `check`).  `tasks` may be a lazy iterable of `total` tasks: a run of 10^12
    games starts at once, in constant memory."""
    import json
    from framework.parallel import Failure
    from framework.parallel.journal import Journal
    if total is None:
        tasks = list(tasks)
        total = len(tasks)
        if known is None:
            keys = {json.dumps(key, sort_keys=True) for key, _ in tasks}
            known = lambda key: json.dumps(key, sort_keys=True) in keys   # noqa: E731
    journal = None
    results = {}
    check_outputs(args)
    if getattr(args, "output", None):
        journal = Journal(args.output, header or {}, resume=args.resume, force=args.force,
                          known=known, check=check)
        for key, record in journal.done.items():
            value = Failure(record["failure"], record["message"]) if "failure" in record else record
            results[key] = value
            if on_result:
                on_result(key, value)
        tasks = (t for t in tasks if t[0] not in journal.done)
    bar = _Progress(total, len(results), label)
    interrupted = False
    pool = pool or executor(args)
    try:
        for key, value in pool.run(ref, tasks, timeout=args.task_time, fresh=fresh):
            results[key] = value
            if journal:
                journal.write(key, value.to_json() if isinstance(value, Failure) else value)
            if on_result:
                on_result(key, value)
            bar.advance()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        pool.close()
        bar.close()
        if journal:
            journal.close()
    return results, interrupted


class _Progress:
    """A rich progress bar on a terminal's stderr; silent otherwise."""

    def __init__(self, total, done, label):
        self.bar = None
        if total and sys.stderr.isatty():
            from rich.progress import Progress
            from framework.terminal import console
            self.bar = Progress(transient=True, console=console(stderr=True))
            self.bar.start()
            self.task = self.bar.add_task(label, total=total, completed=done)

    def advance(self):
        if self.bar:
            self.bar.advance(self.task)

    def close(self):
        if self.bar:
            self.bar.stop()
