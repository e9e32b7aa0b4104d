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
