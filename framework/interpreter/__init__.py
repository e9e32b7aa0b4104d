"""The reference interpreter: a tree-walking evaluator of the checked AST, obviously
correct and slow, kept beside the compiler so that every compiled game can be compared
with it (the conformance property `compiled_agrees_with_interpreter`).

    from framework.interpreter import interpret
    game = interpret("game_specs/tictactoe.yaml")        # same options as framework.load
    state = game.initial_state().result("place(1,1)")   # actions are their canonical texts

`evaluate.py` gives expressions, builtins and effects their meaning; `game.py` turns a
checked spec into states with the course interface.
"""
from __future__ import annotations

from framework.interpreter.game import InterpretedGame, InterpretedState


def interpret(path, **options) -> InterpretedGame:
    """The spec at `path`, checked with `options`, played by the interpreter."""
    from framework.checker import check
    from framework.loader import parse_spec
    return InterpretedGame(check(parse_spec(path), options))


def interpret_text(text: str, fmt: str = "yaml", file: str = "<spec>", **options) -> InterpretedGame:
    from framework.checker import check
    from framework.loader import parse_text
    return InterpretedGame(check(parse_text(text, file, fmt), options))


__all__ = ["interpret", "interpret_text", "InterpretedGame", "InterpretedState"]
