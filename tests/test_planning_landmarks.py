"""Landmarks, landmark count, the relaxed exploration's two queues, weighted A* and the
lama-first configuration, on the PDDL samples shipped in planners/data/pddl (no IPC
collection needed).  Each check compares against an independent computation: landmarks
against their brute-force definition, h_max/h_add against a fixpoint reference, wA*
against A*, landmark soundness and orderings against plans actually found, and every
lama-first plan against the lifted validator."""
from __future__ import annotations

import pytest

import planners
from conftest import ROOT
from framework.cli import main
from framework.runtime import bits
from framework.search.registry import searcher
from planners.heuristics.relaxation import INF, Relaxation
from planners.landmarks.graph import LandmarkGraph, fact_labels, is_landmark_by_removal
from planners.landmarks.lmcount import LandmarkCount
from planners.lifted.validate import validate_plan
from planning_support import breadth_first_states as _states

SAMPLES = ROOT / "planners" / "data" / "pddl"
TASKS = sorted(f"{p.parent.name}/{p.stem}" for p in SAMPLES.glob("*/task*.pddl"))
COSTS = ["lamps/task01", "openstacks-adl/task01", "scanalyzer/task01"]


def _load(name):
    folder, task = name.split("/")
    problem = planners.load(SAMPLES / folder / "domain.pddl", SAMPLES / folder / f"{task}.pddl")
    return problem, planners.ground(problem)


def _walk(task, plan):
    """The states a plan visits, the initial one first."""
    states = [task.initial]
    for op in plan:
        states.append(next(t for a, t, _ in task.successors(states[-1]) if a == op))
    return states


@pytest.mark.parametrize("name", TASKS)
def test_landmarks_are_exactly_the_facts_whose_removal_cuts_the_relaxed_goal(name):
    _, task = _load(name)
    relaxation = Relaxation(task)
    for state in _states(task, 6):
        labels = fact_labels(relaxation, state)
        found = 0
        if all(labels[g] is not None for g in relaxation.goal):
            for g in relaxation.goal:
                found |= labels[g]
        brute = {f for f in range(relaxation.facts) if is_landmark_by_removal(relaxation, state, f)}
        assert set(bits(found)) == brute
    assert LandmarkGraph(task, relaxation).facts        # the goal facts at least


@pytest.mark.parametrize("name", TASKS)
def test_disjunctive_landmarks_are_landmarks_by_removal_and_hold_when_a_fact_does(name):
    """Each disjunctive landmark D: forbidding all its facts makes the goal relaxed-
    unreachable (the definition), none of its 2..4 facts is true initially or a fact
    landmark; `holds` marks it exactly in the states where one of its facts is true."""
    from planners.landmarks.graph import MAX_DISJUNCTION, reachable
    _, task = _load(name)
    relaxation = Relaxation(task)
    graph = LandmarkGraph(task, relaxation)
    initial = relaxation.relaxed(task.initial)
    goal = relaxation.goal_mask
    for j, mask in enumerate(graph.disjunctive):
        assert 2 <= mask.bit_count() <= MAX_DISJUNCTION
        assert not mask & (initial | graph.fact_landmarks)
        assert reachable(relaxation, initial, mask) & goal != goal
        assert graph.landmarks >> graph.size + j & 1
    for state in _states(task, 30):
        relaxed = relaxation.relaxed(state)
        expected = relaxed & graph.fact_landmarks
        for j, mask in enumerate(graph.disjunctive):
            if any(relaxed >> f & 1 for f in bits(mask)):
                expected |= 1 << graph.size + j
        assert graph.holds(relaxed) == expected


def test_gripper_has_the_disjunctive_landmarks_carry_in_either_hand():
    """RHW's textbook case: every ball to move is carried in the left or the right
    gripper before it is dropped in room b."""
    _, task = _load("gripper/task01")
    graph = LandmarkGraph(task, Relaxation(task))
    found = {frozenset(task.facts[f] for f in bits(mask)) for mask in graph.disjunctive}
    balls = {f.split()[1] for f in task.facts if f.startswith("(at ball")}
    assert found == {frozenset({f"(carry {b} left)", f"(carry {b} right)"}) for b in balls}


@pytest.mark.parametrize("name", TASKS)
def test_landmarks_and_greedy_necessary_orderings_hold_on_found_plans(name):
    _, task = _load(name)
    relaxation = Relaxation(task)
    graph = LandmarkGraph(task, relaxation)
    plan = searcher("lama-first")(task, time_limit=60).pv
    true = [graph.holds(relaxation.relaxed(s)) for s in _walk(task, plan)]
    for q in graph.facts:                 # (disjunctive landmarks among them)
        # every landmark is reached; its gn parents hold right before it first does
        first = next(t for t, mask in enumerate(true) if mask >> q & 1)
        if first:
            gn_parents = [p for p in graph.facts if graph.gn_children[p] >> q & 1]
            assert all(true[first - 1] >> p & 1 for p in gn_parents), (q, gn_parents)


@pytest.mark.parametrize("name", TASKS)
def test_landmark_count_starts_at_the_unreached_landmarks_and_ends_at_zero(name):
    _, task = _load(name)
    lmcount = LandmarkCount(task, unit=True)
    graph = lmcount.graph
    initial_true = graph.holds(lmcount.relaxation.relaxed(task.initial))
    value, _ = lmcount.evaluate(task.initial)
    assert value == len(graph.facts) - initial_true.bit_count()
    states = _walk(task, searcher("astar")(task, heuristic="lmcut", time_limit=60).pv)
    parent = None
    for state in states:
        value, preferred = lmcount.evaluate(state, parent)
        past, future = lmcount.past[state], lmcount.future[state]
        assert future & ~past == graph.landmarks & ~past      # not yet reached: future
        assert task.is_goal(state) or value == future.bit_count()
        assert _preferred_among(task, state, preferred) == \
            _preferred_reference(task, lmcount, state)
        parent = state
    assert task.is_goal(states[-1])
    assert lmcount.past[states[-1]] == graph.landmarks and value == 0


def _preferred_among(task, state, preferred) -> set:
    """The applicable operators of `state` that `preferred` (a set, or an object with
    `among`, as `lazy_gbfs` reads it) prefers."""
    applicable = [op for op, _, _ in task.successors(state)]
    if isinstance(preferred, (set, frozenset)):
        return preferred & set(applicable)
    return preferred.among(applicable)


def _preferred_reference(task, lmcount, state) -> set:
    """LAMA's landmark preferred operators by their definition, over the applicable
    operators: one achieving (by itself or a conditional effect whose conditions hold) a
    future landmark false in `state` whose predecessors are all past, or that is past
    (required again)."""
    graph, relaxation = lmcount.graph, lmcount.relaxation
    relaxed = relaxation.relaxed(state)
    true, past, future = graph.holds(relaxed), lmcount.past[state], lmcount.future[state]
    if relaxation.goal_mask & ~relaxed == 0:
        return set()
    wanted = {q for q in graph.facts if future >> q & 1 and not true >> q & 1
              and (past >> q & 1 or not graph.parents[q] & ~past)}
    return {op for op, _, _ in task.successors(state)
            if any(relaxed & relaxation.pre_mask[k] == relaxation.pre_mask[k]
                   and any(k in graph.achievers[q] for q in wanted)
                   for k in relaxation.copies[op])}


@pytest.mark.parametrize("few", [0, 10 ** 9])
@pytest.mark.parametrize("name", ["blocks/task04", "openstacks-adl/task01", "gripper/task01"])
def test_landmark_preferred_operators_are_the_same_listed_or_tested(name, few, monkeypatch):
    """Both ways of giving the preferred operators (listing the achievers of the wanted
    landmarks, or testing each applicable operator: `lmcount.FEW` chooses) give the
    definition's set on every state of a lama-first search."""
    from planners.configurations import lama
    from planners.landmarks import lmcount as module
    monkeypatch.setattr(module, "FEW", few)
    _, task = _load(name)
    relaxation, lmcount = lama.evaluators(task)
    checked = []

    class Checked:
        path_dependent = True

        def evaluate(self, state, parent):
            value, preferred = lmcount.evaluate(state, parent)
            assert _preferred_among(task, state, preferred) == \
                _preferred_reference(task, lmcount, state)
            checked.append(state)
            return value, preferred

    assert searcher("lazy-gbfs")(task, heuristic=[relaxation, Checked()]).extra["valid"]
    assert len(checked) > 5


def test_a_landmark_true_again_is_not_counted_twice_and_a_lost_goal_is_required_again():
    _, task = _load("blocks/task04")
    lmcount = LandmarkCount(task, unit=True)
    goal = lmcount.graph.goal
    plan = searcher("astar")(task, heuristic="lmcut").pv
    states = _walk(task, plan)
    parent = None
    for state in states:
        lmcount.evaluate(state, parent)
        parent = state
    accepted = lmcount.past[states[-1]]
    # from the goal, undo the last step (blocks steps can be undone): a goal fact it added
    # is past but false again
    back = next(t for _, t, _ in task.successors(states[-1]) if t == states[-2])
    value, _ = lmcount.evaluate(back, states[-1])
    lost = accepted & goal & ~lmcount.relaxation.relaxed(back)
    assert lost and value == (lost | lmcount.future[states[-1]]).bit_count()


@pytest.mark.parametrize("name", TASKS)
def test_bucket_and_heap_explorations_agree_with_a_fixpoint_reference(name):
    _, task = _load(name)
    relaxation = Relaxation(task)
    for state in _states(task, 15):
        for use_max in (True, False):
            buckets = relaxation.explore(state, use_max)
            heap = relaxation.explore(state, use_max, cost=list(relaxation.cost))
            assert buckets == heap
            reference = _reference_costs(relaxation, state, use_max)
            goal = [reference[g] for g in relaxation.goal]
            expected = (max(goal, default=0) if use_max else sum(goal)) if INF not in goal else INF
            assert (relaxation.h_max if use_max else relaxation.h_add)(state) == expected


def _reference_costs(relaxation, state, use_max):
    """h_max / h_add costs of every fact by plain Bellman-Ford rounds."""
    dist = [INF] * relaxation.facts
    for fact in bits(relaxation.relaxed(state)):
        dist[fact] = 0
    changed = True
    while changed:
        changed = False
        for pre, add, cost in zip(relaxation.pre, relaxation.add, relaxation.cost):
            needs = [dist[q] for q in pre]
            reach = (max(needs, default=0) if use_max else sum(needs)) + cost
            for fact in add:
                if reach < dist[fact]:
                    dist[fact] = reach
                    changed = True
    return dist


@pytest.mark.parametrize("name", COSTS)
def test_unit_relaxation_counts_operators(name):
    _, task = _load(name)
    unit = Relaxation(task, unit=True)
    value, chosen = unit.relaxed_plan(task.initial)
    assert value == len({unit.owner[k] for k in chosen if unit.owner[k] >= 0})
    assert value >= Relaxation(task).h_max(task.initial) / max(op.cost for op in task.operators)


@pytest.mark.parametrize("name", ["blocks/task04", "gripper/task02", "logistics/task01",
                                  "miconic/task03", *COSTS])
def test_weighted_astar_with_weight_one_is_astar(name):
    _, task = _load(name)
    optimal = searcher("astar")(task, heuristic="lmcut", time_limit=60)
    assert searcher("wastar")(task, heuristic="lmcut", weight=1, time_limit=60).cost == optimal.cost
    bounded = searcher("wastar")(task, heuristic="lmcut", weight=2, time_limit=60)
    assert bounded.extra["valid"] and optimal.cost <= bounded.cost <= 2 * optimal.cost


@pytest.mark.parametrize("name", TASKS)
def test_lama_first_plans_are_valid(name):
    problem, task = _load(name)
    result = searcher("lama-first")(task, time_limit=60)
    plan = [task.action_text(a) for a in result.pv]
    check = validate_plan(problem, plan)
    assert result.extra["solved"] and check.valid, check.message
    assert check.cost == result.cost


def test_plan_config_lama_first_and_optimal(capsys):
    import json
    folder = SAMPLES / "scanalyzer"
    files = [str(folder / "domain.pddl"), str(folder / "task01.pddl")]
    assert main(["plan", *files, "--config", "lama-first", "--json"]) == 0
    lama = json.loads(capsys.readouterr().out)
    assert lama["algorithm"] == "lama-first" and lama["valid"] and lama["solved"]
    assert main(["plan", *files, "--config", "optimal", "--json"]) == 0
    optimal = json.loads(capsys.readouterr().out)
    assert optimal["algorithm"] == "astar" and optimal["heuristic"] == "lmcut"
    assert optimal["valid"] and optimal["cost"] <= lama["cost"]
    assert main(["plan", *files, "--config", "lama-first", "--algo", "gbfs"]) == 2
    assert main(["plan", *files, "--weight", "3"]) == 2
    assert main(["plan", *files, "--algo", "wastar", "--weight", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["valid"]


def test_lazy_search_gives_a_path_dependent_evaluator_the_first_parent_only():
    _, task = _load("blocks/task04")
    seen = []

    class Recorder:
        path_dependent = True

        def evaluate(self, state, parent):
            seen.append((state, parent))
            return Relaxation(task).h_ff_preferred(state)

        def reached(self, state, parent):
            again.append((state, parent))

    again = []
    assert searcher("lazy-gbfs")(task, heuristic=[Recorder()]).extra["valid"]
    assert seen[0] == (task.initial, None) and len(seen) > 5
    evaluated = {state for state, _ in seen}
    parent_of = dict(seen[1:])
    for state, parent in seen[1:]:
        assert any(child == state for _, child, _ in task.successors(parent))
    # Fast Downward's lazy search: only the path a state is first evaluated by is heard
    # of, though the search met later paths to evaluated states (blocks steps undo)
    assert len(evaluated) == len(seen) and not again
    assert any(parent_of[child] != state for state in evaluated
               for _, child, _ in task.successors(state) if child in parent_of)


def test_a_state_reached_by_two_paths_keeps_the_landmarks_past_on_both():
    _, task = _load("gripper/task01")
    first = {child: op for op, child, _ in task.successors(task.initial)}
    parents = {}
    for state in first:
        for _, child, _ in task.successors(state):
            parents.setdefault(child, []).append(state)
    state, (one, two, *_) = next((s, p) for s, p in parents.items() if len(p) >= 2)

    def along(*path):
        lmcount = LandmarkCount(task, unit=True)
        for parent, child in zip((None, *path), path):
            lmcount.evaluate(child, parent)
        return lmcount, lmcount.past[path[-1]]

    _, by_one = along(task.initial, one, state)
    _, by_two = along(task.initial, two, state)
    both, _ = along(task.initial, one, state)
    both.evaluate(two, task.initial)
    assert both.reached(state, two) == by_one & by_two == both.past[state]


def _progress_reference(graph, true, parent_status, stored):
    """Fast Downward's landmark progression written landmark by landmark over Python sets
    (LandmarkStatusManager: basic, goals, greedy-necessary, reasonable), the reference
    `LandmarkCount.reached` is checked against.  Returns (past, future)."""
    ids = list(graph.facts)
    if parent_status is None:
        past = {q for q in ids if q in true}
        future = {q for q in ids if q not in true or graph.reasonable[q]}
    else:
        parent_past, parent_future = parent_status
        past, future = stored if stored else (set(ids), set())
        past, future = set(past), set(future)
        for q in ids:
            if q in parent_future and (q in past or q not in future) and q not in true:
                future.add(q)
                if q not in parent_past:
                    past.discard(q)
    for q in ids:
        if graph.goal >> q & 1 and q not in true:
            future.add(q)
    for tail in ids:
        for head in bits(graph.gn_children[tail]):
            if head not in past and tail not in future and tail not in true:
                future.add(tail)
    for head in ids:
        for tail in bits(graph.reasonable[head]):
            if tail not in past:
                future.add(head)
    return past, future


@pytest.mark.parametrize("name", TASKS)
def test_landmark_progression_follows_fast_downwards_rules_on_random_walks(name):
    """Random walks that revisit states (blocks steps undo): past/future equal the
    landmark-by-landmark reference, intersections over paths included."""
    import random
    _, task = _load(name)
    lmcount = LandmarkCount(task, unit=True)
    graph, rng, status = lmcount.graph, random.Random(7), {}
    relaxed = lmcount.relaxation.relaxed
    for walk in range(4):
        parent, state = None, task.initial
        for _ in range(40):
            true = set(bits(graph.holds(relaxed(state))))
            status[state] = _progress_reference(graph, true, status.get(parent), status.get(state)) \
                if parent is not None else status.get(state) or _progress_reference(graph, true, None, None)
            lmcount.reached(state, parent)
            past, future = status[state]
            assert (lmcount.past[state], lmcount.future[state]) == \
                (sum(1 << q for q in past), sum(1 << q for q in future)), (walk, state)
            moves = [child for _, child, _ in task.successors(state)]
            if not moves:
                break
            parent, state = state, rng.choice(moves)


def test_a_goal_reached_before_its_reasonable_predecessor_is_future_again(tmp_path):
    """p ->r g when every achiever of the landmark p deletes the goal g: g made true while
    p is not yet past stays future (FD's reasonable-ordering progression), and h counts it."""
    (tmp_path / "d.pddl").write_text(
        "(define (domain r) (:predicates (start) (g) (p) (h))\n"
        " (:action make-g :precondition (start) :effect (g))\n"
        " (:action make-p :precondition (start) :effect (and (p) (not (g))))\n"
        " (:action make-h :precondition (p) :effect (h)))")
    (tmp_path / "t.pddl").write_text(
        "(define (problem t) (:domain r) (:init (start)) (:goal (and (g) (h))))")
    task = planners.ground(planners.load(tmp_path / "d.pddl", tmp_path / "t.pddl"))
    lmcount = LandmarkCount(task, unit=True)
    by_name = {task.action_text(op): child for op, child, _ in task.successors(task.initial)}
    g_fact = next(f for f in lmcount.graph.facts if str(task.facts[f]) == "(g)")
    assert lmcount.graph.reasonable[g_fact]
    assert lmcount.evaluate(task.initial)[0] == 3                    # g, p, h
    value, _ = lmcount.evaluate(by_name["(make-g)"], task.initial)
    assert lmcount.future[by_name["(make-g)"]] >> g_fact & 1 and value == 3


def test_disjunctive_landmarks_are_backchained_as_fast_downwards_rhw_does(tmp_path):
    """RHW backchains from disjunctive landmarks too: g needs p1 or p2 (D1 ->gn g), each
    p needs its q (D2 = q1 or q2, D2 ->gn D1), and the shared precondition s of D2's
    achievers is ordered before D2.  Both are landmarks by removal."""
    from planners.landmarks.graph import reachable
    (tmp_path / "d.pddl").write_text(
        "(define (domain c) (:predicates (s) (g) (p ?x) (q ?x) (w))\n"
        " (:constants one two)\n"
        " (:action reach :parameters (?x) :precondition (p ?x) :effect (g))\n"
        " (:action make-p :parameters (?x) :precondition (q ?x) :effect (p ?x))\n"
        " (:action make-q :parameters (?x) :precondition (and (s) (w)) :effect (q ?x))\n"
        " (:action make-s :precondition (w) :effect (s)))")
    (tmp_path / "t.pddl").write_text(
        "(define (problem t) (:domain c) (:init (w)) (:goal (g)))")
    task = planners.ground(planners.load(tmp_path / "d.pddl", tmp_path / "t.pddl"))
    relaxation = Relaxation(task)
    graph = LandmarkGraph(task, relaxation)
    named = [frozenset(task.facts[f] for f in bits(mask)) for mask in graph.disjunctive]
    assert named == [frozenset({"(p one)", "(p two)"}), frozenset({"(q one)", "(q two)"})]
    d1, d2 = graph.size, graph.size + 1
    g, s = (task.facts.index(name) for name in ("(g)", "(s)"))
    assert graph.gn_children[d1] == 1 << g and graph.gn_children[d2] == 1 << d1
    assert graph.gn_children[s] == 1 << d2
    initial = relaxation.relaxed(task.initial)
    for mask in graph.disjunctive:
        assert reachable(relaxation, initial, mask) & relaxation.goal_mask == 0
    assert LandmarkCount(task, unit=True, relaxation=Relaxation(task, unit=True)) \
        .evaluate(task.initial)[0] == 4                               # g, D1, D2, s


@pytest.mark.parametrize("name", COSTS + ["blocks/task04"])
def test_landmark_cost_of_a_set_is_the_sum_of_its_landmarks_costs(name):
    """`_cost` (one bit count per cost class when costs are integers) is the plain sum of
    each landmark's cost, on unit, real and plus-one costs."""
    import random
    _, task = _load(name)
    rng = random.Random(3)
    for relaxation in (Relaxation(task), Relaxation(task, unit=True),
                       Relaxation(task, plusone=True)):
        lmcount = LandmarkCount(task, relaxation=relaxation)
        cost, ids = lmcount.graph.cost, list(lmcount.graph.facts)
        for _ in range(50):
            chosen = rng.sample(ids, rng.randint(0, len(ids)))
            assert lmcount._cost(sum(1 << q for q in chosen)) == sum(cost[q] for q in chosen)


@pytest.mark.parametrize("name", TASKS)
def test_reachable_without_a_fact_read_off_the_labels_equals_the_sweep(name):
    """`before_fact` (the facts reachable while q never is, from the labels L(p)) is the
    mask `reachable` finds by sweeping the task with q forbidden, for every relaxed fact
    q reachable and not true initially: so the first achievers are the same."""
    from planners.landmarks.graph import before_fact, reachable
    _, task = _load(name)
    relaxation = Relaxation(task)
    labels = fact_labels(relaxation, task.initial)
    initial = relaxation.relaxed(task.initial)
    checked = 0
    for q, label in enumerate(labels):
        if label is None or initial >> q & 1:
            continue
        assert before_fact(labels, q) == reachable(relaxation, initial, 1 << q), q
        checked += 1
    assert checked
