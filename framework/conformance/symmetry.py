"""The conformance property `symmetries_preserve_rules`: a spec's declared `symmetries:`
(used by opening books, transposition tables and MCTS) really are symmetries of its rules.

For every symmetry g the game declares and every checked state s, g must commute with the
rules: g(s) is terminal exactly when s is, with equal returns; the same player (or chance)
moves in both; and the successors of g(s) are exactly the images g(s') of the successors s'
of s (with equal probabilities at chance nodes), i.e. g maps the legal actions of s onto the
legal actions of g(s).  The check needs no mapping of the action notation: it compares the
successor states.  Comparing successors costs a few milliseconds per state on an 8x8 board,
so the suite does it on a sample (`SAMPLE_STATES` states nearest the start, then every
`SAMPLE_EVERY`-th ply of each playout); terminal states are always checked.
"""
from __future__ import annotations

from collections import Counter

from framework.errors import NoLegalActions

NAME = "symmetries_preserve_rules"
SAMPLE_STATES = 200      # states per breadth-first sweep or playout whose successors are compared
SAMPLE_EVERY = 8         # on playouts, the plies whose successors are compared


def _successors(state) -> Counter:
    """The successor states of `state` (with their probabilities at a chance node)."""
    if state.terminal_test():
        return Counter()
    if state.is_chance():
        return Counter({state.result(o): p for o, p in state.chance_outcomes()})
    try:
        return Counter(state.result(a) for a in state.actions())
    except NoLegalActions:
        return Counter()


def symmetry_violation(game, state) -> str | None:
    """Why one of the game's declared symmetries does not commute with its rules at `state`
    (None when every declared symmetry does)."""
    images = game.symmetries(state)
    if len(images) < 2:
        return None
    children = None
    for k, image in enumerate(images):     # a state its symmetry fixes must still permute its actions
        which = f"symmetry #{k} maps this state to\n{image}\nwhich"
        if image.terminal_test() != state.terminal_test():
            return f"{which} is {'' if image.terminal_test() else 'not '}terminal, unlike this state"
        if state.terminal_test():
            if list(image.returns()) != list(state.returns()):
                return f"{which} has returns {list(image.returns())}, not {list(state.returns())}"
            continue
        if image.is_chance() != state.is_chance() or image.player() != state.player():
            return f"{which} has player {image.player()} to move, not {state.player()}"
        if children is None:            # each successor with its images, computed once
            children = [(game.symmetries(child), weight) for child, weight in _successors(state).items()]
        mapped = Counter()
        for child_images, weight in children:
            mapped[child_images[k]] += weight
        theirs = _successors(image)
        if mapped != theirs:
            missing = len(set(mapped) - set(theirs))
            extra = len(set(theirs) - set(mapped))
            return (f"{which} has {len(theirs)} successor(s) where the images of this state's "
                    f"{len(children)} successor(s) are expected ({missing} image(s) not reachable, "
                    f"{extra} successor(s) without a counterpart): the legal actions are not mapped "
                    "onto legal actions")
    return None
