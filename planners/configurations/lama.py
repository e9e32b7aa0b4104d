"""`lama-first`: the satisficing configuration a user need not tune, after LAMA's first
search (Richter & Westphal 2010, as Fast Downward's `lama-first` alias runs it):

    lazy greedy best-first search over two heuristics in alternation, h_FF and landmark
    count (`planners.landmarks.lmcount`, fact landmarks of the delete relaxation with natural,
    greedy-necessary and reasonable orderings), each heuristic with its own list and a
    boosted list of the successors reached by its preferred operators (LAMA 2011's
    landmark preferred operators, which Fast Downward's `lama-first` alias turns off:
    measured, they solve more IPC tasks here, docs/planning.md).

Action costs are handled as LAMA's first search does: both heuristics count every
operator as 1 (cost type `one`), which finds a first plan fastest; the plan's real cost
is what the result reports.  The plan is not necessarily cheapest (for cheapest plans:
A* with LM-cut).
"""
from __future__ import annotations

from framework.search import lazy_gbfs
from planners.heuristics.relaxation import Relaxation
from planners.landmarks.lmcount import LandmarkCount


def evaluators(task, plusone: bool = False) -> list:
    """The two evaluators (h_FF, landmark count) of `task`, on unit costs (or, with
    `plusone`, each operator's cost plus 1: the cost type of LAMA's later searches)."""
    relaxation = Relaxation(task, unit=not plusone, plusone=plusone)
    return [relaxation, LandmarkCount(task, relaxation=relaxation)]


def check_task(problem, name: str = "lama-first") -> None:
    """ValueError unless `problem` is a grounded planning task."""
    if not hasattr(problem, "operators"):
        raise ValueError(f"{name} plans grounded planning tasks (its heuristics read the "
                         "operators); search a 1-player game with bfs, astar or gbfs")


def search(problem, state=None, *, depth=None, time_limit=None, node_limit=None,
           heuristic=None, progress=None, **kw):
    """A plan of the grounded task `problem` (`heuristic` is ignored: the configuration
    fixes it)."""
    check_task(problem)
    return lazy_gbfs.search(problem, state, time_limit=time_limit, node_limit=node_limit,
                            heuristic=evaluators(problem), progress=progress)
