"""Results streamed to a JSON-lines file as tasks finish, so an interrupted run can resume.

The first line is a header describing the run (command, specs and the SHA-256 of their
text, agents, seeds, options); every later line is one finished task: {"key": ..., ...}.
`--resume` re-reads the file (as every file read back: `framework.readback`), checks that
the header describes the same run (rules edited since make another run), checks every
record (a key that is a task of this run, once; the command's own check of its fields,
e.g. seats and returns, or a plan replayed) and refuses the file at the first line that
fails, keeps the finished tasks and appends the rest; a last line cut off by a crash is
dropped.  Without `--resume` an existing file is refused unless `--force` replaces it.
The file is created by `framework.files.write_atomic` and read by `read_text`: a regular
file only (never a symbolic link, FIFO or device).
"""
from __future__ import annotations

import json
import os

from framework.errors import SpecError
from framework.files import MAX_DATA_BYTES, check_output, open_append, read_text, write_atomic


class Journal:
    """`known(key)`: whether `key` (as JSON gives it back) is a task of this run;
    `check(key, record, shape)`: raises `shape.wrong(...)` for a record that this run could
    not have written (a `framework.readback.Shape` at the record's line)."""

    def __init__(self, path, header: dict, *, resume: bool = False, force: bool = False,
                 known=None, check=None):
        self.path = os.fspath(path)
        self.header = json.loads(json.dumps(header, default=str))
        self.done: dict = {}
        self.known, self.check = known, check
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
        """Keeps the records of a resumed run, each checked (a SpecError at its line for
        one this run could not have written); a last line cut off by a crash (no line end,
        not JSON) is dropped.  Offsets are counted on the raw text, so "\r\n" line ends
        are cut where they are."""
        from framework.readback import Shape, parse_json
        lines = read_text(self.path, limit=MAX_DATA_BYTES, what="results file").split("\n")
        header = Shape(self.path, "not a plyspec results file", 1, "--force replaces it")
        first = header.mapping(parse_json(lines[0], self.path, "its first line", 1),
                               "its first line", ("header",))["header"]
        if first != self.header:
            changed = sorted(k for k in set(header.mapping(first, "the header")) | set(self.header)
                             if first.get(k) != self.header.get(k))
            raise SpecError(f"{self.path} holds a different run (it differs in: {', '.join(changed)})",
                            file=self.path, line=1, col=1,
                            hint="resume with the same arguments, or --force to start again")
        offset = keep = len(lines[0].encode("utf-8")) + 1
        seen = set()
        for number, line in enumerate(lines[1:], 2):
            end = offset + len(line.encode("utf-8")) + 1
            if line.strip():
                try:
                    record = parse_json(line, self.path, f"line {number}", number)
                except SpecError:
                    if number == len(lines):             # only the last line may be cut off
                        break
                    raise
                self._check(record, Shape(self.path, "a record this run did not write", number,
                                          "--force starts the run again"), seen)
                self.done[record["key"]] = record
                keep = end
            offset = end
        size = os.path.getsize(self.path)
        with open(self.path, "r+b") as f:      # drop a cut-off last line, end the last one
            f.truncate(min(keep, size))
            if keep > size:
                f.seek(0, os.SEEK_END)
                f.write(b"\n")

    def _check(self, record, shape, seen):
        shape.mapping(record, "the record", ("key",))
        key = record["key"]
        text = json.dumps(key, sort_keys=True)
        shape.require(self.known is None or self.known(key),
                      f"its key {text[:40]} is not a task of this run")
        shape.require(text not in seen, f"a second record of the task {text[:40]}")
        seen.add(text)
        if "failure" in record:
            shape.text(record["failure"], "`failure`")
            shape.text(shape.mapping(record, "the record", ("message",))["message"], "`message`")
        elif self.check is not None:
            self.check(key, record, shape)

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


def spec_digest(*texts: str) -> str:
    """The SHA-256 of spec texts, for a header: rules edited between runs make another run."""
    import hashlib
    digest = hashlib.sha256()
    for text in texts:
        digest.update(hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest())
    return digest.hexdigest()
