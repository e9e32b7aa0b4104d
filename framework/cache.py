"""plyspec's cache folder, trusted or not used: `load(name)` and `store(name, payload)`.

The folder is `$PLYSPEC_CACHE`, else `$XDG_CACHE_HOME/plyspec`, else `~/.cache/plyspec`;
a relative `PLYSPEC_CACHE` or `XDG_CACHE_HOME` is ignored (the XDG specification calls
relative paths invalid). It is created with mode 0700 and used only when it is a real
folder (not a link), owned by the current user and writable by nobody else, checked with
`fstat` on a descriptor opened with O_NOFOLLOW; files in it are opened relative to that
descriptor with O_NOFOLLOW and used only when they are regular files owned by the user with
mode 0600.

Each file holds an HMAC-SHA256 of its payload and name, keyed by a random per-user key
(the file `key` in the same folder, mode 0600), followed by the payload; `load` returns the
payload only after the HMAC checks, so nothing deserialises (unpickles) bytes that this
user's plyspec did not write. Any failure (no home, a foreign or damaged file, a read-only
disk) is silent: `load` returns None, `store` does nothing; the cache can make a command
faster, never wrong or unsafe.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import stat

MAX_CACHE_BYTES = 16_000_000
_KEY_BYTES = _MAC_BYTES = 32
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def folder() -> str:
    """The path of the cache folder (not created or checked here)."""
    explicit = os.environ.get("PLYSPEC_CACHE", "")
    if os.path.isabs(explicit):
        return explicit
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "plyspec")


def _trusted(info: os.stat_result, kind, private_mode: int) -> bool:
    return (kind(info.st_mode) and info.st_uid == os.geteuid()
            and info.st_mode & private_mode == 0)


def _open_folder() -> int | None:
    """A descriptor of the cache folder (created 0700 if absent), or None if it is not trusted."""
    path = folder()
    if not os.path.isabs(path):             # `~` not expanded: no home
        return None
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        os.mkdir(path, 0o700)
    except OSError:
        pass                                 # exists (checked below) or cannot be made
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW)
    except OSError:
        return None
    if _trusted(os.fstat(fd), stat.S_ISDIR, 0o022):
        return fd
    os.close(fd)
    return None


def _read(dir_fd: int, name: str) -> bytes | None:
    """The bytes of `name` in the folder if it is a regular file of the user's, mode 0600."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        if not _trusted(os.fstat(fd), stat.S_ISREG, 0o077):
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(MAX_CACHE_BYTES + 1)
        return data if len(data) <= MAX_CACHE_BYTES else None
    finally:
        os.close(fd)


def _write(dir_fd: int, name: str, data: bytes, *, replace: bool) -> None:
    """`data` as `name` (mode 0600), through a temporary file: moved over `name`, or linked
    to it only if absent when not `replace` (so two processes agree on one key)."""
    tmp = f".{name}-{os.urandom(6).hex()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600, dir_fd=dir_fd)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if replace:
            os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        else:
            os.link(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
    finally:
        try:
            os.unlink(tmp, dir_fd=dir_fd)
        except FileNotFoundError:
            pass


def _key(dir_fd: int, create: bool) -> bytes | None:
    key = _read(dir_fd, "key")
    if key is None and create:
        try:
            _write(dir_fd, "key", os.urandom(_KEY_BYTES), replace=False)
        except FileExistsError:              # another process made it first: use theirs
            pass
        key = _read(dir_fd, "key")
    return key if key is not None and len(key) == _KEY_BYTES else None


def _mac(key: bytes, name: str, payload: bytes) -> bytes:
    return hmac.new(key, name.encode() + b"\0" + payload, hashlib.sha256).digest()


def load(name: str) -> bytes | None:
    """The payload stored as `name` by this user's plyspec, or None (absent or not trusted)."""
    try:
        dir_fd = _open_folder()
        if dir_fd is None:
            return None
        try:
            key, data = _key(dir_fd, create=False), _read(dir_fd, name)
        finally:
            os.close(dir_fd)
    except OSError:
        return None
    if key is None or data is None or len(data) < _MAC_BYTES:
        return None
    mac, payload = data[:_MAC_BYTES], data[_MAC_BYTES:]
    return payload if hmac.compare_digest(mac, _mac(key, name, payload)) else None


def store(name: str, payload: bytes) -> None:
    """Keeps `payload` as `name` in the cache folder, when it is trusted; silent otherwise."""
    try:
        dir_fd = _open_folder()
        if dir_fd is None:
            return
        try:
            key = _key(dir_fd, create=True)
            if key is not None:
                _write(dir_fd, name, _mac(key, name, payload) + payload, replace=True)
        finally:
            os.close(dir_fd)
    except OSError:
        pass
