"""The language server driven as an editor drives it: a real `plyspec lsp` process and a
pytest-lsp client (open, change, hover, definition, references, completion, outline,
formatting, quick fixes), on shipped specs and broken ones.  Diagnostics must be what
`plyspec check` prints for the same text."""
import os
import sys
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import ROOT, SPECS
from framework.cli import main

pytestmark = pytest.mark.asyncio(loop_scope="function")


@pytest_lsp.fixture(config=ClientServerConfig(
    server_command=[sys.executable, "-m", "framework", "lsp"],
    server_env={**os.environ, "PYTHONPATH": str(ROOT)}))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(t.InitializeParams(
        capabilities=pytest_lsp.client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri()))
    yield
    await lsp_client.shutdown_session()


def _open(client, path: Path, text: str | None = None) -> str:
    uri = path.resolve().as_uri()
    client.text_document_did_open(t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
        uri=uri, language_id="yaml", version=1, text=path.read_text() if text is None else text)))
    return uri


async def _diagnostics(client, uri):
    for _ in range(50):
        if uri in client.diagnostics:
            return client.diagnostics[uri]
        await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    raise AssertionError("no diagnostics published")


def _check_output(tmp_path, name, text, capsys):
    target = tmp_path / name
    target.write_text(text)
    assert main(["check", str(target)]) == 1
    return capsys.readouterr().err


BROKEN = [
    ("unknown name", "tictactoe.yaml", "if: board[c] == empty", "if: bord[c] == empty"),
    ("= for ==", "tictactoe.yaml", "if: board[c] == empty", "if: board[c] = empty"),
    ("parse error", "tictactoe.game", "terminal line(board, k, X)", "terminal line(board, k, X) and"),
    ("wrong arity", "connect_four.yaml", "line(board, k, R)", "line(board, R)"),
]


@pytest.mark.parametrize("what, spec, old, new", BROKEN, ids=[b[0] for b in BROKEN])
async def test_diagnostics_are_what_plyspec_check_prints(client, tmp_path, capsys, what, spec, old, new):
    text = (SPECS / spec).read_text()
    assert old in text
    broken = text.replace(old, new, 1)
    path = tmp_path / spec
    uri = _open(client, path, broken)
    [diagnostic] = await _diagnostics(client, uri)
    printed = _check_output(tmp_path, spec, broken, capsys)
    head = printed.splitlines()[0]                  # FILE:LINE:COL: error: MESSAGE
    line, col = (int(x) for x in head.split(": error: ")[0].rsplit(":", 2)[1:])
    assert (diagnostic.range.start.line + 1, diagnostic.range.start.character + 1) == (line, col)
    assert diagnostic.message.split("\nhint: ")[0] == head.split(": error: ", 1)[1]
    hint = [x for x in printed.splitlines() if x.startswith("hint: ")]
    assert ("\nhint: " + hint[0][6:] in diagnostic.message) if hint else "hint" not in diagnostic.message


async def test_shipped_specs_have_no_diagnostics_and_change_is_seen(client):
    for spec in sorted(SPECS.glob("*.yaml")) + sorted(SPECS.glob("*.game")):
        uri = _open(client, spec)
        assert list(await _diagnostics(client, uri)) == [], spec.name
    uri = (SPECS / "nim.yaml").resolve().as_uri()
    text = (SPECS / "nim.yaml").read_text()
    start = time.perf_counter()
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[t.TextDocumentContentChangeWholeDocument(text=text.replace("terminal:", "terminl:", 1))]))
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert client.diagnostics[uri] and "terminl" in client.diagnostics[uri][0].message
    assert time.perf_counter() - start < 5          # debounce 150 ms + one analysis, on a loaded machine


async def test_hover_definition_references(client):
    path = SPECS / "tictactoe.yaml"
    uri = _open(client, path)
    await _diagnostics(client, uri)
    lines = path.read_text().splitlines()
    row = next(i for i, x in enumerate(lines) if x.startswith("terminal:"))
    at = lambda word, nth=0: t.Position(line=row, character=_find(lines[row], word, nth))  # noqa: E731
    hover = await client.text_document_hover_async(t.HoverParams(text_document=t.TextDocumentIdentifier(uri=uri),
                                                                 position=at("line")))
    assert "line(board, int, value) -> bool" in hover.contents.value
    hover = await client.text_document_hover_async(t.HoverParams(text_document=t.TextDocumentIdentifier(uri=uri),
                                                                 position=at("k")))
    assert "option `k`" in hover.contents.value and "default 3" in hover.contents.value
    where = await client.text_document_definition_async(t.DefinitionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=at("board")))
    options_row = next(i for i, x in enumerate(lines) if x.startswith("board:"))
    assert where.range.start.line == options_row
    refs = await client.text_document_references_async(t.ReferenceParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=at("X"),
        context=t.ReferenceContext(include_declaration=True)))
    assert len(refs) >= 3 and refs[0].range.start.line == 1          # declared in `players:`


async def test_completion_offers_sections_builtins_and_names_in_scope(client):
    path = SPECS / "tictactoe.yaml"
    uri = _open(client, path)
    await _diagnostics(client, uri)
    lines = path.read_text().splitlines()
    row = next(i for i, x in enumerate(lines) if "if:" in x)
    got = await client.text_document_completion_async(t.CompletionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=row, character=len(lines[row]))))
    labels = {item.label: item for item in got.items}
    assert {"line", "slide", "board", "empty", "X", "k", "c", "queen"} <= set(labels)
    assert labels["line"].detail == "line(board, int, value) -> bool"
    got = await client.text_document_completion_async(t.CompletionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=len(lines), character=0)))
    assert "terminal:" in {item.label for item in got.items}


async def test_outline_formatting_and_quick_fix(client, tmp_path):
    uri = _open(client, SPECS / "tictactoe.game")
    await _diagnostics(client, uri)
    outline = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        text_document=t.TextDocumentIdentifier(uri=uri)))
    names = {s.name for s in outline} | {c.name for s in outline for c in s.children or []}
    assert {"actions", "terminal", "place", "X", "k"} <= names
    messy = tmp_path / "messy.game"
    original = (SPECS / "tictactoe.game").read_text()
    uri = _open(client, messy, original.replace("terminal ", "terminal    ", 1))
    await _diagnostics(client, uri)
    edits = await client.text_document_formatting_async(t.DocumentFormattingParams(
        text_document=t.TextDocumentIdentifier(uri=uri), options=t.FormattingOptions(tab_size=4, insert_spaces=True)))
    from framework.frontend.game_format import load_game_spec
    from framework.frontend.printer import to_game
    assert edits and edits[0].new_text == to_game(load_game_spec(original, "x.game"))
    broken = tmp_path / "broken.game"
    uri = _open(client, broken, original + "terminal\n")
    await _diagnostics(client, uri)
    assert await client.text_document_formatting_async(t.DocumentFormattingParams(
        text_document=t.TextDocumentIdentifier(uri=uri), options=t.FormattingOptions(tab_size=4, insert_spaces=True))) is None
    typo = tmp_path / "typo.yaml"
    uri = _open(client, typo, (SPECS / "tictactoe.yaml").read_text().replace("board[c] == empty", "bord[c] == empty"))
    [diagnostic] = await _diagnostics(client, uri)
    fixes = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
        context=t.CodeActionContext(diagnostics=[diagnostic])))
    assert [f.edit.changes[uri][0].new_text for f in fixes] == ["board"]


async def test_planning_and_pddl_files_get_diagnostics(client, tmp_path):
    from planners import PROBLEMS_DIR
    uri = _open(client, Path(PROBLEMS_DIR) / "gripper.yaml")
    assert list(await _diagnostics(client, uri)) == []
    bad = tmp_path / "bad.pddl"
    uri = _open(client, bad, "(define (domain d) (:action a :parameters (?x) :precondition (p ?x)")
    [diagnostic] = await _diagnostics(client, uri)
    assert "PDDL" in diagnostic.message or ")" in diagnostic.message


def _find(line: str, word: str, nth: int = 0) -> int:
    start = -1
    for _ in range(nth + 1):
        start = line.index(word, start + 1)
    return start

