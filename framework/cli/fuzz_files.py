"""Hostile files and options on the command line (`plyspec fuzz --files`).

Every command that reads or writes a file is run, in this process, with each hostile file
as each of its inputs and outputs: a FIFO, a link to /dev/zero, a character device (as
root only: `os.mknod` with /dev/zero's numbers, in the sweep's own folder), a Unix socket, a
folder, a dangling link and a loop of links; then with files that are too large, not UTF-8,
hold a NUL, are empty or nested 100,000 deep; then with hostile option values.  All files
live in a private temporary folder, removed at the end.

A command line must end with exit status 0, 1 or 2; anything else is a finding: an
exception out of `main`, a traceback or a control character in what it printed, a special
file replaced or removed, a run longer than LINE_SECONDS (a read blocked on a FIFO), or
running out of memory (the sweep runs with its address space limited to MEMORY_BYTES more
than it uses at the start, so that an unbounded read, of /dev/zero say, ends there rather
than in the machine's memory).
"""
from __future__ import annotations

import contextlib
import io
import os
import resource
import socket
import stat
import tempfile

from framework.conformance.fuzz import _Timeout, _where
from framework.search.result import alarm

LINE_SECONDS = 60
MEMORY_BYTES = 3 << 30
NESTED = 100_000


def _device(path):
    if os.geteuid() == 0:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 5))


def _socket(path):
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(path)


SPECIAL = {"fifo": os.mkfifo, "zero": lambda p: os.symlink("/dev/zero", p), "device": _device,
           "socket": _socket, "folder": os.mkdir, "dangling": lambda p: os.symlink(p + ".absent", p),
           "loop": lambda p: os.symlink(p, p)}
EXTENSIONS = (".yaml", ".game", ".plan", ".pddl", ".json", ".jsonl", ".txt")
CONTENTS = {"big.yaml": b"#" * 1_000_001, "latin1.yaml": b"game: caf\xe9\n", "nul.yaml": b"game: a\0b\n",
            "empty.json": b"", "deep.json": b"[" * NESTED,
            "book.json": b'{"format": 1, "game": "Tic-tac-toe", "positions": {"x": [1, 2]}}'}


def make_files(folder: str) -> list:
    """The hostile files in `folder`; returns the kinds of special file made (no device
    unless root, no socket where a path is too long for one)."""
    made = []
    for kind, make in SPECIAL.items():
        for ext in EXTENSIONS:
            try:
                make(os.path.join(folder, kind + ext))
            except OSError:
                continue
        if os.path.lexists(os.path.join(folder, kind + EXTENSIONS[0])):
            made.append(kind)
    for name, data in CONTENTS.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    return made


def command_lines(folder: str, kinds: list) -> list:
    """The command lines of the sweep (argv lists)."""
    from framework.conformance.discover import resolve
    nim, ttt = str(resolve("nim")), str(resolve("tictactoe"))
    match = ["match", nim, "--agent", "random", "--agent", "first", "--games", "1", "--workers", "0"]

    def at(name):
        return os.path.join(folder, name)
    lines = []
    for k in kinds:
        lines += [["check", at(k + ".yaml")], ["check", at(k + ".pddl")], ["solve", at(k + ".game")],
                  ["plan", at(k + ".plan")], ["plan", at(k + ".pddl"), at(k + ".pddl")],
                  ["convert", at(k + ".yaml"), "--to", "game"], ["test", at(k + ".yaml")],
                  ["solve", ttt, "--book", at(k + ".json"), "--depth", "1"],
                  ["match", ttt, "--agent", f"alphabeta:depth=1,book={at(k + '.json')}", "--agent",
                   "random", "--games", "1", "--workers", "0", "--quiet"],
                  match + ["-o", at(k + ".jsonl"), "--resume"],
                  match + ["-o", at(k + ".jsonl"), "--force"],
                  ["tournament", nim, "--agent", "random", "--agent", "first", "--games", "2",
                   "--workers", "0", "--csv", at(k + ".txt"), "--force"],
                  ["tree", nim, "--depth", "1", "-o", at(k + ".txt"), "--force"],
                  ["book", nim, "--plies", "1", "--games", "1", "-o", at(k + ".json"), "--force"],
                  ["perft", nim, "-d", "1", "--write-golden", at(k + ".json")],
                  ["solve", nim, "--depth", "1", "--tree", at(k + ".txt")],
                  ["convert", nim, "--to", "yaml", "-o", at(k + ".yaml"), "--force"],
                  ["plan", "hanoi", "--emit-pddl", at(k + ".txt")]]
    for name in ("big.yaml", "latin1.yaml", "nul.yaml"):
        lines += [["check", at(name)], ["convert", at(name), "--to", "game"]]
    for name in ("empty.json", "deep.json", "book.json"):
        lines += [["solve", ttt, "--book", at(name), "--depth", "1"]]
    for option in (["--workers", "-1"], ["--workers", "9" * 20], ["--task-time", "nan"],
                   ["--task-time", "inf"], ["--memory-mb", "0"], ["--games", "-5"], ["--seed", "1e999"],
                   ["--max-plies", "0"], ["--move-time", "nan"], ["--set", "heaps=[" + "9" * 5000 + "]"],
                   ["--set", "heaps=" + "[" * 5000], ["--set", "=1"], ["--ray", "http://\x1b[2J"]):
        lines.append(match + option)
    for option in (["--depth", "-1"], ["--time", "nan"], ["--time", "-1"], ["--nodes", "0"],
                   ["--tt-mb", "1e30"], ["--tree-nodes", "0"], ["--algo", "../../x"], ["--player", "\x1b"]):
        lines.append(["solve", nim, *option])
    return lines


def _special_state(folder: str, kinds: list) -> dict:
    out = {}
    for k in kinds:
        for ext in EXTENSIONS:
            path = os.path.join(folder, k + ext)
            out[path] = stat.S_IFMT(os.lstat(path).st_mode) if os.path.lexists(path) else None
    return out


def run_line(argv: list) -> tuple:
    """(exit status or the exception's text, what it printed) of one command line."""
    from framework.cli import main
    out = io.StringIO()
    try:
        with alarm(LINE_SECONDS, _Timeout), contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                return main(argv), out.getvalue()
            except SystemExit as exit_:
                return exit_.code, out.getvalue()
    except _Timeout:
        return f"blocked: over {LINE_SECONDS} s", out.getvalue()
    except BaseException as exc:             # noqa: BLE001 - this is what the sweep looks for
        if isinstance(exc, KeyboardInterrupt):
            raise
        return f"{type(exc).__name__} at {_where(exc)}: {str(exc)[:200]}", out.getvalue()


def sweep(progress=None) -> dict:
    """Runs every command line; returns {"command_lines", "special_files", "findings": [...]}."""
    findings, lines = [], []
    limits = resource.getrlimit(resource.RLIMIT_AS)
    bound = _address_space() + MEMORY_BYTES
    if limits[0] == resource.RLIM_INFINITY or limits[0] > bound:
        resource.setrlimit(resource.RLIMIT_AS, (bound, limits[1]))
    try:
        return _sweep(progress)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, limits)


def _address_space() -> int:
    """The bytes of address space this process uses now (Linux), else 0."""
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    except (OSError, StopIteration, ValueError):
        return 0


def _sweep(progress) -> dict:
    findings, lines = [], []
    with tempfile.TemporaryDirectory(prefix="plyspec-fuzz-files-") as folder:
        kinds = make_files(folder)
        lines = command_lines(folder, kinds)
        before = _special_state(folder, kinds)
        for number, argv in enumerate(lines, 1):
            code, printed = run_line(argv)
            problems = []
            if code not in (0, 1, 2):
                problems.append(str(code))
            if "Traceback" in printed or any(c in printed for c in "\x1b\x07"):
                problems.append("a traceback or a control character in the output")
            if "out of memory" in printed:
                problems.append("out of memory")
            after = _special_state(folder, kinds)
            problems += [f"{os.path.basename(p)} replaced or removed" for p in before if after[p] != before[p]]
            if problems:
                findings.append({"argv": [a.replace(folder, "TMP") for a in argv],
                                 "problems": problems, "output": printed[-300:]})
                before = after
            if progress:
                progress(number, len(lines), len(findings))
    return {"command_lines": len(lines), "special_files": kinds, "findings": findings}


def report(result: dict) -> str:
    lines = [f"{result['command_lines']} command lines with special files ({', '.join(result['special_files'])}), "
             f"hostile contents and options: {len(result['findings'])} finding(s)"]
    for f in result["findings"]:
        lines.append(f"  {' '.join(f['argv'])[:200]}\n    {'; '.join(f['problems'])}")
    return "\n".join(lines)
