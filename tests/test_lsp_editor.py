"""The language server as real editors meet it (issue 26): positions in the negotiated
encoding with non-ASCII text, PDDL problems following their domain (open buffer or file
on disk), a hover answered while a large file is still being analysed, check's size
limit, invalid UTF-8, formatting that keeps comments (or refuses and says why), hovers
for the builtin names, outline ranges, and no answer at all for a document the client
never opened (not even for a FIFO at that path)."""
import asyncio
import json
import os
import queue
import shutil
import subprocess
import sys
import threading

import pytest
import pytest_lsp
import yaml
from lsprotocol import types as t
from pytest_lsp import LanguageClient

from benchmarks.bench_lsp import gripper_task
from conftest import ROOT, SPECS
from framework import builtins
from lsp_support import (CONFIG, apply_edits, at, check_output, client, diagnostics,  # noqa: F401
                         open_doc, printed_errors, start)

pytestmark = pytest.mark.asyncio(loop_scope="function")
GRIPPER = ROOT / "planners/data/pddl/gripper"


@pytest_lsp.fixture(config=CONFIG, params=["utf-16", "utf-8", "utf-32"])
async def encoded(lsp_client: LanguageClient, request):
    result = await start(lsp_client, t.PositionEncodingKind(request.param))
    lsp_client.encoding = result.capabilities.position_encoding
    yield
    await lsp_client.shutdown_session()


def units(text: str, encoding: str) -> int:
    return len(text.encode({"utf-8": "utf-8", "utf-16": "utf-16-le", "utf-32": "utf-32-le"}[encoding])) \
        // {"utf-8": 1, "utf-16": 2, "utf-32": 4}[encoding]


async def published(client, uri, accept):
    """The diagnostics of `uri` once a publication satisfies `accept` (polled: the
    publication may arrive before this starts waiting; 120 s at most, a generous bound)."""
    for _ in range(2400):
        if uri in client.diagnostics and accept(client.diagnostics[uri]):
            return client.diagnostics[uri]
        await asyncio.sleep(0.05)
    raise AssertionError(f"no such diagnostics for {uri}: {client.diagnostics.get(uri)}")


# ------------------------------------------------------------------ position encoding
@pytest.mark.parametrize("symbol", ["😀", "·"])
async def test_columns_count_in_the_negotiated_encoding(encoded, tmp_path, capsys, symbol):
    client = encoded
    text = (SPECS / "tictactoe.game").read_text().replace('display empty ".", X "X", O "O"',
                                                          f'display empty "{symbol}", X "X", Q "O"')
    [(row, col, message, hint)] = printed_errors(check_output(tmp_path, "t.game", text, capsys))
    line = text.split("\n")[row - 1]
    uri = open_doc(client, tmp_path / "t.game", text)
    [diagnostic] = await diagnostics(client, uri)
    assert diagnostic.range.start == t.Position(line=row - 1, character=units(line[:col - 1], client.encoding))
    assert diagnostic.message.startswith(message) and line[col - 1] == "Q"
    # a hover after the symbol: the position is read in the same units, the range given in them
    x = line.index('X "X"')
    hover = await client.text_document_hover_async(t.HoverParams(**at(uri, row - 1, units(line[:x], client.encoding))))
    assert "`X`" in hover.contents.value
    assert hover.range.start.character == units(line[:x], client.encoding)
    assert hover.range.end.character == units(line[:x + 1], client.encoding)


# ------------------------------------------------------------------ cross-file refresh
async def test_a_problem_follows_its_domain_open_or_on_disk(client, tmp_path):
    shutil.copy(GRIPPER / "domain.pddl", tmp_path / "domain.pddl")
    task = (GRIPPER / "task01.pddl").read_text().replace("(at ball1 roomb))", "(at ball1 roomb) (clean rooma))")
    (tmp_path / "task01.pddl").write_text(task)
    task_uri = open_doc(client, tmp_path / "task01.pddl")
    [error] = await diagnostics(client, task_uri)
    assert "clean" in error.message
    domain = (GRIPPER / "domain.pddl").read_text().replace("(:predicates (room ?r)", "(:predicates (room ?r) (clean ?r)")
    domain_uri = open_doc(client, tmp_path / "domain.pddl", domain)       # edited, not saved
    assert not await published(client, task_uri, lambda d: not d)
    client.text_document_did_close(t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=domain_uri)))
    assert "clean" in (await published(client, task_uri, lambda d: len(d) == 1))[0].message   # the disk's again
    assert [r.register_options["watchers"][0]["globPattern"] for r in client.registered] == ["**/*.pddl"]
    (tmp_path / "domain.pddl").write_text(domain)                         # saved by another program
    client.workspace_did_change_watched_files(t.DidChangeWatchedFilesParams(changes=[
        t.FileEvent(uri=(tmp_path / "domain.pddl").as_uri(), type=t.FileChangeType.Changed)]))
    assert not await published(client, task_uri, lambda d: not d)


# ------------------------------------------------------------------ responsiveness
async def test_a_hover_is_answered_while_a_large_file_is_analysed(client, tmp_path):
    """The large task's analysis (seconds) is still running when the hover in a small spec
    comes back: analyses run beside the requests, not in front of them."""
    shutil.copy(GRIPPER / "domain.pddl", tmp_path / "domain.pddl")
    # 880 KB, just under check's limit: its analysis takes seconds on any machine, the small
    # spec's hover a small fraction of that, whatever the load (both share the same cores)
    big = open_doc(client, tmp_path / "task01.pddl", gripper_task(12000))
    text = (SPECS / "tictactoe.game").read_text()
    small = open_doc(client, tmp_path / "tictactoe.game", text)
    row = text.split("\n").index("    then board[c] = mover")
    hover = await client.text_document_hover_async(t.HoverParams(**at(small, row, 21)))   # `mover`
    assert "player to move" in hover.contents.value
    assert big not in client.diagnostics           # the large file is not done yet
    assert list(await diagnostics(client, big)) == []


async def test_documents_over_checks_size_limit_get_its_error_at_once(client, tmp_path, capsys):
    text = "game: big\nplayers: [X, O]\n" + "#" * 1_000_000 + "\n"
    printed = check_output(tmp_path, "big.yaml", text, capsys)
    message, hint = printed.split(": error: ")[1].strip().split("\nhint: ")
    uri = open_doc(client, tmp_path / "big.yaml", text)
    [diagnostic] = await diagnostics(client, uri)
    assert diagnostic.message == f"{message}\nhint: {hint}" and "larger than 1,000,000 bytes" in message
    assert (diagnostic.range.start.line, diagnostic.range.start.character) == (0, 0)


async def test_a_big_yaml_without_aliases_is_not_blamed_on_aliases(monkeypatch):
    from framework.errors import SpecError
    from framework.frontend import yaml_reader
    monkeypatch.setattr(yaml_reader, "MAX_YAML_NODES", 1000)        # the same test, 100 times smaller
    players = ", ".join(f"P{i}" for i in range(1001))
    with pytest.raises(SpecError) as plain:
        yaml_reader.compose(f"game: big\nplayers: [{players}]\n", "big.yaml")
    assert "holds more than 1,000 values" in plain.value.message and "alias" not in plain.value.message
    laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{n}: &{n} [{', '.join([f'*{p}'] * 10)}]\n" for p, n in zip("ab", "bc"))
    with pytest.raises(SpecError) as aliased:
        yaml_reader.compose(laughs, "laughs.yaml")
    assert "more than 1,000 values once its aliases (`*name`) are expanded" in aliased.value.message


# ------------------------------------------------------------------ invalid UTF-8
async def test_invalid_utf8_gets_one_diagnostic_and_no_popup(tmp_path):
    """A binary file opened in an editor: the client sends bytes that are not UTF-8."""
    server = subprocess.Popen([sys.executable, "-m", "framework", "lsp"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    messages = queue.Queue()

    def read():
        while True:
            headers = {}
            while (header := server.stdout.readline()).strip():
                name, _, value = header.decode().partition(":")
                headers[name.lower()] = value.strip()
            if not headers:
                return
            messages.put(json.loads(server.stdout.read(int(headers["content-length"]))))
    threading.Thread(target=read, daemon=True).start()

    def send(body: bytes):
        server.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        server.stdin.flush()

    uri = (tmp_path / "binary.yaml").as_uri()
    send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                     "params": {"capabilities": {}, "processId": None, "rootUri": None}}).encode())
    send(json.dumps({"jsonrpc": "2.0", "method": "initialized", "params": {}}).encode())
    opened = json.dumps({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": "game: x\nplayers: [PLACEHOLDER]\n"}}}).encode()
    send(opened.replace(b"PLACEHOLDER", b"\xff\xfe X \xc3"))
    seen = []
    try:
        while True:
            message = messages.get(timeout=120)
            seen.append(message)
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                break
        send(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}).encode())
        send(json.dumps({"jsonrpc": "2.0", "method": "exit"}).encode())
        server.wait(timeout=120)
    finally:
        server.kill()
    [diagnostic] = seen[-1]["params"]["diagnostics"]
    assert diagnostic["message"] == "spec is not UTF-8 text (an invalid byte at line 2, column 11)\nhint: save the file as UTF-8"
    assert diagnostic["range"]["start"] == {"line": 0, "character": 0}
    assert not [m for m in seen if m.get("method") == "window/showMessage"]


# ------------------------------------------------------------------ formatting
async def test_formatting_keeps_every_comment_and_refuses_what_it_cannot_keep(client, tmp_path):
    original = (SPECS / "tictactoe.game").read_text()
    messy = original.replace("players X, O", "players X ,O   # who plays\n\n\n").replace(
        "    then board[c] = mover", "    # the mover takes the cell\n    then   board[c] = mover  ")
    uri = open_doc(client, tmp_path / "messy.game", messy)
    await diagnostics(client, uri)
    options = t.FormattingOptions(tab_size=4, insert_spaces=True)
    edits = await client.text_document_formatting_async(t.DocumentFormattingParams(
        text_document=t.TextDocumentIdentifier(uri=uri), options=options))
    formatted = apply_edits(messy, edits)
    assert formatted == original.replace("players X, O", "players X, O   # who plays\n").replace(
        "    then board[c] = mover", "    # the mover takes the cell\n    then board[c] = mover")
    assert formatted.count("#") == messy.count("#")
    for name, text, why in [("t.yaml", (SPECS / "tictactoe.yaml").read_text(), None),    # not offered: silent
                            ("broken.game", original + "terminal\n", "does not parse")]:
        uri = open_doc(client, tmp_path / name, text)
        await diagnostics(client, uri)
        before = len(client.messages)
        assert await client.text_document_formatting_async(t.DocumentFormattingParams(
            text_document=t.TextDocumentIdentifier(uri=uri), options=options)) is None
        assert [m.message for m in client.messages[before:]] == ([] if why is None else [
            f"plyspec: not formatted: the text does not parse (13:9: the spec ends too early); fix it first, "
            "nothing was changed"])


# ------------------------------------------------------------------ hovers and outline
async def test_every_builtin_name_hovers_with_its_registry_doc(client, tmp_path):
    text = (SPECS / "tictactoe.yaml").read_text()
    probes = [(name, False) for name in builtins.CONSTANTS] + [(name, True) for name in builtins.names()]
    text = text.replace("actions:", "define:\n" + "".join(f"  probe{i}: {name}{'(board)' if call else ''}\n"
                                                         for i, (name, call) in enumerate(probes)) + "actions:")
    uri = open_doc(client, tmp_path / "probe.yaml", text)
    await diagnostics(client, uri)
    lines = text.split("\n")
    for i, (name, call) in enumerate(probes):
        row = next(r for r, line in enumerate(lines) if line.startswith(f"  probe{i}:"))
        hover = await client.text_document_hover_async(t.HoverParams(**at(uri, row, lines[row].index(": ") + 2)))
        doc = builtins.get(name).doc if call else builtins.CONSTANTS[name]
        assert hover is not None and doc in hover.contents.value, name


async def test_outline_sections_cover_their_text_and_name_no_internal_key(client):
    path = SPECS / "tictactoe.yaml"
    lines = path.read_text().split("\n")
    uri = open_doc(client, path)
    await diagnostics(client, uri)
    outline = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        text_document=t.TextDocumentIdentifier(uri=uri)))
    sections = {"options": "options"}
    assert [s.name for s in outline] == [sections.get(k, k) for k in yaml.safe_load(path.read_text())]
    for section, after in zip(outline, [*outline[1:], None]):
        start, end = section.range.start, section.range.end
        assert start.character == 0 and lines[start.line].startswith(section.name + ":")
        assert end.character == len(lines[end.line]) and lines[end.line].strip()
        assert after is None or end.line < after.range.start.line
        for child in section.children or []:
            assert (start.line, start.character) <= (child.range.start.line, child.range.start.character)
            assert (child.range.end.line, child.range.end.character) <= (end.line, end.character)
    players = next(s for s in outline if s.name == "players")
    assert [c.name for c in players.children] == ["X", "O"]


# ------------------------------------------------------------------ unopened documents
async def test_a_document_the_client_never_opened_is_never_read(client, tmp_path):
    """Requests naming a FIFO's URI: reading it would block the server for ever."""
    fifo = tmp_path / "never_opened.game"
    os.mkfifo(fifo)
    uri = fifo.as_uri()
    doc = t.TextDocumentIdentifier(uri=uri)
    assert await client.text_document_formatting_async(t.DocumentFormattingParams(
        text_document=doc, options=t.FormattingOptions(tab_size=4, insert_spaces=True))) is None
    assert await client.text_document_hover_async(t.HoverParams(**at(uri, 0, 0))) is None
    assert await client.text_document_definition_async(t.DefinitionParams(**at(uri, 0, 0))) is None
    assert await client.text_document_document_symbol_async(t.DocumentSymbolParams(text_document=doc)) is None
    assert await client.text_document_completion_async(t.CompletionParams(**at(uri, 0, 0))) is None
    small = open_doc(client, SPECS / "tictactoe.game")                   # and the server goes on
    assert list(await diagnostics(client, small)) == []


# ------------------------------------------------------------------ start-up
@pytest.mark.parametrize("offered", [None, ["utf-8"], ["utf-32", "utf-16"], ["utf-7"]])
async def test_the_early_initialize_answer_is_what_pygls_would_answer(offered):
    """`initialize` is answered before pygls is imported (framework.lsp.early); the answer
    must be the one pygls computes for the same client (false flags aside)."""
    from framework.lsp import early
    from framework.lsp.server import server
    capabilities = pytest_lsp.client_capabilities("visual-studio-code")
    capabilities.general.position_encodings = offered
    converter = server.protocol._converter
    raw = {"capabilities": converter.unstructure(capabilities), "processId": None, "rootUri": None}
    steps = server.protocol.lsp_initialize(converter.structure(raw, t.InitializeParams))
    with pytest.raises(StopIteration) as done:
        next(steps)

    def without_false(value):
        if isinstance(value, dict):
            return {k: without_false(v) for k, v in value.items() if v is not False}
        return value
    assert without_false(converter.unstructure(done.value.value)) == early.initialize_result(raw)
