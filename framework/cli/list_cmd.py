"""`plyspec list`: the shipped games and planning problems, addressable by name everywhere a
spec path is accepted (`plyspec solve tictactoe`, `plyspec plan gripper`)."""
from __future__ import annotations

from framework.cli import COMMANDS
from framework.cli.common import print_json


EXAMPLES = [
    'plyspec list                          # the shipped games and planning problems',
    'plyspec list --json',
]


def add_parser(sub):
    p = sub.add_parser("list", help=COMMANDS["list"],
                       description="List the shipped specs: name, players, chance, board size, and what is "
                                   "known (the perft counts of the golden file). Any command takes these "
                                   "names in place of a path, from any folder.")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args) -> int:
    rows = spec_rows()
    if args.json:
        print_json({"specs": rows})
        return 0
    for r in rows:
        print(f"{r['name']:<20} {_line(r)}")
    return 0


def spec_rows() -> list:
    """One row per shipped spec (the first of each name): what `list --json` prints and the
    studio's library shows."""
    from pathlib import Path
    from framework import load
    from framework.conformance.discover import shipped_specs, spec_kind
    from framework.conformance.golden import golden_path, read_golden_data
    from framework.errors import SpecError
    rows, seen = [], set()
    solved = _solved_values()
    for path in shipped_specs():
        path = Path(path)
        if path.stem in seen:
            continue
        seen.add(path.stem)
        if spec_kind(path) == "planning":
            rows.append(_planning_row(path))
            continue
        try:
            d = load(path).describe()
        except SpecError as err:
            rows.append({"name": path.stem, "kind": "game", "file": str(path), "error": err.message})
            continue
        gold = golden_path(path)
        perft = None
        if gold.is_file():
            try:
                perft = read_golden_data(gold).get("default")
            except SpecError:
                perft = None
        rows.append({"name": path.stem, "kind": "game", "file": str(path), "game": d["name"],
                     "players": d["players"], "chance": d["chance"], "options": d["options"],
                     "perft": perft[:6] if perft else None, "solved": solved.get(path.stem)})
    return rows


def _line(r) -> str:
    """One row of the listing: what the spec is, its size and what is known about it."""
    if "error" in r:
        return f"(does not load: {r['error']})"
    if r["kind"] == "planning":
        size = "" if "objects" not in r else f"{r['objects']} objects, {r['actions']} action schemas; "
        return f"planning problem: {size}plyspec plan {r['name']}".replace(" 1 action schemas", " 1 action schema")
    n = len(r["players"])
    parts = [f"{r['game']}: {n} player{'s' if n != 1 else ''}" + (", chance" if r["chance"] else "")]
    if r["options"]:
        parts.append(" ".join(f"{k}={_compact(v)}" for k, v in r["options"].items()))
    if r["solved"]:
        parts.append(f"solved: {r['solved']['says']}")
    if r["perft"]:
        parts.append(f"perft {', '.join(map(str, r['perft']))}, ...")
    return "; ".join(parts)


def _compact(value) -> str:
    return str(value).replace(" ", "")


def _solved_values() -> dict:
    """game_specs/golden/solved.json: the value of each shipped game where it is known (solved
    here and checked by the tests, or published), by spec name."""
    import json
    from framework.conformance.discover import shipped_spec_dirs
    from framework.files import read_text
    for folder in shipped_spec_dirs():
        path = folder / "golden" / "solved.json"
        if path.is_file():
            return json.loads(read_text(path, what="solved-values file"))
    return {}


def _planning_row(path) -> dict:
    row = {"name": path.stem, "kind": "planning", "file": str(path)}
    import planners
    from framework.errors import SpecError
    try:
        problem = planners.load(path)
    except (SpecError, ValueError, OSError) as err:   # listed with its error, not fatal
        row["error"] = str(getattr(err, "message", err))
        return row
    row["objects"] = len(getattr(problem, "objects", ()) or ())
    row["actions"] = len(getattr(problem, "actions", ()) or ())
    return row
