"""Files plyspec reads back (opening books, golden perft files, results journals): read
within a size limit, parsed as JSON, and checked against their schema by the small `Shape`
checks below, so a file that is not what it claims to be gets one SpecError naming the
file (and its line, for a journal or a JSON mistake) and what is wrong: never a KeyError,
a RecursionError or a wrong answer further on.
"""
from __future__ import annotations

import json
import math

from framework.errors import SpecError

def read_json(path, what: str, limit: int):
    """The JSON value of the `what` file at `path` (read by `framework.files.read_text`: a
    regular file of at most `limit` bytes, UTF-8), or a SpecError naming it."""
    from framework.files import read_text
    return parse_json(read_text(path, limit=limit, what=what), path, what)


def parse_json(text: str, file, what: str, line: int | None = None):
    """The JSON value of `text` (a whole file, or its line `line`); a SpecError at the
    mistake otherwise, also for nesting too deep for the parser."""
    try:
        return json.loads(text)
    except ValueError as err:
        place = {"line": line or getattr(err, "lineno", None), "col": getattr(err, "colno", None)}
        raise SpecError(f"{what} is not valid JSON ({getattr(err, 'msg', err)})", file=str(file),
                        **place) from None
    except RecursionError:
        raise SpecError(f"{what} nests its JSON too deeply", file=str(file), line=line) from None


class Shape:
    """Checks of one JSON value read back from `file` (at `line`, for a journal record);
    every failed check raises one SpecError: `<file>[:line]: error: <what>: <why>`."""

    def __init__(self, file, what: str, line: int | None = None, hint: str | None = None):
        self.file, self.what, self.line, self.hint = str(file), what, line, hint

    def wrong(self, why: str) -> SpecError:
        return SpecError(f"{self.what}: {why}", file=self.file, line=self.line,
                         col=1 if self.line else None, hint=self.hint)

    def require(self, ok: bool, why: str):
        if not ok:
            raise self.wrong(why)

    def mapping(self, value, name: str, keys=()) -> dict:
        """`value`, an object holding every key of `keys`."""
        self.require(isinstance(value, dict), f"{name} is {_kind(value)}, not an object")
        missing = [k for k in keys if k not in value]
        self.require(not missing, f"{name} has no `{missing[0]}`" if missing else "")
        return value

    def sequence(self, value, name: str, length: int | None = None) -> list:
        self.require(isinstance(value, list), f"{name} is {_kind(value)}, not a list")
        self.require(length is None or len(value) == length,
                     f"{name} has {len(value)} items, not {length}")
        return value

    def whole(self, value, name: str, least: int = 0) -> int:
        self.require(isinstance(value, int) and not isinstance(value, bool),
                     f"{name} is {_kind(value)}, not a whole number")
        self.require(value >= least, f"{name} is {value}, less than {least}")
        return value

    def number(self, value, name: str) -> float:
        self.require(isinstance(value, (int, float)) and not isinstance(value, bool)
                     and math.isfinite(value), f"{name} is {_kind(value)}, not a finite number")
        return value

    def text(self, value, name: str) -> str:
        self.require(isinstance(value, str), f"{name} is {_kind(value)}, not text")
        return value


def _kind(value) -> str:
    """`a list`, `the text "abc"`, `the number 3`: what a wrong value is, for a message."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return f"the number {shorten_json(value)}"
    if isinstance(value, str):
        return f"the text {shorten_json(value)}"
    return "a list" if isinstance(value, list) else "an object"


def shorten_json(value) -> str:
    from framework.errors import shorten
    text = json.dumps(value) if not isinstance(value, float) or math.isfinite(value) else str(value)
    return shorten(text)
