"""Benchmark: plyspec against OpenSpiel (pyspiel, C++ games called from Python) in one run.

    nice python benchmarks/bench_pyspiel.py [--repeat 3] [--quick] [--cpu] [--only compound ...] [--game kalah]

Rows (best of --repeat interleaved runs each, ratios = pyspiel time / plyspec time, > 1 means plyspec
is faster; node counts are printed for both sides and must agree):

1. perft through the course interface: a plain recursion over `actions()`/`result()` of
   the compiled spec, the last ply counted (`len(actions())`) and not applied, against the
   same recursion over pyspiel (`apply_action`/`undo_action` where the game has undo,
   else `child()`), on tic-tac-toe d9, Connect Four d7 and Othello d7;
2. `framework.perft.perft`, the function `plyspec perft` runs, on the same games: it runs
   on the game's function-level kernel (framework/kernel.py);
3. alpha-beta on tic-tac-toe from the start with no enhancements (natural move order)
   against OpenSpiel's Python `alpha_beta_search`, through the course interface and on the
   kernel; both solve the game (value 0);
4. minimax over the whole tic-tac-toe tree (549,946 nodes) on the kernel against
   OpenSpiel's Python `expectiminimax` to depth 9 (value 0);
4b. expectimax (no pruning, no table) over the whole tree of Pig against OpenSpiel's
   Python `expectiminimax` on pyspiel's "pig" with the same win score, dice and horizon:
   benchmarks/pig_openspiel.yaml states OpenSpiel's rules, both trees have the same
   number of nodes (counted on the pyspiel side by a separate walk) and the same value;
4c. compound moves on the kernel: English draughts perft(7) against pyspiel's checkers (time
   per node; counts equal to ply 6), Brazilian draughts perft(6), Amazons 5x5 perft(2) and
   alpha-beta depth 2 (nodes/s; pyspiel's 6x6 Amazons perft(3), a whole move, beside it);
4d. `plyspec perft` on specs written from public rules in the styles a new user writes
   (benchmarks/specs/: Breakthrough 6x6, Kalah, Ultimate tic-tac-toe, Y, checkers with
   OpenSpiel's one-jump plies, Go 5x5 under OpenSpiel's rules, and five more; the shipped
   game_specs/oware.yaml, and the shipped go5.yaml, whose positional superko is a costlier
   rule than OpenSpiel's, with no target)
   against the same perft over pyspiel's games, counts equal (tests/test_stranger_specs.py
   checks them to smaller depths); `--game kalah` keeps only the rows of that game;
5. nodes/s of kernel perft from depth 4 (tic-tac-toe to 9, Connect Four to 7): flat (within
   ±20% of the middle of their range)?

Peak RSS of the process is printed at the end.  Requires `open_spiel` (the `bench` extra).
"""
from __future__ import annotations

import argparse
import pathlib
import resource
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from framework import load                          # noqa: E402
from framework.perft import perft                   # noqa: E402
from framework.search import alphabeta, expectimax, minimax     # noqa: E402

STRANGERS = (("Breakthrough 6x6", "breakthrough.yaml", {}, "breakthrough", {"rows": 6, "columns": 6}, 4),
             ("Kalah", "kalah.yaml", {}, "mancala", {}, 8),
             ("Ultimate tic-tac-toe", "ultimate_tictactoe.yaml", {}, "ultimate_tic_tac_toe", {}, 5),
             ("Y n=4", "y.yaml", {"n": 4}, "y", {"board_size": 4}, 6),
             ("checkers (OpenSpiel plies)", "checkers.yaml", {}, "checkers", {}, 6),
             ("Oware", "game_specs/oware.yaml", {}, "oware", {}, 7),     # the shipped spec (a path from the root)
             # OpenSpiel's rules (simple ko; a longer cycle ends the game drawn) ...
             ("Go 5x5", "go_openspiel.yaml", {}, "go", {"board_size": 5}, 5),
             # ... and the shipped spec's positional superko (no move may recreate a board), a costlier
             # rule: the same counts to this depth, no target
             ("Go 5x5 (positional superko)", "game_specs/go5.yaml", {}, "go", {"board_size": 5}, 4),
             ("Clobber 5x6", "clobber.yaml", {}, "clobber", {"rows": 5, "columns": 6}, 4),
             ("Dots and Boxes 2x2", "dots_and_boxes.yaml", {}, "dots_and_boxes", {}, 6),
             ("Pentago", "pentago.yaml", {}, "pentago", {}, 3),
             ("Havannah n=3", "havannah.yaml", {}, "havannah", {"board_size": 3}, 4),
             # a whole move here is three pyspiel plies: its perft(3 * depth), the leaves compared
             ("Amazons 6x6", "amazons6.yaml", {}, "amazons", {"board_size": 6}, 2, 3))

GAMES = (("tic-tac-toe", "tictactoe.yaml", "tic_tac_toe", 9),
         ("Connect Four", "connect_four.yaml", "connect_four", 7),
         ("Othello", "othello.yaml", "othello", 7))


def course_perft(state, depth):
    """Nodes 1..depth plies below `state` through the course interface (last ply counted)."""
    if state.terminal_test():
        return 0
    if depth == 1:
        return len(state.actions())
    total = 0
    for a in state.actions():
        child = state.result(a)
        total += 1 + course_perft(child, depth - 1)
    return total


def spiel_perft(state, depth, undo):
    """The same recursion over a pyspiel state: apply/undo when `undo`, else child()."""
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    if not undo:
        for a in actions:
            total += 1 + spiel_perft(state.child(a), depth - 1, undo)
        return total
    player = state.current_player()
    for a in actions:
        state.apply_action(a)
        total += 1 + spiel_perft(state, depth - 1, undo)
        state.undo_action(player, a)
    return total


def spiel_leaves(state, depth):
    """The positions exactly `depth` plies below a pyspiel state (`child()`)."""
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    return sum(spiel_leaves(state.child(a), depth - 1) for a in actions)


def has_undo(game):
    state = game.new_initial_state()
    a = state.legal_actions()[0]
    state.apply_action(a)
    try:
        state.undo_action(0, a)
    except Exception:                               # pyspiel raises SpielError / RuntimeError
        return False
    return True


SECTIONS = ("perft", "search", "expectimax", "compound", "strangers", "flatness", "memory")   # --only
GAMES_WANTED = []  # --game: the stranger rows whose label holds one of these words
CLOCK = [time.perf_counter]   # --cpu: time.process_time (the process's CPU time, every thread)


def best(fns, repeat):
    """[(best time, value)] of each function, the runs interleaved (fn1, fn2, ..., fn1, ...)
    so that a change of load on the shared machine touches every side alike.  Times are
    wall clock, or with --cpu the process's CPU time (both sides run in this one thread),
    which leaves out the time spent waiting for a core when other processes load the
    machine."""
    times, values = [[] for _ in fns], [None] * len(fns)
    clock = CLOCK[0]
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            start = clock()
            values[i] = fn()
            times[i].append(clock() - start)
    return [(min(t), v) for t, v in zip(times, values)]


def course_only(game, fn):
    """fn() with the game's kernel switched off: the searchers use the State objects."""
    def run():
        kernel, game.state_class._kernel = game.state_class._kernel, None
        try:
            return fn()
        finally:
            game.state_class._kernel = kernel
    return run


ROWS = []          # (work, nodes, ratio, target) of every row printed, for benchmarks/report.py
ISSUE_15, ISSUE_28 = 2.0, 1.0   # the targets: 2x on the tuned games, 1x (stretch 2x) on the others
NAMED = {"Breakthrough 6x6", "Kalah", "Ultimate tic-tac-toe", "Y n=4", "checkers (OpenSpiel plies)", "Go 5x5"}
# (the stranger games issue 28 sets 1x for; the other rows are its table's: measured, no target)


def row(work, nodes, t, t_spiel, note="", target=ISSUE_15):
    ROWS.append((work, nodes, t_spiel / t, target))
    print(f"{work:<44} {nodes:>10,} {t:>10.3f} {t_spiel:>10.3f} {t_spiel / t:>6.2f}x{note}")


def search_rows(repeat, quick):
    """Alpha-beta and minimax on tic-tac-toe against OpenSpiel's Python searchers."""
    from open_spiel.python.algorithms import minimax as spiel_minimax
    import pyspiel
    game = load(ROOT / "game_specs" / "tictactoe.yaml")
    off = dict.fromkeys(("tt", "ordering", "killers", "history", "id", "aspiration", "pvs", "quiescence"), False)
    sgame = pyspiel.load_game("tic_tac_toe")
    (t_sab, (svalue, _)), (t_course, course), (t_ab, result) = best(
        (lambda: spiel_minimax.alpha_beta_search(sgame, maximum_depth=10),
         course_only(game, lambda: alphabeta.search(game, **off)),
         lambda: alphabeta.search(game, **off)), repeat)
    assert course.stats.nodes == result.stats.nodes and course.value == result.value
    label = f"alpha-beta tic-tac-toe (value {result.value}/{svalue})"
    row(label + " course", course.stats.nodes, t_course, t_sab)
    row(label + " kernel", result.stats.nodes, t_ab, t_sab)
    start, sstart = game.initial_state(), sgame.new_initial_state()
    for action in [(1, 1), (0, 0)][:2 * quick]:          # --quick: a smaller tree
        start = start.result(action)
        sstart.apply_action(action[1] * 3 + action[0])
    (t_smm, (svalue, _)), (t_mm, result) = best(
        (lambda: spiel_minimax.expectiminimax(sstart.clone(), 9, None, sstart.current_player()),
         lambda: minimax.search(game, start)), repeat)
    row(f"minimax tic-tac-toe (value {result.value}/{svalue}) kernel", result.stats.nodes, t_mm, t_smm)


def spiel_tree_size(state):
    """Nodes of the whole tree below a pyspiel state, chance nodes included."""
    if state.is_terminal():
        return 1
    moves = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    return 1 + sum(spiel_tree_size(state.child(m)) for m in moves)


def expectimax_rows(repeat, quick):
    """Expectimax over the whole tree of Pig (win score 20, 6-sided die, horizon 7: 338,972
    nodes) against OpenSpiel's Python `expectiminimax`, the same tree on both sides."""
    from open_spiel.python.algorithms import minimax as spiel_minimax
    import pyspiel
    goal, sides, horizon = 20, 6, 7 - 2 * quick
    game = load(ROOT / "benchmarks" / "pig_openspiel.yaml", goal=goal, sides=sides, horizon=horizon)
    sgame = pyspiel.load_game("pig", {"winscore": goal, "diceoutcomes": sides, "horizon": horizon})
    plain = dict(star1=False, star2=False, tt=False)
    (t_spiel, (svalue, _)), (t_course, course), (t_kernel, result) = best(
        (lambda: spiel_minimax.expectiminimax(sgame.new_initial_state(), horizon + 1, None, 0),
         course_only(game, lambda: expectimax.search(game, **plain)),
         lambda: expectimax.search(game, **plain)), repeat)
    snodes = spiel_tree_size(sgame.new_initial_state())
    assert course.stats.nodes == result.stats.nodes and course.value == result.value
    same = "" if (snodes, round(svalue, 12)) == (result.stats.nodes, round(result.value, 12)) else \
        f"  MISMATCH pyspiel {snodes} nodes, value {svalue}"
    label = f"expectimax Pig {goal}/d{sides}/h{horizon} (value {result.value:.4f})"
    row(label + " course", course.stats.nodes, t_course, t_spiel, same)
    row(label + " kernel", result.stats.nodes, t_kernel, t_spiel, f"  (pyspiel {snodes:,} nodes){same}")


def stranger_rows(repeat, quick):
    """`plyspec perft` on the benchmarks/specs/ games against pyspiel's perft by `child()`
    (as the issue measured them; Ultimate tic-tac-toe's undo does not restore the state),
    counts equal."""
    import pyspiel
    for label, spec, options, spiel_name, params, depth, *split in STRANGERS:
        if GAMES_WANTED and not any(w.lower() in label.lower() for w in GAMES_WANTED):
            continue
        depth -= quick
        plies = split[0] if split else 1        # pyspiel plies a move takes here (Amazons: 3)
        game = load(ROOT / spec if "/" in spec else ROOT / "benchmarks" / "specs" / spec, **options)
        sgame = pyspiel.load_game(spiel_name, params)
        (t_spiel, n_spiel), (t_cmd, counts) = best(
            (lambda: spiel_perft(sgame.new_initial_state(), depth * plies, False),
             lambda: perft(game.initial_state(), depth)), repeat)
        if plies == 1:
            same = "" if sum(counts) == n_spiel else f"  MISMATCH pyspiel {n_spiel}"
            note = "(pyspiel child)"
        else:                                    # the same tree: its leaves are pyspiel's
            leaves = spiel_leaves(sgame.new_initial_state(), depth * plies)
            same = "" if counts[-1] == leaves else f"  MISMATCH pyspiel leaves {leaves}"
            note = f"(pyspiel child, perft({depth * plies}): {n_spiel:,} nodes of {plies} plies a move)"
        row(f"{label} perft({depth}) `plyspec perft`", sum(counts), t_cmd, t_spiel, f"  {note}{same}",
            ISSUE_28 if label in NAMED else None)


def flatness_rows(repeat):
    """Kernel perft nodes/s from depth 4 up (tic-tac-toe to 9, Connect Four to 7) and their
    spread around the middle of their range; a perft counts the last ply without building
    it, so its nodes/s follow the last ply's branching (constant in Connect Four, falling
    from 6 to 0.6 in tic-tac-toe's last plies) as well as the cost of a node."""
    for spec, top in (("tictactoe.yaml", 9), ("connect_four.yaml", 7)):
        game = load(ROOT / "game_specs" / spec)
        rates = []
        for depth in range(4, top + 1):
            (t, _), = best((lambda: perft(game.initial_state(), depth),), 1)
            number = max(1, round(0.05 / max(t, 1e-6)))   # a timed run of 50 ms at least (shallow depths)

            def runs():
                for _ in range(number):
                    found = perft(game.initial_state(), depth)
                return found
            (t, counts), = best((runs,), max(repeat, 5))
            t /= number
            rates.append((depth, sum(counts) / t / 1e6, counts[-1] / max(counts[-2] if depth > 1 else 1, 1)))
        values = [r for _, r, _ in rates]
        mid = (max(values) + min(values)) / 2
        spread = (max(values) - min(values)) / 2 / mid
        print(f"{game.name} kernel perft, million nodes/s: " + ", ".join(f"d{d} {r:.1f}" for d, r, _ in rates) +
              f"  (±{spread:.0%}{', flat' if spread <= 0.2 else ''}; last-ply branching "
              f"{rates[0][2]:.1f} at d{rates[0][0]}, {rates[-1][2]:.1f} at d{rates[-1][0]})")


def compound_rows(repeat, quick):
    """Compound moves on the kernel: English draughts perft(7) against pyspiel's checkers
    (child(); pyspiel agrees with the published counts to ply 6 and gives 179,255 at ply 7,
    so the counts are compared to ply 6 and the times per node), Brazilian draughts perft(6)
    (no pyspiel game), Amazons 5x5 perft(2) and alpha-beta at depth 2 (pyspiel's Amazons is
    6x6 and splits a move into three plies: its perft(3), one whole move, is timed for
    nodes/s only)."""
    import pyspiel
    depth = 7 - 2 * quick
    draughts = load(ROOT / "game_specs" / "draughts.yaml")
    checkers = pyspiel.load_game("checkers")
    (t_spiel, n_spiel), (t_cmd, counts) = best(
        (lambda: spiel_perft(checkers.new_initial_state(), depth, False),
         lambda: perft(draughts.initial_state(), depth)), repeat)
    to6 = spiel_perft(checkers.new_initial_state(), min(depth, 6), False)
    same = "" if to6 == sum(counts[:6]) else f"  MISMATCH to ply 6: pyspiel {to6}"
    per_node, spiel_per_node = t_cmd / sum(counts), t_spiel / n_spiel
    row(f"English draughts perft({depth}) `plyspec perft`, per node", sum(counts), per_node * sum(counts),
        spiel_per_node * sum(counts), f"  (pyspiel {n_spiel:,} nodes in {t_spiel:.3f} s){same}", ISSUE_28)
    for label, spec, d in (("Brazilian draughts", "brazilian_draughts.yaml", 6 - 2 * quick),
                           ("Amazons 5x5", "amazons.yaml", 2)):
        game = load(ROOT / "game_specs" / spec)
        (t, found), = best((lambda: perft(game.initial_state(), d),), repeat)
        print(f"{label} perft({d}) `plyspec perft`: {sum(found):,} nodes in {t:.3f} s "
              f"({sum(found) / t:,.0f} nodes/s), kernel")
        if label == "Brazilian draughts":       # "the same class": per node against pyspiel's checkers
            row(f"Brazilian draughts perft({d}) `plyspec perft`, per node against pyspiel's checkers",
                sum(found), t, spiel_per_node * sum(found), "  (no pyspiel game)", ISSUE_28)
    amazons = load(ROOT / "game_specs" / "amazons.yaml")
    (t_ab, result), = best((lambda: alphabeta.search(amazons, depth=2),), repeat)
    spiel_amazons = pyspiel.load_game("amazons", {"board_size": 6})      # (its default is 10x10)
    (t_sa, n_sa), = best((lambda: spiel_perft(spiel_amazons.new_initial_state(), 3, False),), repeat)
    print(f"Amazons 5x5 alpha-beta depth 2: {result.stats.nodes:,} nodes in {t_ab:.3f} s "
          f"({result.stats.nodes / t_ab:,.0f} nodes/s); pyspiel amazons (6x6) perft(3), one whole move: "
          f"{n_sa:,} nodes in {t_sa:.3f} s ({n_sa / t_sa:,.0f} nodes/s)")


def memory_rows():
    """Bytes a transposition-table entry and an MCTS node take (tracemalloc, Connect Four)."""
    import tracemalloc
    from framework.search import mcts
    from framework.search.tt import TranspositionTable
    game = load(ROOT / "game_specs" / "connect_four.yaml")
    tracemalloc.start()
    table = TranspositionTable.from_megabytes(16)
    tt_bytes = tracemalloc.get_traced_memory()[0] / table.capacity
    tracemalloc.stop()
    tracemalloc.start()
    tree = mcts.UCTSearch(game, seed=1)
    tree.run(iterations=3000)
    node_bytes = tracemalloc.get_traced_memory()[0] / tree.nodes
    tracemalloc.stop()
    print(f"memory: transposition table {tt_bytes:.0f} bytes/entry ({table.capacity:,} entries in --tt-mb 16), "
          f"MCTS {node_bytes:.0f} bytes/node (Connect Four, {tree.nodes:,} nodes)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs per row; the best is kept")
    ap.add_argument("--quick", action="store_true", help="two plies less on every game (smoke test)")
    ap.add_argument("--cpu", action="store_true", help="time CPU time, not wall-clock (a loaded machine)")
    ap.add_argument("--only", choices=SECTIONS, action="append",
                    help="run only these groups of rows (repeatable; default: all)")
    ap.add_argument("--game", action="append", default=[], metavar="WORD",
                    help="strangers rows: only those whose game holds WORD (repeatable), e.g. --game kalah")
    args = ap.parse_args(argv)
    GAMES_WANTED[:] = args.game
    wanted = set(args.only or SECTIONS)
    CLOCK[0] = time.process_time if args.cpu else time.perf_counter
    import pyspiel
    print(f"python {sys.version.split()[0]}, pyspiel {getattr(pyspiel, '__version__', '?')}, best of {args.repeat}"
          f"{', CPU time' if args.cpu else ''}")
    print(f"{'work':<44} {'nodes':>10} {'plyspec s':>10} {'pyspiel s':>10} {'ratio':>7}")
    for label, spec, spiel_name, depth in GAMES if "perft" in wanted else ():
        depth -= 2 * args.quick
        game = load(ROOT / "game_specs" / spec)
        sgame = pyspiel.load_game(spiel_name)
        undo = has_undo(sgame)
        (t_spiel, n_spiel), (t_course, n_course), (t_cmd, counts) = best(
            (lambda: spiel_perft(sgame.new_initial_state(), depth, undo),
             lambda: course_perft(game.initial_state(), depth),
             lambda: perft(game.initial_state(), depth)), args.repeat)
        how = "undo" if undo else "child"
        for work, t, n in ((f"{label} perft({depth}) course interface", t_course, n_course),
                           (f"{label} perft({depth}) `plyspec perft`", t_cmd, sum(counts))):
            same = "" if n == n_spiel else f"  MISMATCH pyspiel {n_spiel}"
            row(work, n, t, t_spiel, f"  (pyspiel {how}){same}")
    for name, rows in (("search", search_rows), ("expectimax", expectimax_rows), ("compound", compound_rows),
                       ("strangers", stranger_rows)):
        if name in wanted:
            rows(args.repeat, args.quick)
    if "flatness" in wanted:
        flatness_rows(args.repeat)
    if "memory" in wanted:
        memory_rows()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak RSS {rss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
