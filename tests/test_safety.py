"""Specs cannot reach Python: dunder names, attribute access, imports and YAML tags are refused,
and no name the spec chose reaches the generated code unprefixed."""
import re

import pytest

import framework
from framework import SpecError
from tests.test_spec_errors import GOOD


@pytest.mark.parametrize("old,new", [
    ("if: board[c] == empty", "if: __import__('os') == empty"),
    ("if: board[c] == empty", "if: board.__class__ == empty"),
    ("if: board[c] == empty", "if: __builtins__ == empty"),
    ("then: board[c] = mover", "then: board[c] = mover; __class__ = 1"),
    ("game: T", "game: !!python/object/apply:os.system ['echo hi']"),
    ("options: {k: 3}", "options: {k: !!python/name:os.system }"),
    ("if: board[c] == empty", "if: eval('1') == empty"),
    ("if: board[c] == empty", "if: exec == empty"),
    ("if: board[c] == empty", "if: board[c].real == empty"),
    ("if: board[c] == empty", "if: " + "a" * 200 + " == empty"),
    ("place(c in cell)", "__init__(c in cell)"),
])
def test_reaching_python_is_refused(old, new):
    with pytest.raises(SpecError):
        framework.load_text(GOOD.replace(old, new))


def test_generated_code_has_only_prefixed_spec_names():
    g = framework.load_text(GOOD.replace("X, O]", "X, O, system]").replace("[empty, X, O]", "[empty, X, O, system]"))
    identifiers = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", g.python_source))
    assert "system" not in identifiers and "b_system" in identifiers


def test_generated_source_contains_no_spec_text():
    g = framework.load_text(GOOD.replace('game: T', 'game: "__import__(\'os\')"') + 'display: {X: "os.system"}\n')
    assert "os" not in re.findall(r"[A-Za-z_]+", g.python_source)
