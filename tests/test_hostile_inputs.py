"""Broken and hostile inputs (issues 23 and 24): files read back (opening books, golden
perft files, results journals), `--set` values, names, numbers, agent options and the
budgets that bound work before it starts.  Each is one clear error (the file, and its
line where there is one), exit 1 (2 for a usage error), never a traceback, a hang or a
wrong answer."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import framework
from framework.cli import main
from framework.errors import SpecError

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "game_specs"
GRIPPER = ROOT / "planners" / "data" / "pddl" / "gripper"
HEX = "0x" + "f" * 5000


def run(args, capsys):
    """(exit status, stderr) of `plyspec ARGS` run in this process."""
    status = main([str(a) for a in args])
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    return status, err


def deep(text: str) -> str:
    """`text`, or for "DEEP" a JSON line nested 100,000 levels (past the parser's recursion)."""
    return "[" * 100_000 + "]" * 100_000 if text == "DEEP" else text


def one_error(err: str) -> str:
    """The error line of stderr (there is exactly one)."""
    lines = [line for line in err.splitlines() if "error:" in line]
    assert len(lines) == 1, err
    return lines[0]


# --- opening books (issue 23, item 7) -------------------------------------------------------

BOOK_HEAD = '"format": "plyspec-book/1", "game": "Tic-tac-toe", "options": {"m": 3, "n": 3, "k": 3}'


@pytest.mark.parametrize("text,why", [
    ("[1, 2]", "the file is a list, not an object"),
    ("{}", "the file has no `format`"),
    ('{"format": "plyspec-book/1", "game": "Tic-tac-toe"}', "the file has no `positions`"),
    ("{" + BOOK_HEAD + ', "positions": []}', "`positions` is a list, not an object"),
    ("{" + BOOK_HEAD + ', "positions": {"a": {"b": [0, 1]}}}', "game count in position a is 0"),
    ("{" + BOOK_HEAD + ', "positions": {"a": {"b": ["x", 1]}}}', 'is the text "x", not a whole number'),
    ("{" + BOOK_HEAD + ', "positions": {"a": {"b": [1, "y"]}}}', "not a finite number"),
    ("{" + BOOK_HEAD + ', "positions": {}, "games": 0}', "`games` is 0, less than 1"),
    ("DEEP", "nests its JSON too deeply"),
    ('{"format": 1', "is not valid JSON"),
])
def test_a_book_that_is_not_a_book_is_one_error(tmp_path, capsys, text, why):
    book = tmp_path / "book.json"
    book.write_text(deep(text))
    status, err = run(["solve", SPECS / "tictactoe.yaml", "--book", book], capsys)
    assert status == 1
    line = one_error(err)
    assert line.startswith(f"{book}") and why in line, err
    # the same through an agent's book= option, before any game is played
    status, err = run(["match", "tictactoe", "--agent", f"alphabeta:book={book}", "--agent", "random",
                       "--games", "1", "--workers", "0"], capsys)
    assert status == 1 and why in one_error(err)


def test_a_book_of_another_game_is_refused(tmp_path, capsys):
    book = tmp_path / "book.json"
    assert main(["book", "tictactoe", "-o", str(book), "--games", "5", "--plies", "1"]) == 0
    capsys.readouterr()
    status, err = run(["solve", "tictactoe", "--set", "m=4", "--book", book], capsys)
    assert status == 1 and "an opening book for 'Tic-tac-toe' with options" in one_error(err)


def test_a_book_that_is_a_folder_or_a_fifo_is_refused(tmp_path, capsys):
    import os
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for path in (tmp_path, fifo):
        status, err = run(["solve", "tictactoe", "--book", path], capsys)
        assert status == 1 and str(path) in one_error(err)


# --- golden perft files -------------------------------------------------------------------

@pytest.mark.parametrize("text,why", [
    ('{"default": [9, 72, "x"]}', 'a count of \'default\' is the text "x"'),
    ('{"{bad": [9]}', "is neither 'default' nor the JSON of an options object"),
    ('{"default": [9, -1]}', "is -1, less than 0"),
    ("[]", "the file is a list, not an object"),
    ("DEEP", "nests its JSON too deeply"),
])
def test_a_wrong_golden_file_fails_its_property_naming_the_file(tmp_path, text, why):
    from framework.conformance import check_spec
    (tmp_path / "golden").mkdir()
    spec = tmp_path / "tictactoe.yaml"
    spec.write_text((SPECS / "tictactoe.yaml").read_text())
    gold = tmp_path / "golden" / "tictactoe.perft.json"
    gold.write_text(deep(text))
    outcome = check_spec(spec, examples=3).outcome("perft_matches_golden")
    assert outcome.status == "failed" and outcome.detail.startswith(str(gold)) and why in outcome.detail


def test_golden_perft_stops_at_its_budget(tmp_path):
    """A 6x6 board with 20 plies listed: the plies are checked while counting the next one
    builds at most MAX_GOLDEN_STATES states (ply 4 here), not for minutes."""
    from framework.conformance import check_spec
    from framework.conformance.golden import MAX_GOLDEN_STATES
    from framework.perft import perft
    (tmp_path / "golden").mkdir()
    spec = tmp_path / "tictactoe.yaml"
    spec.write_text((SPECS / "tictactoe.yaml").read_text().replace("{m: 3, n: 3, k: 3}", "{m: 6, n: 6, k: 3}"))
    true = perft(framework.load(spec).initial_state(), 4)
    assert sum(true[:3]) <= MAX_GOLDEN_STATES < sum(true)     # ply 5 would build 1.4 million
    (tmp_path / "golden" / "tictactoe.perft.json").write_text(json.dumps({"default": true + [1] * 16}))
    outcome = check_spec(spec, examples=3).outcome("perft_matches_golden")
    assert outcome.status == "passed"
    assert "to ply 4 (of 20: deeper plies build more than 1,000,000 states)" in outcome.detail


# --- --set values and names (issue 23, item 7) ---------------------------------------------

@pytest.mark.parametrize("pair,why", [
    ("heaps=[[1]]", "a value is a number, true/false, or a list of those"),
    ("heaps={a: 1}", "a value is a number, true/false, or a list of those"),
    ("heaps=" + HEX, "a number of more than 100 digits"),
    ("heaps=[.inf]", "inf is not a finite number"),
    ("he\x00aps=1", "`he\\x00aps` is not an option name"),
    ("he\udc80aps=1", "`he\\udc80aps` is not an option name"),
])
def test_set_values_and_names_are_usage_errors(capsys, pair, why):
    status, err = run(["check", "nim", "--set", pair], capsys)
    assert status == 2 and why in one_error(err)
    assert "\x00" not in err


def test_an_unhashable_option_value_through_the_api_is_a_positioned_error():
    with pytest.raises(SpecError) as err:
        framework.load("nim", heaps=[[1]])
    assert "option `heaps` must be a list of whole numbers" in str(err.value)
    assert (err.value.line, err.value.col) == (3, 11)


NIM = (SPECS / "nim.yaml").read_text()


@pytest.mark.parametrize("old,new,where,message", [
    ("game: Misère Nim", 'game: "Mis\\0ère"', "1:7", "the game's name holds the character U+0000"),
    ("game: Misère Nim", 'game: "Mis\\ud800"', "1:7", "the game's name holds the character U+D800"),
    ("players: [P1, P2]", 'players: ["P\\0", P2]', "2:11", "player `P\\x00` is not a valid name"),
    ("players: [P1, P2]", 'players: ["P\\ud800", P2]', "2:11", "player `P\\ud800` is not a valid name"),
    ("{heaps: [3, 4, 5]}", '{heaps: [3, 4, 5], "x\\0": 1}', "3:29", "option `x\\x00` is not a valid name"),
    ("{heaps: [3, 4, 5]}", '{heaps: [3, 4, 5], "x\\ud800": 1}', "3:29", "option `x\\ud800` is not a valid name"),
])
def test_names_with_nul_or_a_lone_surrogate_are_positioned_errors(tmp_path, capsys, old, new, where, message):
    spec = tmp_path / "nim.yaml"
    spec.write_text(NIM.replace(old, new))
    status, err = run(["check", spec], capsys)
    assert status == 1
    assert one_error(err).startswith(f"{spec}:{where}: error: {message}"), err
    assert "\x00" not in err


def test_game_format_name_is_checked_too(tmp_path, capsys):
    text = (SPECS / "tictactoe.game").read_text().replace('game "Tic-tac-toe"', 'game "Tic\\u0000"')
    spec = tmp_path / "t.game"
    spec.write_text(text)
    status, err = run(["check", spec], capsys)
    assert status == 1 and "the game's name holds the character U+0000" in one_error(err)


def test_planning_names_and_options_are_checked(tmp_path, capsys):
    spare = (ROOT / "planners" / "data" / "problems" / "spare_tire.yaml").read_text()
    spec = tmp_path / "s.yaml"
    spec.write_text(spare.replace("problem: Spare tire", 'problem: "Spare\\0"'))
    status, err = run(["check", spec], capsys)
    assert status == 1 and "the problem name holds the character U+0000" in one_error(err)
    spec.write_text("options: {n: " + HEX + "}\n" + spare)
    status, err = run(["check", spec], capsys)
    assert status == 1 and one_error(err).startswith(f"{spec}:1:14: error: option `n`")
    status, err = run(["plan", "hanoi", "--set", "disks=" + "9" * 50], capsys)
    assert status == 2 and "a whole number from -1,000,000,000 to 1,000,000,000" in one_error(err)


# --- numbers (issue 24, item 8) -------------------------------------------------------------

PIG = (SPECS / "pig.yaml").read_text()


def test_a_folded_constant_that_overflows_never_reaches_generated_code(tmp_path, capsys):
    spec = tmp_path / "pig.yaml"
    spec.write_text(PIG.replace("turn_limit: 0}", "turn_limit: 0, p: 1.7e+308}")
                    .replace('lead: "(score', 'lead: "(p + p + score'))
    for command in (["check", spec], ["solve", spec, "--depth", "2"]):
        status, err = run(command, capsys)
        assert status == 1
        assert one_error(err).startswith(f"{spec}:20:11: error: this constant is too large for a number")


@pytest.mark.parametrize("section", ["options: {heaps: [3, 4, 5], p: HEX}", "constant_sum: HEX",
                                     "utility_bounds: [-1, HEX]"])
def test_numbers_of_thousands_of_digits_are_positioned_errors(tmp_path, capsys, section):
    spec = tmp_path / "nim.yaml"
    text = NIM.replace("options: {heaps: [3, 4, 5]}", section.replace("HEX", HEX)) \
        if section.startswith("options") else NIM + section.replace("HEX", HEX) + "\n"
    spec.write_text(text)
    status, err = run(["check", spec], capsys)
    assert status == 1
    line = one_error(err)
    assert line.startswith(f"{spec}:") and "has 5,002 characters, more than a number may have (100)" in line


# --- agent options (issue 24, item 10) -----------------------------------------------------

@pytest.mark.parametrize("agent,why", [
    ("alphabeta:trace=1", "agent 'alphabeta' has no option 'trace'"),
    ("alphabeta:window=x", "window='x' in agent 'alphabeta:window=x': expected LOW..HIGH"),
    ("alphabeta:window=2..1", "expected LOW..HIGH, two finite numbers with LOW < HIGH"),
    ("expectimax:bounds=x", "bounds='x' in agent 'expectimax:bounds=x': expected LOW..HIGH"),
    ("paranoid:player=[1]", "player=[1] in agent 'paranoid:player=[1]': expected a player index"),
    ("paranoid:player=7", "player index 7 out of range 0..1"),
    ("paranoid:player=Q", "no player 'Q'"),
    ("alphabeta:tt=3", "tt=3 in agent 'alphabeta:tt=3': expected true or false"),
])
def test_agent_options_are_checked_before_anything_runs(capsys, agent, why):
    status, err = run(["match", "tictactoe", "--agent", agent, "--agent", "random", "--games", "1",
                       "--workers", "0"], capsys)
    assert status == 2 and why in one_error(err)
    assert "game 1" not in err                       # no game was started


def test_agent_pairs_and_players_work_when_well_formed():
    from framework.agents import parse_agent
    game = framework.load("tictactoe")
    assert parse_agent("alphabeta:window=-1..1,depth=2").options["window"] == (-1, 1)
    assert parse_agent("expectimax:bounds=-1.5..2").options["bounds"] == (-1.5, 2)
    assert parse_agent("paranoid:player=O", game).options["player"] == 1
    agent = parse_agent("alphabeta:window=-1..1,depth=2", game)
    assert agent.choose(game, game.initial_state()) in game.initial_state().actions()


def test_every_searcher_option_has_a_checked_kind():
    """No agent option is passed through unchecked: each is a number, a switch (with a
    boolean default) or one of the other kinds."""
    import inspect
    from framework.agents import OPTION_VALUES, OTHER_VALUES, _search_parameters
    from framework.search.registry import GAME_SEARCHERS, searcher
    for name in GAME_SEARCHERS:
        defaults = {p.name: p.default for p in inspect.signature(searcher(name)).parameters.values()}
        for option in _search_parameters(name):
            assert option in OPTION_VALUES or option in OTHER_VALUES or \
                isinstance(defaults[option], bool), (name, option)


# --- journals (issue 24, item 6) -----------------------------------------------------------

MATCH = ["match", "tictactoe", "--agent", "random", "--agent", "first", "--games", "4", "--workers", "0",
         "--quiet"]


@pytest.fixture()
def journal(tmp_path, capsys):
    path = tmp_path / "m.jsonl"
    assert main(MATCH + ["-o", str(path)]) == 0
    capsys.readouterr()
    return path


def _record(key, seats, **changes):
    record = {"key": key, "index": key, "seats": seats, "returns": [1, -1], "plies": 5,
              "thinking": [0.0, 0.0], "moves": [3, 2]}
    record.update(changes)
    return {k: v for k, v in record.items() if v is not ...}


@pytest.mark.parametrize("line,why", [
    (json.dumps(_record(9, [1, 0])), "its key 9 is not a task of this run"),
    (json.dumps(_record(3, [0, 0])), "its seats are [0, 0]; game 4 seats the agents [1, 0]"),
    (json.dumps(_record(3, [1, 0], returns=...)), "the record has no `returns`"),
    (json.dumps(_record(3, [1, 0], returns=[1])), "`returns` has 1 items, not 2"),
    (json.dumps(_record(3, [1, 0], plies=10 ** 12)), "more than the limit of 10000"),
    (json.dumps(_record(3, [1, 0], index=2)), "its index is not its key 3"),
    (json.dumps(_record(0, [0, 1])), "a second record of the task 0"),
    (json.dumps({"key": 3, "failure": 7}), "`failure` is the number 7, not text"),
    ("DEEP", "nests its JSON too deeply"),
    ("{not json", "is not valid JSON"),
])
def test_a_forged_journal_record_is_refused_at_its_line(journal, capsys, line, why):
    lines = journal.read_text().splitlines()[:4]          # header and games 1-3
    journal.write_text("\n".join(lines + [deep(line), lines[1]]) + "\n")   # a good line after it
    before = journal.read_bytes()
    status, err = run(MATCH + ["-o", journal, "--resume"], capsys)
    assert status == 1
    assert one_error(err).startswith(f"{journal}:5") and why in err
    assert journal.read_bytes() == before                # nothing written


def test_extra_records_cannot_inflate_a_count(journal, capsys):
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(lines + [lines[2]]) + "\n")
    status, err = run(MATCH + ["-o", journal, "--resume", "--json"], capsys)
    assert status == 1 and "a second record of the task 1" in one_error(err)


def test_rules_edited_between_runs_are_another_run(tmp_path, capsys):
    spec = tmp_path / "ttt.yaml"
    spec.write_text((SPECS / "tictactoe.yaml").read_text())
    path = tmp_path / "m.jsonl"
    args = ["match", spec, "--agent", "random", "--agent", "first", "--games", "2", "--workers", "0",
            "--quiet", "-o", path]
    assert main([str(a) for a in args]) == 0
    spec.write_text(spec.read_text().replace("k: 3}", "k: 2}"))
    status, err = run(args + ["--resume"], capsys)
    assert status == 1 and "holds a different run (it differs in: options, spec_sha256)" in err


def test_a_crlf_journal_with_a_cut_off_last_line_resumes(journal, capsys):
    lines = journal.read_text().splitlines()
    journal.write_bytes(("\r\n".join(lines[:3]) + "\r\n" + lines[3][:20]).encode())
    status, err = run(MATCH + ["-o", journal, "--resume", "--json"], capsys)
    assert status == 0, err
    data = journal.read_bytes()
    assert data.startswith(("\r\n".join(lines[:3]) + "\r\n").encode())   # cut exactly there
    records = [json.loads(line) for line in data.decode().splitlines()[1:]]
    assert sorted(r["key"] for r in records) == [0, 1, 2, 3]
    assert main(MATCH + ["-o", str(journal), "--resume"]) == 0           # and again


def test_a_forged_plan_record_is_replayed_and_refused(tmp_path, capsys):
    path = tmp_path / "p.jsonl"
    args = ["plan", GRIPPER / "domain.pddl", GRIPPER / "task01.pddl", GRIPPER / "task02.pddl",
            "--workers", "0", "--algo", "gbfs", "-o", path]
    assert main([str(a) for a in args]) == 0
    capsys.readouterr()
    header = path.read_text().splitlines()[0]
    forged = {"key": str(GRIPPER / "task01.pddl"), "solved": True, "valid": True, "length": 0, "cost": 0,
              "expanded": 0, "reason": None, "algorithm": "gbfs", "heuristic": "hff", "seconds": 0.0,
              "plan": []}
    path.write_text(header + "\n" + json.dumps(forged) + "\n")
    status, err = run(args + ["--resume"], capsys)
    assert status == 1
    assert one_error(err).startswith(f"{path}:2:1: error: a record this run did not write: "
                                     "its plan does not validate")


# --- budgets before work (issue 24, item 4) ------------------------------------------------

QUANTIFIED = """game: Q
players: [A, B]
state:
  n: {type: 0..10, initial: 0}
actions:
  bump:
    if: n < 10
    then: n += 1
terminal: "n == 10 or (exists i in 0..99999: exists j in 0..99999: i * j == 7 and n == 11)"
winner: none
"""


def test_nested_quantifier_domains_are_bounded_at_check_time(tmp_path, capsys):
    spec = tmp_path / "q.yaml"
    spec.write_text(QUANTIFIED)
    for command in (["check", spec], ["solve", spec, "--time", "2"]):
        status, err = run(command, capsys)
        assert status == 1
        assert one_error(err).startswith(f"{spec}:9:46: error: the nested quantifiers (and `for` loops) "
                                         "here range over 10,000,000,000 combinations of values, more "
                                         "than 10,000,000")
    spec.write_text(QUANTIFIED.replace("  bump:", "  bump(i in 0..99999, j in 0..99999):")
                    .replace("terminal: \"n == 10 or", "terminal: \"n == 10 and not"))
    status, err = run(["check", spec], capsys)
    assert status == 1 and "the parameters of `bump` range over 10,000,000,000" in one_error(err)


def test_shipped_games_are_far_within_the_nested_budget(monkeypatch):
    """The largest product of a shipped game is 262,144 (Brazilian draughts): 38x below."""
    from framework.checker import Checker
    from framework.checker import budget
    from framework.loader import parse_spec
    seen = []
    monkeypatch.setattr(budget._Sizes, "within", staticmethod(lambda work, pos, what: seen.append(work)))
    for path in sorted(SPECS.glob("*.yaml")):
        checker = Checker(parse_spec(path), {})
        budget.check_nested_work(checker, checker.run())
    assert max(seen) == 262_144 and max(seen) * 38 < budget.MAX_NESTED_WORK


def test_planning_generators_are_bounded_in_all_before_they_are_made(tmp_path, capsys):
    """300 generators of 100,000 items each (a 9 KB file): refused at the third, quickly."""
    lines = ["problem: g", "objects: [A]", "predicates: [P(x)]", "actions:", "  Go(x):",
             "    pre: [P(x)]", "    add: [P(x)]", "init:"]
    lines += [f"  - P(A) for i{i} in 1..100000" for i in range(300)] + ["goal: [P(A)]"]
    spec = tmp_path / "g.yaml"
    spec.write_text("\n".join(lines) + "\n")
    status, err = run(["check", spec], capsys)
    assert status == 1
    assert one_error(err).startswith(f"{spec}:11:5: error: the `for` clauses of this spec stand for "
                                     "more than 200,000 items in all")


def _peak_kb_before_the_first_game(command: str, games: int) -> int:
    code = ("import resource, sys\n"
            "from framework.cli import main\n"
            "def stop(*a, **k):\n"
            "    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)\n"
            "    raise KeyboardInterrupt\n"
            "import framework.match\n"
            "framework.match.play_indexed_game = stop\n"
            f"sys.exit(main(['{command}', 'tictactoe', '--agent', 'random', '--agent', 'first',"
            f" '--games', '{games}', '--workers', '0']))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 130, done.stderr
    return int(done.stdout.split()[0])


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_a_trillion_games_start_in_constant_memory(command):
    """The task list is built lazily: the first game starts with the memory a one-game run
    uses (a listed task list would take terabytes before any game)."""
    one, trillion = (_peak_kb_before_the_first_game(command, games) for games in (1, 10 ** 12))
    assert trillion < one + 20_000, (one, trillion)


def test_the_clock_of_time_starts_before_loading(monkeypatch, capsys):
    """--time is the whole command's: the search gets what loading left of it."""
    import framework.cli.solve_cmd as solve_cmd
    from framework.search import alphabeta
    given = []
    real = alphabeta.search

    def spy(game, state=None, **options):
        given.append(options.get("time_limit"))
        return real(game, state, **options)
    monkeypatch.setattr("framework.search.registry.searcher", lambda name: spy)
    ticks = iter([100.0, 100.75] + [101.0] * 1000)
    monkeypatch.setattr(solve_cmd.time, "perf_counter", lambda: next(ticks))
    assert main(["solve", "tictactoe", "--time", "2", "--algo", "alphabeta"]) == 0
    assert given == [pytest.approx(1.25)]
