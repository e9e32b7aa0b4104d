"""`plyspec convert` for planning problems and the printers behind it.

- Every shipped planning sample (planners/data/problems/*.yaml and *.plan, planners/data/pddl/*)
  goes round the three formats (its own -> YAML -> .plan -> PDDL -> YAML) and grounds to
  the same task at every step; printing a printed problem again gives the same text.
- A differential test: random small formulas (and, or, not, if-then, forall, exists,
  literals, equalities) written independently as spec items and as PDDL, used as a
  precondition, an effect condition under `forall`, a derived-predicate body and a goal:
  the YAML, .plan and PDDL texts ground to the same task (the PDDL one with its objects
  in reverse order too), and so do their conversions.
- The command: stdout and files, a PDDL folder, and the refusals (a cost function in
  YAML, a non-PDDL name, a planning problem to .game, PDDL without -o).
"""
from __future__ import annotations

import argparse

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import planners
from conftest import ROOT
from framework.cli import convert_cmd
from framework.errors import SpecError, UsageError
from planners.lifted.check import check
from planners.formats.convert import convert, fingerprint, read_back
from planners.formats.export import to_pddl
from planners.formats.pddl import load_pddl
from planners.formats.plan_text import parse_plan_text
from planners.formats.print_plan import to_plan
from planners.formats.print_yaml import to_yaml
from planners.formats.yaml_spec import parse_yaml

PROBLEMS = ROOT / "planners" / "data" / "problems"
SAMPLES = [(p,) for p in sorted([*PROBLEMS.glob("*.yaml"), *PROBLEMS.glob("*.plan")])
           if p.stem != "eight_puzzle"]
SAMPLES += [(folder / "domain.pddl", task) for folder in sorted((ROOT / "planners" / "data" / "pddl").iterdir())
            if folder.is_dir() for task in sorted(folder.glob("task*.pddl"))]


def _id(files) -> str:
    return "/".join(files[-1].parts[-2:])


@pytest.mark.parametrize("files", SAMPLES, ids=_id)
def test_every_sample_goes_round_the_three_formats_unchanged(files):
    problem = planners.load(*files)
    expected = fingerprint(planners.ground(problem))
    for fmt in ("yaml", "plan", "pddl", "yaml"):
        problem = read_back(convert(problem, fmt), fmt)
        assert fingerprint(planners.ground(problem)) == expected, fmt


@pytest.mark.parametrize("files", SAMPLES[::3], ids=_id)
def test_printing_a_printed_problem_gives_the_same_text(files):
    problem = planners.load(*files)
    for printer, fmt in ((to_yaml, "yaml"), (to_plan, "plan")):
        once = printer(read_back({"": printer(problem)}, fmt))
        assert printer(read_back({"": once}, fmt)) == once
    pddl = read_back(dict(zip(("domain.pddl", "problem.pddl"), to_pddl(problem))), "pddl")
    assert to_pddl(pddl) == to_pddl(read_back(dict(zip(("domain.pddl", "problem.pddl"),
                                                       to_pddl(pddl))), "pddl"))


# ---------------------------------------------------------------- differential test
T_OBJECTS, U_OBJECTS = ["a", "b", "c"], ["d", "e"]
PREDICATES = {"p": ["t"], "q": ["t", "u"], "r": [], "s": ["u"]}


@st.composite
def formulas(draw, scope: dict, depth: int = 0, derived: bool = True):
    """A formula tree over `scope` (variable -> type)."""
    def term(type_):
        names = [v for v, t in scope.items() if t == type_] + \
            (T_OBJECTS if type_ == "t" else U_OBJECTS)
        return draw(st.sampled_from(names))
    kinds = ["lit", "lit", "eq"] + (["and", "or", "not", "imply", "forall", "exists"]
                                    if depth < 3 else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "lit":
        preds = list(PREDICATES) + (["dd"] if derived else [])
        pred = draw(st.sampled_from(preds))
        args = [term(t) for t in PREDICATES.get(pred, ["t"])]
        return ("lit", pred, args, draw(st.booleans()))
    if kind == "eq":
        return ("eq", term("t"), term("t"), draw(st.booleans()))
    if kind in ("and", "or"):
        return (kind, [draw(formulas(scope, depth + 1, derived)) for _ in range(draw(st.integers(2, 3)))])
    if kind == "not":
        return ("not", draw(formulas(scope, depth + 1, derived)))
    if kind == "imply":
        return ("imply", draw(formulas(scope, depth + 1, derived)),
                draw(formulas(scope, depth + 1, derived)))
    var, type_ = f"v{depth}", draw(st.sampled_from(["t", "u"]))
    return (kind, var, type_, draw(formulas({**scope, var: type_}, depth + 1, derived)))


def spec(f) -> str:
    """A formula as a spec item (every compound part in parentheses)."""
    kind = f[0]
    if kind == "lit":
        atom = f"{f[1].upper()}({', '.join(f[2])})" if f[2] else f[1].upper()
        return atom if f[3] else f"not {atom}"
    if kind == "eq":
        return f"{f[1]} {'==' if f[3] else '!='} {f[2]}"
    if kind in ("and", "or"):
        return "(" + f" {kind} ".join(spec(p) for p in f[1]) + ")"
    if kind == "not":
        return f"not ({spec(f[1])})"
    if kind == "imply":
        return f"(if {spec(f[1])} then {spec(f[2])})"
    return f"({kind}({f[1]} - {f[2]}) {spec(f[3])})"


def pddl(f, scope=frozenset()) -> str:
    kind = f[0]
    if kind == "lit":
        atom = "(" + " ".join([f[1], *(f"?{a}" if a.startswith("v") or a == "x" else a
                                        for a in f[2])]) + ")"
        return atom if f[3] else f"(not {atom})"
    if kind == "eq":
        terms = [f"?{a}" if a.startswith("v") or a == "x" else a for a in f[1:3]]
        return f"(= {terms[0]} {terms[1]})" if f[3] else f"(not (= {terms[0]} {terms[1]}))"
    if kind in ("and", "or"):
        return f"({kind} " + " ".join(pddl(p) for p in f[1]) + ")"
    if kind == "not":
        return f"(not {pddl(f[1])})"
    if kind == "imply":
        return f"(imply {pddl(f[1])} {pddl(f[2])})"
    return f"({kind} (?{f[1]} - {f[2]}) {pddl(f[3])})"


def _texts(pre, effect, body, goal, init):
    facts_spec = [spec(("lit", p, args, True)) for p, args in init]
    yaml_text = f"""problem: diff
types: [t, u]
objects: {{t: [a, b, c], u: [d, e]}}
predicates: [P(x - t), Q(x - t, y - u), R, S(y - u)]
derived:
  DD(x - t): [{spec(body)}]
actions:
  Act(x - t):
    pre: [{spec(pre)}]
    add: [P(x)]
    when:
      - {{forall: [v9 - u], if: [{spec(effect)}], add: [S(v9)], del: [Q(x, v9)]}}
init: [{', '.join(facts_spec)}]
goal: [{spec(goal)}]
"""
    plan_text = f"""problem diff
types t, u
objects t: a, b, c
objects u: d, e
predicates P(x - t), Q(x - t, y - u), R, S(y - u)
derived DD(x - t)
  if {spec(body)}
action Act(x - t)
  pre {spec(pre)}
  add P(x)
  forall v9 - u
  when {spec(effect)}
    add S(v9)
    del Q(x, v9)
init {', '.join(facts_spec)}
goal {spec(goal)}
"""
    domain = f"""(define (domain diff) (:requirements :adl :derived-predicates)
  (:types t u)
  (:predicates (p ?x - t) (q ?x - t ?y - u) (r) (s ?y - u) (dd ?x - t))
  (:derived (dd ?x - t) {pddl(body)})
  (:action act :parameters (?x - t) :precondition {pddl(pre)}
    :effect (and (p ?x) (forall (?v9 - u) (when {pddl(effect)} (and (s ?v9) (not (q ?x ?v9))))))))
"""
    init_pddl = " ".join("(" + " ".join([p, *args]) + ")" for p, args in init)
    problem = f"""(define (problem diff) (:domain diff) (:objects a b c - t d e - u)
  (:init {init_pddl}) (:goal {pddl(goal)}))
"""
    return yaml_text, plan_text, domain, problem


FACTS = [("p", (o,)) for o in T_OBJECTS] + [("q", (t, u)) for t in T_OBJECTS for u in U_OBJECTS] + \
    [("r", ())] + [("s", (u,)) for u in U_OBJECTS]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(pre=formulas({"x": "t"}), effect=formulas({"x": "t", "v9": "u"}),
       body=formulas({"x": "t"}, derived=False), goal=formulas({}),
       init=st.lists(st.sampled_from(FACTS), min_size=1, max_size=6, unique=True))
@example(pre=("exists", "v0", "t", ("lit", "q", ["v0", "d"], False)),  # the PDDL printer's constants
         effect=("lit", "p", ["x"], False), body=("lit", "p", ["b"], False),  # (b, d) come first:
         goal=("lit", "p", ["a"], False),             # grounding kept a subsumed copy of act(a)
         init=[("p", ("a",)), ("p", ("b",)), ("q", ("a", "d"))])   # when `a` came first
def test_random_formulas_ground_alike_in_the_three_formats(tmp_path, pre, effect, body, goal, init):
    yaml_text, plan_text, domain, problem = _texts(pre, effect, body, goal, init)
    (tmp_path / "d.pddl").write_text(domain)
    (tmp_path / "p.pddl").write_text(problem)
    (tmp_path / "reversed.pddl").write_text(problem.replace("a b c - t d e - u", "c b a - t e d - u"))
    problems = [check(parse_yaml(yaml_text, "diff.yaml")), check(parse_plan_text(plan_text, "diff.plan")),
                load_pddl(tmp_path / "d.pddl", tmp_path / "p.pddl"),
                load_pddl(tmp_path / "d.pddl", tmp_path / "reversed.pddl")]     # the objects' order
    prints = [fingerprint(planners.ground(p)) for p in problems]
    assert prints[0] == prints[1] == prints[2] == prints[3]
    for fmt in ("yaml", "plan", "pddl"):                 # the printers agree too
        assert fingerprint(planners.ground(read_back(convert(problems[2], fmt), fmt))) == prints[0]


# ---------------------------------------------------------------- the command
def run(*argv):
    parser = argparse.ArgumentParser()
    convert_cmd.add_parser(parser.add_subparsers())
    args = parser.parse_args(["convert", *map(str, argv)])
    return args.func(args)


SPECS = [files[0] for files in SAMPLES if len(files) == 1]


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.name)
def test_yaml_and_plan_convert_into_each_other_as_written(path, tmp_path):
    """Spec to spec keeps the recipe: the outline (every item as written, options and
    generators too) survives YAML -> .plan -> YAML and .plan -> YAML -> .plan, and the
    converted spec gives the same task for other option values too."""
    from planners.formats.convert import convert_spec
    from planners.formats.spec_outline import read_outline
    source = "plan" if path.suffix == ".plan" else "yaml"
    other = "yaml" if source == "plan" else "plan"
    text = path.read_text()
    there = convert_spec(text, str(path), source, other, {})
    back = convert_spec(there, f"x.{other}", other, source, {})
    assert read_outline(back, "back", source) == read_outline(text, str(path), source)
    converted = tmp_path / f"x.{other}"
    converted.write_text(there)
    other_values = {name: value + 1 for name, value in planners.load(path).options.items()}
    assert fingerprint(planners.ground(planners.load(converted, **other_values))) == \
        fingerprint(planners.ground(planners.load(path, **other_values)))


def test_convert_yaml_to_plan_keeps_options_and_generators(capsys):
    assert run(PROBLEMS / "hanoi.yaml", "--to", "plan", "--set", "disks=2") == 0
    out = capsys.readouterr().out
    assert out.startswith("# converted by plyspec from ")
    assert "options disks = 2\n" in out and "objects disk: D{i} for i in 1..disks\n" in out
    problem = check(parse_plan_text(out, "out.plan"))
    assert fingerprint(planners.ground(problem)) == \
        fingerprint(planners.ground(planners.load(PROBLEMS / "hanoi.yaml", disks=2)))


def test_convert_to_pddl_expands_options(tmp_path, capsys):
    assert run(PROBLEMS / "hanoi.yaml", "--to", "pddl", "--set", "disks=2", "-o", tmp_path) == 0
    domain = (tmp_path / "domain.pddl").read_text()
    assert domain.startswith("; converted by plyspec from ") and "with disks=2 (options and " \
        "generators expanded)" in domain
    assert "(:objects D1 - disk D2 - disk P1 - peg P2 - peg P3 - peg)" in (tmp_path / "problem.pddl").read_text()


def test_convert_pddl_pair_to_yaml_file_and_to_a_pddl_folder(tmp_path, capsys):
    lamps = ROOT / "planners" / "data" / "pddl" / "lamps"
    out = tmp_path / "lamps.yaml"
    assert run(lamps / "domain.pddl", lamps / "task01.pddl", "--to", "yaml", "-o", out) == 0
    assert "- {if: [on(x)], del: [on(x)]}" in out.read_text()
    assert run(out, "--to", "pddl", "-o", tmp_path / "again") == 0
    assert "wrote" in capsys.readouterr().out
    with pytest.raises(SpecError, match="exists"):           # not replaced without --force
        run(out, "--to", "pddl", "-o", tmp_path / "again")
    assert run(out, "--to", "pddl", "-o", tmp_path / "again", "--force") == 0
    again = planners.load(tmp_path / "again" / "domain.pddl", tmp_path / "again" / "problem.pddl")
    assert fingerprint(planners.ground(again)) == \
        fingerprint(planners.ground(planners.load(lamps / "domain.pddl", lamps / "task01.pddl")))


def test_convert_refusals(tmp_path, capsys):
    briefcase = PROBLEMS / "briefcase.plan"
    with pytest.raises(UsageError, match="converts to yaml, plan or pddl"):
        run(briefcase, "--to", "game")
    with pytest.raises(UsageError, match="give a folder with -o"):
        run(briefcase, "--to", "pddl")
    assert run(briefcase, "--to", "yaml", "-o", briefcase) == 2
    assert "refusing to overwrite the input" in capsys.readouterr().err


def test_a_cost_function_cannot_be_written_in_yaml_or_plan(tmp_path):
    (tmp_path / "d.pddl").write_text("""(define (domain road) (:requirements :typing :action-costs)
  (:types city) (:predicates (at ?c - city))
  (:functions (total-cost) - number (dist ?a ?b - city) - number)
  (:action drive :parameters (?a ?b - city) :precondition (at ?a)
    :effect (and (at ?b) (not (at ?a)) (increase (total-cost) (dist ?a ?b)))))""")
    (tmp_path / "p.pddl").write_text("""(define (problem r) (:domain road) (:objects x y - city)
  (:init (at x) (= (dist x y) 4) (= (dist y x) 4) (= (dist x x) 0) (= (dist y y) 0)
         (= (total-cost) 0)) (:goal (at y)) (:metric minimize (total-cost)))""")
    problem = planners.load(tmp_path / "d.pddl", tmp_path / "p.pddl")
    for fmt in ("yaml", "plan"):
        with pytest.raises(SpecError, match="is the function `dist`") as err:
            convert(problem, fmt)
        assert "d.pddl:5:64:" in str(err.value)
    assert convert(problem, "pddl")                     # PDDL holds it


def test_names_pddl_cannot_hold_are_refused_at_their_place():
    problem = check(parse_yaml("objects: [A, a]\npredicates: [P(x)]\nactions: {Go(x): {add: [P(x)]}}\n"
                               "init: []\ngoal: [P(A)]\n", "case.yaml"))
    with pytest.raises(SpecError, match="differ only in case") as err:
        convert(problem, "pddl")
    assert "case.yaml:1:14:" in str(err.value)
    problem = check(parse_yaml("objects: [1]\npredicates: [P(x)]\nactions: {Go(x): {add: [P(x)]}}\n"
                               "init: []\ngoal: [P(1)]\n", "case.yaml"))
    with pytest.raises(SpecError, match="`1` is not a PDDL name"):
        convert(problem, "pddl")


def test_a_name_the_spec_grammar_reads_as_a_keyword_is_refused_not_changed(tmp_path):
    """PDDL allows a predicate named `if`; a spec item `if(x)` would start an if-then."""
    (tmp_path / "d.pddl").write_text("(define (domain k) (:predicates (if ?x) (p))\n"
                                     "  (:action a :parameters (?x) :precondition (if ?x) :effect (p)))")
    (tmp_path / "p.pddl").write_text("(define (problem k) (:domain k) (:objects o) (:init (if o)) "
                                     "(:goal (p)))")
    problem = planners.load(tmp_path / "d.pddl", tmp_path / "p.pddl")
    for fmt in ("yaml", "plan"):
        with pytest.raises(SpecError, match=f"cannot be written as {fmt}"):
            convert(problem, fmt)


def test_two_rules_for_one_derived_predicate_convert(tmp_path):
    """PDDL may define a derived predicate by several rules with the same head; a spec's
    heads are mapping keys, so the second is written with other variable names."""
    (tmp_path / "d.pddl").write_text("(define (domain two) (:requirements :adl :derived-predicates)\n"
                                     "  (:predicates (p ?x) (q ?x) (d ?x))\n"
                                     "  (:derived (d ?x) (p ?x)) (:derived (d ?x) (q ?x))\n"
                                     "  (:action a :parameters (?x) :precondition (d ?x) :effect (p ?x)))")
    (tmp_path / "p.pddl").write_text("(define (problem t) (:domain two) (:objects o k) (:init (q o)) "
                                     "(:goal (and (p o) (not (d k)))))")
    problem = planners.load(tmp_path / "d.pddl", tmp_path / "p.pddl")
    assert "d(x_1): [q(x_1)]" in convert(problem, "yaml")[""]
    assert "derived d(x_1)\n  if q(x_1)" in convert(problem, "plan")[""]
