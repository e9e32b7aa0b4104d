"""Front-ends: YAML specs and the `.game` grammar, both producing framework.ast."""
from __future__ import annotations

import re

# What a game's name (free text, unlike the other names) may not hold: NUL and lone
# surrogates, which are not text (no UTF-8 encoder, file name or terminal takes them).
# Other control characters are shown as escapes on a terminal (framework.terminal).
_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")


def check_display_text(text: str, pos, what: str) -> str:
    """`text` unless it holds NUL or a lone surrogate: then a SpecError at `pos`."""
    bad = _NOT_TEXT.search(text)
    if bad is not None:
        from framework.errors import SpecError
        raise SpecError.at(pos, f"{what} holds the character U+{ord(bad.group()):04X} "
                                "(NUL or a lone surrogate, which are not text)",
                           "remove the \\0 or \\ud800-style escape")
    return text
