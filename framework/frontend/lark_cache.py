"""Build each Lark parser once per grammar text, not once per process.

Building an LALR parser from a grammar costs tens of milliseconds, which dominated the
start-up of every command (`plyspec check tictactoe`: 346 ms best of 15 without the cache,
216 ms with it).  `cached_lark(grammar, **options)` keeps the analysed parser in plyspec's
cache folder, one entry per (grammar text, options, Lark version, Python version).

The entry is Lark's own serialised form (a pickle), so it goes through `framework.cache`:
loaded only from a folder and file the user owns and nobody else can write, and unpickled
only after its HMAC checks; any failure builds the parser in memory.  (Lark's own `cache=`
option is not used: it unpickles whatever file it finds in the shared temporary folder.)
"""
from __future__ import annotations

import hashlib
import io
import sys

from lark import Lark, __version__ as LARK_VERSION

from framework import cache

# options that are objects, not data: passed again when a cached parser is loaded
_RUNTIME_OPTIONS = ("postlex", "transformer", "lexer_callbacks")


def cached_lark(grammar: str, **options) -> Lark:
    """`Lark(grammar, **options)`, loaded from the cache when an identical one was built."""
    runtime = {k: options[k] for k in _RUNTIME_OPTIONS if k in options}
    data_options = sorted((k, repr(v)) for k, v in options.items() if k not in runtime)
    key = hashlib.sha256(repr((grammar, data_options, sorted(runtime), LARK_VERSION,
                               sys.version_info[:2])).encode()).hexdigest()[:32]
    name = f"lark-{key}.pickle"
    payload = cache.load(name)
    if payload is not None:
        try:                # (Lark.load takes no runtime options: its _load does)
            return Lark.__new__(Lark)._load(io.BytesIO(payload), **runtime)
        except Exception:   # written by another version of a dependency: rebuilt
            pass
    parser = Lark(grammar, **options)
    out = io.BytesIO()
    parser.save(out)
    cache.store(name, out.getvalue())
    return parser
