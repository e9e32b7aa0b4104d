"""State queries: `moves(p)` and `can_move(p)`, about the legal moves a player would have (they
call the generated legal-move functions, so they are refused inside the rules that define
those moves)."""
from __future__ import annotations

from framework.builtins.base import Builtin


def _lower_query(compiler, node, env):
    compiler.legal_helpers.add(node.func)
    return f"_{node.func}({compiler.sig_with_mover(compiler.expr(node.args[0], env))})"


BUILTINS = (
    Builtin("moves", ("player",), "int", "how many legal moves player p would have in this state",
            _lower_query, state_query=True),
    Builtin("can_move", ("player",), "bool", "whether player p would have a legal move in this state",
            _lower_query, state_query=True),
)
