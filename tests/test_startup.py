"""Start-up stays cheap: what `import framework` and `plyspec --help` load (the import graph,
not the time, which a loaded machine cannot measure reliably)."""
import json
import subprocess
import sys

from lark import Transformer

from conftest import ROOT


def _modules_after(code: str) -> set:
    """The modules `code` itself imports: those the interpreter already had when `-c` began
    (site's `.pth` files, which on some machines import `typing` or `ssl`) are not counted."""
    prologue = "import sys\n_before = set(sys.modules)\n"
    epilogue = "\n_new = sorted(set(sys.modules) - _before)\nimport json; print(json.dumps(_new))"
    out = subprocess.run([sys.executable, "-c", prologue + code + epilogue],
                         cwd=ROOT, capture_output=True, text=True, check=True, timeout=600).stdout
    return set(json.loads(out.splitlines()[-1]))


def test_import_framework_loads_no_heavy_dependency():
    loaded = _modules_after("import framework")
    for heavy in ("rich", "hypothesis", "planners", "lark", "yaml", "framework.compiler",
                  "framework.checker", "framework.search"):
        assert not any(m == heavy or m.startswith(heavy + ".") for m in loaded), heavy


def test_help_imports_no_sub_command_module():
    loaded = _modules_after("import sys; sys.argv = ['plyspec', '--help']\n"
                            "from framework.cli import main\n"
                            "try:\n    main()\nexcept SystemExit:\n    pass")
    assert not [m for m in loaded if m.startswith("framework.cli.") and m.endswith("_cmd")]
    assert "framework.loader" not in loaded and "rich" not in loaded


def test_a_command_imports_only_its_own_module():
    loaded = _modules_after("from framework.cli import main\n"
                            "main(['check', 'game_specs/tictactoe.yaml'])")
    assert [m for m in loaded if m.endswith("_cmd")] == ["framework.cli.check_cmd"]
    assert "planners" not in loaded and "hypothesis" not in loaded


def test_plan_on_pddl_imports_neither_lark_nor_the_game_side():
    """`plyspec plan DOMAIN.pddl TASK.pddl` reads well-formed PDDL with the hand-written
    reader: no Lark, no YAML, no game loader, checker or compiler, no rich or hypothesis."""
    loaded = _modules_after("from framework.cli import main\n"
                            "main(['plan', 'planners/data/pddl/blocks/domain.pddl', "
                            "'planners/data/pddl/blocks/task01.pddl', '--algo', 'gbfs', '--json'])")
    assert "planners.formats.pddl_reader" in loaded and "planners.lifted.validate" in loaded
    assert [m for m in loaded if m.endswith("_cmd")] == ["framework.cli.plan_cmd"]
    for heavy in ("lark", "yaml", "rich", "hypothesis", "framework.loader", "framework.compiler",
                  "framework.checker", "framework.ast", "framework.conformance"):
        assert not any(m == heavy or m.startswith(heavy + ".") for m in loaded), heavy


def test_plan_imports_neither_dataclasses_nor_inspect_nor_typing():
    """The planning AST, task and search results are `framework.records` classes: the
    `dataclasses` module (and `inspect`, which it imports) loads only when something asks
    for `dataclasses.fields` of one of them; `SearchProblem` is no `typing.Protocol`."""
    loaded = _modules_after("from framework.cli import main\n"
                            "main(['plan', 'planners/data/pddl/blocks/domain.pddl', "
                            "'planners/data/pddl/blocks/task01.pddl', '--algo', 'gbfs', '--heuristic', "
                            "'hff', '--json'])")
    assert "planners.grounding.task" in loaded and "framework.search.result" in loaded
    assert "dataclasses" not in loaded and "inspect" not in loaded and "typing" not in loaded


def test_a_pddl_syntax_error_still_uses_lark_for_its_message(tmp_path):
    domain = tmp_path / "d.pddl"
    domain.write_text("(define (domain d)\n  (:predicates (p))\n  (:action a :effect (p) ?y))\n")
    task = tmp_path / "t.pddl"
    task.write_text("(define (problem t) (:domain d) (:init) (:goal (p)))\n")
    run = subprocess.run([sys.executable, "-m", "framework.cli", "plan", str(domain), str(task)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 1 and "d.pddl:3" in run.stderr and "Traceback" not in run.stderr


def test_lazy_names_resolve():
    import framework
    assert callable(framework.load) and framework.Game.__name__ == "Game"


def test_parser_cache_survives_a_damaged_file(tmp_path, monkeypatch):
    from framework.frontend import lark_cache
    monkeypatch.setenv("PLYSPEC_CACHE", str(tmp_path))
    grammar = 'start: "a"+\n'
    first = lark_cache.cached_lark(grammar, parser="lalr")
    [stored] = list(tmp_path.glob("lark-*.pickle"))
    stored.write_bytes(b"not a pickle")                  # damaged: rebuilt, not trusted
    again = lark_cache.cached_lark(grammar, parser="lalr")
    assert again.parse("aa") == first.parse("aa")
    assert not [p for p in tmp_path.iterdir() if p.suffix == ".tmp"]


class Count(Transformer):
    """A transformer the cache can store (a module-level class pickles)."""

    def start(self, items):
        return len(items)


def test_parser_cache_serves_a_parser_with_a_transformer(tmp_path, monkeypatch):
    """The PDDL parser has a transformer: its cached form is loaded, not rebuilt each time."""
    from lark import Lark
    from framework.frontend import lark_cache
    monkeypatch.setenv("PLYSPEC_CACHE", str(tmp_path))
    grammar = 'start: A+\nA: "a"\n'
    first = lark_cache.cached_lark(grammar, parser="lalr", transformer=Count())

    def rebuilt(*args, **kwargs):
        raise AssertionError("rebuilt, not loaded from the cache")
    monkeypatch.setattr(Lark, "__init__", rebuilt)
    again = lark_cache.cached_lark(grammar, parser="lalr", transformer=Count())
    assert again.parse("aaa") == first.parse("aaa") == 3
