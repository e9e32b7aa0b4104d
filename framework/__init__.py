"""plyspec: declare games and planning problems, compile them, search them.

    >>> import framework
    >>> game = framework.load("game_specs/tictactoe.yaml")
    >>> state = game.initial_state()
    >>> state.result((1, 1)).player()
    1

The names below are imported on first use, so `import framework` (and every command's
start-up) costs no parser, checker or compiler until one is needed.
"""
from framework.errors import SpecError

__all__ = ["load", "load_text", "parse_spec", "Game", "SpecError", "CHANCE", "IllegalAction", "UnknownPlayer"]

_LAZY = {"load": "framework.loader", "load_text": "framework.loader", "parse_spec": "framework.loader",
         "Game": "framework.game", "CHANCE": "framework.game",
         "IllegalAction": "framework.runtime", "UnknownPlayer": "framework.runtime"}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'framework' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
