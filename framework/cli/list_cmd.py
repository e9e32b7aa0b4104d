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
    import json
    from pathlib import Path
    from framework import load
    from framework.conformance.discover import shipped_specs, spec_kind
    from framework.conformance.golden import golden_path
    from framework.errors import SpecError
    rows, seen = [], set()
    for path in shipped_specs():
        path = Path(path)
        if path.stem in seen:
            continue
        seen.add(path.stem)
        if spec_kind(path) == "planning":
            rows.append({"name": path.stem, "kind": "planning", "file": str(path)})
            continue
        try:
            d = load(path).describe()
        except SpecError as err:
            rows.append({"name": path.stem, "kind": "game", "file": str(path), "error": err.message})
            continue
        gold = golden_path(path)
        perft = None
        if gold.is_file():
            counts = json.loads(gold.read_text()).get("default")
            perft = counts if isinstance(counts, list) else None
        rows.append({"name": path.stem, "kind": "game", "file": str(path), "game": d["name"],
                     "players": d["players"], "chance": d["chance"], "options": d["options"],
                     "perft": perft[:6] if perft else None})
    if args.json:
        print_json({"specs": rows})
        return 0
    for r in rows:
        if r["kind"] == "planning":
            print(f"{r['name']:<20} planning problem                    plyspec plan {r['name']}")
        elif "error" in r:
            print(f"{r['name']:<20} (does not load: {r['error']})")
        else:
            facts = f"perft {', '.join(map(str, r['perft']))}, ..." if r["perft"] else ""
            print(f"{r['name']:<20} {r['game']}: {len(r['players'])} players"
                  f"{', chance' if r['chance'] else ''}; {facts}")
    return 0
