"""plyspec: declare games and planning problems, compile them, search them.

    >>> import framework
    >>> game = framework.load("game_specs/tictactoe.yaml")
    >>> state = game.initial_state()
    >>> state.result((1, 1)).player()
    1
"""
from framework.errors import SpecError
from framework.game import Game, CHANCE
from framework.loader import load, load_text, parse_spec

__all__ = ["load", "load_text", "parse_spec", "Game", "SpecError", "CHANCE"]
