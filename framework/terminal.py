"""What plyspec prints is text, never terminal commands or rich markup.

Names, strings, actions and messages come from specs, journals and books that plyspec did
not write itself, so before they reach a terminal:

- `plain(text)` shows every control character (C0 but tab and line feed, DEL, C1, and the
  Unicode bidirectional overrides) as a visible escape such as `\\x1b`: an ESC or BEL in a
  game name cannot set the window title, clear the screen or hide text;
- `PlainStream` applies `plain` to everything written to a text stream; `main` wraps
  sys.stdout and sys.stderr in it while a command runs (JSON output is unaffected: JSON
  already escapes control characters); plyspec's own terminal codes (a progress line's
  carriage return and erase-line) are written `beneath` it;
- `console()` is the rich console of the result tables and progress bars: markup and emoji
  codes off (a game named "[/oops]" is printed as it is, not parsed), every string it is
  given made `plain`, and it writes to the stream beneath `PlainStream` so that rich's own
  colours still reach the terminal.
"""
from __future__ import annotations

import re
import sys

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _visible(match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def plain(text) -> str:
    """`text` with its control characters shown as escapes (tab and line feed kept)."""
    return _CONTROL.sub(_visible, str(text))


class PlainStream:
    """A text stream that writes `plain` text to the stream beneath it."""

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(plain(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self.stream, name)


def beneath(stream):
    """The stream a `PlainStream` writes to (the stream itself otherwise)."""
    return stream.stream if isinstance(stream, PlainStream) else stream


def protect_output() -> tuple:
    """Wraps sys.stdout and sys.stderr in `PlainStream`; returns the streams to restore."""
    saved = sys.stdout, sys.stderr
    if sys.stdout is not None and not isinstance(sys.stdout, PlainStream):
        sys.stdout = PlainStream(sys.stdout)
    if sys.stderr is not None and not isinstance(sys.stderr, PlainStream):
        sys.stderr = PlainStream(sys.stderr)
    return saved


def console(*, stderr: bool = False, **options):
    """A rich Console for text from untrusted sources (see the module docstring)."""
    from rich.console import Console

    class PlainConsole(Console):
        def render_str(self, text, **kwargs):
            kwargs.update(markup=False, emoji=False)
            return super().render_str(plain(text), **kwargs)

    stream = beneath(sys.stderr if stderr else sys.stdout)
    return PlainConsole(file=stream, markup=False, emoji=False, **options)
