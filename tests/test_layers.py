"""Arrows only run downward: the command line sits on top, nothing below it imports it
(the fuzzer, the conformance suite and the planners call library functions)."""
from __future__ import annotations

import ast

from conftest import ROOT


def _imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_nothing_below_the_command_line_imports_it():
    offenders = []
    for package in ("framework", "planners"):
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(("framework/cli/", "framework/studio/")) or rel == "framework/__main__.py":
                continue                       # the studio is a front end beside the command line
            offenders += [f"{rel} imports {name}" for name in _imports(path)
                          if name == "framework.cli" or name.startswith("framework.cli.")]
    assert not offenders, "\n".join(offenders)
