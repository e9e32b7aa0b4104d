"""`plyspec book SPEC -o FILE`: build an opening book for a two-player game by playing
games (random openings, then random rollouts or alpha-beta self-play) and save it as JSON
for `plyspec solve --book FILE` (see `framework.search.book`)."""
from __future__ import annotations

import time

from framework.cli import COMMANDS
from framework.cli.common import add_set_option, parse_sets, perft_depth, positive_int, print_json


EXAMPLES = [
    'plyspec book tictactoe --games 2000 -o ttt.book.json',
    'plyspec book connect_four --games 500 --plies 6 --depth 4 -o c4.book.json',
]


def add_parser(sub):
    p = sub.add_parser(
        "book", help=COMMANDS["book"],
        description="Play GAMES games whose first PLIES moves are random, finish each by "
                    "random moves (default) or by alpha-beta self-play at --depth, and record "
                    "for every opening position the mean outcome of each move (merged over the "
                    "spec's symmetries). The book is written as JSON.")
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="book file to write")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    p.add_argument("--plies", type=positive_int, default=4, help="opening plies to record (default 4)")
    p.add_argument("--games", type=positive_int, default=1000, help="games to play (default 1000)")
    p.add_argument("--depth", type=perft_depth, default=0,
                   help="finish games by alpha-beta self-play at this depth (default 0: random rollouts)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    add_set_option(p)
    p.add_argument("--json", action="store_true", help="print a JSON summary")
    p.set_defaults(func=run)


def self_play(searcher, game, depth):
    """A book-building policy: the move `searcher` finds at `depth`."""
    def policy(state, rng):
        return searcher.search(game, state, depth=depth).best_action
    return policy


def run(args) -> int:
    from framework import load
    from framework.search import alphabeta
    from framework.search.book import OpeningBook
    from framework.files import check_output
    if args.plies < 1 or args.games < 1 or args.depth < 0:
        raise ValueError("--plies and --games must be at least 1, --depth at least 0")
    check_output(args.output, force=args.force)        # refused before the book is built
    game = load(args.spec, **parse_sets(args.set))
    policy, policy_name = None, "random"
    if args.depth:
        policy, policy_name = self_play(alphabeta, game, args.depth), f"alphabeta depth {args.depth}"
    start = time.perf_counter()
    book = OpeningBook.build(game, plies=args.plies, games=args.games, policy=policy,
                             policy_name=policy_name, seed=args.seed)
    book.save(args.output, force=args.force)
    elapsed = time.perf_counter() - start
    if args.json:
        print_json({"spec": args.spec, "output": args.output, "positions": len(book),
                    "plies": args.plies, "games": args.games, "policy": policy_name,
                    "time_s": round(elapsed, 6)})
    else:
        print(f"{len(book):,} positions from {args.games:,} games ({policy_name}) "
              f"written to {args.output} in {elapsed:.2f} s")
    return 0
