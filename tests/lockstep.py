"""Shared by the tests of lowerings that list moves (shifts, splits, unrolled parameter
loops): random playouts of a compiled game and of the reference interpreter in lockstep,
the move lists compared in order (the differential campaign, framework/conformance,
compares them as sets, so a reordering would go unseen there)."""
import random

from framework.checker import check
from framework.conformance.differential import _imoves, _moves
from framework.errors import SpecError
from framework.interpreter import InterpretedGame


def moves_in_lockstep(game, text, playouts, plies, kernel=False):
    """Random playouts of the compiled `game` (of spec `text`) and the interpreter's in
    lockstep: the same moves in the same order at every state, the same terminal tests;
    with `kernel`, the kernel lists the course interface's moves in the same order too."""
    igame = InterpretedGame(check(game.spec, {}))
    kernel = game.state_class._kernel if kernel else None
    rng = random.Random(text)
    for _ in range(playouts):
        cs, its = game.initial_state(), igame.initial_state()
        for _ in range(plies):
            if cs.terminal_test():
                break
            try:
                mine, theirs = _moves(game, cs), _imoves(igame, its)
            except SpecError:                   # a rule fails here (alike: the campaign's check)
                break
            assert list(mine) == list(theirs), text
            if kernel is not None:            # raw actions (cells as bit indices) read as the course's
                assert [kernel.action(a) for a in kernel.actions(tuple(cs))] == list(mine.values()), text
            move = rng.choice(list(mine))
            cs, its = cs.result(mine[move]), its.result(theirs[move])
            assert cs.terminal_test() == its.terminal_test(), text
