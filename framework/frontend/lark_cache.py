"""Build each Lark parser once per grammar text, not once per process.

Building an LALR parser from a grammar costs tens of milliseconds, which dominated the
start-up of every command.  `cached_lark(grammar, **options)` keeps the analysed parser in
the user's cache folder (`$PLYSPEC_CACHE`, else `$XDG_CACHE_HOME/plyspec`, else
`~/.cache/plyspec`), one file per (grammar text, options, Lark version, Python version).

The file is Lark's own serialised form (a pickle), so it is read only from that private
folder (created with mode 0700), written atomically through a uniquely named temporary file
and `os.replace`, and any failure to read or write it (read-only home, a damaged or foreign
file) falls back to building the parser in memory: the cache can make a command faster,
never wrong.
"""
from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

from lark import Lark, __version__ as LARK_VERSION

from framework.files import cache_dir

# options that are objects, not data: passed again when a cached parser is loaded
_RUNTIME_OPTIONS = ("postlex", "transformer", "lexer_callbacks")


def cached_lark(grammar: str, **options) -> Lark:
    """`Lark(grammar, **options)`, loaded from the cache when an identical one was built."""
    runtime = {k: options[k] for k in _RUNTIME_OPTIONS if k in options}
    data_options = sorted((k, repr(v)) for k, v in options.items() if k not in runtime)
    key = hashlib.sha256(repr((grammar, data_options, sorted(runtime), LARK_VERSION,
                               sys.version_info[:2])).encode()).hexdigest()[:32]
    folder = Path(cache_dir())
    path = folder / f"lark-{key}.pickle"
    try:
        with open(path, "rb") as f:         # (Lark.load takes no runtime options: its _load does)
            return Lark.__new__(Lark)._load(f, **runtime)
    except Exception:       # absent, unreadable, damaged or from another version: rebuild
        pass
    parser = Lark(grammar, **options)
    _store(parser, folder, path)
    return parser


def _store(parser: Lark, folder: Path, path: Path) -> None:
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".lark-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "wb") as f:
                parser.save(f)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except Exception:       # a read-only or full disk only costs speed
        pass
