"""`X if T else Y` chosen once, outside a loop (framework/compiler/splits.py): Brazilian
draughts' king-or-man captures and moves reach the lowering; generated specs with kings'
and men's ways chosen by a cell's value list the interpreter's moves in its order."""
import re

import framework
from framework.compiler import splits
from framework.conformance.generate_shifts import shift_spec_texts
from tests.conftest import ROOT
from tests.drawn import drawn
from tests.lockstep import moves_in_lockstep


def test_brazilian_draughts_chooses_a_kings_or_a_mans_way_once_per_piece():
    source = framework.load(ROOT / "game_specs" / "brazilian_draughts.yaml").python_source
    listing = source[source.index("def k_actions"):source.index("def k_count")]   # (counts: two halves,
    # moves: a king's slide or a man's two forward neighbours                       # tests/test_split_schemas.py)
    assert re.search(r"for p_d in bits\(\(_slide_diagonal\(p_c, [^\n]*\) if \(\(b_bk >> p_c & 1\)\) else ", listing)
    # captures: the landing cells two away (a man) or on a diagonal (a king), not every empty cell
    assert re.search(r"for p_d in bits\([^\n]* if \(\(b_bk >> p_c & 1\)\) else _COLS_AT_2\[p_c\] & _ROWS_AT_2\[p_c\]\)", listing)
    # must_capture: the men's jumps as shifted masks (split from the kings' loop)
    # (the players' masks bound once per call: outline.py `_shared_masks`)
    defs = source[source.index("\ndef _def"):]
    players = re.search(r"(_s\d+) = b_b \| b_bk\n", defs).group(1)
    assert re.search(rf"in bits\({players} & b_bk\)\)\) or \(+_s\d+ & \d+\) >> 20", defs)


def test_moves_chosen_by_a_cells_value_come_in_the_interpreters_order(monkeypatch):
    """Random playouts of generated specs whose moves, `must_hop` or hop effects choose a
    king's way or a man's, the compiled and interpreted games in lockstep, move lists
    compared in order; the lowering is seen to fire (the compile cache is off)."""
    monkeypatch.setenv("PLYSPEC_CACHE", "off")          # relative: no cache, so the compiler runs
    fired = []
    for mixin, name in ((splits.SplitsMixin, "cond_split"), (splits.ChoiceMasksMixin, "choice_mask")):
        def spy(self, *args, _real=getattr(mixin, name)):
            found = _real(self, *args)
            fired.append(found is not None)
            return found
        monkeypatch.setattr(mixin, name, spy)
    specs = []

    @drawn(3, shift_spec_texts().filter(lambda text: " if board[" in text))
    def same_order(text):
        before = sum(fired)
        game = framework.load_text(text)
        specs.append(sum(fired) > before)
        moves_in_lockstep(game, text, playouts=2, plies=8)
    same_order()
    assert sum(specs) >= 2, f"the choice was lowered in only {sum(specs)} of {len(specs)} specs"
