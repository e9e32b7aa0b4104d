"""The Python examples in README.md and docs/*.md run as written (from the checkout's root,
in a fresh interpreter).  Blocks marked ```python are programs; signatures and interactive
sessions are marked ```text / ```pycon and are not run."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCKS = [(doc, n, code) for doc in DOCS
          for n, code in enumerate(re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S))]


@pytest.mark.parametrize("doc, n, code", BLOCKS, ids=[f"{d.relative_to(ROOT)}#{n}" for d, n, _ in BLOCKS])
def test_python_examples_in_the_docs_run(doc, n, code, tmp_path):
    for folder in ("game_specs", "planners"):        # files the examples name, in a scratch copy
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"{doc.name} example {n} failed:\n{done.stderr[-2000:]}"


def _shell_commands():
    """(doc, command) for each `plyspec ...` line inside a fenced block that is not YAML,
    Python or a spec (fences are followed line by line, so blocks pair up correctly)."""
    for doc in DOCS:
        fence = None
        for line in doc.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if stripped.startswith("```"):
                fence = None if fence is not None else (stripped[3:].strip() or "plain")
                continue
            if fence in ("plain", "bash", "sh", "shell", "console", "text"):
                command = stripped.removeprefix("$ ").strip()
                if command.startswith("plyspec ") and not command.endswith("\\"):
                    yield doc, command.split("  #")[0].split(" # ")[0]


def test_every_plyspec_command_in_the_docs_parses_and_names_files_that_exist():
    import shlex
    from framework.cli import build_parser
    parser = build_parser()
    problems, seen = [], 0
    for doc, command in _shell_commands():
        argv = shlex.split(command)[1:]
        if "..." in command or any(c in a for a in argv for c in "|><[]"):
            continue                                     # a synopsis, elided or piped: not a whole command
        seen += 1
        try:
            parser.parse_args(argv)
        except SystemExit:
            problems.append(f"{doc.name}: `{command}` does not parse")
        for arg in argv:
            if re.search(r"\.(yaml|game|pddl|plan)$", arg) and "/" in arg and "*" not in arg \
                    and not arg.startswith("../shared") and not (ROOT / arg).exists():
                problems.append(f"{doc.name}: `{command}` names {arg}, which is not in the repository")
    assert seen >= 20 and not problems, "\n".join(problems)
