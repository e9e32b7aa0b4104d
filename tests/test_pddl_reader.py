"""The fast PDDL reader (`planners.formats.pddl_reader`) against the Lark grammar it stands in for:
on every PDDL file at hand it gives the very same result, and on damaged files it either
gives the same result as Lark or steps aside (None), so errors stay Lark's."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from framework.errors import SpecError, normalise_line_breaks
from planners.formats.pddl import _Builder, parse_pddl, parse_with_lark
from planners.formats.pddl_reader import MAX_DEPTH, read_pddl
from tests.planning_support import shared_pddl

SAMPLES = Path(__file__).resolve().parents[1] / "planners" / "data" / "pddl"


def _both(text: str, file: str = "t.pddl"):
    """(the fast reader's result or None, Lark's result or the SpecError it raised)."""
    text = normalise_line_breaks(text)
    lines = text.split("\n")
    builder = _Builder()
    builder.file, builder.lines = file, lines
    fast = read_pddl(text, builder)
    try:
        slow = parse_with_lark(text, file, lines)
    except SpecError as error:
        slow = error
    return fast, slow


def _files() -> list[Path]:
    files = sorted(SAMPLES.glob("*/*.pddl"))
    shared = shared_pddl()
    if shared.is_dir():
        files += sorted(shared.glob("*/*.pddl"))[::7]        # a spread of the IPC files
    return files


@pytest.mark.parametrize("path", _files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_reader_reads_the_file_exactly_as_lark(path):
    fast, slow = _both(path.read_text(), str(path))
    assert fast is not None, "a well-formed file left to Lark: the fast path is lost"
    assert not isinstance(slow, SpecError)
    assert fast == slow          # the same tokens, positions and AST, piece by piece


def _mutants(text: str, rng: random.Random, count: int):
    """`count` copies of `text` with one token-level change each: a token removed, doubled
    or swapped with the next, a keyword or a parenthesis inserted, a name replaced."""
    spans = [m.span() for m in re.finditer(r"\(|\)|[^\s()]+", text)]
    inserts = ["(", ")", "-", "and", "either", ":effect", "(not", "=", "1.5", "?v", "when",
               ":requirements", "(either a b)", "- number", "(increase (total-cost) 2)", "ü"]
    for _ in range(count):
        start, end = spans[rng.randrange(len(spans))]
        kind = rng.randrange(5)
        if kind == 0:
            yield text[:start] + text[end:]
        elif kind == 1:
            yield text[:end] + " " + text[start:end] + text[end:]
        elif kind == 2:
            yield text[:start] + rng.choice(inserts) + " " + text[start:]
        elif kind == 3:
            yield text[:start] + rng.choice(["x", "?x", "and", "forall", "3", ":objects"]) + text[end:]
        else:
            following = [s for s in spans if s[0] >= end][:1]
            if following:
                a, b = following[0]
                yield text[:start] + text[a:b] + text[end:a] + text[start:end] + text[b:]


def test_damaged_files_are_read_as_lark_reads_them_or_left_to_lark():
    rng = random.Random(14)
    same = left = 0
    for path in sorted(SAMPLES.glob("*/*.pddl")):
        for text in _mutants(path.read_text(), rng, 25):
            fast, slow = _both(text)
            if fast is None:
                left += 1
            else:
                assert not isinstance(slow, SpecError), text
                assert fast == slow, text
                same += 1
    assert same > 50 and left > 50          # both branches were exercised


def test_deep_nesting_is_left_to_lark_and_parses():
    goal = "(and " * (MAX_DEPTH + 50) + "(p)" + ")" * (MAX_DEPTH + 50)
    text = f"(define (problem x) (:domain d) (:goal {goal}))"
    fast, slow = _both(text)
    assert fast is None and not isinstance(slow, SpecError)
    assert parse_pddl(text, "t.pddl") == slow


def test_an_error_is_lark_s_error():
    text = "(define (domain d)\n  (:predicates (p ?x))\n  (:action a :parameters (?x) :effect (p ?x) ?y))\n"
    fast, slow = _both(text, "d.pddl")
    assert fast is None and isinstance(slow, SpecError)
    with pytest.raises(SpecError) as raised:
        parse_pddl(text, "d.pddl")
    assert str(raised.value) == str(slow)
