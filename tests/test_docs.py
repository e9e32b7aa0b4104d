"""The commands and Python examples in README.md and docs/*.md run as written, in a fresh
process (each example; the commands all in one, each through the CLI's main()), from a folder
outside the clone (the package on PYTHONPATH stands for an installed plyspec); those naming a
path into the clone (game_specs/..., planners/...) run in a scratch copy of those folders, as
a reader inside the clone would.  Blocks marked ```python are
programs; signatures and interactive sessions are marked ```text / ```pycon and are not run.

Limits are generous (a loaded 2-core machine runs a command several times slower than an
idle one); they stop a hang, they do not time anything."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
IN_CLONE = re.compile(r"(?<![\w/.-])(game_specs|planners|benchmarks)/")   # a path into the clone
LIMIT = 1800          # seconds for one command or example: a hang guard on a loaded machine
BLOCKS = [(doc, n, code) for doc in DOCS
          for n, code in enumerate(re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S))]


@pytest.mark.parametrize("doc, n, code", BLOCKS, ids=[f"{d.relative_to(ROOT)}#{n}" for d, n, _ in BLOCKS])
def test_python_examples_in_the_docs_run(doc, n, code, tmp_path):
    if IN_CLONE.search(code):
        _copy_clone_folders(tmp_path)                # files the example names, in a scratch copy
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=LIMIT)
    assert done.returncode == 0, f"{doc.name} example {n} failed:\n{done.stderr[-2000:]}"


def _copy_clone_folders(where):
    for folder in ("game_specs", "planners"):
        shutil.copytree(ROOT / folder, where / folder, ignore=shutil.ignore_patterns("__pycache__"))


def _shell_commands(with_comments=False):
    """(doc, command) for each `plyspec ...` line inside a fenced block that is not YAML,
    Python or a spec (fences are followed line by line, so blocks pair up correctly);
    (doc, command, comment) with `with_comments`."""
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
                    bare = command.split("  #")[0].split(" # ")[0]
                    comment = command[len(bare):].strip().lstrip("#").strip()
                    yield (doc, bare.strip(), comment) if with_comments else (doc, bare)


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


# Commands the docs show but that cannot run here as written: placeholders for the reader's
# own files, the IPC suite outside the repository, a language server waiting for an editor,
# campaigns the docs say take minutes (their small forms run), interactive play and the
# studio (a server that runs until stopped).
NOT_RUN = re.compile(r"my_game|\.\./shared|plyspec lsp|plyspec studio|--inputs \d{4,}|plyspec play|plyspec test( --all)?$")
FIGURE = re.compile(r"\b\d{1,3}(?:,\d{3})+\b")      # 4,084 / 127,872: figures a doc quotes
QUOTED = re.compile(r"`([^`]+)`")                     # `expanded: 146`: output a doc quotes verbatim


def _runnable():
    import shlex
    out = []
    for doc, command, comment in _shell_commands(with_comments=True):
        if "..." in command or any(c in command for c in "|><") or re.search(r"\s\[", command) \
                or NOT_RUN.search(command):
            continue
        if re.search(r"~\s*\d+\s*(s|min)\b|about a minute|minutes", comment) and "--inputs" not in command:
            continue                          # the doc says it is long
        out.append((doc, command, comment, shlex.split(command)[1:]))
    return out


# The one process that runs a doc's commands: each through framework.cli.main, the code
# `python -m framework` runs, in its folder, its output (file descriptors 1 and 2, so that
# workers' output is caught too) in files of its own; exit statuses and outputs as JSON.
DRIVER = """
import json, os, sys, tempfile
from framework.cli import main
results = []
for where, argv in json.load(open(sys.argv[1])):
    os.chdir(where)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush(); sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        os.dup2(out.fileno(), 1); os.dup2(err.fileno(), 2)
        try:
            code = main(argv)
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        finally:
            sys.stdout.flush(); sys.stderr.flush()
            os.dup2(saved[0], 1); os.dup2(saved[1], 2)
            os.close(saved[0]); os.close(saved[1])
        texts = []
        for f in (out, err):
            f.seek(0)
            texts.append(f.read().decode("utf-8", "replace"))
    results.append([code, *texts])
json.dump(results, open(sys.argv[2], "w"))
"""
# Commands whose run as written costs more than a few CPU seconds: the default run gives
# them fewer inputs (the same code path); `-m slow` runs them as written.
SMALLER = {"plyspec fuzz --tools --inputs 300": "plyspec fuzz --tools --inputs 20"}


def _run_commands(tmp_path, items):
    """Runs (doc, command, comment, argv) items in order, each once (a command two docs show
    runs once, its output checked against both comments), in one fresh process outside the
    clone: those naming a path into the clone in a scratch copy of its spec folders, the
    others in an empty folder; a command may read what an earlier one wrote (book, then
    solve --book).  Returns the problems found."""
    import glob
    import json
    clone, outside = tmp_path / "clone", tmp_path / "outside"
    _copy_clone_folders(clone)
    outside.mkdir()
    runs = {}                                           # (folder, argv) -> [(doc, command, comment)]
    for doc, command, comment, argv in items:
        where = clone if IN_CLONE.search(command) else outside
        argv = [x for a in argv for x in (sorted(glob.glob(a, root_dir=where)) if "*" in a else [a])]
        argv += ["--force"] if "-o" in argv else []
        runs.setdefault((str(where), tuple(argv)), []).append((doc, command, comment))
    jobs, results = tmp_path / "jobs.json", tmp_path / "results.json"
    jobs.write_text(json.dumps([[where, list(argv)] for where, argv in runs]))
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", DRIVER, str(jobs), str(results)], cwd=outside, env=env,
                          capture_output=True, text=True, timeout=LIMIT * 2, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-3000:]
    problems = []
    for shown, (code, out, err) in zip(runs.values(), json.loads(results.read_text())):
        for doc, command, comment in shown:
            if code != 0:
                problems.append(f"{doc.name}: `{command}` exits {code}: {err.strip()[-300:]}")
            for figure in FIGURE.findall(comment):
                if figure not in out + err and figure.replace(",", "") not in out:
                    problems.append(f"{doc.name}: `{command}` does not print {figure}, which the doc quotes")
            for text in QUOTED.findall(comment):
                if text not in out + err:
                    problems.append(f"{doc.name}: `{command}` does not print `{text}`, which the doc quotes")
    return problems


def test_every_runnable_command_in_the_docs_runs_and_prints_the_figures_it_quotes(tmp_path):
    """Each command of README.md and docs/ that can run here runs as written (globs expanded
    as a shell would), exits 0, and prints every figure (4,084, 127,872, ...) and every
    `quoted text` that its comment in the doc quotes; those in SMALLER run on fewer inputs
    (their comment's figures are checked by the slow test below)."""
    import shlex
    items = []
    for doc, command, comment, argv in _runnable():
        if command in SMALLER:
            command = SMALLER[command]
            comment, argv = "", shlex.split(command)[1:]
        items.append((doc, command, comment, argv))
    problems = _run_commands(tmp_path, items)
    assert len(items) >= 40 and not problems, "\n".join(problems)


@pytest.mark.slow
def test_the_costly_commands_in_the_docs_run_as_written(tmp_path):
    items = [item for item in _runnable() if item[1] in SMALLER]
    assert len(items) == len(SMALLER), "a command in SMALLER is no longer in the docs"
    problems = _run_commands(tmp_path, items)
    assert not problems, "\n".join(problems)


def test_the_quick_start_prints_the_published_counts():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "plyspec perft tictactoe --depth 9" in text and "127,872" in text
    from framework import load
    from framework.perft import perft
    counts = perft(load(ROOT / "game_specs" / "tictactoe.yaml").initial_state(), 9)
    assert counts[0] == 9 and counts[1] == 72 and counts[2] == 504 and counts[-1] == 127_872
