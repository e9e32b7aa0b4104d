"""Answering `initialize` before pygls and lsprotocol are imported (they cost most of a
second of CPU, which an editor would wait for at every start).

`answer_initialize` reads the client's first message from stdin; if it is `initialize`,
it answers at once with the server's capabilities (the same as pygls computes for the
features `server.py` registers: a test compares them) and the position encoding chosen
as pygls chooses it, and returns the message's bytes.  The server then imports pygls,
replays those bytes to it (so that its workspace is set up with the same encoding) and
drops the second answer pygls writes to them (`serve`).
"""
from __future__ import annotations

import json

ENCODINGS = ("utf-8", "utf-16", "utf-32")


def capabilities(encoding: str) -> dict:
    return {"positionEncoding": encoding,
            "textDocumentSync": {"openClose": True, "change": 2, "save": True},
            "completionProvider": {"triggerCharacters": ["(", " "]},
            "hoverProvider": True, "definitionProvider": True, "referencesProvider": True,
            "documentSymbolProvider": True, "codeActionProvider": True, "documentFormattingProvider": True,
            "executeCommandProvider": {"commands": []},
            "workspace": {"workspaceFolders": {"supported": True, "changeNotifications": True},
                          "fileOperations": {}}}


def initialize_result(params: dict) -> dict:
    """The answer to `initialize` with these params."""
    from importlib.metadata import PackageNotFoundError, version
    general = (params.get("capabilities") or {}).get("general") or {}
    encoding = next((e for e in general.get("positionEncodings") or () if e in ENCODINGS), "utf-16")
    try:
        own = version("plyspec")
    except PackageNotFoundError:
        own = "dev"
    return {"capabilities": capabilities(encoding), "serverInfo": {"name": "plyspec", "version": own}}


def _read_message(stream) -> tuple[bytes, bytes] | None:
    """(the whole message as read, its body), or None at the end of the stream."""
    raw, length = b"", None
    while True:
        line = stream.readline()
        if not line:
            return None
        raw += line
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
        if not line.strip() and length is not None:
            body = stream.read(length)
            return raw + body, body


def answer_initialize(stdin, stdout) -> tuple[bytes, object]:
    """Reads the first message; answers it if it is `initialize`.  (its bytes, the id
    answered or None)."""
    read = _read_message(stdin)
    if read is None:
        return b"", None
    raw, body = read
    try:
        message = json.loads(body)
    except ValueError:
        return raw, None
    if not isinstance(message, dict) or message.get("method") != "initialize" or "id" not in message:
        return raw, None
    answer = json.dumps({"jsonrpc": "2.0", "id": message["id"],
                         "result": initialize_result(message.get("params") or {})}).encode()
    stdout.write(b"Content-Length: %d\r\n\r\n%s" % (len(answer), answer))
    stdout.flush()
    return raw, message["id"]


class Replayed:
    """stdin with `first` (the bytes already read) in front of it again."""

    def __init__(self, first: bytes, stream):
        self.first, self.stream = first, stream

    def readline(self) -> bytes:
        if self.first:
            line, found, self.first = self.first.partition(b"\n")
            return line + found
        return self.stream.readline()

    def read(self, n: int) -> bytes:
        if self.first:
            data, self.first = self.first[:n], self.first[n:]
            return data + (self.stream.read(n - len(data)) if len(data) < n else b"")
        return self.stream.read(n)


class DropAnswer:
    """A pygls writer that drops its answer to request `answered` (already given)."""

    def __init__(self, writer, answered):
        self.writer, self.answered = writer, answered

    def close(self):
        self.writer.close()

    def write(self, data: bytes) -> None:
        if self.answered is not None:
            body = json.loads(data.partition(b"\r\n\r\n")[2])
            if body.get("id") == self.answered and "method" not in body:
                self.answered = None
                return
        self.writer.write(data)


def serve(server, stdin, stdout, first: bytes, answered) -> None:
    """pygls' stdio loop for `server`, with `first` read again first, its answer dropped,
    and a message whose text is not UTF-8 (a binary file opened in the editor) read with
    its bad bytes kept as lone surrogates (the analysis reports them as one diagnostic)
    instead of being dropped with an error pop-up."""
    import asyncio
    import gc
    from threading import Event

    from pygls.io_ import StdinAsyncReader, StdoutWriter, run_async

    from framework.lsp.server import GC_THRESHOLDS

    class LenientReader(StdinAsyncReader):
        async def readexactly(self, n: int):
            body = await super().readexactly(n)
            try:
                body.decode("utf-8")
            except UnicodeDecodeError:
                return body.decode("utf-8", "surrogateescape")
            return body

    gc.set_threshold(*GC_THRESHOLDS)
    server._stop_event = Event()
    server.protocol.set_writer(DropAnswer(StdoutWriter(stdout), answered))
    try:
        asyncio.run(run_async(stop_event=server._stop_event, protocol=server.protocol,
                              reader=LenientReader(Replayed(first, stdin), server.thread_pool),
                              error_handler=server.report_server_error))
    except (BrokenPipeError, KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
