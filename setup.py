"""The optional C accelerator of the relaxation heuristics (`_plyspec_relax`, see
docs/planning.md): built by `pip install .` when a C compiler is present, skipped (the
pure-Python code runs instead) when not.  Everything else is in pyproject.toml."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("_plyspec_relax", ["planners/heuristics/_plyspec_relax.c"],
                             optional=True)])
