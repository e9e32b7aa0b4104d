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
    kernel = type(game.initial_state())._kernel if kernel else None     # a history game's: its own
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
            try:
                cs = cs.result(mine[move])
            except SpecError as error:          # a rule fails on this move: the interpreter's too
                try:
                    its.result(theirs[move])
                except SpecError as theirs_error:
                    assert theirs_error.message == error.message, text
                    break
                raise AssertionError(f"only the compiled game fails: {error}\n{text}")
            its = its.result(theirs[move])
            assert cs.terminal_test() == its.terminal_test(), text


def spec_in_lockstep(text, playouts=3, plies=16):
    """moves_in_lockstep on the game of spec `text`, kernel included; a spec whose rules
    fail on the initial state is left to check_one (it compares that failure)."""
    from framework import load_text
    try:
        game = load_text(text)
    except SpecError:
        return
    moves_in_lockstep(game, text, playouts, plies, kernel=True)


def plays_as_the_interpreter(text, bfs_states=40, playouts=2, plies=14):
    """check_one (the compiled course interface against the interpreter, the kernel against
    the course interface, errors included) and spec_in_lockstep (the moves' order)."""
    from framework.conformance.generate import check_one
    assert check_one(text, bfs_states=bfs_states, playouts=playouts, plies=plies) is None, text
    spec_in_lockstep(text, playouts, plies)
