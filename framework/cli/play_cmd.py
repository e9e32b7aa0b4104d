"""`plyspec play SPEC`: play a game in the terminal against the computer.

You take the seat(s) given by `--as` (default: the first player); every other seat is
played by `--ai` (default: the searcher `plyspec solve` would pick, thinking for
`--move-time` seconds).  At your turn type an action in the text the game prints
(`place(1,2)`, `roll`, `move(0,0)`...), `?` for the legal actions, `hint` for the
computer's suggestion, or `quit`.  Chance outcomes are drawn with `--seed`.
"""
from __future__ import annotations

import argparse
import difflib
import random

from framework.cli import COMMANDS
from framework.cli.common import add_set_option, number_text, parse_sets, positive_number
from framework.errors import SpecError, UsageError, did_you_mean
from framework.terminal import plain

HELP = ("type an action as printed, `?` for the legal actions, `hint` for a suggestion, "
        "`undo` to take back your last move, `quit` to stop")


EXAMPLES = [
    'plyspec play tictactoe                       # you are X against the solver',
    'plyspec play connect_four --as Y --ai mcts:iterations=2000',
    'plyspec play pig --ai expectimax:depth=3 --seed 7',
]


def add_parser(sub):
    p = sub.add_parser(
        "play", help=COMMANDS["play"],
        description=__doc__.split("\n\n", 1)[1].replace("`", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--as", dest="seats", action="append", metavar="PLAYER",
                   help="the player you play (a name from the spec; repeat for several; default: "
                        "the first player)")
    p.add_argument("--ai", metavar="AGENT",
                   help="the computer's agent, e.g. alphabeta:depth=6, mcts:iterations=2000, random "
                        "(see `plyspec match --help`; default: the searcher `solve` picks)")
    p.add_argument("--move-time", type=positive_number, default=1.0, metavar="SECONDS",
                   help="the computer's time per move when its agent has no budget (default 1.0)")
    p.add_argument("--seed", type=int, default=0, help="seed for chance outcomes (default 0)")
    add_set_option(p)
    p.set_defaults(func=run)


class _Quit(Exception):
    """The human stopped the game."""


class _Undo(Exception):
    """The human takes back their last move (and the replies that followed it)."""


class Human:
    """Reads moves from stdin; `hint` asks `advisor` for a suggestion."""

    is_human = True

    def __init__(self, advisor, read=input, write=print):
        self.advisor, self.read, self.write = advisor, read, write

    def choose(self, game, state, *, move_time=None):
        self.write("\n" + labelled(game, state))
        name = game.player_names[state.player()]
        while True:
            try:
                text = self.read(plain(f"{name}> ")).strip()     # (input() writes its prompt itself)
            except EOFError:
                raise _Quit from None
            if text in ("quit", "exit", "q"):
                raise _Quit
            if text == "undo":
                raise _Undo
            if text in ("?", "help", ""):
                self.write("legal: " + "  ".join(game.action_text(a) for a in state.actions()))
                self.write(HELP)
                continue
            if text == "hint" and self.advisor is None:
                self.write("no hint: there is no computer player in a one-player game")
                continue
            if text == "hint":
                suggestion = self.advisor.choose(game, state, move_time=move_time)
                self.write(f"hint: {game.action_text(suggestion)}")
                continue
            try:
                return game.parse_action(state, text)
            except SpecError as err:
                near = _nearest(text.replace(" ", ""), [game.action_text(a) for a in state.actions()])
                self.write(f"`{text}` is not a legal action here" +
                           (f"; did you mean {' or '.join(near)}?" if near else
                            f" ({err.hint})" if err.hint else "") + "  (? lists them all)")


NEAREST_POOL = 2_000     # legal actions compared with a typo (difflib is slow on 100,000)


def _nearest(text: str, legal: list) -> list:
    """Up to three legal action texts close to `text`; among many, only those that start
    like it (then the first NEAREST_POOL) are compared."""
    if len(legal) > NEAREST_POOL:
        legal = ([t for t in legal if t[:2] == text[:2]] or legal)[:NEAREST_POOL]
    return difflib.get_close_matches(text, legal, n=3, cutoff=0.5)


def labelled(game, state) -> str:
    """`str(state)` with the board's coordinates: x above the columns, y before the rows
    (place(x,y) and friends name cells this way), whatever the display symbols (a space
    too: an empty row keeps its line); a game without a board, or with a graph board (its
    points are printed with their names), is printed as it is."""
    from framework.history import position
    text = str(state)
    board = game.view.board(position(state)) if game.view else None
    lines = text.split("\n")
    if not board or game.view.c.graph is not None or len(lines) < board["height"]:   # points are named
        return text
    width, height = board["width"], board["height"]
    cell = max(len(s) for s in board["symbols"].values()) or 1
    pad = len(str(height - 1))
    header = " " * (pad + 1) + " ".join(str(x % 10).ljust(cell) for x in range(width)).rstrip()
    body = [f"{y:>{pad}} {line}".rstrip() for y, line in enumerate(lines[:height])]
    return "\n".join([header, *body, *lines[height:]])


def run(args) -> int:
    from framework import load
    from framework.agents import parse_agent
    from framework.cli.solve_cmd import default_algorithm

    game = load(args.spec, **parse_sets(args.set))
    if game.num_players == 1:
        computer = None
    else:
        computer = parse_agent(args.ai or default_algorithm(game), game).seeded(args.seed)
    seats = set()
    for name in args.seats or [game.player_names[0]]:
        if name not in game.player_names:
            raise UsageError(f"{game.name} has no player {name!r}",
                             hint=did_you_mean(name, game.player_names) or "players: " + ", ".join(game.player_names))
        seats.add(game.player_names.index(name))
    human = Human(computer)
    seated = [human if p in seats else computer for p in range(game.num_players)]

    def report(state, action, mover):
        if mover < 0:
            print(f"chance: {game.outcome_text(state, action)}")
        elif mover not in seats:
            last = getattr(computer, "last", None)
            detail = ""
            if last is not None and last.value is not None:
                depth = f", depth {last.stats.depth}" if last.stats.depth else ""
                detail = f"  (value {number_text(last.value)}{depth}, {last.stats.nodes:,} nodes)"
            print(f"{game.player_names[mover]} plays {game.action_text(action)}{detail}")
        else:
            print(f"you ({game.player_names[mover]}) play {game.action_text(action)}")

    print(f"{game.name}: you play {', '.join(game.player_names[p] for p in sorted(seats))}; {HELP}")
    try:
        final, plies = _play(game, seated, human, random.Random(args.seed), args.move_time, report)
    except _Quit:
        print("\ngame abandoned")
        return 0
    except KeyboardInterrupt:
        print("\ninterrupted: game abandoned")
        return 130
    print("\n" + labelled(game, final))
    if not final.terminal_test():
        print(f"stopped after {plies} plies without an end")
        return 0
    returns = final.returns()
    winners = [name for name, v in zip(game.player_names, returns) if v == max(returns)]
    print("draw" if len(winners) > 1 else f"{winners[0]} wins")
    return 0


def _play(game, seated, human, rng, move_time, report):
    """The game loop of `play`: like framework.match.play_game, with `undo` (back to the
    position where the human last moved).  Returns (final state, plies played)."""
    from framework.match import DEFAULT_MAX_PLIES, draw_chance
    state, plies = game.initial_state(), 0
    mine = []                        # (state, plies) where the human was to move, in order
    limit = game.max_length or DEFAULT_MAX_PLIES
    while not state.terminal_test() and plies < limit:
        if state.is_chance():
            action, mover = draw_chance(state, rng), -1
        else:
            mover = state.player()
            agent = seated[mover]
            if agent is human:
                try:
                    action = human.choose(game, state, move_time=move_time)
                except _Undo:
                    if not mine:
                        print("nothing to undo: you have not moved yet")
                    else:
                        state, plies = mine.pop()
                        print("took back your last move")
                    continue
                mine.append((state, plies))
            else:
                action = agent.choose(game, state, move_time=move_time)
        report(state, action, mover)
        state, plies = state.result(action), plies + 1
    return state, plies
