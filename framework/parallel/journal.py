"""Results streamed to a JSON-lines file as tasks finish, so an interrupted run can resume.

The first line is a header describing the run (command, specs, agents, seeds, options);
every later line is one finished task: {"key": ..., ...}.  `--resume` re-reads the file,
checks that the header describes the same run, keeps the finished tasks and appends the
rest; a last line cut off by a crash is dropped.  Without `--resume` an existing file is
refused unless `--force` replaces it.  The file is created by `framework.files.write_atomic`
and read by `read_text`: a regular file only (never a symbolic link, FIFO or device).
"""
from __future__ import annotations

import json
import os

from framework.errors import SpecError
from framework.files import MAX_DATA_BYTES, check_output, open_append, read_text, write_atomic


class Journal:
    def __init__(self, path, header: dict, *, resume: bool = False, force: bool = False):
        self.path = os.fspath(path)
        self.header = json.loads(json.dumps(header, default=str))
        self.done: dict = {}
        exists = os.path.lexists(self.path)
        if exists:
            check_output(self.path, force=True)     # a regular file: not a link, FIFO or device
        if exists and resume:
            self._read()
        elif exists and not force:
            raise SpecError(f"{self.path} exists", file=self.path,
                            hint="--resume continues that run, --force replaces the file")
        else:
            write_atomic(self.path, json.dumps({"header": self.header}) + "\n", force=True)
        self._file = open_append(self.path)

    def _read(self):
        lines = read_text(self.path, limit=MAX_DATA_BYTES, what="results file").split("\n")
        try:
            first = json.loads(lines[0])["header"]
        except (ValueError, KeyError, TypeError, IndexError):
            raise SpecError(f"{self.path} is not a plyspec results file", file=self.path, line=1, col=1,
                            hint="--force replaces it") from None
        if first != self.header:
            changed = sorted(k for k in set(first) | set(self.header) if first.get(k) != self.header.get(k))
            raise SpecError(f"{self.path} holds a different run (it differs in: {', '.join(changed)})",
                            file=self.path, line=1, col=1,
                            hint="resume with the same arguments, or --force to start again")
        kept = 1
        for number, line in enumerate(lines[1:], 2):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                self.done[record["key"]] = record
                kept = number
            except (ValueError, KeyError, TypeError):
                if number < len(lines) - 1:          # only the last line may be cut off
                    raise SpecError(f"{self.path}:{number}: damaged line", file=self.path, line=number,
                                    col=1, hint="--force starts the run again") from None
        if kept < len([x for x in lines if x]):  # drop a cut-off last line before appending
            with open(self.path, "r+", encoding="utf-8") as f:
                f.truncate(len("\n".join(lines[:kept]).encode("utf-8")) + 1)

    def write(self, key, record: dict) -> None:
        record = {"key": key, **record}
        self.done[key] = record
        self._file.write(json.dumps(record, default=str) + "\n")
        self._file.flush()

    def close(self):
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
