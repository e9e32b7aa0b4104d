"""SpecError: the one exception a bad spec, problem file or action text raises.

Every error carries a position (file, line, column, all 1-based), the offending source
line, and a one-line hint, and renders like a compiler diagnostic::

    game_specs/bad.yaml:7:12: error: unknown name `bord`
        if: bord[c] == empty
            ^
    hint: did you mean `board`?
"""
from __future__ import annotations

import difflib


class SpecError(Exception):
    """A spec (or a user's input to a spec) is wrong; the message says where and why."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 col: int | None = None, source_line: str | None = None,
                 hint: str | None = None, end_col: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.end_col = end_col
        self.source_line = source_line
        self.hint = hint

    @property
    def location(self) -> str:
        if self.file is None and self.line is None:
            return "plyspec"                   # a command-line input, not a place in a file
        parts = [self.file or "<spec>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)

    def __str__(self) -> str:
        out = [f"{self.location}: error: {self.message}"]
        if self.source_line is not None and self.col is not None:
            src = self.source_line.rstrip("\n").expandtabs(1)
            out.append("    " + src)
            width = max(1, (self.end_col or self.col + 1) - self.col)
            width = min(width, max(1, len(src) - self.col + 2))
            out.append("    " + " " * (self.col - 1) + "^" * width)
        if self.hint:
            out.append(f"hint: {self.hint}")
        return "\n".join(out)


def did_you_mean(name: str, candidates) -> str | None:
    """A hint naming the closest known name, or None when nothing is close."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None
