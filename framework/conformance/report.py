"""What a conformance check returns: one `Outcome` per property, gathered per spec in a
`SpecReport`, with the text and JSON renderings `plyspec test` prints."""
from __future__ import annotations

from framework.records import dataclass, field   # the dataclasses module's, made cheaply

PASSED, FAILED, NOT_APPLICABLE = "passed", "failed", "n/a"
_SHOWN = 24          # actions of a long counterexample shown at each end in the text report


@dataclass
class Outcome:
    """One property of one spec: `status` is PASSED, FAILED or NOT_APPLICABLE; `detail`
    says what was checked, why it failed or why it does not apply; `counterexample` is the
    action sequence (canonical texts) from the initial state that shows a failure."""
    name: str
    status: str
    detail: str = ""
    counterexample: list | None = None
    state: str | None = None        # the offending state, rendered

    def to_json(self) -> dict:
        out = {"property": self.name, "status": self.status, "detail": self.detail}
        if self.counterexample is not None:
            out["counterexample"] = self.counterexample
        if self.state is not None:
            out["state"] = self.state
        return out


@dataclass
class SpecReport:
    spec: str
    kind: str                       # "game" or "planning"
    name: str | None = None         # the game's or problem's name, once it loaded
    outcomes: list = field(default_factory=list)

    @property
    def failed(self) -> list:
        return [o for o in self.outcomes if o.status == FAILED]

    def outcome(self, name) -> Outcome:
        return next(o for o in self.outcomes if o.name == name)

    def to_json(self) -> dict:
        return {"spec": self.spec, "kind": self.kind, "name": self.name, "ok": not self.failed,
                "properties": [o.to_json() for o in self.outcomes]}

    @classmethod
    def from_json(cls, data: dict) -> "SpecReport":
        """The report `to_json` wrote (as a parallel worker sends it)."""
        return cls(data["spec"], data["kind"], data["name"],
                   [Outcome(o["property"], o["status"], o["detail"], o.get("counterexample"), o.get("state"))
                    for o in data["properties"]])

    def text(self) -> str:
        lines = [f"{self.spec}" + (f" ({self.name})" if self.name else "")]
        width = max((len(o.name) for o in self.outcomes), default=0)
        for o in self.outcomes:
            lines.append(f"  {o.status:<7} {o.name:<{width}}  {o.detail}")
            if o.counterexample is not None:
                lines.append("          " + sequence_text(o.counterexample))
            if o.status == FAILED and o.state:
                lines.extend("          | " + row for row in o.state.split("\n"))
        return "\n".join(lines)


def sequence_text(actions: list) -> str:
    """`shortest sequence (3 actions): a b c`, long sequences shortened in the middle."""
    n = len(actions)
    if n == 0:
        return "shown at the initial state (no actions)"
    shown = actions if n <= 2 * _SHOWN else [*actions[:_SHOWN], f"... {n - 2 * _SHOWN:,} more ...",
                                              *actions[-_SHOWN:]]
    return f"sequence ({n:,} action{'s' if n != 1 else ''}): " + " ".join(shown)


def summary(reports) -> str:
    counts = {PASSED: 0, FAILED: 0, NOT_APPLICABLE: 0}
    for r in reports:
        for o in r.outcomes:
            counts[o.status] += 1
    bad = sum(1 for r in reports if r.failed)
    return (f"{len(reports)} spec(s): {counts[PASSED]} passed, {counts[FAILED]} failed, "
            f"{counts[NOT_APPLICABLE]} not applicable" + (f"; {bad} spec(s) failing" if bad else ""))
