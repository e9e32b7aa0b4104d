"""`plyspec lsp`: the language server for editors, over stdio (docs/editor.md)."""
from __future__ import annotations

from framework.cli import COMMANDS


EXAMPLES = [
    'plyspec lsp                                  # started by the editor, speaks LSP on stdio',
    '(editor set-ups for VS Code, Neovim and Emacs: docs/editor.md)',
]


def add_parser(sub):
    p = sub.add_parser("lsp", help=COMMANDS["lsp"],
                       description="Start the plyspec language server on stdin/stdout, for an editor: "
                                   "diagnostics as you type (the errors `plyspec check` prints), hover, "
                                   "go to definition, references, completion, outline, formatting of "
                                   ".game and .plan files (comments kept) and quick fixes. Needs pip install "
                                   "\"plyspec[lsp]\". See docs/editor.md for VS Code, Neovim and Emacs.")
    p.set_defaults(func=run)


def run(args) -> int:
    """Answers `initialize` first (framework.lsp.early), then imports pygls and serves."""
    import sys
    from importlib.util import find_spec
    missing = [name for name in ("pygls", "lsprotocol") if find_spec(name) is None]
    if missing:
        raise ValueError(f'plyspec lsp needs pygls and lsprotocol: pip install "plyspec[lsp]" '
                         f'({", ".join(missing)} not installed)')
    from framework.lsp.early import answer_initialize
    first, answered = answer_initialize(sys.stdin.buffer, sys.stdout.buffer)
    from framework.lsp.server import main
    return main(first, answered)
