"""Players: `next(p)`, `prev(p)` and `opponent(p)` (folded to a constant when p is known, as when the code
is written for one mover)."""
from __future__ import annotations

from framework.builtins.base import Builtin


def _lower_next(compiler, node, env):
    known = compiler.player_const(node)
    if known is not None:
        return str(known)
    return f"(({compiler.expr(node.args[0], env)} + 1) % {compiler.n})"


def _lower_prev(compiler, node, env):
    known = compiler.player_const(node)
    if known is not None:
        return str(known)
    return f"(({compiler.expr(node.args[0], env)} - 1) % {compiler.n})"


def _lower_opponent(compiler, node, env):
    known = compiler.player_const(node)
    if known is not None:
        return str(known)
    return f"(1 - {compiler.expr(node.args[0], env)})"


BUILTINS = (
    Builtin("next", ("player",), "player", "the player after p in turn order", _lower_next),
    Builtin("prev", ("player",), "player", "the player before p in turn order (who moved last, "
            "when turns go round)", _lower_prev),
    Builtin("opponent", ("player",), "player", "the other player of a two-player game", _lower_opponent),
)
