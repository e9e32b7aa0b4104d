"""Shared by the tests: the repository root on sys.path, and the cost list of the shipped
games.

The default run (`python -m pytest -q`) leaves out the tests marked `slow` (pyproject.toml's
addopts); `python -m pytest -q -m slow` runs them, `python -m pytest -q -m ""` runs
everything (docs/conformance.md, "Tests and their cost").  A shipped game whose full-size
check of some kind costs more than a few seconds is listed in COSTLY with those kinds:
`by_cost(kind, specs)` marks its parametrisation of that kind slow, and the default run
checks it on a smaller budget instead (for "conformance":
tests/test_conformance.py::test_costly_spec_conforms_on_a_smaller_budget).  So a new
shipped game that is slow to check needs one line here, and no test loses a game."""
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SPECS = ROOT / "game_specs"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# game (file stem, both syntaxes) -> the kinds of check whose full size runs only under
# `-m slow`; in the comment, CPU seconds of one full conformance check (YAML), measured
# 2026-11-28 under load, before the interpreter's speed-up of that day
COSTLY = {
    "brazilian_draughts": {"conformance"},      # 77 s: half exploring states, a third the interpreter
    "draughts": {"conformance"},                # 38 s per syntax
    "amazons": {"conformance", "two_plies"},    # 13 s per syntax; k_leaves2 on playouts (tests/
                                                # test_kernel_perft.py): 45 s per syntax
    "atari_go": {"conformance"},                # 12 s per syntax
    "go5": {"conformance"},                     # 8.6 s (measured 2026-11-28 04:40 at load 8)
    "oware": {"conformance"},                   # 5 s
    "nine_mens_morris": {"conformance"},        # 13 s per syntax (golden perft to ply 5: 5 s)
    "quoridor": {"conformance", "node_by_node"},  # 18 s CPU: each wall tested by `legal_after` (a region);
                                                # kernel vs course interface on 20 states: 13 s
    "chess": {"conformance", "kernel"},         # plyspec test: 1,226 s wall at load 17 (random games of
                                                # hundreds of plies, each move tested by `legal_after`);
                                                # kernel playouts: perft 2 at 480 states
}


def costly(kind, spec) -> bool:
    """Whether the full-size `kind` check of `spec` (a path or a name) runs only under `-m slow`."""
    return kind in COSTLY.get(pathlib.Path(str(spec)).stem, ())


def by_cost(kind, specs) -> list:
    """`specs` as pytest parameters, those whose full-size `kind` check is costly marked slow:
    `@pytest.mark.parametrize("spec", by_cost("conformance", SPECS), ids=...)`."""
    return [pytest.param(s, marks=pytest.mark.slow) if costly(kind, s) else s for s in specs]
