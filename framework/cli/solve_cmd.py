"""`plyspec solve SPEC`: search a game from its initial state with any registered game
searcher and print the value, best action, principal variation and statistics (a table, or
with `--json` the JSON object of DESIGN.md section 7: value, values, best_action, pv, nodes,
time_s, stats, ...).

Dispatch: the searcher comes from `framework.search.registry.searcher(--algo)`.  It is given
`depth`, `time_limit` and `node_limit` when set, and the switches (`--no-tt`, `--no-ordering`,
..., `--no-star1`, `--no-prune`) and the searcher options (`--book`, `--tree`, `--iterations`,
`--seed`, `--exploration`, `--player`) only when its `search` signature names them (or takes
**kwargs); an option the chosen searcher does not know is reported on stderr and ignored.
So any searcher with the common keyword-only signature plugs in without knowing about the
others' options.

Ctrl-C: alpha-beta and minimax stop and return their best result so far, which is printed
(marked incomplete) before exiting with status 130.

Repeated positions: before an exact game search (no --depth, --time or --nodes) of a game
that declares neither `repetition` nor `max_moves`, the states nearest the start and a few
playouts are searched for a position that can come back (`conformance.cycles.endless_line`);
if one is found the solve is refused (exit 1) with the sequence that returns to it, since a
tree search of an endless game never ends.  A cycle deeper than that probe is not caught:
the search then deepens for ever, showing its progress on a terminal, and Ctrl-C prints
the best result so far.
"""
from __future__ import annotations

import inspect
import math
import sys
import time

from framework.cli import COMMANDS
from framework.cli.common import (add_set_option, nonnegative_number, number_text, parse_sets,
                                  positive_int, positive_number, print_json, search_depth, table_console)
from framework.cli.parallel_options import add_parallel_options

SWITCHES = {          # --no-NAME: keyword NAME=False for the searchers that have it
    "tt": "alphabeta and expectimax: no transposition table",
    "ordering": "alphabeta: no move ordering at all",
    "killers": "alphabeta: no killer moves",
    "history": "alphabeta: no history heuristic",
    "id": "alphabeta: no iterative deepening",
    "aspiration": "alphabeta: no aspiration windows",
    "pvs": "alphabeta: no principal-variation (null-window) search",
    "quiescence": "alphabeta: no quiescence search on the spec's noisy moves",
    "star1": "expectimax: no Star1 pruning at chance nodes (implies --no-star2)",
    "star2": "expectimax: no Star2 probing (Star1 only)",
    "prune": "maxn: no shallow pruning (it is on whenever the game's bounds allow it)",
}
EXACT_SEARCHERS = ("minimax", "alphabeta", "expectimax", "maxn", "paranoid")   # (mcts has a budget)
NO_CHANCE = ("minimax", "alphabeta")        # they refuse a chance game themselves, more plainly
_FLAGS = {"time_limit": "--time", "node_limit": "--nodes", "trace": "--tree"}
INTERRUPTED = 130


EXAMPLES = [
    'plyspec solve tictactoe                      # exact value and best move',
    'plyspec solve connect_four --depth 6 --time 10',
    'plyspec solve nim --set "heaps=[1,2,3]" --algo minimax --json',
    'plyspec solve pig --algo expectimax --depth 3',
    'plyspec solve northcott                      # repetition: draw -> retrograde over positions',
]


def add_parser(sub):
    from framework.search.registry import GAME_SEARCHERS
    p = sub.add_parser(
        "solve", help=COMMANDS["solve"],
        description="Search SPEC from its initial state and print the value for the player to "
                    "move, the best action, the principal variation and the search statistics. "
                    "Without --depth the game is solved exactly (may take long on big games); "
                    "--time / --nodes bound the search and return the best move of the last "
                    "completed iteration.")
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("--algo", metavar="ALGO",
                   help=f"searcher: {', '.join(GAME_SEARCHERS)} or a planning searcher (default: "
                        "alphabeta for two players, retrograde for two players with `repetition: draw`, "
                        "expectimax with chance, maxn for three or more players, bfs for puzzles)")
    p.add_argument("--depth", "-d", type=search_depth, help="depth limit in plies (evaluation at the cut-off)")
    p.add_argument("--time", type=positive_number, dest="time_limit", metavar="SECONDS", help="time budget")
    p.add_argument("--nodes", type=positive_int, dest="node_limit", metavar="N", help="node budget")
    for name, what in SWITCHES.items():
        p.add_argument(f"--no-{name}", dest=name, action="store_false", default=None, help=what)
    p.add_argument("--book", metavar="FILE", help="alphabeta: opening book (from `plyspec book`) to consult first")
    p.add_argument("--iterations", type=positive_int, metavar="N",
                   help=f"mcts: iterations to run (default {_mcts_default()} unless --time or --nodes)")
    p.add_argument("--seed", type=int, metavar="S", help="mcts: random seed (repeatable runs)")
    p.add_argument("--max-nodes", type=positive_int, dest="max_nodes", metavar="N",
                   help="mcts: keep at most N tree nodes (about 400 bytes each; default 1,000,000); "
                        "iterations go on without growing the tree")
    p.add_argument("--tt-mb", type=positive_number, dest="tt_mb", metavar="MB",
                   help="alphabeta, expectimax: transposition table size in megabytes (32 bytes an "
                        "entry; default 500,000 entries = 16 MB, expectimax 262,144 = 8 MB)")
    p.add_argument("--exploration", type=nonnegative_number, metavar="C",
                   help="mcts: UCT exploration constant c in mean + c*sqrt(ln N / n) (default sqrt(2) = 1.414)")
    p.add_argument("--player", metavar="PLAYER",
                   help="paranoid: the player (name or 0-based index) who maximises its utility "
                        "against the coalition of all the others (default: the player to move)")
    p.add_argument("--tree", metavar="FILE",
                   help="alphabeta: write the explored tree (windows, values, cut-offs) to FILE, "
                        "as JSON if FILE ends in .json, else as indented text; for small searches")
    p.add_argument("--tree-nodes", type=positive_int, default=2000, metavar="N",
                   help="--tree: record at most N nodes (default 2000)")
    p.add_argument("--progress", action="store_true",
                   help="report each completed iteration on stderr (default: when stderr is a terminal)")
    add_set_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_parallel_options(p, results=False)
    p.set_defaults(func=run)


def _mcts_default() -> str:
    from framework.search.mcts import DEFAULT_ITERATIONS
    return f"{DEFAULT_ITERATIONS:,}"


def default_algorithm(game) -> str:
    """The searcher for a game's capabilities when --algo is not given."""
    if game.chance:
        return "expectimax"
    rule = getattr(game.spec, "repetition", None)
    if game.num_players == 2 and rule is not None and rule.result == "draw" and not rule.over \
            and game.spec.max_moves is None:
        return "retrograde"          # exact over the positions (see framework.search.retrograde)
    if game.num_players == 1:
        return "bfs"
    return "maxn" if game.num_players > 2 else "alphabeta"


def searcher_options(search, requested: dict) -> tuple[dict, list]:
    """Split `requested` options (None = not given) into those `search` accepts and the
    names of those it does not."""
    parameters = inspect.signature(search).parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    accepted, ignored = {}, []
    for name, value in requested.items():
        if value is None:
            continue
        if takes_any or name in parameters:
            accepted[name] = value
        else:
            ignored.append(name)
    return accepted, ignored


def run(args) -> int:
    from framework import load
    from framework.search.registry import searcher
    from framework.search.result import best_so_far_on_interrupt
    clock = time.perf_counter()               # --time covers loading and compiling too
    if args.tree:
        from framework.files import check_output
        check_output(args.tree, force=True)            # refused before loading and searching, not after
    game = load(args.spec, **parse_sets(args.set))
    algorithm = args.algo or default_algorithm(game)
    search = searcher(algorithm)
    requested = {"depth": args.depth, "time_limit": args.time_limit, "node_limit": args.node_limit,
                 "book": args.book, "iterations": args.iterations, "seed": args.seed,
                 "exploration": args.exploration, "player": args.player,
                 "max_nodes": args.max_nodes, "tt_mb": args.tt_mb,
                 **{name: getattr(args, name) for name in SWITCHES}}
    if args.progress or sys.stderr.isatty():
        requested["progress"] = _progress_printer(game)
    if args.tree:
        from framework.search.trace import TreeTrace
        requested["trace"] = TreeTrace(args.tree_nodes)
    if algorithm in EXACT_SEARCHERS and not (game.chance and algorithm in NO_CHANCE) and all(
            flag is None for flag in (args.depth, args.time_limit, args.node_limit)):
        _refuse_endless(game)
    if args.time_limit is not None:
        requested["time_limit"] = max(args.time_limit - (time.perf_counter() - clock), 1e-6)
    options, ignored = searcher_options(search, requested)
    if options.get("star1") is False and "star2" not in options:
        options["star2"] = False                     # Star2 builds on Star1
    for name in ignored:
        if name == "progress" and not args.progress:
            continue
        flag = f"--no-{name}" if name in SWITCHES else _FLAGS.get(name, f"--{name}")
        print(f"note: {algorithm} has no option {flag}; ignored", file=sys.stderr)
    try:
        if args.workers is not None or args.ray is not None:
            result = _solve_split(args, game, algorithm, options)
        else:
            with best_so_far_on_interrupt():      # Ctrl-C: the best result so far
                result = search(game, **options)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return INTERRUPTED
    if "trace" in options:
        options["trace"].write(args.tree, game)
    if args.json:
        print_json({"spec": args.spec, "game": game.name, "options": game.options,
                    **_finite(result.to_json(game.action_text))})
    else:
        _print_table(args.spec, game, result)
    return INTERRUPTED if result.extra.get("interrupted") else 0


def _refuse_endless(game) -> None:
    """A SpecError when a position of `game` can repeat and no rule says what that means."""
    from framework.conformance.cycles import endless_line, return_text
    from framework.errors import SpecError
    found = endless_line(game)
    if found is None:
        return
    to_position, back = found
    line = " ".join(game.action_text(a) for a in [*to_position, *back][:40])
    raise SpecError(f"a position of {game.name!r} can repeat ({line}: {return_text(to_position, back)}), "
                    "so an exact search would never end",
                    hint="declare what a repetition means in the spec (`repetition: draw`, `loss` or "
                         "`forbidden`) or a move limit (`max_moves: N`), or bound the search "
                         "(--depth, --time, --nodes)")


SPLITTABLE = ("minimax", "alphabeta", "expectimax", "maxn")


def _solve_split(args, game, algorithm, options):
    """The root moves searched by workers, one ply shallower; the root value is the best of
    theirs for the player to move, the best action the first move in move order that
    reaches it.  Alpha-beta on a zero-sum game shares a bound: the first root move is
    searched first (here), and its value is the alpha of every other move's search, so
    those only prove they are not better unless they are (young brothers wait, at the
    root).  The bound does not depend on the workers: results are identical for any N."""
    from framework.cli.parallel_options import drive
    from framework.parallel import Failure
    from framework.parallel.tasks import spec_payload
    from framework.search.result import Result, Stats
    root = game.initial_state()
    if algorithm not in SPLITTABLE or root.is_chance() or root.terminal_test():
        raise ValueError(f"--workers splits an exact or depth-limited {'/'.join(SPLITTABLE)} search "
                         "over the root moves of a decision node; run this one without --workers")
    for name in ("time_limit", "node_limit", "book"):
        if name in options:
            raise ValueError(f"a search split over workers takes no {_FLAGS.get(name, '--' + name)}: "
                             "each root move is searched to the end (or to --depth)")
    if options.get("depth") == 1:
        raise ValueError("--depth 1 has nothing to split: each root move is one evaluation")
    child_options = {k: v for k, v in options.items() if k not in ("progress", "trace")}
    if "depth" in child_options:
        child_options["depth"] -= 1
    moves = [game.action_text(a) for a in root.actions()]
    payload = spec_payload(args.spec)
    start = time.perf_counter()
    first = {}
    bound = None
    if algorithm == "alphabeta" and game.zero_sum and len(moves) > 1:
        from framework.parallel.tasks import solve_move
        first[0] = solve_move(payload, game.options, moves[0], algorithm, child_options)
        bound = first[0]["value"] if first[0]["exact"] else None
    tasks = [(i, (payload, game.options, move, algorithm, child_options, bound))
             for i, move in enumerate(moves) if i not in first]
    results, interrupted = drive(args, "framework.parallel.tasks:solve_move", tasks, label="root moves")
    if interrupted:
        raise KeyboardInterrupt
    results.update(first)
    failed = [(moves[i], r) for i, r in results.items() if isinstance(r, Failure)]
    if failed:
        move, failure = failed[0]
        raise ValueError(f"the search below {move} failed ({failure.kind}): {failure.message}")
    best = max(range(len(moves)), key=lambda i: (results[i]["value"], -i))
    counted = {name: sum(r.get(name, 0) for r in results.values())
               for name in ("expanded", "evaluations", "cutoffs", "tt_hits")}
    depths = [r["depth"] for r in results.values() if "depth" in r]     # a terminal child has none
    expanded = counted.pop("expanded")                                   # the root too, if the searcher counts
    stats = Stats(nodes=1 + sum(r["nodes"] for r in results.values()), expanded=expanded + (expanded > 0),
                  time_s=time.perf_counter() - start, **counted,   # depth 0: every line to its end
                  depth=options.get("depth") or (0 if 0 in depths else 1 + max(depths, default=0)))
    action = game.parse_action(root, moves[best])
    pv = [action] + _replay_pv(game, root.result(action), results[best].get("pv", []))
    return Result(algorithm, value=results[best]["value"], values=results[best].get("values"),
                  best_action=action, pv=pv, stats=stats,
                  complete=all(r["exact"] for r in results.values()),
                  extra={"root_moves": {m: results[i]["value"] for i, m in enumerate(moves)},
                         "root_upper_bounds": [m for i, m in enumerate(moves) if results[i].get("upper")]})


def _replay_pv(game, state, texts) -> list:
    pv = []
    for text in texts:
        action = game.parse_action(state, text)
        pv.append(action)
        state = state.result(action)
    return pv


def _progress_printer(game):
    """Report one line per progress call: a `Result` after each completed iteration
    (alpha-beta) or the `Stats` so far (other searchers)."""
    def report(update):
        stats = getattr(update, "stats", update)
        line = f"depth {stats.depth:>3}  nodes {stats.nodes:>12,}  {stats.time_s:8.2f} s"
        best = getattr(update, "best_action", None)
        if best is not None:
            line += f"  value {number_text(update.value)}  best {game.action_text(best)}"
        print(line, file=sys.stderr, flush=True)
    return report


def _finite(value):
    """`value` with infinite numbers written as the strings "inf" / "-inf" (strict JSON)."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


def _print_table(spec, game, result) -> None:
    from rich.table import Table
    stats = result.stats
    table = Table(title=f"{game.name} ({spec}) by {result.algorithm}", show_header=False)
    table.add_column(style="bold")
    table.add_column()
    whose = f"for {result.extra['player']}" if "player" in result.extra else "for the player to move"
    table.add_row("value", f"{number_text(result.value)}  ({whose})")
    if result.values is not None:
        table.add_row("values", ", ".join(f"{name} {number_text(v)}"
                                          for name, v in zip(game.player_names, result.values)))
    action = result.best_action
    table.add_row("best action", "-" if action is None else game.action_text(action))
    table.add_row("principal variation", " ".join(game.action_text(a) for a in result.pv) or "-")
    if "book" in result.extra:
        table.add_row("from the opening book", f"{result.extra['book']['games']} games")
    for key, label in (("pruning", "pruning"), ("player", "searched for"), ("iterations", "iterations")):
        if key in result.extra:
            table.add_row(label, str(result.extra[key]))
    for label, number in (("nodes", stats.nodes), ("evaluations", stats.evaluations),
                          ("cut-offs", stats.cutoffs), ("table hits", stats.tt_hits)):
        table.add_row(label, f"{number:,}")
    # depth 0 is how a searcher without iterations (paranoid, retrograde, an exact max-n or
    # expectimax) says it searched every line to its end
    table.add_row("depth", f"{stats.depth:,}" if stats.depth else "to the end" if result.complete else "-")
    rate = stats.nodes / stats.time_s if stats.time_s > 0 else 0
    table.add_row("time", f"{stats.time_s:.3f} s ({rate:,.0f} nodes/s)")
    if not result.complete:
        reason = "interrupted" if result.extra.get("interrupted") else "budget spent"
        table.add_row("complete", f"no ({reason}): best of the last completed iteration")
    table_console().print(table)
