"""A real `plyspec lsp` process driven by a pytest-lsp client, shared by the language
server's tests: the `client` fixture, opening a document, waiting for its diagnostics,
and what `plyspec check` prints for the same text."""
import asyncio
import os
import re
import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import ROOT
from framework.cli import main


CONFIG = ClientServerConfig(server_command=[sys.executable, "-m", "framework", "lsp"],
                            server_env={**os.environ, "PYTHONPATH": str(ROOT)})


async def start(lsp_client: LanguageClient, encoding: str | None = None):
    """Initialises the session as VS Code does (offering only `encoding` if given), and
    records the registrations the server asks for (`lsp_client.messages` holds what it shows)."""
    registered = lsp_client.registered = []

    @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams):     # the server asks to watch *.pddl files
        registered.extend(params.registrations)

    capabilities = pytest_lsp.client_capabilities("visual-studio-code")
    if encoding is not None:
        capabilities.general.position_encodings = [encoding]
    return await lsp_client.initialize_session(t.InitializeParams(capabilities=capabilities,
                                                                   root_uri=ROOT.as_uri()))


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient):
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


def open_doc(client, path: Path, text: str | None = None) -> str:
    uri = path.resolve().as_uri()
    client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
        uri=uri, language_id="yaml", version=1, text=path.read_text() if text is None else text)))
    return uri


async def diagnostics(client, uri):
    for _ in range(50):
        if uri in client.diagnostics:
            return client.diagnostics[uri]
        await asyncio.wait_for(client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 60)
    raise AssertionError("no diagnostics published")


def check_output(tmp_path, name, text, capsys):
    """What `plyspec check` prints on stderr for `text` saved as `name` (it must fail)."""
    target = tmp_path / name
    target.write_text(text)
    assert main(["check", str(target)]) == 1
    return capsys.readouterr().err


def printed_errors(printed: str, severity: str = "error") -> list:
    """[(line, col, message, hint or None)] of each error (or warning) `plyspec check` printed."""
    out, current = [], None
    for line in printed.splitlines():
        if ": error: " in line or ": warning: " in line:
            where, kind, message = re.split(r": (error|warning): ", line, maxsplit=1)
            row, col = (int(x) for x in where.rsplit(":", 2)[1:])
            current = [row, col, message, None] if kind == severity else None
            if current:
                out.append(current)
        elif line.startswith("hint: ") and current is not None:
            current[3] = line[6:]
    return [tuple(e) for e in out]


def as_printed(diagnostic) -> tuple:
    """A published diagnostic as (line, col, message, hint or None), 1-based as printed."""
    message, _, hint = diagnostic.message.partition("\nhint: ")
    return (diagnostic.range.start.line + 1, diagnostic.range.start.character + 1, message, hint or None)


def at(uri: str, line: int, character: int) -> dict:
    return {"text_document": t.TextDocumentIdentifier(uri=uri), "position": t.Position(line=line, character=character)}


def offset(text: str, position, encoding: str = "utf-16") -> int:
    """The string index of an LSP position in `text` (lines end at \\n), counted in `encoding`."""
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[:position.line])
    line = lines[position.line] if position.line < len(lines) else ""
    units, col = 0, 0
    while col < len(line) and units < position.character:
        units += len(line[col].encode(encoding.replace("-", "_") + ("_le" if encoding != "utf-8" else ""))) \
            // (1 if encoding == "utf-8" else 2 if encoding == "utf-16" else 4)
        col += 1
    return start + col


def apply_edits(text: str, edits, encoding: str = "utf-16") -> str:
    """`text` with the TextEdits applied (as a client does: last first)."""
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:offset(text, edit.range.start, encoding)] + edit.new_text + text[offset(text, edit.range.end, encoding):]
    return text
