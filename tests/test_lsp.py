"""The language server driven as an editor drives it: a real `plyspec lsp` process and a
pytest-lsp client (open, change, hover, definition, references, completion, outline,
formatting, quick fixes), on shipped specs and broken ones.  Diagnostics must be what
`plyspec check` prints for the same text."""
import pytest
from lsprotocol import types as t

from conftest import SPECS
from framework.cli import main
from lsp_support import apply_edits, as_printed, check_output, client, diagnostics, open_doc, printed_errors  # noqa: F401

pytestmark = pytest.mark.asyncio(loop_scope="function")

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
    uri = open_doc(client, path, broken)
    [diagnostic] = await diagnostics(client, uri)
    assert [as_printed(diagnostic)] == printed_errors(check_output(tmp_path, spec, broken, capsys))


async def test_shipped_specs_have_no_diagnostics_and_change_is_seen(client):
    for spec in sorted(SPECS.glob("*.yaml")) + sorted(SPECS.glob("*.game")):
        uri = open_doc(client, spec)
        assert list(await diagnostics(client, uri)) == [], spec.name
    uri = (SPECS / "nim.yaml").resolve().as_uri()
    text = (SPECS / "nim.yaml").read_text()
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[t.TextDocumentContentChangeWholeDocument(text=text.replace("terminal:", "terminl:", 1))]))
    await client.wait_for_notification(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert client.diagnostics[uri] and "terminl" in client.diagnostics[uri][0].message


async def test_hover_definition_references(client):
    path = SPECS / "tictactoe.yaml"
    uri = open_doc(client, path)
    await diagnostics(client, uri)
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


async def test_hover_on_legal_after_explains_it(client):
    path = SPECS / "chess.yaml"
    uri = open_doc(client, path)
    await diagnostics(client, uri)
    lines = path.read_text().splitlines()
    row = next(i for i, x in enumerate(lines) if x.strip().startswith("legal_after:"))
    hover = await client.text_document_hover_async(t.HoverParams(text_document=t.TextDocumentIdentifier(
        uri=uri), position=t.Position(line=row, character=lines[row].index("legal_after") + 3)))
    assert "position it leaves" in hover.contents.value and hover.range.start.line == row


@pytest.mark.parametrize("word, says", [("repetition", "occurs for the C-th time"), ("over", "make a position"),
                                         ("max_moves", "N-th move")])
async def test_hover_on_the_history_rules_explains_them(client, word, says):
    path = SPECS / "go5.yaml"
    uri = open_doc(client, path)
    await diagnostics(client, uri)
    lines = path.read_text().splitlines()
    row = next(i for i, x in enumerate(lines) if x.startswith(("repetition:", "max_moves:")) and f"{word}" in x)
    hover = await client.text_document_hover_async(t.HoverParams(text_document=t.TextDocumentIdentifier(
        uri=uri), position=t.Position(line=row, character=lines[row].index(word) + 1)))
    assert says in hover.contents.value and hover.range.start.line == row


async def test_completion_offers_sections_builtins_and_names_in_scope(client):
    path = SPECS / "tictactoe.yaml"
    uri = open_doc(client, path)
    await diagnostics(client, uri)
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
    uri = open_doc(client, SPECS / "tictactoe.game")
    await diagnostics(client, uri)
    outline = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        text_document=t.TextDocumentIdentifier(uri=uri)))
    names = {s.name for s in outline} | {c.name for s in outline for c in s.children or []}
    assert {"actions", "terminal", "place", "X", "k"} <= names
    messy = tmp_path / "messy.game"
    original = (SPECS / "tictactoe.game").read_text()
    uri = open_doc(client, messy, original.replace("terminal ", "terminal    ", 1))
    await diagnostics(client, uri)
    edits = await client.text_document_formatting_async(t.DocumentFormattingParams(
        text_document=t.TextDocumentIdentifier(uri=uri), options=t.FormattingOptions(tab_size=4, insert_spaces=True)))
    assert apply_edits(original.replace("terminal ", "terminal    ", 1), edits) == original
    broken = tmp_path / "broken.game"
    uri = open_doc(client, broken, original + "terminal\n")
    await diagnostics(client, uri)
    assert await client.text_document_formatting_async(t.DocumentFormattingParams(
        text_document=t.TextDocumentIdentifier(uri=uri), options=t.FormattingOptions(tab_size=4, insert_spaces=True))) is None
    typo = tmp_path / "typo.yaml"
    uri = open_doc(client, typo, (SPECS / "tictactoe.yaml").read_text().replace("board[c] == empty", "bord[c] == empty"))
    [diagnostic] = await diagnostics(client, uri)
    fixes = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
        context=t.CodeActionContext(diagnostics=[diagnostic])))
    assert [f.edit.changes[uri][0].new_text for f in fixes] == ["board"]


@pytest.mark.parametrize("spec, old, new", [("tictactoe.yaml", "if: board[c] == empty", "if: board[c] = empty"),
                                           ("tictactoe.game", "if board[c] == empty", "if board[c] = empty")])
async def test_quick_fix_turns_a_single_equals_into_a_comparison(client, tmp_path, spec, old, new):
    original = (SPECS / spec).read_text()
    uri = open_doc(client, tmp_path / spec, original.replace(old, new, 1))
    [diagnostic] = await diagnostics(client, uri)
    [fix] = await client.text_document_code_action_async(t.CodeActionParams(
        text_document=t.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
        context=t.CodeActionContext(diagnostics=[diagnostic])))
    [edit] = fix.edit.changes[uri]
    lines = original.replace(old, new, 1).split("\n")
    row, start, end = edit.range.start.line, edit.range.start.character, edit.range.end.character
    lines[row] = lines[row][:start] + edit.new_text + lines[row][end:]
    assert "\n".join(lines) == original


async def test_warnings_are_what_plyspec_check_prints(client, tmp_path, capsys):
    """An unused option and rotations on an oblong board (`m: 4` on the 3-row board)."""
    text = (SPECS / "tictactoe.yaml").read_text()
    assert "options: {m: 3, n: 3, k: 3}" in text and "symmetries: all" in text
    text = text.replace("options: {m: 3, n: 3, k: 3}", "options: {m: 4, n: 3, k: 3, spare: 1}")
    uri = open_doc(client, tmp_path / "oblong.yaml", text)
    published = await diagnostics(client, uri)
    assert {d.severity for d in published} == {t.DiagnosticSeverity.Warning}
    (tmp_path / "oblong.yaml").write_text(text)
    assert main(["check", str(tmp_path / "oblong.yaml")]) == 0
    printed = printed_errors(capsys.readouterr().err, "warning")
    assert sorted(as_printed(d) for d in published) == sorted(printed)
    assert any("never used" in p[2] for p in printed) and any("4x3 board is not square" in p[2] for p in printed)


def _find(line: str, word: str, nth: int = 0) -> int:
    start = -1
    for _ in range(nth + 1):
        start = line.index(word, start + 1)
    return start

