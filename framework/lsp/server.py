"""`plyspec lsp`: the language server (pygls, over stdio) for `.game`, game and planning
YAML, `.plan` and PDDL files.

Every feature is answered from `analysis.analyse`, which runs the same front-ends, checker
and compiler as `plyspec check`, so the editor shows exactly the errors the command line
prints.  Documents are re-analysed 50 ms after the last change (a burst of keystrokes
costs one analysis); the analysis is kept per document version for hover, definition,
references, completion and the outline.
"""
from __future__ import annotations

import asyncio
import re
from urllib.parse import unquote, urlparse

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer

from framework.lsp import analysis
from framework.lsp.vocabulary import builtin_help, completions_for

DEBOUNCE_S = 0.05            # + the analysis (at most ~100 ms on the shipped specs) < 200 ms


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

    def analysis_of(self, uri: str) -> analysis.Analysis:
        doc = self.workspace.get_text_document(uri)
        known = self.analyses.get(uri)
        if known is None or known[0] != doc.version:
            known = (doc.version, analysis.analyse(_path(uri), doc.source))
            self.analyses[uri] = known
            if known[1].symbols:
                self.indexed[uri] = known[1]
        return known[1]

    def publish(self, uri: str) -> None:
        result = self.analysis_of(uri)
        self.text_document_publish_diagnostics(t.PublishDiagnosticsParams(
            uri=uri, diagnostics=[_diagnostic(d) for d in result.diagnostics]))

    def schedule(self, uri: str) -> None:
        handle = self.pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
        loop = asyncio.get_event_loop()
        self.pending[uri] = loop.call_later(DEBOUNCE_S, self._publish_later, uri)

    def _publish_later(self, uri):
        self.pending.pop(uri, None)
        if uri in self.workspace.text_documents:
            self.publish(uri)


server = PlyspecServer()


def _path(uri: str) -> str:
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


def _range(line, col, end_col) -> t.Range:
    return t.Range(start=t.Position(line=line - 1, character=col - 1),
                   end=t.Position(line=line - 1, character=max(col, end_col) - 1))


def _diagnostic(d: analysis.Diagnostic) -> t.Diagnostic:
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    severity = t.DiagnosticSeverity.Error if d.severity == "error" else t.DiagnosticSeverity.Warning
    return t.Diagnostic(range=_range(d.line, d.col, d.end_col), message=message, severity=severity,
                        source="plyspec", data={"hint": d.hint})


# ------------------------------------------------------------------- document events
@server.feature(t.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: PlyspecServer, params: t.DidOpenTextDocumentParams):
    ls.publish(params.text_document.uri)


@server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: PlyspecServer, params: t.DidChangeTextDocumentParams):
    ls.schedule(params.text_document.uri)


@server.feature(t.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: PlyspecServer, params: t.DidSaveTextDocumentParams):
    ls.publish(params.text_document.uri)


@server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: PlyspecServer, params: t.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    ls.analyses.pop(uri, None)
    ls.indexed.pop(uri, None)
    ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


# ------------------------------------------------------------------------- queries
def _under(ls, params):
    result = ls.analysis_of(params.text_document.uri)
    pos = params.position
    return result, result.at(pos.line + 1, pos.character + 1)


def _scope_at(result, line: int):
    """The action whose text contains `line` (its parameters are visible there), or None."""
    starts = [(s.line, s.name) for s in result.symbols if s.kind == "action" and s.line <= line and s.file is None]
    if not starts:
        return None
    action_line, name = max(starts)
    return None if any(action_line < v <= line for v in result.sections.values()) else name


@server.feature(t.TEXT_DOCUMENT_HOVER)
def hover(ls: PlyspecServer, params: t.HoverParams):
    result, thing = _under(ls, params)
    if thing is None:
        return None
    if isinstance(thing, analysis.Symbol):
        text = thing.detail
    else:
        symbol = result.declaration(thing)
        text = symbol.detail if symbol else (builtin_help(thing.name) if result.kind == analysis.GAME else None)
        if text is None:
            text = f"`{thing.name}`: " + _unknown(result.kind, thing.kind)
    return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=text))


def _unknown(kind: str, what: str | None) -> str:
    """Hover text for a name with no declaration in the index."""
    if kind == analysis.GAME:
        return "a variable bound by a quantifier or a chance/for clause"
    return "a variable bound by a quantifier" if what == "variable" else "declared nowhere"


def _location(uri: str, symbol: analysis.Symbol) -> t.Location:
    from pathlib import Path
    return t.Location(uri=Path(symbol.file).resolve().as_uri() if symbol.file else uri,
                      range=_range(symbol.line, symbol.col, symbol.col + len(symbol.name)))


@server.feature(t.TEXT_DOCUMENT_DEFINITION)
def definition(ls: PlyspecServer, params: t.DefinitionParams):
    result, thing = _under(ls, params)
    symbol = result.declaration(thing)
    return None if symbol is None else _location(params.text_document.uri, symbol)


@server.feature(t.TEXT_DOCUMENT_REFERENCES)
def references(ls: PlyspecServer, params: t.ReferenceParams):
    result, thing = _under(ls, params)
    symbol = result.declaration(thing)
    if symbol is None:
        return []
    uri = params.text_document.uri
    found = [t.Location(uri=uri, range=_range(o.line, o.col, o.end_col)) for o in result.occurrences
             if o.name == symbol.name and result.declaration(o) == symbol
             and (symbol.file or (o.line, o.col) != (symbol.line, symbol.col))]
    if params.context.include_declaration:
        found.insert(0, _location(uri, symbol))
    return found


@server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=["(", " "]))
def completion(ls: PlyspecServer, params: t.CompletionParams):
    result = ls.analysis_of(params.text_document.uri)
    line = params.position.line + 1
    doc = ls.workspace.get_text_document(params.text_document.uri)
    text = doc.lines[params.position.line] if params.position.line < len(doc.lines) else ""
    at_start = not text[:params.position.character].strip()
    uri = params.text_document.uri
    if not result.symbols:              # mid-edit the text may not parse: offer the last names known
        result = ls.indexed.get(uri, result)
    scope = _scope_at(result, line)
    if result.kind == analysis.GAME:
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
def document_symbols(ls: PlyspecServer, params: t.DocumentSymbolParams):
    result = ls.analysis_of(params.text_document.uri)
    doc = ls.workspace.get_text_document(params.text_document.uri)
    starts = sorted(result.sections.items(), key=lambda kv: kv[1])
    out = []
    for i, (name, line) in enumerate(starts):
        end = (starts[i + 1][1] - 1) if i + 1 < len(starts) else len(doc.lines)
        children = [s for s in result.symbols if line <= s.line <= end and s.kind in _SYMBOL_KIND
                    and s.file is None and s.scope is None]
        whole = t.Range(start=t.Position(line=line - 1, character=0),
                        end=t.Position(line=max(line, end) - 1, character=0))
        out.append(t.DocumentSymbol(
            name=name, kind=t.SymbolKind.Namespace, range=whole, selection_range=whole,
            children=[t.DocumentSymbol(name=s.name, kind=_SYMBOL_KIND[s.kind], detail=s.detail,
                                       range=_range(s.line, s.col, s.col + len(s.name)),
                                       selection_range=_range(s.line, s.col, s.col + len(s.name)))
                      for s in children]))
    return out


@server.feature(t.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: PlyspecServer, params: t.DocumentFormattingParams):
    """`.game` files through the printer; an edit only when the text parses."""
    uri = params.text_document.uri
    if not uri.endswith(".game"):
        return None
    result = ls.analysis_of(uri)
    if result.spec is None:
        return None
    from framework.frontend.printer import to_game
    doc = ls.workspace.get_text_document(uri)
    new = to_game(result.spec)
    if new == doc.source:
        return []
    end = t.Position(line=len(doc.lines), character=0)
    return [t.TextEdit(range=t.Range(start=t.Position(line=0, character=0), end=end), new_text=new)]


_SUGGESTION = re.compile(r"did you mean `([^`]+)`\?|write `([^`]+)`")


@server.feature(t.TEXT_DOCUMENT_CODE_ACTION)
def code_actions(ls: PlyspecServer, params: t.CodeActionParams):
    """A quick fix for each diagnostic whose hint proposes a replacement."""
    fixes = []
    lines = ls.workspace.get_text_document(params.text_document.uri).lines
    for diagnostic in params.context.diagnostics:
        hint = (diagnostic.data or {}).get("hint") if isinstance(diagnostic.data, dict) else None
        match = _SUGGESTION.search(hint or "")
        end = diagnostic.range.end
        if not match or (end.line < len(lines) and lines[end.line][end.character:end.character + 1] == "{"):
            continue                # no fix proposed, or a generated planning name (`Bal{i}`)
        replacement = match.group(1) or match.group(2)
        edit = t.WorkspaceEdit(changes={params.text_document.uri: [t.TextEdit(range=diagnostic.range,
                                                                             new_text=replacement)]})
        fixes.append(t.CodeAction(title=f"replace with `{replacement}`", kind=t.CodeActionKind.QuickFix,
                                  diagnostics=[diagnostic], edit=edit, is_preferred=True))
    return fixes


def main() -> int:
    server.start_io()
    return 0
