"""`plyspec tournament SPEC... --agent A --agent B [--agent C ...]`: a round-robin of the
agents on every spec, spread over worker processes (or a Ray cluster), with per-pair scores
and confidence intervals and an Elo table; `-o` streams every game to a JSON-lines file
and `--resume` finishes an interrupted tournament."""
from __future__ import annotations

import argparse
import sys

from framework.cli import COMMANDS
from framework.cli.common import add_game_play_options, add_set_option, parse_sets, print_json, table_console
from framework.cli.parallel_options import add_parallel_options, check_outputs, drive, executor


def add_parser(sub):
    p = sub.add_parser(
        "tournament", help=COMMANDS["tournament"],
        description="Every group of agents as large as the game's player count (every pair, in "
                    "two-player games) plays --games games of every SPEC, seats rotating from game "
                    "to game; games run in parallel and are seeded so that the results are the "
                    "same for any number of workers.  Prints per-pair scores with 95%% confidence "
                    "intervals and an Elo table.",
        epilog="examples:\n"
               "  plyspec tournament game_specs/tictactoe.yaml --agent random --agent first "
               "--agent alphabeta:depth=2 --games 20\n"
               "  plyspec tournament game_specs/connect_four.yaml game_specs/othello.yaml "
               "--agent alphabeta:depth=3 --agent mcts:iterations=200 --games 50 -o c4.jsonl\n"
               "  plyspec tournament ... -o c4.jsonl --resume      # finish an interrupted run\n"
               "  plyspec tournament ... --ray ray://head:10001    # on a Ray cluster",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("specs", nargs="+", metavar="SPEC")
    p.add_argument("--agent", action="append", required=True, metavar="AGENT",
                   help="an agent (at least two): random, first, alphabeta:depth=4, mcts:iterations=500, ...")
    add_game_play_options(p, "games per group of agents and spec (default 10)")
    add_set_option(p)
    p.add_argument("--csv", metavar="FILE", help="also write the per-pair table as CSV (an existing FILE "
                                                 "is replaced only with --force)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_parallel_options(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from framework import load
    from framework.agents import parse_agent
    from framework.errors import UsageError
    from framework.parallel import tournament
    from framework.match import check_summary
    from framework.parallel.journal import spec_digest
    from framework.parallel.tasks import spec_payload
    if len(args.agent) < 2:
        raise UsageError("a tournament needs at least two --agent", hint="e.g. --agent random --agent first")
    agents = [parse_agent(text) for text in args.agent]
    if any(a.is_human for a in agents):
        raise UsageError("a tournament is between programs", hint="use `plyspec play SPEC` to play yourself")
    options = parse_sets(args.set)
    check_outputs(args, args.csv)                  # refused before any game is played
    pool = executor(args, start=True)              # workers boot while the specs compile here
    try:
        games = [load(path, **options) for path in args.specs]         # errors now, not in workers
        for game in games:                                              # so are agents' options
            for agent in agents:
                agent.check(game)
    except BaseException:
        pool.close()
        raise
    payloads = [spec_payload(path) for path in args.specs]
    plan = tournament.schedule(args.specs, [g.num_players for g in games], len(agents), args.games, args.seed)
    standings = tournament.Standings(args.agent, plan)
    header = {"command": "tournament", "specs": args.specs,
              "specs_sha256": spec_digest(*(p["text"] for p in payloads)), "agents": args.agent,
              "games": args.games, "seed": args.seed, "options": options, "move_time": args.move_time,
              "max_plies": args.max_plies}

    def check(key, record, shape):
        pairing = plan.pairing_of(key)
        check_summary(record, shape, int(key.rsplit(":", 1)[1]), games[pairing.spec], args.max_plies)

    results, interrupted = drive(args, tournament.REF,
                                 tournament.tasks(plan, payloads, options, args.agent, args.max_plies,
                                                  args.move_time),
                                 header=header, on_result=standings.add, label="games", pool=pool,
                                 total=len(plan), known=lambda key: plan.pairing_of(key) is not None,
                                 check=check)
    summary = {"specs": args.specs, "games_planned": len(plan), "seed": args.seed,
               "interrupted": interrupted, **standings.to_json()}
    if args.csv:
        _write_csv(args.csv, summary["pairs"], args.force)
    if args.json:
        print_json(summary)
    else:
        _print(summary, len(plan), interrupted)
    if interrupted:
        print("interrupted: the table shows the games that had finished", file=sys.stderr)
        return 130
    return 1 if standings.failures else 0


def _write_csv(path, pairs, force) -> None:
    import csv
    import io
    from framework.files import write_atomic
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["agent", "opponent", "games", "wins", "draws", "losses", "score", "ci95_low",
                     "ci95_high", "elo_diff"])
    for p in pairs:
        writer.writerow([p["agent"], p["opponent"], p["games"], p["wins"], p["draws"], p["losses"],
                         f"{p['score']:.4f}", f"{p['ci95'][0]:.4f}", f"{p['ci95'][1]:.4f}", f"{p['elo_diff']:.1f}"])
    write_atomic(path, out.getvalue(), force=force)


def _print(summary, planned, interrupted) -> None:
    from rich.table import Table
    console = table_console()
    title = f"{summary['games_finished']} of {planned} games" + (" (interrupted)" if interrupted else "")
    pairs = Table(title=f"pairs: {title}")
    width = max(len(a["agent"]) for a in summary["agents"])
    for column in ("agent", "opponent", "games", "W", "D", "L", "score", "95% CI", "Elo diff"):
        named = column in ("agent", "opponent")
        pairs.add_column(column, justify="left" if named else "right", no_wrap=True,
                         min_width=width if named else None)
    for p in summary["pairs"]:
        pairs.add_row(p["agent"], p["opponent"], str(p["games"]), str(p["wins"]), str(p["draws"]),
                      str(p["losses"]), f"{p['score']:.3f}", f"{p['ci95'][0]:.3f}-{p['ci95'][1]:.3f}",
                      f"{p['elo_diff'] + 0.0:+.0f}")
    console.print(pairs)
    elo = Table(title="Elo (Bradley-Terry, mean 1500)")
    for column in ("agent", "Elo", "games", "wins", "draws", "losses", "unfinished", "s/move"):
        elo.add_column(column, justify="left" if column == "agent" else "right", no_wrap=True,
                       min_width=width if column == "agent" else None)
    for a in sorted(summary["agents"], key=lambda a: -a["elo"]):
        elo.add_row(a["agent"], f"{a['elo']:.0f}", str(a["games"]), str(a["wins"]), str(a["draws"]),
                    str(a["losses"]), str(a["unfinished"]), f"{a['seconds_per_move']:.3f}")
    console.print(elo)
    for key, failure in summary["failures"].items():
        console.print(f"game {key} failed ({failure['failure']}): {failure['message']}",
                      style="red", highlight=False)
