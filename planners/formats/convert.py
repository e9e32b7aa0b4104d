"""Conversion of planning problems between the three formats (YAML planning spec, `.plan`,
PDDL domain + problem), checked: the output is read back and grounded, and its grounded
task (facts, operators with their costs and conditional effects, axioms, initial state,
goal; names compared without case or punctuation) must equal the input's, else nothing
is written.

Between YAML and `.plan` the spec converts as written (`convert_spec`: its outline, with
options and generators; `--set` values become the options' defaults), and the outline
read back must be the same.  To or from PDDL the problem converts as loaded
(`convert`): options take their values and generators are expanded, since PDDL has no
parameters.  What a target cannot say is refused with the position of the construct (a
cost given by a function in YAML / `.plan`, a name that is no PDDL name, names differing
only in case in PDDL).
"""
from __future__ import annotations

import re
import tempfile
from pathlib import Path

import planners
from framework.errors import SpecError
from planners.formats.export import to_pddl
from planners.formats.print_plan import outline_plan, to_plan
from planners.formats.print_yaml import outline_yaml, to_yaml
from planners.formats.spec_outline import read_outline

FORMATS = ("yaml", "plan", "pddl")


def _names(text: str) -> tuple:
    """`Move(A, C)` and `(move a c)` alike as ("move", "a", "c"); `ItemAt` and `item-at`
    alike too."""
    return tuple(re.sub(r"[-_]", "", word) for word in re.findall(r"[^\s(),]+", text.lower()))


def fingerprint(task) -> tuple:
    """The grounded task with bits replaced by fact names: equal for the same task written
    in any format."""
    facts = [_names(f) for f in task.facts]

    def named(mask: int) -> frozenset:
        return frozenset(facts[i] for i in range(len(facts)) if mask >> i & 1)

    operators = sorted((_names(op.name), float(op.cost),
                        *(tuple(sorted(named(m))) for m in (op.pre, op.absent, op.add, op.delete)),
                        tuple(sorted(tuple(tuple(sorted(named(m))) for m in effect)
                                     for effect in op.effects)))
                       for op in task.operators)
    axioms = [sorted((tuple(sorted(named(head))), tuple(sorted(named(pre))),
                      tuple(sorted(named(absent)))) for head, pre, absent in layer)
              for layer in task.axioms]
    return (frozenset(facts), tuple(operators), tuple(map(tuple, axioms)), named(task.initial),
            named(task.goal), named(task.goal_absent))


def texts(problem, fmt: str, header: str = "") -> dict[str, str]:
    """file name (or "" for the single file of a spec) -> text of `problem` in `fmt`."""
    if fmt == "yaml":
        return {"": to_yaml(problem, f"# {header}" if header else "")}
    if fmt == "plan":
        return {"": to_plan(problem, f"# {header}" if header else "")}
    domain, task = to_pddl(problem)
    note = f"; {header}\n" if header else ""
    return {"domain.pddl": note + domain, "problem.pddl": note + task}


def read_back(outputs: dict[str, str], fmt: str, **options):
    """The problem the converted texts describe (through the ordinary loaders)."""
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for name, text in outputs.items():
            path = Path(folder) / (name or f"converted.{fmt}")
            path.write_text(text, encoding="utf-8")
            paths.append(path)
        return planners.load(*paths, **options)


def convert(problem, fmt: str, header: str = "") -> dict[str, str]:
    """`problem` in format `fmt` ("yaml", "plan" or "pddl"), checked to ground to the same
    task; a ValueError if it would not (a bug in a printer)."""
    outputs = texts(problem, fmt, header)
    try:
        back = read_back(outputs, fmt)
    except SpecError as err:          # e.g. a name the spec grammar reads as a keyword (`if`)
        raise problem.pos.error(f"this problem cannot be written as {fmt}: its output would "
                                f"not read back ({err.message})") from None
    if fingerprint(planners.ground(back)) != fingerprint(planners.ground(problem)):
        raise ValueError(f"converting {problem.pos.file} to {fmt} would change the task; "
                         "please report this as a bug")
    return outputs


def convert_spec(text: str, file: str, source: str, fmt: str, options: dict,
                 header: str = "") -> str:
    """The YAML or `.plan` spec `text` (format `source`) in spec format `fmt`, items as
    written; `options` become the defaults.  Checked: the output's outline and grounded
    task are the input's."""
    outline = read_outline(text, file, source, options)
    printed = (outline_yaml if fmt == "yaml" else outline_plan)(outline, f"# {header}" if header else "")
    problem = read_back({"": text}, source, **options)
    back = read_back({"": printed}, fmt)
    if read_outline(printed, f"<{fmt} output>", fmt) != outline or \
            fingerprint(planners.ground(back)) != fingerprint(planners.ground(problem)):
        raise ValueError(f"converting {file} to {fmt} would change the spec; "
                         "please report this as a bug")
    return printed
