"""Front-ends: YAML specs and the `.game` grammar, both producing framework.ast."""
from __future__ import annotations

import re

# What a game's name (free text, unlike the other names) may not hold: control characters
# (NUL, ESC, BEL... which would reach a terminal) and lone surrogates (not encodable text).
_NOT_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def check_display_text(text: str, pos, what: str) -> str:
    """`text` if it is printable text, else a SpecError at `pos` naming the character."""
    bad = _NOT_TEXT.search(text)
    if bad is not None:
        from framework.errors import SpecError
        raise SpecError.at(pos, f"{what} holds the character U+{ord(bad.group()):04X} "
                                f"(a control character or a lone surrogate)",
                           "write printable text, without \\0, \\x1b or \\ud800-style escapes")
    return text
