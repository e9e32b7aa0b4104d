"""What a builtin is: the one record every builtin family module fills in (framework.builtins).

A `Builtin` holds, for one function name of the spec language:
- `args`/`result`: its signature for the checker (argument types such as "board", "cell",
  "value", "dirs", "player", "int", "list", "cellset"; "*" = any number, the result then
  being the first argument's type); `args = None` marks a variadic function of numbers;
- `lower(compiler, node, env) -> str`: its lowering, the Python expression the compiler
  emits for a call (`node` is the checked `ast.Call`; `compiler.expr(arg, env)` lowers an
  argument, and the board vocabulary of framework.compiler.board is at hand);
- `runtime`: the run-time helpers the generated code calls, by the name it calls them
  (the loader puts them in every generated module's namespace);
- `doc`: its one-line description (LSP hovers, --help texts, the docs table);
- `state_query`: it asks about the legal moves (only allowed where the rules are not being
  defined: terminal tests, utilities, evaluation);
- `interpret(evaluator, node, args, state) -> value`: its meaning in the reference
  interpreter, written the plain way over (column, row) cells (the evaluator's `read`,
  `on_board`, `cells`); `None` means the interpreter evaluates it by its own code
  (framework/interpreter/calls.py, for the builtins older than this slot).
"""
from __future__ import annotations

from typing import Callable

from framework.records import dataclass, field   # the dataclasses module's, made cheaply


@dataclass(frozen=True)
class Builtin:
    name: str
    args: tuple | None
    result: str | None
    doc: str
    lower: Callable
    runtime: dict = field(default_factory=dict)
    state_query: bool = False
    interpret: Callable | None = None    # the reference interpreter's meaning

    @property
    def signature(self):
        """(argument types, result type), or None for a variadic function of numbers."""
        return None if self.args is None else (self.args, self.result)

    def usage(self) -> str:
        """`name(types) -> type`, numbers written as `number`."""
        if self.args is None:
            return f"{self.name}(number, ...) -> number"
        args = ", ".join("number" if a == "*" else a for a in self.args)
        return f"{self.name}({args}) -> {'number' if self.result == '*' else self.result}"
