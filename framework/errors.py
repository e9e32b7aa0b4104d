"""SpecError: the one exception a bad spec, problem file or action text raises.

Every error carries a position (file, line, column, all 1-based), the offending source
line, and a one-line hint, and renders like a compiler diagnostic::

    game_specs/bad.yaml:7:12: error: unknown name `bord`
        if: bord[c] == empty
            ^
    hint: did you mean `board`?
"""
from __future__ import annotations

import re

from framework.terminal import plain

# Line ends, the same in every front-end: YAML's (which PyYAML's marks count) and the ones
# the Lark front-ends see once `normalise_line_breaks` has turned them into "\n".  Not
# str.splitlines(), which also splits at \v, \f and \x1c-\x1e.
LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def split_lines(text: str) -> list:
    """The lines of `text`, as positions (line numbers) count them."""
    return LINE_BREAK.split(text)


def normalise_line_breaks(text: str) -> str:
    """`text` with every line end as "\n" (for parsers that count lines by "\n")."""
    return LINE_BREAK.sub("\n", text)


def line_and_column(text: str, index: int) -> tuple:
    """1-based (line, column) of the character at `index` of `text`."""
    line, start = 1, 0
    for m in LINE_BREAK.finditer(text, 0, max(0, index)):
        line, start = line + 1, m.end()
    return line, index - start + 1


def shorten(text: str, most: int = 40) -> str:
    """`text` cut to `most` characters for a message (a 5,000-digit number, say)."""
    return text if len(text) <= most else text[:most - 3] + "..."


class SpecError(Exception):
    """A spec (or a user's input to a spec) is wrong; the message says where and why."""

    severity = "error"

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

    @classmethod
    def at(cls, pos, message: str, hint: str | None = None) -> "SpecError":
        """The error at `pos`, a position with file, line, col, end_col and source_line
        (a `framework.ast.Pos`); None gives an error without a place."""
        if pos is None:
            return cls(message, hint=hint)
        return cls(message, file=pos.file, line=pos.line, col=pos.col, end_col=pos.end_col,
                   source_line=pos.source_line, hint=hint)

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
        out = [f"{self.location}: {self.severity}: {self.message}"]
        if self.source_line is not None and self.col is not None:
            src = self.source_line.rstrip("\n").expandtabs(1)
            width = max(1, (self.end_col or self.col + 1) - self.col)
            width = min(width, max(1, len(src) - self.col + 2))
            start = self.col - 1             # control characters are shown as escapes: the
            shown = plain(src[start:start + width]) + " " * max(0, start + width - len(src))
            out.append("    " + plain(src))  # caret stays under what it marks
            out.append("    " + " " * len(plain(src[:start])) + "^" * len(shown))
        if self.hint:
            out.append(f"hint: {self.hint}")
        return "\n".join(out)


class SpecErrors(SpecError):
    """Several independent errors of one spec, in the order the checker met them; it reads
    as the first (file, line, message...) for code that wants one, and prints them all."""

    def __init__(self, errors: list):
        first = errors[0]
        super().__init__(first.message, file=first.file, line=first.line, col=first.col,
                         source_line=first.source_line, hint=first.hint, end_col=first.end_col)
        self.errors = list(errors)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors) + f"\n{len(self.errors)} errors"


def all_errors(err: SpecError) -> list:
    """The errors a SpecError stands for (several for a SpecErrors)."""
    return list(getattr(err, "errors", [err]))


class UsageError(SpecError, ValueError):
    """A command-line input is wrong (an agent's option, a flag's value): exit status 2."""


class SpecRuntimeError(SpecError):
    """A rule of a loaded spec failed while it was played (an index off a list, a division
    by zero): raised by generated code at the position of the expression."""


class NoLegalActions(SpecRuntimeError):
    """A state that is not terminal, and not a chance node, has no legal action (and the
    spec declares no `pass`): the terminal test misses a case.  `state.actions()` raises
    it, so that no searcher takes such a state for a leaf of value -inf."""


class NoChanceOutcomes(SpecRuntimeError):
    """A chance node whose outcomes are all of probability 0 (an empty chance domain in this
    state): `state.chance_outcomes()` raises it, so no searcher divides by zero outcomes."""


class SpecWarning(SpecError):
    """Not an error: something valid that is probably a mistake (framework.lint); rendered
    like an error with `warning:`, and never raised."""

    severity = "warning"


class LimitError(SpecError, ValueError):
    """A spec within the language but beyond a size limit (a grounding with too many
    operators, say); also a ValueError, for callers that catch those."""


def did_you_mean(name: str, candidates) -> str | None:
    """A hint naming the closest known name, or None when nothing is close."""
    import difflib                      # start-up: only when a name is misspelt
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None
