"""The checker reports every independent error of a spec (each action, each rule section),
not only the first; `plyspec check` prints them all and the editor shows the same list."""
from __future__ import annotations

import pytest

from conftest import ROOT
from framework import load
from framework.cli import main
from framework.errors import SpecError, all_errors
from framework.lsp.analysis import analyse

SPEC = ROOT / "tests" / "robustness" / "three_errors.yaml"


def test_three_independent_errors_are_reported_in_order():
    with pytest.raises(SpecError) as err:
        load(SPEC)
    errors = all_errors(err.value)
    assert [(e.line, e.col) for e in errors] == [(6, 21), (10, 22), (12, 9)]
    assert [e.message for e in errors] == ["unknown name `emty`", "unknown name `nobody`",
                                           "`+` needs numbers, not a player"]
    assert errors[0].hint == "did you mean `empty`?"
    assert (err.value.line, err.value.message) == (6, "unknown name `emty`")   # reads as the first


def test_a_single_error_is_reported_as_before(tmp_path):
    one = tmp_path / "one.yaml"
    one.write_text(SPEC.read_text().replace("nobody", "empty").replace("mover + 1", "mover"))
    with pytest.raises(SpecError) as err:
        load(one)
    assert all_errors(err.value) == [err.value] and str(err.value).count("error:") == 1


def test_check_prints_them_all_and_the_editor_shows_the_same(capsys):
    assert main(["check", str(SPEC)]) == 1
    printed = capsys.readouterr().err
    assert printed.count(": error: ") == 3 and printed.rstrip().endswith("3 errors")
    diagnostics = analyse(str(SPEC), SPEC.read_text()).diagnostics
    assert [(d.line, d.message) for d in diagnostics if d.severity == "error"] == \
        [(6, "unknown name `emty`"), (10, "unknown name `nobody`"), (12, "`+` needs numbers, not a player")]
