"""Every ADL construct of the YAML and `.plan` planning formats (`or`, `exists`, `forall`,
`if ... then`, `not` of a compound, `forall` effects with and without a condition,
derived predicates, `a or b` parameter types) against PDDL written by hand: the three
texts of each case build the same AST (formula trees, effects, rules; positions and the
case of names aside) and ground to the same task (facts, operators, axioms, initial
state and goal), and A* with LM-cut finds the optimal cost counted by
hand in the case, equal to uniform-cost search's, its plan replayed by the validator.
The shipped sample planners/data/problems/briefcase.{yaml,plan} (with its hand-written PDDL
twin) is checked end to end the same way.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest

import planners
from conftest import ROOT
from framework.search.registry import searcher
from planners.lifted.check import check
from planners.formats.convert import fingerprint
from planners.formats.pddl import load_pddl
from planners.formats.plan_text import parse_plan_text
from planners.lifted.validate import validate_plan
from planners.formats.yaml_spec import parse_yaml


@dataclass
class Case:
    """One construct: the spec items (the same strings in YAML and .plan), the PDDL
    fragments saying the same, and the optimal cost counted by hand."""
    cost: int
    goal: list
    goal_pddl: str
    go_pre: list = field(default_factory=list)
    go_pre_pddl: str = ""
    effects: list = field(default_factory=list)     # (forall params, if items, add items)
    effects_pddl: str = ""
    derived: list = field(default_factory=list)     # (head, body items)
    derived_pddl: str = ""
    predicates_pddl: str = ""
    init: list = field(default_factory=list)
    init_pddl: str = ""


# A robot on a line of rooms R1 - R2 - R3 - R4 (starting in R1); Go costs 1, Switch (light
# the room, maybe more) 2, Pick (a ball or a box, not the cube) 1.  X is in R3, Y in R4,
# Z in R1.
CASES = {
    # R3 or R4 lit: walk R1 -> R3 (2), switch (2)
    "or": Case(4, ["Lit(R3) or Lit(R4)"], "(or (lit r3) (lit r4))"),
    # some room other than R1 lit: R2 is one step away (1) + switch (2)
    "exists": Case(3, ["exists(r - room) Lit(r) and r != R1"],
                   "(exists (?r - room) (and (lit ?r) (not (= ?r r1))))"),
    # every room lit, R1 already is: three steps, three switches
    "forall": Case(9, ["forall(r - room) Lit(r)"], "(forall (?r - room) (lit ?r))",
                   init=["Lit(R1)"], init_pddl="(lit r1)"),
    # the marked rooms R2 and R4 lit: 1 + 2 + 2 + 2
    "imply": Case(7, ["forall(r - room) if Mark(r) then Lit(r)"],
                  "(forall (?r - room) (imply (mark ?r) (lit ?r)))",
                  init=["Mark(R2)", "Mark(R4)"], init_pddl="(mark r2) (mark r4)"),
    # R3 may only be entered from a lit room: light R2 on the way (1 + 2 + 1 + 1)
    "not-compound": Case(5, ["At(R4)"], "(at r4)", go_pre=["not (Blocked(b) and not Lit(a))"],
                         go_pre_pddl="(not (and (blocked ?b) (not (lit ?a))))",
                         init=["Blocked(R3)"], init_pddl="(blocked r3)"),
    # a switch lights every room: one switch where the robot stands (2)
    "forall-effect": Case(2, ["Lit(R4)", "Lit(R2)"], "(and (lit r4) (lit r2))",
                          effects=[("s - room", None, ["Lit(s)"])],
                          effects_pddl="(forall (?s - room) (lit ?s))"),
    # switching lights the neighbours too: from R2 both R1 and R3 (1 + 2)
    "forall-when-effect": Case(3, ["Lit(R1)", "Lit(R3)"], "(and (lit r1) (lit r3))",
                               effects=[("s - room", ["Link(r, s)"], ["Lit(s)"])],
                               effects_pddl="(forall (?s - room) (when (link ?r ?s) (lit ?s)))"),
    # R4 is bright when it or a neighbour is lit: walk to R3 (2), switch (2)
    "derived": Case(4, ["Bright(R4)"], "(bright r4)",
                    derived=[("Bright(r - room)", ["Lit(r) or (exists(s - room) Link(s, r) "
                                                   "and Lit(s))"])],
                    derived_pddl="(:derived (bright ?r - room) (or (lit ?r) (exists (?s - room)"
                                 " (and (link ?s ?r) (lit ?s)))))",
                    predicates_pddl="(bright ?r - room)"),
    # holding anything: the cube Z beside the robot cannot be picked (Pick takes a ball or
    # a box), the ball X is two rooms away (2 + 1)
    "either": Case(3, ["exists(o) Held(o)"], "(exists (?o) (held ?o))"),
}

ROOMS = ["R1", "R2", "R3", "R4"]
LINKS = [f"Link({a}, {b})" for a, b in zip(ROOMS, ROOMS[1:])] + \
    [f"Link({b}, {a})" for a, b in zip(ROOMS, ROOMS[1:])]
PREDICATES = ["At(r - room)", "Link(a - room, b - room)", "Lit(r - room)", "Mark(r - room)",
              "Blocked(r - room)", "ObjAt(o, r - room)", "Held(o)"]


def _list(items) -> str:
    return "[" + ", ".join(items) + "]"


def yaml_text(case: Case) -> str:
    lines = ["problem: rooms", "types: {room: object, ball: object, box: object, cube: object}",
             "objects: {room: [R1, R2, R3, R4], ball: [X], box: [Y], cube: [Z]}",
             f"predicates: {_list(PREDICATES)}"]
    if case.derived:
        lines += ["derived:"] + [f"  {head}: {_list(body)}" for head, body in case.derived]
    lines += ["actions:", "  Go(a - room, b - room):",
              f"    pre: {_list(['At(a)', 'Link(a, b)', *case.go_pre])}",
              "    add: [At(b)]", "    del: [At(a)]",
              "  Switch(r - room):", "    pre: [At(r), not Lit(r)]", "    add: [Lit(r)]",
              "    cost: 2"]
    if case.effects:
        lines.append("    when:")
    for params, condition, adds in case.effects:
        entry = [f"forall: [{params}]"] + ([f"if: {_list(condition)}"] if condition else [])
        lines.append("      - {" + ", ".join(entry + [f"add: {_list(adds)}"]) + "}")
    lines += ["  Pick(o - ball or box, r - room):", "    pre: [At(r), ObjAt(o, r)]",
              "    add: [Held(o)]", "    del: [ObjAt(o, r)]",
              f"init: {_list(['At(R1)', *LINKS, 'ObjAt(X, R3)', 'ObjAt(Y, R4)', 'ObjAt(Z, R1)', *case.init])}",
              f"goal: {_list(case.goal)}"]
    return "\n".join(lines) + "\n"


def plan_text(case: Case) -> str:
    lines = ["problem rooms", "types room, ball, box, cube", "objects room: R1, R2, R3, R4",
             "objects ball: X", "objects box: Y", "objects cube: Z",
             "predicates " + ", ".join(PREDICATES)]
    for head, body in case.derived:
        lines += [f"derived {head}", "  if " + ",\n     ".join(body)]
    lines += ["action Go(a - room, b - room)", "  pre " + ", ".join(["At(a)", "Link(a, b)", *case.go_pre]),
              "  add At(b)", "  del At(a)",
              "action Switch(r - room)", "  pre At(r), not Lit(r)", "  add Lit(r)", "  cost 2"]
    for params, condition, adds in case.effects:
        lines.append(f"  forall {params}")
        if condition:
            lines.append("  when " + ", ".join(condition))
        lines.append("    add " + ", ".join(adds))
    lines += ["action Pick(o - ball or box, r - room)", "  pre At(r), ObjAt(o, r)", "  add Held(o)",
              "  del ObjAt(o, r)",
              "init " + ",\n     ".join(["At(R1)", *LINKS, "ObjAt(X, R3)", "ObjAt(Y, R4)",
                                          "ObjAt(Z, R1)", *case.init]),
              "goal " + ", ".join(case.goal)]
    return "\n".join(lines) + "\n"


def pddl_texts(case: Case) -> tuple[str, str]:
    domain = f"""(define (domain rooms)
  (:requirements :adl :derived-predicates :action-costs)
  (:types room ball box cube)
  (:predicates (at ?r - room) (link ?a ?b - room) (lit ?r - room) (mark ?r - room)
               (blocked ?r - room) (obj-at ?o - object ?r - room) (held ?o) {case.predicates_pddl})
  (:functions (total-cost) - number)
  {case.derived_pddl}
  (:action go :parameters (?a ?b - room)
    :precondition (and (at ?a) (link ?a ?b) {case.go_pre_pddl})
    :effect (and (at ?b) (not (at ?a)) (increase (total-cost) 1)))
  (:action switch :parameters (?r - room)
    :precondition (and (at ?r) (not (lit ?r)))
    :effect (and (lit ?r) {case.effects_pddl} (increase (total-cost) 2)))
  (:action pick :parameters (?o - (either ball box) ?r - room)
    :precondition (and (at ?r) (obj-at ?o ?r))
    :effect (and (held ?o) (not (obj-at ?o ?r)) (increase (total-cost) 1))))
"""
    links = " ".join(f"(link {a.lower()} {b.lower()}) (link {b.lower()} {a.lower()})"
                     for a, b in zip(ROOMS, ROOMS[1:]))
    problem = f"""(define (problem rooms) (:domain rooms)
  (:objects r1 r2 r3 r4 - room x - ball y - box z - cube)
  (:init (at r1) {links} (obj-at x r3) (obj-at y r4) (obj-at z r1) {case.init_pddl}
         (= (total-cost) 0))
  (:goal {case.goal_pddl})
  (:metric minimize (total-cost)))
"""
    return domain, problem


def _pddl(case: Case, tmp_path):
    domain, problem = pddl_texts(case)
    (tmp_path / "domain.pddl").write_text(domain)
    (tmp_path / "problem.pddl").write_text(problem)
    return load_pddl(tmp_path / "domain.pddl", tmp_path / "problem.pddl")


def _optimal(problem) -> float:
    task = planners.ground(problem)
    result = searcher("astar")(task, heuristic="lmcut", time_limit=60)
    check_ = validate_plan(problem, [task.action_text(a) for a in result.pv])
    assert check_.valid, check_.message
    assert check_.cost == result.cost == searcher("ucs")(task, time_limit=60).cost
    return result.cost


@pytest.mark.parametrize("name", CASES)
def test_each_construct_grounds_alike_in_the_three_formats_with_its_optimal_cost(name, tmp_path):
    case = CASES[name]
    problems = {"yaml": check(parse_yaml(yaml_text(case), "case.yaml")),
                "plan": check(parse_plan_text(plan_text(case), "case.plan")),
                "pddl": _pddl(case, tmp_path)}
    prints = {fmt: fingerprint(planners.ground(p)) for fmt, p in problems.items()}
    assert prints["yaml"] == prints["pddl"] == prints["plan"]
    assert _ast(problems["yaml"]) == _ast(problems["plan"]) == _ast(problems["pddl"])
    for fmt, problem in problems.items():
        assert _optimal(problem) == case.cost, fmt


def test_the_constructs_reach_the_grounded_task():
    """The cases use what they claim: ADL preconditions / goals stay formulas, effects are
    universal, the derived case has axioms, the `either` parameter skips the cube."""
    problems = {name: check(parse_yaml(yaml_text(c), "c.yaml")) for name, c in CASES.items()}
    assert problems["or"].goal_formula is not None and not problems["or"].goal
    assert problems["not-compound"].actions[0].condition is not None
    assert all(e.params for e in problems["forall-when-effect"].actions[1].effects)
    assert problems["forall-when-effect"].actions[1].effects[0].condition is not None
    assert planners.ground(problems["derived"]).axioms
    picks = [op.name for op in planners.ground(problems["either"]).operators if "Pick" in op.name]
    assert picks and not any("Z" in name for name in picks)


BRIEFCASE = ROOT / "planners" / "data" / "problems" / "briefcase"
BRIEFCASE_PDDL = ROOT / "planners" / "data" / "pddl" / "briefcase"


def test_briefcase_sample_end_to_end():
    """Quantifiers, a conditional `forall` effect and two derived predicates in the shipped
    sample: YAML, .plan and the hand-written PDDL ground alike, and the optimal cost is the
    count in the file's comment: 2 moves x 3 + 2 put-ins + 2 take-outs = 10."""
    problems = [planners.load(BRIEFCASE.with_suffix(".yaml")),
                planners.load(BRIEFCASE.with_suffix(".plan")),
                planners.load(BRIEFCASE_PDDL / "domain.pddl", BRIEFCASE_PDDL / "task01.pddl")]
    prints = [fingerprint(planners.ground(p)) for p in problems]
    assert prints[0] == prints[1] == prints[2]
    assert problems[0].derived and any(e.params for a in problems[0].actions for e in a.effects)
    for problem in problems:
        assert _optimal(problem) == 2 * 3 + 2 * 1 + 2 * 1


def _shape(node):
    """An AST node without positions, names without case or `-` / `_`."""
    import dataclasses
    if isinstance(node, (list, tuple)):
        return tuple(_shape(n) for n in node)
    if isinstance(node, str):
        return node.lower().replace("-", "").replace("_", "")
    if dataclasses.is_dataclass(node):
        return (type(node).__name__, *(_shape(getattr(node, f.name)) for f in dataclasses.fields(node)
                                       if f.name != "pos"))
    return node


def _ast(p) -> tuple:
    return (_shape(p.derived), _shape(p.goal_formula), _shape(p.goal),
            _shape([(a.params, a.preconditions, a.condition, a.add, a.delete, a.effects)
                    for a in p.actions]))


def test_yaml_plan_and_pddl_build_the_same_ast():
    """Not only the same grounded task: the same formula trees, effects and rules."""
    problems = [planners.load(BRIEFCASE.with_suffix(".yaml")),
                planners.load(BRIEFCASE.with_suffix(".plan")),
                planners.load(BRIEFCASE_PDDL / "domain.pddl", BRIEFCASE_PDDL / "task01.pddl")]
    assert _ast(problems[0]) == _ast(problems[1]) == _ast(problems[2])
