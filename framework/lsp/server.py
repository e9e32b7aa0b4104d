"""`plyspec lsp`: the language server (pygls, over stdio) for `.game`, game and planning
YAML, `.plan` and PDDL files.

Every feature is answered from `analysis.analyse`, which runs the same front-ends, checker
and compiler as `plyspec check`, so the editor shows exactly the errors the command line
prints.  The server only ever reads the documents the client opened (a request naming
any other URI gets no answer), plus the domain file beside a PDDL problem, as `check` does.

Responsiveness: analyses run on worker threads, never on the thread that reads requests,
one at a time per document (a document edited while it is analysed is analysed once more,
at its newest version; the versions in between are skipped) and side by side for
different documents, so a slow file never holds up a hover in another.  Changes are
analysed 50 ms after the last one (a burst of keystrokes costs one analysis); the
garbage collector runs less often than Python's default (`GC_THRESHOLDS`).  Positions
are converted between the code points the analysis counts and the encoding the client
negotiated (UTF-16 unless it asks for UTF-8 or UTF-32), in every message.  When a PDDL
file changes (an open buffer, or on disk as `workspace/didChangeWatchedFiles` reports),
the open problems in its folder are checked again, so a task follows its domain.
"""
from __future__ import annotations

import asyncio
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer

from framework.lsp import analysis

DEBOUNCE_S = 0.05            # + the analysis (at most ~100 ms on the shipped specs) < 200 ms
WORKERS = 4                  # documents analysed side by side
# Python's default (700, 10, 10) runs a full collection over the whole heap every ~70,000
# allocations: with a large document's AST alive, each one held the GIL for up to a second,
# stalling every request (a 945 KB PDDL task: hovers waited up to 1.1 s and its analysis
# took 9.5 s; with these, 133 ms and 5.4 s).  Cyclic garbage is still collected.
GC_THRESHOLDS = (100_000, 50, 1000)


class PlyspecServer(LanguageServer):
    def __init__(self):
        from importlib.metadata import PackageNotFoundError, version
        try:
            own = version("plyspec")
        except PackageNotFoundError:
            own = "dev"
        super().__init__("plyspec", own)
        self.analyses = {}           # uri -> (version, Analysis)
        self.indexed = {}            # uri -> the last Analysis whose text parsed (for completion)
        self.pending = {}            # uri -> asyncio handle of the debounced analysis
        self.locks = {}              # uri -> asyncio.Lock: one analysis of a document at a time
        self.workers = ThreadPoolExecutor(WORKERS, thread_name_prefix="plyspec-analysis")

    def document(self, uri: str):
        """The open document at `uri`, or None: nothing else is ever read."""
        return self.workspace.text_documents.get(uri)

    async def analysis_of(self, uri: str) -> analysis.Analysis | None:
        """The analysis of the open document's current text (computed on a worker thread if
        it is not known yet), or None if the document is not open."""
        lock = self.locks.setdefault(uri, asyncio.Lock())
        async with lock:
            doc = self.document(uri)
            if doc is None:
                return None
            known = self.analyses.get(uri)
            if known is not None and known[0] == doc.version:
                return known[1]
            version, text = doc.version, doc.source
            opened = {str(Path(_path(u)).resolve()): d.source for u, d in self.workspace.text_documents.items()
                      if u != uri and u.endswith(".pddl")} if uri.endswith(".pddl") else {}
            result = await asyncio.get_running_loop().run_in_executor(
                self.workers, analysis.analyse, _path(uri), text, opened)
            self.analyses[uri] = (version, result)
            if result.symbols:
                self.indexed[uri] = result
            return result

    async def publish(self, uri: str) -> None:
        result = await self.analysis_of(uri)
        if result is not None and self.document(uri) is not None:
            self.text_document_publish_diagnostics(t.PublishDiagnosticsParams(
                uri=uri, diagnostics=[self.diagnostic(result, d) for d in result.diagnostics]))

    def schedule(self, uri: str, delay: float = DEBOUNCE_S) -> None:
        handle = self.pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
        loop = asyncio.get_running_loop()
        self.pending[uri] = loop.call_later(delay, self._publish_later, uri)

    def _publish_later(self, uri):
        self.pending.pop(uri, None)
        asyncio.ensure_future(self.publish(uri))

    def refresh_problems_beside(self, path: str) -> None:
        """Checks again every open PDDL file in the folder of `path` (a domain changed)."""
        folder = Path(path).resolve().parent
        for uri in list(self.workspace.text_documents):
            if uri.endswith(".pddl") and _path(uri) != path and Path(_path(uri)).resolve().parent == folder:
                self.analyses.pop(uri, None)
                self.schedule(uri)

    # ------------------------------------------------ positions in the client's encoding
    def position(self, lines: list, line: int, col: int) -> t.Position:
        """(line, col), 1-based code points in `lines`, as an LSP position."""
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        units = self.workspace.position_codec.impl.column_from_utf32(text, max(0, col - 1))
        return t.Position(line=max(0, line - 1), character=units)

    def range(self, lines: list, line: int, col: int, end_col: int) -> t.Range:
        return t.Range(start=self.position(lines, line, col), end=self.position(lines, line, max(col, end_col)))

    def diagnostic(self, result: analysis.Analysis, d: analysis.Diagnostic) -> t.Diagnostic:
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        severity = t.DiagnosticSeverity.Error if d.severity == "error" else t.DiagnosticSeverity.Warning
        return t.Diagnostic(range=self.range(result.lines, d.line, d.col, d.end_col), message=message,
                            severity=severity, source="plyspec", data={"hint": d.hint})

    def location(self, uri: str, result: analysis.Analysis, symbol: analysis.Symbol) -> t.Location:
        lines = result.files.get(symbol.file, []) if symbol.file else result.lines
        return t.Location(uri=Path(symbol.file).resolve().as_uri() if symbol.file else uri,
                          range=self.range(lines, symbol.line, symbol.col, symbol.col + len(symbol.name)))

    def start_io(self, stdin=None, stdout=None, first: bytes = b"", answered=None):
        from framework.lsp.early import serve
        serve(self, stdin or sys.stdin.buffer, stdout or sys.stdout.buffer, first, answered)


server = PlyspecServer()


def _path(uri: str) -> str:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


# ------------------------------------------------------------------- document events
@server.feature(t.INITIALIZED)
async def initialized(ls: PlyspecServer, params: t.InitializedParams):
    """Asks to hear of PDDL files changed on disk, if the client can watch files."""
    workspace = ls.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace else None
    if watched and watched.dynamic_registration:
        try:
            await ls.client_register_capability_async(t.RegistrationParams(registrations=[t.Registration(
                id="plyspec-pddl", method=t.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=t.DidChangeWatchedFilesRegistrationOptions(
                    watchers=[t.FileSystemWatcher(glob_pattern="**/*.pddl")]))]))
        except Exception:        # a client that refuses: open domains are still followed
            pass


@server.feature(t.TEXT_DOCUMENT_DID_OPEN)
async def did_open(ls: PlyspecServer, params: t.DidOpenTextDocumentParams):
    uri = params.text_document.uri
    if uri.endswith(".pddl"):                  # its problems now read its open text
        ls.refresh_problems_beside(_path(uri))
    await ls.publish(uri)


@server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: PlyspecServer, params: t.DidChangeTextDocumentParams):
    uri = params.text_document.uri
    ls.schedule(uri)
    if uri.endswith(".pddl"):
        ls.refresh_problems_beside(_path(uri))


@server.feature(t.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: PlyspecServer, params: t.DidSaveTextDocumentParams):
    await ls.publish(params.text_document.uri)


@server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: PlyspecServer, params: t.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    for table in (ls.analyses, ls.indexed, ls.locks):
        table.pop(uri, None)
    ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
    if uri.endswith(".pddl"):                  # its problems go back to the file on disk
        ls.refresh_problems_beside(_path(uri))


@server.feature(t.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_watched_files(ls: PlyspecServer, params: t.DidChangeWatchedFilesParams):
    for change in params.changes:
        if change.uri.endswith(".pddl"):
            ls.refresh_problems_beside(_path(change.uri))


# ------------------------------------------------------------------------- queries
async def _under(ls, params):
    """(analysis, the occurrence or symbol under the position), or (None, None)."""
    result = await ls.analysis_of(params.text_document.uri)
    if result is None:
        return None, None
    line, col = _cursor(ls, params, result)
    return result, result.at(line + 1, col + 1)


def _cursor(ls, params, result):
    """(line, column) of the request's position in the document's text, 0-based."""
    line = params.position.line
    text = result.lines[line] if line < len(result.lines) else ""
    return line, ls.workspace.position_codec.position_from_client_units([text], t.Position(
        line=0, character=params.position.character)).character


def _scope_at(result, line: int):
    """The action whose text contains `line` (its parameters are visible there), or None."""
    starts = [(s.line, s.name) for s in result.symbols if s.kind == "action" and s.line <= line and s.file is None]
    if not starts:
        return None
    action_line, name = max(starts)
    return None if any(action_line < v <= line for v in result.sections.values()) else name


@server.feature(t.TEXT_DOCUMENT_HOVER)
async def hover(ls: PlyspecServer, params: t.HoverParams):
    from framework.lsp.vocabulary import KEYWORD_HELP, builtin_help
    result, thing = await _under(ls, params)
    if thing is None:
        return _keyword_hover(ls, params, result, KEYWORD_HELP)
    if isinstance(thing, analysis.Symbol):
        text, where = thing.detail, (thing.col, thing.col + len(thing.name))
    else:
        symbol = result.declaration(thing)
        text = symbol.detail if symbol else (builtin_help(thing.name, thing.call) if result.kind == analysis.GAME else None)
        if text is None:
            text = f"`{thing.name}`: " + _unknown(result.kind, thing.kind)
        where = (thing.col, thing.end_col)
    return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=text),
                   range=ls.range(result.lines, thing.line, *where))


def _keyword_hover(ls, params, result, helps: dict):
    """The hover of a game spec's keyword under the position (`legal_after`), or None."""
    if result is None or result.kind != analysis.GAME or params.position.line >= len(result.lines):
        return None
    line, col = _cursor(ls, params, result)
    for word in re.finditer(r"\w+", result.lines[line]):
        if word.start() <= col < word.end() and word.group() in helps:
            return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=helps[word.group()]),
                           range=ls.range(result.lines, line + 1, word.start() + 1, word.end() + 1))
    return None


def _unknown(kind: str, what: str | None) -> str:
    """Hover text for a name with no declaration in the index."""
    if kind == analysis.GAME:
        return "a variable bound by a quantifier or a chance/for clause"
    return "a variable bound by a quantifier" if what == "variable" else "declared nowhere"


@server.feature(t.TEXT_DOCUMENT_DEFINITION)
async def definition(ls: PlyspecServer, params: t.DefinitionParams):
    result, thing = await _under(ls, params)
    symbol = result.declaration(thing) if result else None
    return None if symbol is None else ls.location(params.text_document.uri, result, symbol)


@server.feature(t.TEXT_DOCUMENT_REFERENCES)
async def references(ls: PlyspecServer, params: t.ReferenceParams):
    result, thing = await _under(ls, params)
    symbol = result.declaration(thing) if result else None
    if symbol is None:
        return []
    uri = params.text_document.uri
    found = [t.Location(uri=uri, range=ls.range(result.lines, o.line, o.col, o.end_col)) for o in result.occurrences
             if o.name == symbol.name and result.declaration(o) == symbol
             and (symbol.file or (o.line, o.col) != (symbol.line, symbol.col))]
    if params.context.include_declaration:
        found.insert(0, ls.location(uri, result, symbol))
    return found


@server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=["(", " "]))
async def completion(ls: PlyspecServer, params: t.CompletionParams):
    uri = params.text_document.uri
    result = await ls.analysis_of(uri)
    if result is None:
        return None
    line = params.position.line + 1
    text = result.lines[line - 1] if line <= len(result.lines) else ""
    col = ls.workspace.position_codec.position_from_client_units([text], t.Position(
        line=0, character=params.position.character)).character
    at_start = not text[:col].strip()
    if not result.symbols:              # mid-edit the text may not parse: offer the last names known
        result = ls.indexed.get(uri, result)
    scope = _scope_at(result, line)
    if result.kind == analysis.GAME:
        from framework.lsp.vocabulary import completions_for
        items = completions_for(result, scope, at_start, uri.endswith(".game"))
    else:
        from framework.lsp.planning import planning_completions
        items = planning_completions(result, scope, at_start, _path(uri))
    return t.CompletionList(is_incomplete=False, items=[
        t.CompletionItem(label=label, kind=getattr(t.CompletionItemKind, kind), detail=detail)
        for label, kind, detail in items])


_SYMBOL_KIND = {"action": t.SymbolKind.Function, "define": t.SymbolKind.Function,
                "option": t.SymbolKind.Constant, "variable": t.SymbolKind.Variable,
                "board": t.SymbolKind.Struct, "player": t.SymbolKind.EnumMember,
                "predicate": t.SymbolKind.Function, "function": t.SymbolKind.Function,
                "object": t.SymbolKind.EnumMember, "type": t.SymbolKind.Class}


@server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def document_symbols(ls: PlyspecServer, params: t.DocumentSymbolParams):
    """One entry per section, from its keyword to the end of its last line of text (blank
    lines and comments before the next section left out), with the names it declares."""
    result = await ls.analysis_of(params.text_document.uri)
    if result is None:
        return None
    lines = result.lines
    starts = sorted((line, name) for name, line in result.sections.items())
    out = []
    for i, (line, name) in enumerate(starts):
        end = (starts[i + 1][0] - 1) if i + 1 < len(starts) else len(lines)
        while end > line and not lines[end - 1].split("#")[0].split(";")[0].strip():
            end -= 1
        children = [s for s in result.symbols if line <= s.line <= end and s.kind in _SYMBOL_KIND
                    and s.file is None and s.scope is None]
        start_col = len(lines[line - 1]) - len(lines[line - 1].lstrip()) + 1 if line <= len(lines) else 1
        whole = t.Range(start=ls.position(lines, line, start_col),
                        end=ls.position(lines, end, len(lines[end - 1]) + 1 if end <= len(lines) else 1))
        keyword = ls.range(lines, line, start_col, start_col + len(lines[line - 1].strip().split()[0])
                           if line <= len(lines) and lines[line - 1].strip() else start_col)
        out.append(t.DocumentSymbol(
            name=name, kind=t.SymbolKind.Namespace, range=whole, selection_range=keyword,
            children=[t.DocumentSymbol(name=s.name, kind=_SYMBOL_KIND[s.kind], detail=s.detail,
                                       range=ls.range(lines, s.line, s.col, s.col + len(s.name)),
                                       selection_range=ls.range(lines, s.line, s.col, s.col + len(s.name)))
                      for s in children]))
    return out


@server.feature(t.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: PlyspecServer, params: t.DocumentFormattingParams):
    """`.game` and `.plan` files through `formatting.format_text`, which keeps every comment
    and checks that the text still means the same; when it cannot, the user is told why
    and nothing changes.  Only the lines that change are replaced.  Other files get no
    edit and no message (format-on-save in a YAML file must not warn at every save)."""
    from framework.lsp.formatting import FORMATTED, FormatRefused, changed_lines, format_text
    uri = params.text_document.uri
    doc = ls.document(uri)
    if doc is None or Path(_path(uri)).suffix.lower() not in FORMATTED:
        return None                  # YAML and PDDL: left to other formatters, without a word
    text = doc.source
    refused = analysis.refusal(text)
    try:
        if refused:
            raise FormatRefused(refused.message)
        new = format_text(_path(uri), text)
    except FormatRefused as why:
        ls.window_show_message(t.ShowMessageParams(type=t.MessageType.Warning,
                                                   message=f"plyspec: not formatted: {why}"))
        return None
    changed = changed_lines(text, new)
    if changed is None:
        return []
    first, last, replacement, unended = changed
    end = t.Position(line=last, character=0) if unended is None else \
        t.Position(line=last, character=ls.position([unended], 1, len(unended) + 1).character)
    return [t.TextEdit(range=t.Range(start=t.Position(line=first, character=0), end=end), new_text=replacement)]


_SUGGESTION = re.compile(r"did you mean `([^`]+)`\?|write `([^`]+)`")


@server.feature(t.TEXT_DOCUMENT_CODE_ACTION)
def code_actions(ls: PlyspecServer, params: t.CodeActionParams):
    """A quick fix for each diagnostic whose hint proposes a replacement."""
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return None
    fixes, lines = [], doc.lines
    for diagnostic in params.context.diagnostics:
        hint = (diagnostic.data or {}).get("hint") if isinstance(diagnostic.data, dict) else None
        match = _SUGGESTION.search(hint or "")
        end = ls.workspace.position_codec.position_from_client_units(lines, diagnostic.range.end)
        if not match or (end.line < len(lines) and lines[end.line][end.character:end.character + 1] == "{"):
            continue                # no fix proposed, or a generated planning name (`Bal{i}`)
        replacement = match.group(1) or match.group(2)
        edit = t.WorkspaceEdit(changes={params.text_document.uri: [t.TextEdit(range=diagnostic.range,
                                                                             new_text=replacement)]})
        fixes.append(t.CodeAction(title=f"replace with `{replacement}`", kind=t.CodeActionKind.QuickFix,
                                  diagnostics=[diagnostic], edit=edit, is_preferred=True))
    return fixes


def main(first: bytes = b"", answered=None) -> int:
    server.start_io(first=first, answered=answered)
    return 0
