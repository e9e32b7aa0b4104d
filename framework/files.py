"""Reading and writing the user's files safely: every file plyspec reads (specs, PDDL, books,
golden files, journals) goes through `read_text`/`read_bytes`, every file it writes through
`write_atomic` (after `check_output`, which commands call before any work).

Reading: the path must name a regular file, checked without blocking (a FIFO, a device such
as /dev/zero, a socket or a folder is refused before anything is read: the path is stat-ed,
then opened with O_NONBLOCK and checked again with `fstat` on the open descriptor, so a file
swapped in between is refused too); at most `limit` + 1 bytes are read and a larger file is
refused; text must be UTF-8 (else a SpecError at the first bad byte).

Writing: the target must be absent or a regular file (a symbolic link, FIFO, device or
socket is refused, even with `force`); an existing file is replaced only with `force`. The
data goes to a uniquely named temporary file in the target's folder, created with mode 0666
(0600 when `private`) so that the kernel applies the umask, and is moved over the target
with `os.replace`: a reader, a crash or Ctrl-C never sees a half-written file.

Every failure is a SpecError naming the file, in one line, with a hint.
"""
from __future__ import annotations

import os
import stat

from framework.errors import SpecError, line_and_column

MAX_SPEC_BYTES = 1_000_000        # specs, golden files
MAX_PDDL_BYTES = 64_000_000       # PDDL files: IPC problem files reach several MB (4 MB in
                                  # Fast Downward's benchmark collection)
MAX_DATA_BYTES = 256_000_000      # files plyspec writes and reads back: books, journals
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | _CLOEXEC

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _not_regular(path: str, mode: int, what: str | None = None) -> SpecError:
    """The error for a path that is not a regular file (`what` it should have been read as)."""
    hint = f"give the path of a {what} file" if what else "give the path of a new or regular file"
    return SpecError(f"{_kind(mode)}, not a regular file", file=path,
                     hint=f"plyspec reads and writes only regular files: {hint}")


_CANNOT_HINTS = {"read": "check the path, and that you may read the file",
                 "write": "check the path, and that you may write in its folder"}


def _cannot(verb: str, path: str, e: OSError) -> SpecError:
    return SpecError(f"cannot {verb} {path}: {e.strerror or e}", file=path, hint=_CANNOT_HINTS[verb])


def read_bytes(path, *, limit: int, what: str) -> bytes:
    """The bytes of the regular file `path`: SpecError if it is not one, is unreadable or
    is larger than `limit` bytes (`what` names the file in messages: "spec", "journal")."""
    path = os.fspath(path)
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):                          # refused before open: no blocking
            raise _not_regular(path, mode, what)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | _CLOEXEC)
    except OSError as e:
        raise _cannot("read", path, e) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):                  # swapped after the stat
            raise _not_regular(path, info.st_mode, what)
        os.set_blocking(fd, True)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(limit + 1 - size, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise _cannot("read", path, e) from None
    finally:
        os.close(fd)
    if size > limit:
        raise SpecError(f"{what} is larger than {limit:,} bytes", file=path,
                        hint=f"plyspec reads a {what} of at most {limit:,} bytes")
    return b"".join(chunks)


def read_text(path, *, limit: int = MAX_SPEC_BYTES, what: str = "spec") -> str:
    """The UTF-8 text of the regular file `path` (see `read_bytes`); a file that is not
    UTF-8 is a SpecError at the line and column of its first bad byte."""
    data = read_bytes(path, limit=limit, what=what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        good = data[:e.start].decode("utf-8")
        line, col = line_and_column(good, len(good))
        raise SpecError(f"{what} is not UTF-8 text ({e.reason})", file=os.fspath(path),
                        line=line, col=col, hint="save the file as UTF-8") from None


def check_output(path, *, force: bool = False) -> None:
    """SpecError unless `path` can be written by `write_atomic`: absent, or (with `force`)
    a regular file; never a link, FIFO, device, socket or folder, even with `force`."""
    path = os.fspath(path)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise SpecError(f"cannot write {path}: its folder {folder} does not exist",
                            file=path, hint="create the folder first") from None
        return
    except OSError as e:
        raise _cannot("write", path, e) from None
    if stat.S_ISLNK(mode):
        raise SpecError(f"{path} is a symbolic link; plyspec does not write through links",
                        file=path, hint="give the path of a regular file")
    if not stat.S_ISREG(mode):
        raise _not_regular(path, mode)
    if not force:
        raise SpecError(f"{path} exists", file=path, hint="add --force to replace it")


def open_append(path):
    """The regular file `path` opened to append UTF-8 text: never through a symbolic link,
    and a FIFO or device is refused without blocking (SpecError)."""
    path = os.fspath(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK | _NOFOLLOW
    try:
        fd = os.open(path, flags)
        info = os.fstat(fd)
    except OSError as e:
        raise _cannot("write", path, e) from None
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise _not_regular(path, info.st_mode)
    os.set_blocking(fd, True)
    return os.fdopen(fd, "a", encoding="utf-8")


def write_atomic(path, data, *, force: bool = False, private: bool = False) -> None:
    """Writes `data` (str as UTF-8, or bytes) to `path` atomically, with mode 0666 & ~umask
    (0600 when `private`); SpecError as `check_output` says, or if the write fails."""
    path = os.fspath(path)
    check_output(path, force=force)
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = os.path.dirname(os.path.abspath(path))
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
    tmp = None
    try:
        for _ in range(100):            # a unique name: O_EXCL refuses an existing one
            candidate = os.path.join(folder, f".plyspec-{os.urandom(6).hex()}.tmp")
            try:
                fd = os.open(candidate, flags, 0o600 if private else 0o666)
            except FileExistsError:
                continue
            tmp = candidate
            break
        else:
            raise FileExistsError(17, "no unique temporary name")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        check_output(path, force=force)     # the target is checked again just before it is replaced
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise _cannot("write", path, e) from None
    finally:
        if tmp is not None and os.path.lexists(tmp):
            os.unlink(tmp)
