"""The compiler against the reference interpreter on random well-typed specs
(framework.conformance.generate): definitions whose bound names equal their callers'
arguments, quantifiers that shadow parameters, conditional stores of players and cell
values, effects on every kind of target.  The long campaign is
`plyspec fuzz --differential --inputs 100000` (docs/conformance.md)."""
from hypothesis import HealthCheck, Phase, given, settings

from framework.conformance.generate import check_one, spec_texts

GENERATED = 1000


@settings(max_examples=GENERATED, derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck), phases=[Phase.generate])
@given(spec_texts())
def test_generated_specs_compile_to_what_the_interpreter_plays(text):
    found = check_one(text, bfs_states=25, playouts=2, plies=25)
    assert found is None, f"{found[0]}: {found[1]} after {found[2]}\n{text}"
