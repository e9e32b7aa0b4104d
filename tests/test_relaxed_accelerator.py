"""The C accelerator of the relaxation heuristics (`_plyspec_relax`, built from
planners/heuristics/_plyspec_relax.c) against the pure-Python code it replaces: on
breadth-first and random-walk states of every shipped sample (STRIPS, ADL with
conditional effects, negative conditions, derived predicates, action costs) and of random
small tasks (zero costs among them), every fact's cost and supporter, h_max, h_add, h_FF,
the relaxed plan and the preferred operators are equal, the sets in the same iteration
order, and so are the LM-cut values (both tie-breaking orders and the choice between
them).  The pure code is itself held to tests/relaxation_reference.py by
tests/test_relaxed_speedup.py.

The accelerator is the installed one (`pip install .` builds it where a C compiler is);
in a clone that is not installed, the tests build it from the source into a temporary
folder; with no C compiler they are skipped, saying so.  An installed plyspec on a machine
with a C compiler must have it (so that a CI run cannot silently lose it)."""
from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from itertools import product

import pytest

import planners
from conftest import ROOT
from planners.heuristics import relaxation
from planners.heuristics import lmcut
from planners.heuristics.lmcut import ORDERS, LandmarkCut
from planners.heuristics.relaxation import Relaxation
from test_relaxed_speedup import SAMPLES, TASKS, _states, random_tasks


def _compiler() -> bool:
    return shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0]) is not None


@pytest.fixture(scope="module")
def accelerator(tmp_path_factory):
    """The `_plyspec_relax` module: the installed one, or one built from the source (also
    when the installed one is older than lmcut.py's tie orders or relaxation.py's
    exploration rules)."""
    spec = importlib.util.find_spec("_plyspec_relax")
    if spec is not None:
        installed = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(installed)
        if lmcut.current(installed) and getattr(installed, "RULES", 1) == relaxation.RULES:
            return installed
    if not _compiler() or importlib.util.find_spec("setuptools") is None:
        pytest.skip("no current _plyspec_relax installed and no C compiler (or setuptools) "
                    "to build it: the pure-Python code alone runs here")
    out = tmp_path_factory.mktemp("accelerator")
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--build-lib",
                    str(out), "--build-temp", str(out / "build")],
                   cwd=ROOT, check=True, capture_output=True, timeout=900)
    [path] = out.glob("_plyspec_relax*" + sysconfig.get_config_var("EXT_SUFFIX"))
    spec = importlib.util.spec_from_file_location("_plyspec_relax", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_an_installed_plyspec_has_the_accelerator_where_a_compiler_is():
    try:
        importlib.metadata.distribution("plyspec")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("plyspec is not pip-installed (run from a clone): the other tests "
                    "build the accelerator themselves")
    if not _compiler():
        pytest.skip("no C compiler: pip install . skips the accelerator by design")
    assert importlib.util.find_spec("_plyspec_relax") is not None, (
        "pip install . did not build _plyspec_relax although a C compiler is present")


def test_plyspec_pure_selects_the_python_code(accelerator):
    """With the accelerator importable, Relaxation uses it; PLYSPEC_PURE=1 turns it off."""
    folder = os.path.dirname(accelerator.__file__)
    probe = ("from planners.heuristics import relaxation as r; import planners as p; "
             "t = p.ground(p.load(p.PDDL_DIR / 'gripper/domain.pddl', "
             "p.PDDL_DIR / 'gripper/task01.pddl')); print(r.Relaxation(t).fast is not None)")
    for pure, expected in (("", "True"), ("1", "False")):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([folder, str(ROOT)]),
               "PLYSPEC_PURE": pure}
        done = subprocess.run([sys.executable, "-c", probe], env=env, cwd=ROOT,
                              capture_output=True, text=True, timeout=600)
        assert done.stdout.strip() == expected, done.stderr


def _pair(task, unit, accelerator, monkeypatch):
    """The pure-Python and the accelerated Relaxation of `task`."""
    monkeypatch.setattr(relaxation, "ACCELERATOR", None)
    pure = Relaxation(task, unit=unit)
    monkeypatch.setattr(relaxation, "ACCELERATOR", accelerator)
    return pure, Relaxation(task, unit=unit)


def _same(pure: Relaxation, fast: Relaxation, states) -> int:
    """Assert that both agree on everything on `states`; the number of states whose goal
    is relaxed-reachable."""
    assert pure.fast is None and fast.fast is not None
    reached = 0
    for state in states:
        for use_max in (True, False):
            for until_goals in (True, False):
                assert (fast.explore(state, use_max, until_goals=until_goals)
                        == pure.explore(state, use_max, until_goals=until_goals))
        assert fast.h_max(state) == pure.h_max(state)
        assert fast.h_add(state) == pure.h_add(state)
        assert fast.h_ff(state) == pure.h_ff(state)
        for method in (Relaxation.relaxed_plan, Relaxation.h_ff_preferred):
            value, chosen = method(fast, state)
            expected = method(pure, state)
            assert (value, chosen) == expected and list(chosen) == list(expected[1])
            assert type(value) is type(expected[0])
        reached += pure.h_ff(state) < relaxation.INF
    return reached


@pytest.mark.parametrize("name", TASKS)
def test_samples_agree_with_the_python_code(name, accelerator, monkeypatch):
    folder, stem = name.split("/")
    task = planners.ground(planners.load(SAMPLES / folder / "domain.pddl",
                                         SAMPLES / folder / f"{stem}.pddl"))
    for unit in (False, True):
        pure, fast = _pair(task, unit, accelerator, monkeypatch)
        assert _same(pure, fast, _states(task, 30, seed=len(name))) > 0


@pytest.mark.parametrize("name", TASKS)
def test_lmcut_agrees_with_the_python_code(name, accelerator, monkeypatch):
    """The three tie-breaking orders, and the choice between them on the first states."""
    folder, stem = name.split("/")
    task = planners.ground(planners.load(SAMPLES / folder / "domain.pddl",
                                         SAMPLES / folder / f"{stem}.pddl"))
    pure, fast = _pair(task, False, accelerator, monkeypatch)
    states = _states(task, 15, seed=len(name))
    for order in (*ORDERS, None):
        slow, quick = LandmarkCut(pure, order), LandmarkCut(fast, order)
        assert slow.fast is None and quick.fast is not None
        for state in states:
            value, expected = quick(state), slow(state)
            assert value == expected and type(value) is type(expected)
        assert quick.order == slow.order


@pytest.mark.parametrize("costs", [(1,), (1, 2, 5), (0, 1, 2)])
def test_random_tasks_agree_with_the_python_code(tmp_path, costs, accelerator, monkeypatch):
    reached = 0
    for n, task in enumerate(random_tasks(tmp_path, costs, 11)):
        for unit in (False, True):
            pure, fast = _pair(task, unit, accelerator, monkeypatch)
            reached += _same(pure, fast, _states(task, 8, seed=n))
            for state, order in product(_states(task, 8, seed=n), ORDERS):
                assert LandmarkCut(fast, order)(state) == LandmarkCut(pure, order)(state)
    assert reached > 40


def test_fractional_costs_keep_the_python_code(tmp_path, accelerator, monkeypatch):
    [task] = random_tasks(tmp_path, (2.5,), 3, count=1)
    assert _pair(task, False, accelerator, monkeypatch)[1].fast is None
    assert _pair(task, True, accelerator, monkeypatch)[1].fast is not None
