"""Formatting `.game` and `.plan` files without losing a character that matters.

The formatter tidies the layout the author wrote instead of reprinting the spec from
its AST (which would drop every comment and re-lay-out every line): trailing white
space goes, runs of blank lines become one (none at the start or the end), the text
ends with exactly one newline, tabs in indentation become four spaces, and inside a
line's code white space runs become one space, a comma is followed by one space and
no space is left after `(` / `[` or before `,` / `)` / `]`.  Comments, strings, the
indentation of each line and the gap before a trailing comment are kept as written.

The result is checked before it is offered: it must read back to the same AST
(positions aside) and hold the same comments, in the same order.  If the tidy
layout fails that check the whitespace-only tidy (trailing space, blank lines, final
newline) is tried; if that fails too, `FormatRefused` says why and nothing changes.
`format_text` is what the language server's `textDocument/formatting` answers with.
"""
from __future__ import annotations

import re
from pathlib import Path

FORMATTED = (".game", ".plan")


class FormatRefused(Exception):
    """The text cannot be formatted without changing its meaning or its comments."""


def split_comment(line: str, strings: bool = True) -> tuple[str, str]:
    """(code, comment) of one line: the comment from the first `#` outside a string (a
    `.plan` file has no strings: `strings=False`, every `#` starts a comment)."""
    if not strings:
        at = line.find("#")
        return (line, "") if at < 0 else (line[:at], line[at:])
    in_string = escaped = False
    for i, ch in enumerate(line):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "#":
            return line[:i], line[i:]
    return line, ""


def comments(text: str, strings: bool = True) -> list:
    """Every comment of the text, in order, without trailing white space (what formatting
    must keep)."""
    return [c.rstrip() for c in (split_comment(line, strings)[1] for line in text.split("\n")) if c]


_PIECES = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[^"]+')   # strings (kept whole) and the code between them


def _tidy_code(code: str) -> str:
    """One line's code with its inner white space normalised (strings untouched)."""
    indent = code[:len(code) - len(code.lstrip(" \t"))]
    out = []
    for piece in _PIECES.findall(code[len(indent):]):
        if piece.startswith('"'):
            out.append(piece)
            continue
        piece = re.sub(r"[ \t\f]+", " ", piece)
        piece = re.sub(r" ?, ?", ", ", piece)
        piece = re.sub(r"([(\[]) ", r"\1", piece)
        piece = re.sub(r" ([)\],])", r"\1", piece)
        out.append(piece)
    return indent.replace("\t", "    ") + "".join(out).rstrip()


def _layout(text: str, tidy_lines: bool, strings: bool) -> str:
    lines, blank = [], False
    for raw in text.replace("\r\n", "\n").split("\n"):
        code, comment = split_comment(raw, strings)
        if not code.strip() and not comment:
            blank = bool(lines)
            continue
        if blank:
            lines.append("")
            blank = False
        if tidy_lines and code.strip():
            tidied = _tidy_code(code)
            gap = code[len(code.rstrip()):] if comment else ""
            lines.append(tidied + (gap or " " if comment else "") + comment.rstrip())
        else:
            lines.append((code.rstrip() if not comment else code) + comment.rstrip())
    return "\n".join(lines) + "\n" if lines else ""


def _meaning(path: str, text: str):
    """What must not change: the AST (positions aside), or a SpecError if it does not parse."""
    if Path(path).suffix.lower() == ".plan":
        from planners.formats.plan_text import parse_plan_text
        from planners.formats.print_yaml import to_yaml
        return to_yaml(parse_plan_text(text, path))
    from framework.frontend.game_format import load_game_spec
    from framework.frontend.printer import spec_fields
    return spec_fields(load_game_spec(text, path))


def format_text(path: str, text: str) -> str:
    """The formatted text of the `.game` or `.plan` file `text` (FormatRefused if it cannot
    be formatted: another kind of file, a parse error, or a layout that would change it)."""
    from framework.errors import SpecError
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATTED:
        raise FormatRefused(f"plyspec formats {' and '.join(FORMATTED)} files only (this is "
                            f"`{suffix or Path(path).name}`): a YAML or PDDL file is left as written")
    try:
        before = _meaning(path, text)
    except SpecError as err:
        raise FormatRefused(f"the text does not parse ({err.line}:{err.col}: {err.message}); "
                            "fix it first, nothing was changed") from None
    strings = suffix == ".game"
    kept = comments(text, strings)
    for tidy in (True, False):
        new = _layout(text, tidy, strings)
        try:
            same = _meaning(path, new) == before
        except SpecError:
            same = False
        if same and comments(new, strings) == kept:
            return new
    raise FormatRefused("formatting would change what the file says or drop a comment, so "
                        "nothing was changed; please report the file")


_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")   # each line with its break, as LSP counts lines


def changed_lines(old: str, new: str):
    """The smallest run of whole lines to replace to turn `old` into `new`: None if they
    are equal, else (first line, line after the last, the replacement text, and the last
    line's text when the run reaches the end of a text without a final line break, else None)."""
    before, after = _LINES.findall(old), _LINES.findall(new)
    same = 0
    while same < min(len(before), len(after)) and before[same] == after[same]:
        same += 1
    if same == len(before) == len(after):
        return None
    tail = 0
    while tail < min(len(before), len(after)) - same and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    last = len(before) - tail
    unended = last == len(before) and before and before[-1][-1:] not in "\r\n"
    return same, last - 1 if unended else last, "".join(after[same:len(after) - tail]), \
        before[-1] if unended else None
