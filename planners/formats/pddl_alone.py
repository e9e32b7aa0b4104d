"""Checking one PDDL file on its own, as `plyspec check FILE.pddl` and the language server
do.  A domain is checked with its constants and no objects (an undeclared predicate, a
wrong arity, an unknown type or parameter is reported at its position); a problem with
the domain file beside it (`domainNN.pddl` for `taskNN.pddl`, else `domain.pddl`, as IPC
folders hold them) when there is one, else for its syntax only.

The importer reads files, so the text goes to a private temporary copy with the same
name (a domain alone is paired with an empty problem), and errors are reported at the
original path.
"""
from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from framework.errors import SpecError, all_errors


def domain_beside(problem_path) -> Path | None:
    """The domain file of an IPC task file: `domainNN.pddl` in its folder for `taskNN.pddl`
    (or any name holding the number NN), else `domain.pddl`; None if neither exists."""
    problem_path = Path(problem_path)
    number = re.search(r"(\d+)", problem_path.stem)
    for name in ([f"domain{number.group(1)}.pddl"] if number else []) + ["domain.pddl"]:
        candidate = problem_path.with_name(name)
        if candidate.exists() and candidate.resolve() != problem_path.resolve():
            return candidate
    return None


def check_pddl_text(text: str, path: str, domain_path=None) -> str:
    """Parses and checks the PDDL file `text` (saved, or not yet, at `path`); raises a
    SpecError for its mistakes, returns a one-line summary of what was checked."""
    from planners.formats.pddl import load_pddl, parse_pddl
    parsed = parse_pddl(text, path)
    kind, name = parsed[0], str(parsed[1]).lower()
    if kind == "problem":
        domain_path = domain_path or domain_beside(path)
        if domain_path is None:
            return "PDDL problem parsed (no domain.pddl beside it: give DOMAIN.pddl PROBLEM.pddl " \
                   "to check the pair)"
    with tempfile.TemporaryDirectory(prefix="plyspec-pddl-") as folder:
        copy = os.path.join(folder, os.path.basename(path) or "file.pddl")
        with open(copy, "w", encoding="utf-8") as f:
            f.write(text)
        if kind == "domain":
            domain, problem = copy, os.path.join(folder, "empty-problem.pddl")
            with open(problem, "w", encoding="utf-8") as f:
                f.write(f"(define (problem check) (:domain {name}))\n")
        else:
            domain, problem = str(domain_path), copy
        try:
            load_pddl(domain, problem)
        except SpecError as err:
            for e in [err, *all_errors(err)]:
                if e.file == copy:
                    e.file = path
            raise
    if kind == "domain":
        return f"PDDL domain {name} checked (its constants, predicates and actions)"
    return f"PDDL problem {name} checked with its domain {domain_path}"
