"""`plyspec lsp`: the language server for editors, over stdio (docs/editor.md)."""
from __future__ import annotations

from framework.cli import COMMANDS


EXAMPLES = [
    'plyspec lsp                                  # started by the editor, speaks LSP on stdio',
    '(editor set-up for VS Code and Neovim: docs/editor.md)',
]


def add_parser(sub):
    p = sub.add_parser("lsp", help=COMMANDS["lsp"],
                       description="Start the plyspec language server on stdin/stdout, for an editor: "
                                   "diagnostics as you type (the errors `plyspec check` prints), hover, "
                                   "go to definition, references, completion, outline, formatting of "
                                   ".game files and quick fixes. Needs pip install \"plyspec[lsp]\". "
                                   "See docs/editor.md for VS Code and Neovim.")
    p.set_defaults(func=run)


def run(args) -> int:
    try:
        from framework.lsp.server import main
    except ImportError as err:
        raise ValueError(f'plyspec lsp needs pygls and lsprotocol: pip install "plyspec[lsp]" ({err})') from None
    return main()
