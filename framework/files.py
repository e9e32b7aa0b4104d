"""Reading and writing files safely: every spec plyspec reads goes through `read_text`
(a size bound, UTF-8 or a positioned SpecError), every file it writes through `write_atomic`.

The text is written to a uniquely named temporary file in the target's folder and moved
over the target with `os.replace`, so a reader (or a crash, or Ctrl-C) never sees a
half-written file; a target that is a symbolic link is refused (writing through it could
destroy an unrelated file), and an existing file is replaced only when `force` is given.
"""
from __future__ import annotations

import os

from framework.errors import SpecError

MAX_SPEC_BYTES = 1_000_000


def read_text(path) -> str:
    """The text of a spec file: SpecError if it is unreadable, over MAX_SPEC_BYTES or not UTF-8."""
    try:
        size = os.stat(path).st_size
    except OSError as e:
        raise SpecError(f"cannot read {path}: {e.strerror}", file=str(path)) from None
    if size > MAX_SPEC_BYTES:
        raise SpecError(f"spec is {size} bytes, larger than {MAX_SPEC_BYTES}", file=str(path))
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except UnicodeDecodeError as e:
        raise SpecError(f"spec is not UTF-8 text ({e.reason})", file=str(path), line=1, col=1) from None
    except OSError as e:
        raise SpecError(f"cannot read {path}: {e.strerror}", file=str(path)) from None


def cache_dir() -> str:
    """The folder of plyspec's caches (parsers, record templates; not created here):
    `$PLYSPEC_CACHE`, else `$XDG_CACHE_HOME/plyspec`, else `~/.cache/plyspec`."""
    explicit = os.environ.get("PLYSPEC_CACHE")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "plyspec")


def check_target(path, *, force: bool = False) -> None:
    """SpecError unless `write_atomic(path, ..., force=force)` could write there: the
    checks a command makes before any work, so that a long run never ends in a refusal."""
    path = os.fspath(path)
    if os.path.islink(path):
        raise SpecError(f"{path} is a symbolic link; plyspec does not write through links",
                        file=path, hint="give the path of a regular file")
    if os.path.isdir(path):
        raise SpecError(f"{path} is a folder", file=path, hint="give the path of a file")
    if os.path.exists(path) and not force:
        raise SpecError(f"{path} exists", file=path, hint="add --force to replace it")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise SpecError(f"cannot write {path}: the folder {folder} does not exist", file=path,
                        hint="create the folder first, or give another path")


def write_atomic(path, text: str, *, force: bool = False) -> None:
    """Writes `text` to `path` atomically (SpecError if it is a link, or exists without `force`)."""
    path = os.fspath(path)
    check_target(path, force=force)
    folder = os.path.dirname(os.path.abspath(path))
    import tempfile
    fd, tmp = tempfile.mkstemp(prefix=".plyspec-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
