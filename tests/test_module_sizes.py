"""Every module of framework/ and planners/ is a small room that says what it owns: at most 400 lines, a
module docstring, and no class over 300 lines (issue 11)."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_MODULE_LINES = 400
MAX_CLASS_LINES = 300


def modules():
    return sorted((ROOT / "framework").rglob("*.py")) + sorted((ROOT / "planners").rglob("*.py"))


def test_every_module_is_at_most_400_lines_and_says_what_it_owns():
    assert len(modules()) > 50
    for path in modules():
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= MAX_MODULE_LINES, f"{name}: {len(text.splitlines())} lines"
        assert ast.get_docstring(ast.parse(text)), f"{name} says what it owns"


def test_every_class_is_at_most_300_lines():
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                lines = node.end_lineno - node.lineno + 1
                assert lines <= MAX_CLASS_LINES, f"{path.name}: class {node.name} has {lines} lines"

