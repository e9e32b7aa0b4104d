"""`lama`: LAMA 2011 as Fast Downward's `lama` alias and its IPC 2011 configuration run it,
an anytime search (`framework.search.iterated`) whose plans get cheaper while time allows:

    1. lama-first (`planners.configurations.lama`): lazy greedy search with h_FF and
       landmark count, both counting every operator as 1 (cost type `one`): a first plan
       fast, whatever the action costs;
    2. on a task with action costs, lazy greedy search again with the heuristics counting
       each operator's cost plus 1 (cost type `plusone`: zero-cost actions still count);
    3. lazy weighted A* (g + W·h, re-opening states reached more cheaply) with W = 5, 3, 2
       and then 1, the last repeated while it finds cheaper plans, with those heuristics
       (on a unit-cost task, the unit-cost ones).

Every phase looks only for plans cheaper than the best so far (its successors costing as
much are pruned) and each better plan is reported as found (`on_plan`).  The search ends
when the budget does, or when weighted A* with W = 1 finds no cheaper plan: it has then
exhausted every state reachable more cheaply than the best plan, which is thus cheapest
(`proved_cheapest`).  Landmark count forgets every path between phases, as each of Fast
Downward's phases starts with a new state registry.
"""
from __future__ import annotations

from framework.search import iterated, lazy_gbfs
from planners.configurations.lama import check_task, evaluators

WEIGHTS = (5, 3, 2, 1)


def phases(task) -> list:
    """(label, start) of each phase of LAMA 2011 on `task` (see the module docstring)."""
    first = evaluators(task)
    later = [first if task.unit_cost else None]     # the costs + 1 heuristics, made when needed

    def phase(weight, unit: bool):
        def start(problem, state, **budget):
            if unit:
                heuristics = first
            else:
                later[0] = later[0] or evaluators(task, plusone=True)
                heuristics = later[0]
            for h in heuristics:
                getattr(h, "restart", lambda: None)()
            return lazy_gbfs.search(problem, state, heuristic=heuristics, weight=weight,
                                    algorithm="lama", **budget)
        return start

    costs = "" if task.unit_cost else ", costs + 1"
    out = [("lazy greedy search" + ("" if task.unit_cost else ", unit costs"), phase(None, True))]
    if not task.unit_cost:
        out.append(("lazy greedy search" + costs, phase(None, False)))
    out += [(f"lazy weighted A*, w={w}{costs}", phase(w, False)) for w in WEIGHTS]
    return out


def search(problem, state=None, *, depth=None, time_limit=None, node_limit=None,
           heuristic=None, progress=None, on_plan=None, **kw):
    """Ever cheaper plans of the grounded task `problem` until the budget ends or the last
    is proved cheapest (`heuristic` is ignored: the configuration fixes it)."""
    check_task(problem, "lama")
    return iterated.search(problem, state, phases=phases(problem), time_limit=time_limit,
                           node_limit=node_limit, progress=progress, on_plan=on_plan,
                           algorithm="lama")
