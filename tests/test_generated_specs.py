"""The compiler against the reference interpreter on random well-typed specs
(framework.conformance.generate): definitions whose bound names equal their callers'
arguments, quantifiers that shadow parameters, conditional stores of players and cell
values, effects on every kind of target.  The default run draws 80 specs, the slow group
1,000; the long campaign is `plyspec fuzz --differential --inputs 100000` (docs/conformance.md)."""
import pytest
from hypothesis import HealthCheck, Phase, given, settings

from framework.conformance.generate import check_one, spec_texts
from framework.conformance.generate_shifts import shift_spec_texts


def campaign(examples, texts=None):
    """A derandomized Hypothesis run over `examples` generated specs (of `texts`, a strategy
    of spec texts: spec_texts() unless given)."""
    @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @given(spec_texts() if texts is None else texts)
    def compiled_plays_as_interpreted(text):
        found = check_one(text, bfs_states=25, playouts=2, plies=25)
        assert found is None, f"{found[0]}: {found[1]} after {found[2]}\n{text}"
    compiled_plays_as_interpreted()


def test_generated_specs_compile_to_what_the_interpreter_plays():
    campaign(80)


def test_generated_moves_between_cells_compile_to_what_the_interpreter_plays():
    """Steps and jumps from cell to cell on random boards (framework.conformance.generate_shifts):
    the kernel's counts, which the compiler writes as shifted bitboards, against its move lists.
    12 specs in the default run (about 15 CPU s); 120 under `-m slow`."""
    campaign(12, shift_spec_texts())


@pytest.mark.slow
def test_many_generated_moves_between_cells_compile_to_what_the_interpreter_plays():
    campaign(120, shift_spec_texts())


@pytest.mark.slow
def test_a_thousand_generated_specs_compile_to_what_the_interpreter_plays():
    campaign(1000)
