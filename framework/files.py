"""Writing files safely: every file plyspec writes goes through `write_atomic`.

The text is written to a uniquely named temporary file in the target's folder and moved
over the target with `os.replace`, so a reader (or a crash, or Ctrl-C) never sees a
half-written file; a target that is a symbolic link is refused (writing through it could
destroy an unrelated file), and an existing file is replaced only when `force` is given.
"""
from __future__ import annotations

import os
import tempfile

from framework.errors import SpecError


def write_atomic(path, text: str, *, force: bool = False) -> None:
    """Writes `text` to `path` atomically (SpecError if it is a link, or exists without `force`)."""
    path = os.fspath(path)
    if os.path.islink(path):
        raise SpecError(f"{path} is a symbolic link; plyspec does not write through links",
                        file=path, hint="give the path of a regular file")
    if os.path.exists(path) and not force:
        raise SpecError(f"{path} exists", file=path, hint="add --force to replace it")
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".plyspec-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
