"""What the language server knows about one document, computed without any LSP types.

`analyse(path, text)` runs the same pipeline as `plyspec check` on the text (parse, check,
compile for a game; read and check for a planning spec or a PDDL file) and returns an
`Analysis`: the errors as `Diagnostic`s (what `plyspec check` prints, with the range, the
message and the hint), and, whenever the text parses, an index of the spec's names: where
each is declared (`Symbol`) and every place it is used (`Occurrence`).  The server turns
these into diagnostics, hovers, definitions, references, completions and outlines.
Planning files are indexed by `framework.lsp.planning`.

Columns here count code points (Python string indices), 1-based; the server converts
them to the position encoding the client negotiated.  A text over `check`'s size limit
or holding bytes that are not UTF-8 (the server reads them as lone surrogates) gets one
diagnostic at once, without being read further.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path

from framework import ast
from framework.errors import SpecError, all_errors
from framework.lint import names_in

GAME, PLANNING, PDDL = "game", "planning", "pddl"


@dataclass(frozen=True)
class Diagnostic:
    line: int                 # 1-based, as SpecError counts
    col: int
    end_col: int
    message: str
    hint: str | None = None
    severity: str = "error"   # error | warning

    @classmethod
    def of(cls, err: SpecError, lines: list) -> "Diagnostic":
        line = err.line or 1
        col = err.col or 1
        width = len(lines[line - 1]) if 0 < line <= len(lines) else 1
        end = err.end_col if err.end_col and err.end_col > col else (col + 1 if err.col else width + 1)
        return cls(line, col, end, err.message, err.hint)


@dataclass(frozen=True)
class Symbol:
    name: str
    kind: str                 # player | option | variable | board | cell value | point | line | define |
    #                           action | parameter
    line: int                 # (planning: type | object | predicate | function | action | parameter | option)
    col: int
    detail: str               # shown on hover
    scope: str | None = None  # the action a parameter belongs to
    file: str | None = None   # declared in another file (a PDDL problem's domain), else None


@dataclass(frozen=True)
class Occurrence:
    name: str
    line: int
    col: int
    end_col: int
    call: bool = False        # a function call (a builtin or a define)
    scope: str | None = None  # the action it is inside, if any
    kind: str | None = None   # planning: what it names (a key of planning.MEANS); games: None


@dataclass
class Analysis:
    kind: str
    diagnostics: list = field(default_factory=list)
    symbols: list = field(default_factory=list)
    occurrences: list = field(default_factory=list)
    spec: object = None       # the parsed AST (games), when the text parses
    sections: dict = field(default_factory=dict)   # section name -> line
    lines: list = field(default_factory=list)      # the text analysed, split as positions count lines
    files: dict = field(default_factory=dict)      # another file a symbol is declared in -> its lines

    def symbol(self, name: str, scope: str | None = None, kinds=None) -> Symbol | None:
        """The declaration `name` means inside `scope` (a parameter shadows the rest), of
        one of `kinds` if given."""
        found = [s for s in self.symbols if s.name == name and s.scope in (scope, None)
                 and (kinds is None or s.kind in kinds)]
        found.sort(key=lambda s: s.scope is None)
        return found[0] if found else None

    def declaration(self, thing) -> Symbol | None:
        """The Symbol an Occurrence (or a Symbol itself) stands for, or None."""
        if thing is None or isinstance(thing, Symbol):
            return thing
        from framework.lsp.planning import MEANS
        return self.symbol(thing.name, thing.scope, MEANS.get(thing.kind))

    def at(self, line: int, col: int):
        """The occurrence or declaration under (line, col), 1-based; None if neither."""
        for o in self.occurrences:
            if o.line == line and o.col <= col < o.end_col:
                return o
        for s in self.symbols:
            if s.file is None and s.line == line and s.col <= col < s.col + len(s.name):
                return s
        return None


def kind_of(path: str, text: str) -> str:
    """GAME, PLANNING or PDDL, decided as `plyspec check` decides (a document with no
    suffix is read as YAML)."""
    from framework.loader import planning_kind
    kind = planning_kind(path if Path(path).suffix else path + ".yaml", text)
    return GAME if kind is None else PDDL if kind == "PDDL" else PLANNING


_NOT_UTF8 = re.compile("[\udc80-\udcff]")    # an undecodable byte, as surrogateescape reads it


def refusal(text: str) -> Diagnostic | None:
    """Why `text` is not analysed at all, at 1:1 (as `plyspec check` refuses the file), or None."""
    from framework.files import MAX_SPEC_BYTES
    if len(text) > MAX_SPEC_BYTES // 4 and len(text.encode("utf-8", "surrogateescape")) > MAX_SPEC_BYTES:
        return Diagnostic(1, 1, 2, f"spec is larger than {MAX_SPEC_BYTES:,} bytes",
                          f"plyspec reads a spec of at most {MAX_SPEC_BYTES:,} bytes")
    bad = _NOT_UTF8.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - text.rfind("\n", 0, bad.start())
        return Diagnostic(1, 1, 2, f"spec is not UTF-8 text (an invalid byte at line {line}, column {col})",
                          "save the file as UTF-8")
    return None


def analyse(path: str, text: str, opened: dict | None = None) -> Analysis:
    """Diagnostics and the name index of `text`, a document saved (or not yet) at `path`;
    `opened` maps the paths of the other documents open in the editor to their texts (a
    PDDL problem is checked with its domain's open text, not the file on disk)."""
    from framework.errors import split_lines
    refused = refusal(text)
    if refused:
        return Analysis(GAME, [refused], lines=split_lines(text[:1000])[:1])
    kind = kind_of(path, text)
    lines = split_lines(text)
    result = Analysis(kind, lines=lines)
    try:
        if kind == GAME:
            _analyse_game(path, text, result)
        elif kind == PLANNING:
            from framework.lsp.planning import analyse_planning
            analyse_planning(path, text, result)
        else:
            from framework.lsp.planning import analyse_pddl
            analyse_pddl(path, text, result, opened or {})
    except SpecError as err:                  # every error the checker found, as `check` prints them
        result.diagnostics.extend(Diagnostic.of(e, lines) if _here(e, path) else _elsewhere(e)
                                  for e in all_errors(err))
    except RecursionError:
        result.diagnostics.append(Diagnostic(1, 1, 2, "the spec is nested too deeply to read"))
    except Exception as err:                  # plyspec's own bug: shown in the editor, not lost
        result.diagnostics.append(Diagnostic(1, 1, 2, f"plyspec could not check this text "
                                             f"({type(err).__name__}: {err}); please report it"))
    return result


def _here(err: SpecError, path: str) -> bool:
    return err.file is None or Path(err.file).resolve() == Path(path).resolve()


def _elsewhere(err: SpecError) -> Diagnostic:
    """An error in another file (a PDDL problem's domain), shown at 1:1 with where it is."""
    return Diagnostic(1, 1, 2, f"{Path(err.file).name}:{err.line or 1}:{err.col or 1}: {err.message}", err.hint)


def _analyse_game(path, text, result):
    from framework.loader import compile_spec, parse_text, spec_format
    try:
        fmt = spec_format(path)
    except SpecError:
        fmt = "yaml"
    from framework.lint import warnings
    spec = parse_text(text, path, fmt)
    result.spec = spec
    _index(spec, result)
    compile_spec(spec)                        # check + compile, as `plyspec check` does
    lines = text.splitlines()
    result.diagnostics.extend(dataclasses.replace(Diagnostic.of(w, lines), severity="warning")
                              for w in warnings(spec))


# --------------------------------------------------------------------- the name index
def _index(spec, result: Analysis) -> None:
    from framework.frontend.printer import domain_text, effects_text, expression_text
    add = result.symbols.append
    for name, pos in zip(spec.players, spec.positions.get("players_items", ())):
        add(Symbol(name, "player", pos.line, pos.col, f"player `{name}`"))
    for option in spec.options:
        add(Symbol(option.name, "option", option.pos.line, option.pos.col,
                   f"option `{option.name}` (default {_option_default(option.default)}; override with --set "
                   f"{option.name}=...)"))
    if spec.board is not None:
        b = spec.board
        size = f"a graph of {sum(map(len, b.points))} points" if b.points else \
            f"{expression_text(b.width)} x {expression_text(b.height)}"
        add(_named(b.pos, b.name, "board", f"board `{b.name}`: {size}, cells {', '.join(b.values)} "
                   f"(initially {b.initial})"))
        for value in b.values:
            add(_named(b.pos, value, "cell value", f"cell value `{value}` of `{b.name}`"))
        _graph_symbols(b, add)
    for d in spec.directions:
        steps = ", ".join(f"({', '.join(map(str, s))})" if isinstance(s, tuple) else str(s) for s in d.steps)
        add(Symbol(d.name, "direction set", d.pos.line, d.pos.col, f"direction set `{d.name}`: {steps}"))
    for v in spec.variables:
        detail = f"state variable `{v.name}`: {_type_name(v.type)}" + (" per player" if v.per_player else "")
        if v.initial is not None:
            detail += f", initially {expression_text(v.initial)}"
        add(Symbol(v.name, "variable", v.pos.line, v.pos.col, detail))
    for d in spec.defines:
        params = f"({', '.join(d.params)})" if d.params else ""
        text = f"define {d.name}{params} = {expression_text(d.body)}" if d.effects is None else \
            f"effect definition {d.name}{params}: {effects_text(d.effects)}"
        add(Symbol(d.name, "define", d.pos.line, d.pos.col, text))
        _uses(d.body if d.effects is None else d.effects, result, d.name)
    for a in spec.actions:
        params = ", ".join(f"{p.name} in {domain_text(p.domain)}" for p in a.params)
        add(Symbol(a.name, "action", a.pos.line, a.pos.col, f"action {a.name}({params})"))
        for p in a.params:
            add(Symbol(p.name, "parameter", p.pos.line, p.pos.col,
                       f"parameter `{p.name}` of `{a.name}`, in {domain_text(p.domain)}", a.name))
        _uses(a, result, a.name)
    for name, pos in spec.positions.get("display_keys", {}).items():      # the cell values `display` draws
        result.occurrences.append(Occurrence(name, pos.line, pos.col, pos.col + len(name)))
    for section in ("board", "variables", "init", "turn", "terminal", "goal", "utility", "winner",
                    "evaluation", "max_length", "constant_sum", "repetition", "max_moves"):
        _uses(getattr(spec, section), result, None)
    result.sections = {name: pos.line for name, pos in spec.positions.items()     # sections start a line;
                       if hasattr(pos, "line") and pos.line and pos.col == 1}    # not `board_initial`


def _graph_symbols(b, add) -> None:
    """A graph board's points (with their links and lines) and lines, for hovers."""
    linked = {}
    for path in b.links:
        for p, q in zip(path.items, path.items[1:]):
            linked.setdefault(p.id, []).append(q.id)
            linked.setdefault(q.id, []).append(p.id)
    for p in (p for row in b.points for p in row):
        lines = [line.name for line in b.lines if p.id in (q.id for q in line.points)]
        add(Symbol(p.id, "point", p.pos.line, p.pos.col, f"point `{p.id}` of the graph board: linked to "
                   f"{', '.join(dict.fromkeys(linked.get(p.id, []))) or 'no point'}"
                   + (f"; on the lines {', '.join(lines)}" if lines else "")))
    for line in b.lines:
        add(Symbol(line.name, "line", line.pos.line, line.pos.col,
                   f"line `{line.name}` of the graph board (a set of cells): {' '.join(p.id for p in line.points)}"))


def _option_default(value) -> str:
    """An option's default for a hover: its value, or the expression over earlier options."""
    from framework.frontend.printer import expression_text
    return repr(value) if isinstance(value, (bool, int, float, tuple)) else expression_text(value)


def _type_name(t) -> str:
    from framework.frontend.printer import expression_text
    if t.kind == "int" and t.lo is not None:
        return f"int {expression_text(t.lo)}..{expression_text(t.hi)}"
    if t.kind == "enum":
        return "{" + ", ".join(t.values) + "}"
    return t.kind


def _named(pos, name, kind, detail) -> Symbol:
    """A symbol declared on the line at `pos` whose column is where `name` is written."""
    col = pos.col or 1
    if pos.source_line:
        found = pos.source_line.find(name, max(0, col - 1))
        while found >= 0:
            before = pos.source_line[found - 1] if found else " "
            after = pos.source_line[found + len(name):found + len(name) + 1]
            if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
                col = found + 1
                break
            found = pos.source_line.find(name, found + 1)
    return Symbol(name, kind, pos.line, col, detail)


def _uses(node, result: Analysis, scope) -> None:
    """Every Name and Call below `node`, recorded with the action (or define) it is in."""
    for n in names_in(node):
        if not n.pos.line:
            continue
        if isinstance(n, ast.Name):
            result.occurrences.append(Occurrence(n.id, n.pos.line, n.pos.col,
                                                 n.pos.end_col or n.pos.col + len(n.id), False, scope))
        else:
            result.occurrences.append(Occurrence(n.func, n.pos.line, n.pos.col,
                                                 n.pos.col + len(n.func), True, scope))
