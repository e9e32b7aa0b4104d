"""The shared conformance suite on every shipped spec (discovered, both syntaxes of a game),
and `plyspec test` on deliberately broken specs: it names the property, shows the shortest
action sequence and exits 1."""
from __future__ import annotations

import json

import pytest

from framework.cli import main
from framework.conformance import FAILED, NOT_APPLICABLE, PASSED, SpecReport, check_spec, check_text
from framework.conformance.discover import shipped_specs, spec_kind
from framework.conformance.games import PROPERTIES
from framework.conformance.golden import golden_path, read_golden
from tests.conftest import COSTLY, ROOT, by_cost, costly

EXAMPLES = 50
SPECS = [p if p.is_absolute() else ROOT / p for p in shipped_specs()]
GAMES = [p for p in SPECS if spec_kind(p) == "game"]


def test_discovery_finds_both_spec_directories_and_both_syntaxes():
    names = {p.relative_to(ROOT).as_posix() for p in SPECS}
    assert {p.relative_to(ROOT).as_posix() for p in (ROOT / "game_specs").glob("*.*")
            if p.suffix in (".yaml", ".game")} <= names
    assert {p.relative_to(ROOT).as_posix() for p in (ROOT / "planners/data/problems").glob("*.*")
            if p.suffix in (".yaml", ".plan")} <= names
    assert any(p.suffix == ".game" for p in SPECS) and any(p.suffix == ".plan" for p in SPECS)


# The .game version of a game that also ships as YAML: both compile to one module, so its
# full-size check would repeat the YAML version's playouts state for state; the default run
# checks it on the smaller budget (unless the two compile differently), `-m slow` at full size.
OTHER_SYNTAX = [p for p in GAMES if p.suffix == ".game" and p.with_suffix(".yaml") in GAMES]


def _in_default_run_at_full_size(spec) -> bool:
    return not costly("conformance", spec) and spec not in OTHER_SYNTAX


@pytest.mark.parametrize("spec", [s if _in_default_run_at_full_size(s) else pytest.param(s, marks=pytest.mark.slow)
                                  for s in SPECS], ids=lambda p: p.relative_to(ROOT).as_posix())
def test_shipped_spec_conforms(spec):
    """Every property at full size (the costly games' and the .game twins' under `-m slow`)."""
    _conforms_at_full_size(spec)


def _conforms_at_full_size(spec):
    report = check_spec(spec, examples=EXAMPLES)
    assert not report.failed, report.text()
    assert report.outcome("loads").status == PASSED
    if report.kind == "game":
        assert [o.name for o in report.outcomes] == list(PROPERTIES)
        _pruning_as_documented(spec, report)
    else:
        assert report.outcome("plan_replays_to_goal").status == PASSED, report.text()


def _pruning_as_documented(spec, report):
    pruning = {"tictactoe3": PASSED, "isolation3": NOT_APPLICABLE}   # what docs/conformance.md says
    if spec.stem in pruning:
        assert report.outcome("maxn_pruning_is_exact").status == pruning[spec.stem], report.text()


COSTLY_GAMES = [p for p in GAMES if costly("conformance", p)]


@pytest.mark.parametrize("spec", COSTLY_GAMES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_costly_spec_conforms_on_a_smaller_budget(spec, monkeypatch):
    """The default run's check of the games whose full-size check is in the slow group: every
    property, on fewer states (breadth-first, exhaustive, lockstep with the interpreter) and
    fewer playouts, the golden perft of each option set while the next ply builds at most
    1,000 states (chess's file holds seven positions to 4.9 million nodes)."""
    _conforms_on_a_smaller_budget(spec, monkeypatch)


@pytest.mark.parametrize("spec", [p for p in OTHER_SYNTAX if not costly("conformance", p)],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_game_syntax_twin_conforms_on_a_smaller_budget(spec, monkeypatch):
    """A .game file whose YAML version (checked at full size) compiles to the same module: every
    property on the smaller budget; compiled differently, it gets the full-size check."""
    import framework
    if framework.load(spec).python_source != framework.load(spec.with_suffix(".yaml")).python_source:
        _conforms_at_full_size(spec)
    else:
        _conforms_on_a_smaller_budget(spec, monkeypatch)


def _conforms_on_a_smaller_budget(spec, monkeypatch):
    from framework.conformance import cycles, differential, games
    monkeypatch.setattr(games, "SWEEP_STATES", 200)
    monkeypatch.setattr(games, "MAX_GOLDEN_STATES", 1_000)
    monkeypatch.setattr(cycles, "BFS_STATES", 500)
    monkeypatch.setattr(cycles, "PLAYOUTS", 4)
    monkeypatch.setattr(differential, "BFS_STATES", 20)
    monkeypatch.setattr(differential, "PLAYOUTS", 1)
    name, outcomes = games.check_game(spec, examples=3, exhaustive=2_000)
    report = SpecReport(str(spec), "game", name, outcomes)
    assert not report.failed and [o.name for o in outcomes] == list(PROPERTIES), report.text()
    assert "20 states nearest the start and 1 random" in report.outcome(differential.NAME).detail
    assert report.outcome(cycles.NAME).status == NOT_APPLICABLE \
        or "up to 500 states breadth-first and on 4 playouts" in report.outcome(cycles.NAME).detail
    _pruning_as_documented(spec, report)


def test_the_cost_list_names_shipped_games():
    """A misspelt or stale entry in tests/conftest.py's COSTLY would leave a costly check in
    the default run without a word."""
    assert set(COSTLY) <= {p.stem for p in GAMES}


@pytest.mark.parametrize("spec", GAMES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_game_has_reviewed_golden_perft_counts(spec):
    """A new game spec needs a golden file (written with `plyspec perft --write-golden`)."""
    entries = read_golden(golden_path(spec))
    assert entries, f"no golden perft counts for {spec.name}: plyspec perft {spec} -d N --write-golden"
    assert all(len(counts) >= 3 or sum(counts) >= 100 for _, counts in entries)


OVERPAID = """game: Overpaid
players: [A, B]
state:
  n: {type: 0..20, initial: 0}
actions:
  step(k in 1..2): n += k
terminal: n >= 6
utility: "n - 5"
utility_bounds: [-1, 1]
"""

FOREVER = """game: Forever
players: [A, B]
state:
  n: {type: 0..1, initial: 0}
actions:
  flip: n = 1 - n
terminal: false
winner: none
"""

LEAKY_DIE = """game: Leaky die
players: [A]
state:
  total: {type: 0..30, initial: 0}
  rolls: {type: 0..3, initial: 0}
actions:
  roll:
    chance: d in 1..3
    probability: 1 / 4
    then: total += d; rolls += 1
terminal: rolls == 3
utility: {A: total}
"""


def run_cli(capsys, *args):
    code = main(["test", *map(str, args)])
    return code, capsys.readouterr().out


def test_utility_outside_its_bounds_is_reported_with_the_shortest_sequence(tmp_path, capsys):
    spec = tmp_path / "overpaid.yaml"
    spec.write_text(OVERPAID)
    code, out = run_cli(capsys, spec, "--examples", 20)
    assert code == 1
    assert "failed  utilities_within_bounds" in out and "outside the declared bounds [-1, 1]" in out
    code, out = run_cli(capsys, spec, "--examples", 20, "--json")
    result = json.loads(out)
    assert code == 1 and not result["ok"]
    (bad,) = [p for p in result["specs"][0]["properties"] if p["status"] == FAILED]
    # n must reach 7 in steps of 1 or 2 without passing through 6 or more: 4 steps at least
    assert bad["property"] == "utilities_within_bounds" and len(bad["counterexample"]) == 4
    assert all(t in ("step(1)", "step(2)") for t in bad["counterexample"])


def test_a_game_that_never_ends_fails_at_the_playout_limit(tmp_path, capsys):
    spec = tmp_path / "forever.yaml"
    spec.write_text(FOREVER)
    code, out = run_cli(capsys, spec, "--examples", 3, "--max-length", 50, "--json")
    assert code == 1
    bad, cycle = [p for p in json.loads(out)["specs"][0]["properties"] if p["status"] == FAILED]
    assert bad["property"] == "playouts_terminate" and "after 50 plies" in bad["detail"]
    assert bad["counterexample"] == ["flip"] * 50
    assert cycle["property"] == "positions_do_not_repeat" and cycle["counterexample"] == ["flip"] * 2


def test_non_normalised_chance_probabilities_are_reported():
    report = check_text(LEAKY_DIE, examples=10)
    (bad,) = report.failed
    assert bad.name == "chance_outcomes_well_formed" and "sum to 0.75" in bad.detail
    assert bad.counterexample == ["roll"]
    assert report.outcome("pickle_round_trip").status == NOT_APPLICABLE   # loaded from text


def test_an_unreachable_planning_goal_fails(tmp_path, capsys):
    spec = tmp_path / "stuck.yaml"
    spec.write_text("problem: Stuck\nobjects: {thing: [a]}\npredicates: [Here(x - thing), Gone]\n"
                    "actions:\n  Wave(x - thing):\n    pre: [Here(x)]\n    add: [Here(x)]\n"
                    "init: [Here(a)]\ngoal: [Gone]\n")
    code, out = run_cli(capsys, spec)
    assert code == 1 and "failed  plan_replays_to_goal" in out


def test_a_good_spec_passes_and_a_broken_one_is_a_load_failure(tmp_path, capsys):
    code, out = run_cli(capsys, ROOT / "game_specs" / "tictactoe.yaml", "--examples", 5)
    assert code == 0 and "passed  perft_matches_golden" in out and "0 failed" in out
    broken = tmp_path / "broken.yaml"
    broken.write_text(OVERPAID.replace("n - 5", "m - 5"))
    code, out = run_cli(capsys, broken, "--examples", 5)
    assert code == 1 and "failed  loads" in out and "unknown name `m`" in out


def test_golden_counts_are_checked_per_option_set(tmp_path, capsys):
    spec = tmp_path / "nim.yaml"
    spec.write_text((ROOT / "game_specs" / "nim.yaml").read_text())
    (tmp_path / "golden").mkdir()
    golden_path(spec).write_text('{"default": [12, 113, 810], "{\\"heaps\\": [2, 2]}": [4, 10, 12, 7]}')
    report = check_spec(spec, examples=3)
    assert report.outcome("perft_matches_golden").status == FAILED
    assert "ply 4 has 6 nodes" in report.outcome("perft_matches_golden").detail
    code, out = run_cli(capsys, spec, "--examples", 3, "--set", "heaps=[1,2]")
    assert code == 0 and "n/a     perft_matches_golden" in out


def test_searcher_cross_checks_run_where_pruning_applies():
    """Max-n shallow pruning is on for non-negative utilities with a bounded sum (two
    players here: no 3+ player spec can declare a constant sum), and is cross-checked."""
    nim_for_points = (ROOT / "game_specs" / "nim.yaml").read_text().replace(
        "winner: mover", 'utility: {P1: "1 if mover == P1 else 0", P2: "1 if mover == P2 else 0"}')
    report = check_text(nim_for_points, options={"heaps": [2, 3]}, examples=10)
    assert not report.failed, report.text()
    assert report.outcome("maxn_pruning_is_exact").status == PASSED
    assert report.outcome("alphabeta_equals_minimax").status == PASSED


def test_a_rule_that_fails_during_play_is_reported_with_the_shortest_sequence():
    count = ("game: Count\nplayers: [A]\nstate:\n  n: {type: 0..3, initial: 0}\nactions:\n"
             "  up: n += 1\n  stay: n += 0\nterminal: false\nutility: {A: n}\n")
    report = check_text(count, examples=20, max_length=30)
    bad = report.outcome("playing_raises_no_error")
    assert bad.status == FAILED and "outside its range 0..3" in bad.detail
    assert bad.counterexample == ["up"] * 4
    assert report.outcome("playouts_terminate").status != PASSED   # no playout got to its end


def test_perft_write_golden_fills_the_file_the_suite_reads(tmp_path, capsys):
    spec = tmp_path / "nim.yaml"
    spec.write_text((ROOT / "game_specs" / "nim.yaml").read_text())
    assert main(["perft", str(spec), "-d", "2", "--write-golden"]) == 0
    assert main(["perft", str(spec), "-d", "4", "--set", "heaps=[2,2]", "--write-golden"]) == 0
    capsys.readouterr()
    assert read_golden(tmp_path / "golden" / "nim.perft.json") == [({}, [12, 113]),
                                                                   ({"heaps": [2, 2]}, [4, 10, 12, 6])]
    assert check_spec(spec, examples=3).outcome("perft_matches_golden").status == PASSED


def test_yaml_and_plan_versions_that_disagree_are_reported(tmp_path):
    problems = ROOT / "planners" / "data" / "problems"
    (tmp_path / "hanoi.yaml").write_text((problems / "hanoi.yaml").read_text())
    (tmp_path / "hanoi.plan").write_text((problems / "hanoi.plan").read_text()
                                         .replace("On(D{disks}, P3)", "On(D{disks}, P2)"))
    report = check_spec(tmp_path / "hanoi.yaml")
    bad = report.outcome("syntaxes_agree")
    assert bad.status == FAILED and "the goal differ" in bad.detail


def test_a_chance_outcome_in_a_counterexample_is_written_with_its_variable():
    die = LEAKY_DIE.replace("1 / 4", "1 / 3").replace("rolls == 3", "rolls == 1") + "utility_bounds: [0, 2]\n"
    report = check_text(die, examples=20)
    (bad,) = report.failed
    assert bad.name == "utilities_within_bounds" and bad.counterexample == ["roll", "d=3"]


def test_an_initial_state_that_cannot_be_built_is_a_failure_not_a_crash(capsys, tmp_path):
    spec = tmp_path / "bad_start.yaml"
    spec.write_text("game: Bad start\nplayers: [A]\nstate:\n  n: {type: 0..3, initial: 0}\n"
                    "init: n += 5\nactions:\n  up: n += 1\nterminal: n == 3\nutility: {A: n}\n")
    code, out = run_cli(capsys, spec, "--examples", 3)      # the loader builds the initial state
    assert code == 1 and "failed  loads" in out
    assert "bad_start.yaml:4:3: error: state variable `n` would become 5, outside its range 0..3" in out


def test_utilities_above_the_bound_on_their_sum_fail(monkeypatch):
    path = ROOT / "game_specs" / "tictactoe3.yaml"
    text = path.read_text()
    assert check_spec(path, examples=3).outcome("utilities_sum_as_declared").status == PASSED
    from framework.checker import Checker       # as if the checker inferred a wrong bound
    monkeypatch.setattr(Checker, "_max_utility_sum", lambda self, n: 0.5)
    bad = check_text(text, examples=30).outcome("utilities_sum_as_declared")
    assert bad.status == FAILED and "above the game's bound 0.5 on their sum" in bad.detail


# issue 23 item 10: a 4x4 Connect-3 whose terminal forgets full(board); 18 full boards without
# a line are reachable, only at ply 16, which random playouts rarely reach
CONNECT_THREE = """game: Connect Three
players: [R, Y]
board: {width: 4, height: 4, cells: [empty, R, Y]}
actions:
  drop(column in 0..3):
    if: board[(column, 0)] == empty
    then: board[drop(board, column)] = mover
terminal: line(board, 3, R) or line(board, 3, Y)
winner: R if line(board, 3, R) else Y if line(board, 3, Y) else none
"""


def test_a_small_game_is_explored_whole_so_a_state_without_moves_is_found(tmp_path, capsys):
    from framework.conformance.playouts import EXHAUSTIVE_STATES
    spec = tmp_path / "connect3.yaml"
    spec.write_text(CONNECT_THREE)
    code, out = run_cli(capsys, spec, "--json")           # default options
    assert code == 1
    failed = {p["property"]: p for p in json.loads(out)["specs"][0]["properties"] if p["status"] == FAILED}
    bad = failed["actions_exist_exactly_at_nonterminal_states"]   # a random playout may also end in
    # that state and fail another property there (the seed is random): the exhaustive pass finds it
    assert len(bad["counterexample"]) == 16 and "without actions" in bad["detail"]
    fixed = spec.with_name("fixed.yaml")
    fixed.write_text(CONNECT_THREE.replace("terminal: line(board, 3, R)", "terminal: full(board) or line(board, 3, R)"))
    report = check_spec(fixed, examples=5)
    assert not report.failed, report.text()
    assert "every one of the 41,750 reachable states" in report.outcome("actions_exist_exactly_at_nonterminal_states").detail
    assert 41_750 <= EXHAUSTIVE_STATES
