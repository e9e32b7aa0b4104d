"""What `plyspec plan` prints of one search: the plan (each better plan of an anytime search
as it is found), its length and cost, the statistics (states expanded, the memory the
search added with its closed and open lists, times) and whether the plan was validated;
or one JSON object with --json."""
from __future__ import annotations

from framework.cli.common import print_json


def print_result(args, target, result, algorithm, heuristic, found: list) -> bool:
    """Prints the result of one search (one JSON object with --json); returns whether its
    plan was validated."""
    problem, info = target["problem"], target["info"]
    plan = [problem.action_text(a) for a in result.pv]
    solved = result.extra.get("solved", False)
    check = target["validate"](plan) if solved and target["validate"] else None
    valid = bool(solved and result.extra.get("valid") and (check is None or check.valid))
    if args.json:
        print_json({
            "problem": target["name"], "algorithm": algorithm, "heuristic": heuristic,
            "plan": plan, "length": len(plan) if solved else None,
            "cost": result.cost if solved else None, "expanded": result.stats.expanded,
            "generated": result.stats.nodes, "valid": valid, "solved": solved,
            "complete": result.complete, "reason": result.extra.get("reason"),
            "time_s": round(result.stats.time_s, 6), **_memory(result), **info,
            **({"plans": found, "proved_cheapest": result.extra["proved_cheapest"]}
               if "plans" in result.extra else {}),
            "options": target["options"]})
    else:
        if "plans" not in result.extra:     # (an anytime search printed its plans as found)
            for line in plan:
                print(line)
        if "plans" in result.extra:
            ended = "no cheaper plan exists" if result.extra["proved_cheapest"] else \
                result.extra.get("reason") or "the phases ended"
            print(f"plans found: {len(found)}" + (f", the last is the cheapest found ({ended})"
                                                  if found else ""))
        if solved:
            print(f"\nlength: {len(plan)}\ncost: {result.cost:g}")
        else:
            print(f"no plan: {result.extra.get('reason')}")
        grounding = (f", {info['ground_time_s']:.3f} s grounding ({info['facts']:,} facts, "
                     f"{info['operators']:,} operators)") if info else ""
        memory = _memory(result)
        bound = f" of {memory['memory_limit_mb']:g} MB" if memory.get("memory_limit_mb") else ""
        print(f"expanded: {result.stats.expanded:,}\n"
              + (f"memory: {memory['memory_mb']:g} MB{bound} added by the search ("
                 f"{memory['closed']:,} states closed, {memory['open']:,} open entries)\n"
                 if memory else "")
              + f"time: {result.stats.time_s:.3f} s search{grounding}\n"
              f"algorithm: {algorithm}{f' with {heuristic}' if heuristic else ''}")
        if solved:
            print("validated: " + ("yes (replayed from the initial state)" if valid else
                                   f"NO: {check.message}"))
    return valid


def plan_printer(args, problem, target, found: list):
    """`on_plan` of an anytime search: validates each better plan, keeps it in `found` and,
    without --json, prints it at once (its actions, then its cost and how it was found)."""
    def on_plan(result, phase: str, seconds: float):
        plan = [problem.action_text(a) for a in result.pv]
        check = target["validate"](plan) if target["validate"] else None
        valid = bool(result.extra.get("valid") and (check is None or check.valid))
        found.append({"plan": plan, "cost": result.cost, "length": len(plan), "phase": phase,
                      "seconds": round(seconds, 3), "valid": valid})
        if not args.json:
            print("\n".join(plan))
            print(f"plan {len(found)}: cost {result.cost:g}, length {len(plan)}, {phase}, "
                  f"after {seconds:.2f} s; validated: "
                  + ("yes" if valid else f"NO: {check.message}") + "\n", flush=True)
    return on_plan


def _memory(result) -> dict:
    """The search's memory statistics (none from a searcher that keeps no lists)."""
    return {k: result.extra[k] for k in ("closed", "open", "memory_mb", "memory_limit_mb")
            if k in result.extra}


def out_of_time(args, seconds: float, phase: str, limit: str = "time limit") -> int:
    """What `plan` prints when --time (or the memory, `limit` "memory limit") runs out
    before the search starts (while grounding or preparing the heuristics; exit status 0,
    as a search that runs out of time)."""
    reason = f"{limit} (while {phase})"
    if args.json:
        print_json({"problem": str(args.files[-1]), "plan": [], "length": None, "cost": None,
                    "solved": False, "valid": False, "complete": False,
                    "reason": reason, "time_s": round(seconds, 6)})
    else:
        print(f"no plan: {reason}\ntime: {seconds:.3f} s")
    return 0
