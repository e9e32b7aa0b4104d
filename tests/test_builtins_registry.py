"""The builtin registry (framework.builtins): one record per builtin, used by the checker, the
compiler, the loader and the editor support alike."""
import pytest

from framework import builtins, checker, load
from framework.lsp.vocabulary import builtin_help


def test_checker_signatures_come_from_the_registry():
    assert checker.BUILTINS == {b.name: b.signature for b in builtins.all()}
    assert set(checker.STATE_QUERIES) == {"moves", "can_move"}


@pytest.mark.parametrize("b", builtins.all(), ids=lambda b: b.name)
def test_every_builtin_is_documented_and_lowered(b):
    assert builtins.get(b.name) is b
    assert b.doc and "\n" not in b.doc
    assert callable(b.lower)
    assert b.interpret is None or callable(b.interpret)
    assert b.usage().startswith(f"{b.name}(")
    assert builtin_help(b.name).endswith(b.doc)


def test_every_special_name_is_documented():
    """`mover`, `none`, ... (the checker's special names) hover with a doc, as a name;
    `cell` as a name is the domain, as a call the builtin."""
    from framework.checker.symbols import SPECIAL
    assert set(SPECIAL) <= set(builtins.CONSTANTS)
    for name, doc in builtins.CONSTANTS.items():
        assert builtin_help(name, call=False) == f"`{name}`: {doc}"
    assert builtin_help("cell", call=True).endswith(builtins.get("cell").doc)


def test_runtime_helpers_reach_generated_code():
    game = load("othello")
    namespace = game.state_class._namespace
    for name, helper in builtins.runtime_namespace().items():
        assert namespace[name] is helper


def test_unknown_name_is_not_a_builtin():
    assert builtins.get("connected_to_nothing") is None


def test_docs_table_is_current():
    from pathlib import Path
    text = (Path(__file__).parent.parent / "docs" / "architecture.md").read_text()
    assert builtins.table() in text, "regenerate the table in docs/architecture.md from builtins.table()"
