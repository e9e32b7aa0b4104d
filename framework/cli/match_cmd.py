"""`plyspec match SPEC --agent A --agent B [--games N]`: play games between agents and
print a table (or with `--json` one object) of wins, draws, losses, mean return and time
per move for each agent.  Agents rotate through the seats from game to game; chance
outcomes and random agents follow `--seed`, so a match can be replayed exactly."""
from __future__ import annotations

import sys

from framework.cli import COMMANDS
from framework.cli.common import add_game_play_options, add_set_option, number_text, parse_sets, print_json, table_console
from framework.cli.parallel_options import add_parallel_options, drive

AGENT_HELP = ("an agent: random, first, or a searcher with options, e.g. alphabeta:depth=4, "
              "mcts:iterations=1000, expectimax:depth=3, maxn:time=0.5 (one per player, in seat order)")


EXAMPLES = [
    'plyspec match tictactoe --agent alphabeta --agent random --games 20',
    'plyspec match connect_four --agent alphabeta:depth=4 --agent mcts:iterations=300 --games 50 --workers 2',
]


def add_parser(sub):
    p = sub.add_parser(
        "match", help=COMMANDS["match"],
        description="Play --games games of SPEC between the given agents (one --agent per "
                    "player; they take turns in each seat) and report, per agent, wins, draws, "
                    "losses, mean return and seconds per move.  " + AGENT_HELP + ".")
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--agent", action="append", required=True, metavar="AGENT", help=AGENT_HELP)
    add_game_play_options(p, "games to play (default 10)")
    add_set_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no per-game progress lines on stderr")
    add_parallel_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from framework import load
    from framework.agents import parse_agent
    from framework.errors import UsageError
    from framework.match import GameRecord, Tally, check_summary, tally
    from framework.parallel.journal import spec_digest
    from framework.parallel import Failure
    from framework.parallel.tasks import spec_payload
    from framework.parallel.tournament import REF
    game = load(args.spec, **parse_sets(args.set))
    agents = [parse_agent(text, game) for text in args.agent]
    if len(agents) != game.num_players:
        raise UsageError(f"{game.name} has {game.num_players} players but {len(agents)} --agent given",
                        hint="give one --agent per player, in seat order")
    if any(a.is_human for a in agents):
        raise UsageError("a match is between programs", hint="use `plyspec play SPEC` to play yourself")
    payload = spec_payload(args.spec)
    tasks = ((i, (payload, game.options, args.agent, i, args.seed, args.max_plies, args.move_time))
             for i in range(args.games))                         # lazily: --games 10^12 starts at once

    def progress(i, record):
        if args.quiet:
            return
        if isinstance(record, Failure):
            outcome = f"failed ({record.kind}): {record.message}"
        elif record["returns"] is None:
            outcome = "unfinished"
        else:
            outcome = ", ".join(f"{agents[a].text} {number_text(record['returns'][seat])}"
                                for seat, a in enumerate(record["seats"]))
        plies = "" if isinstance(record, Failure) else f"{record['plies']} plies; "
        print(f"game {i + 1}/{args.games}: {plies}{outcome}", file=sys.stderr, flush=True)

    header = {"command": "match", "spec": args.spec, "spec_sha256": spec_digest(payload["text"]),
              "agents": args.agent, "games": args.games, "seed": args.seed, "options": game.options,
              "move_time": args.move_time, "max_plies": args.max_plies}

    def known(key):
        return isinstance(key, int) and not isinstance(key, bool) and 0 <= key < args.games

    def check(key, record, shape):
        shape.require(record.get("index") == key, f"its index is not its key {key}")
        check_summary(record, shape, key, game, args.max_plies)

    results, interrupted = drive(args, REF, tasks, header=header, label="games", on_result=progress,
                                 total=args.games, known=known, check=check)
    tallies = [Tally(a.text) for a in agents]
    records, failures = [], []
    for i in sorted(results):
        if isinstance(results[i], Failure):
            failures.append((i, results[i]))
            continue
        record = GameRecord.from_summary(results[i])
        tally(tallies, record)
        records.append(record)
    if args.json:
        print_json({"spec": args.spec, "game": game.name, "options": game.options, "games": args.games,
                    "seed": args.seed, "agents": [t.to_json() for t in tallies],
                    "results": [{"seats": [agents[a].text for a in r.seats],
                                 "returns": None if r.returns is None else list(r.returns),
                                 "plies": r.plies} for r in records]})
    else:
        _print_table(game, args, tallies)
    for i, failure in failures:
        print(f"game {i + 1} failed ({failure.kind}): {failure.message}", file=sys.stderr)
    if interrupted:
        print(f"interrupted after {len(results)} of {args.games} games", file=sys.stderr)
        return 130
    return 1 if failures else 0


def _print_table(game, args, tallies) -> None:
    from rich.table import Table
    table = Table(title=f"{game.name}: {args.games} game(s), seed {args.seed}")
    table.add_column("agent", no_wrap=True, min_width=max(len(t.agent) for t in tallies))
    for column in ("wins", "draws", "losses", "unfinished", "mean return", "s/move"):
        table.add_column(column, justify="right")
    for t in tallies:
        row = t.to_json()
        table.add_row(t.agent, str(t.wins), str(t.draws), str(t.losses), str(t.unfinished),
                      number_text(row["mean_return"]), f"{row['seconds_per_move']:.3f}")
    table_console().print(table)
