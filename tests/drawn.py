"""Shared by the tests that check drawn inputs (Hypothesis): the same draws on every run
(derandomized, no example database, no deadline, no shrinking, no health check), so that
such a test is a fixed set of examples CI cannot flake on; exploring new inputs is the fuzz
campaign's job (docs/conformance.md).  The draws follow the check's source text, its
decorator lines included (Hypothesis derandomizes by a digest of it): editing a check draws
other examples, so a check asserting that its draws reach some path may need more of them."""
from hypothesis import HealthCheck, Phase, given, settings


def drawn(examples: int, *strategies):
    """Decorates a check to run over `examples` draws of `strategies` (one argument each),
    the same on every run: call the decorated function to run them all (pytest does, for a
    test)."""
    def decorate(check):
        return settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                        suppress_health_check=list(HealthCheck), phases=[Phase.generate])(
            given(*strategies)(check))
    return decorate
