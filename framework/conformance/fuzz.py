"""Fuzzing the spec loaders: whatever the input, a loader either returns or raises a
`SpecError` whose position lies inside the input (a line of the file, a column of that line
or just past its end).  Any other exception, or a position outside the input, is a finding.

Inputs, all drawn by Hypothesis strategies (so the tests shrink a failure to a small input):
  * `mutations`: a shipped spec (game YAML, `.game`, planning YAML, `.plan`, and PDDL exported
    from the shipped planning problems) with a few edits: spans deleted, duplicated or
    replaced, tokens inserted (brackets, operators, keywords, line ends of every kind,
    5,000-digit numbers, YAML tags ...), lines swapped or re-indented;
  * `yaml_structures`: random YAML documents built from the spec's own section and key
    names with random values (numbers of any size, strings, lists, mappings);
  * `random_text`: random Unicode text, line ends and spec fragments included.
A game that loads is also started (initial state, actions, one move, rendering); an error
there must be a SpecError too ("runtime" findings).

The campaign (`plyspec fuzz --inputs 100000`)
runs the strategies round-robin over the formats and prints counts; the tests run a few
hundred inputs.
"""
from __future__ import annotations

import re
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from framework.errors import SpecError, split_lines
from framework.search.result import alarm

FORMATS = ("yaml", "game", "plan-yaml", "plan", "pddl-domain", "pddl-problem")
KINDS = ("mutations", "yaml_structures", "random_text")
INPUT_SECONDS = 30           # an input that takes longer is a "slow" finding
MAX_OPERATORS = 20_000       # grounding limit while fuzzing (its SpecError is part of the test)

HUGE = "9" * 5000
TOKENS = ["(", ")", "[", "]", "{", "}", ":", ",", ";", " ", "  ", "\t", "\n", "\n  ", "\n    ",
          "#", "'", '"', "..", "=", "==", "!=", "+=", "-", "+", "*", "/", "//", "%", "|", "&",
          "if", "else", "then", "for", "in", "do", "not", "and", "or", "none", "true", "false",
          "mover", "me", "board", "cell", "player", "X", "x", "0", "1", "-1", "2.5", "99999",
          "100001", HUGE, "1" + "0" * 400 + ".5", "exists c in cell:", "count(board, X)",
          "line(board, 3, X)", "slide(board, c, queen, empty)", "next(mover)", "__class__",
          "é", "\x00", "\ufeff", "\x85", "\u2028", "\u2029", "\r", "\r\n", "\x0b", "\x0c",
          "!!python/object:os.system", "*a", "&a ", "? ", "- ", "---\n", "...\n", "%YAML 1.1\n",
          "(and (at ?x)", "(not (= ?x ?y))", ":parameters", ":precondition", ":effect", "?x",
          " - place", "for i in 1..disks", "D{i}", "At(x)", "pre", "add", "del", "cost",
          "objects", "action", "init", "goal", "game", "players", "state", "terminal"]
EDITS = ("delete", "insert", "replace", "duplicate", "swap_lines", "indent", "number")


@dataclass
class Tally:
    """Counts of a fuzzing run."""
    inputs: int = 0
    loaded: int = 0              # loaded (and, for games, started) without an error
    refused: int = 0             # a SpecError with a good position
    slow: int = 0
    by_format: Counter = field(default_factory=Counter)
    findings: dict = field(default_factory=dict)     # signature -> (count, example input, message)
    seconds: float = 0.0

    def add_finding(self, signature, text, message):
        count, example, first = self.findings.get(signature, (0, text, message))
        self.findings[signature] = (count + 1, example, first)

    @property
    def finding_count(self) -> int:
        return sum(count for count, _, _ in self.findings.values())

    def to_json(self) -> dict:
        return {"inputs": self.inputs, "loaded": self.loaded, "refused_with_spec_error": self.refused,
                "slow": self.slow, "findings": self.finding_count, "seconds": round(self.seconds, 1),
                "by_format": dict(self.by_format),
                "distinct_findings": [{"signature": s, "count": c, "message": m, "example": e[:2000]}
                                      for s, (c, e, m) in self.findings.items()]}


# ---------------------------------------------------------------------------- seeds
def seed_texts() -> dict:
    """Format -> the texts of the shipped specs of that format (PDDL: exported from the
    shipped planning problems)."""
    import planners
    from framework.conformance.discover import shipped_specs, spec_kind
    from planners.formats.export import to_pddl
    texts = {f: [] for f in FORMATS}
    for path in shipped_specs():
        text = Path(path).read_text(encoding="utf-8")
        suffix = Path(path).suffix
        if suffix == ".game":
            texts["game"].append(text)
        elif suffix == ".plan":
            texts["plan"].append(text)
        elif spec_kind(path) == "game":
            texts["yaml"].append(text)
        else:
            texts["plan-yaml"].append(text)
            domain, problem = to_pddl(planners.load(path))
            texts["pddl-domain"].append(domain)
            texts["pddl-problem"].append(problem)
    return texts


# ---------------------------------------------------------------------------- loading
class _Timeout(Exception):
    pass


def _time_limit(seconds):
    """SIGALRM-based limit (main thread on Unix); no limit elsewhere."""
    return alarm(seconds, _Timeout)


class Loader:
    """Loads one input of a format; planning formats go through files in a private folder."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="plyspec-fuzz-"))
        self.partners = {}

    def partner(self, fmt, text) -> str:
        """The unmutated other half of a PDDL pair: the shipped one whose domain name the
        (mutated) text still names, else the first."""
        if not self.partners:
            texts = seed_texts()
            for domain, problem in zip(texts["pddl-domain"], texts["pddl-problem"]):
                name = re.search(r"\(domain\s+([^\s()]+)", domain).group(1)
                self.partners.setdefault(("pddl-domain", name), problem)
                self.partners.setdefault(("pddl-problem", name), domain)
                self.partners.setdefault(("pddl-domain", None), problem)
                self.partners.setdefault(("pddl-problem", None), domain)
        found = re.search(r"\(:?domain\s+([^\s()]+)", text)
        return self.partners.get((fmt, found and found.group(1)), self.partners[(fmt, None)])

    def load(self, fmt: str, text: str) -> dict:
        """Runs the loader; returns {path: text} of the files given (for positions)."""
        import framework
        import planners
        if fmt in ("yaml", "game"):
            game = framework.load_text(text, fmt, file=f"fuzz.{fmt}")
            try:
                _start(game)
            except SpecError:   # a rule gone wrong in play (a value out of range): no position
                pass
            return {}
        if fmt in ("plan-yaml", "plan"):
            path = self._write("spec.yaml" if fmt == "plan-yaml" else "spec.plan", text)
            planners.ground(planners.load(path), max_operators=MAX_OPERATORS)
            return {}
        other = self.partner(fmt, text)
        domain, problem = (text, other) if fmt == "pddl-domain" else (other, text)
        d, p = self._write("domain.pddl", domain), self._write("problem.pddl", problem)
        planners.ground(planners.load(d, p), max_operators=MAX_OPERATORS)
        return {}

    def _write(self, name, text) -> str:
        path = self.folder / name
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        return str(path)

    def files(self, fmt, text) -> dict:
        """File name -> text as the loader read it, for checking positions."""
        if fmt in ("yaml", "game"):
            return {f"fuzz.{fmt}": text}
        universal = re.sub("\r\n?", "\n", text)          # Path.read_text's newline translation
        if fmt in ("plan-yaml", "plan"):
            return {str(self.folder / ("spec.yaml" if fmt == "plan-yaml" else "spec.plan")): universal}
        other = re.sub("\r\n?", "\n", self.partner(fmt, text))
        d, p = str(self.folder / "domain.pddl"), str(self.folder / "problem.pddl")
        return {d: universal, p: other} if fmt == "pddl-domain" else {d: other, p: universal}


def _start(game):
    """A loaded game must also start: initial state, actions, a move, its rendering."""
    state = game.initial_state()
    for _ in range(3):
        str(state)
        if state.terminal_test():
            state.returns()
            break
        moves = state.actions()
        if not moves:
            break
        state = state.result(moves[len(moves) // 2])


def position_problem(err: SpecError, files: dict) -> str | None:
    """Why the position of `err` is not inside the input (None when it is)."""
    if err.file not in files:
        return f"the error names file {err.file!r}, not the input"
    if err.line is None:
        return "the error has no line"
    lines = split_lines(files[err.file])
    if not 1 <= err.line <= len(lines):
        return f"line {err.line} of an input of {len(lines)} line(s)"
    if err.col is not None and not 1 <= err.col <= len(lines[err.line - 1]) + 1:
        return f"column {err.col} of line {err.line}, which has {len(lines[err.line - 1])} characters"
    if err.source_line is not None and err.source_line.rstrip("\n") != lines[err.line - 1] \
            and err.source_line.strip() and err.source_line.strip() not in lines[err.line - 1]:
        return f"the source line shown is not line {err.line} of the input"
    return None


def run_one(loader: Loader, fmt: str, text: str, tally: Tally) -> str | None:
    """Loads one input and records the outcome; returns the finding's description (or None)."""
    tally.inputs += 1
    tally.by_format[fmt] += 1
    try:
        with _time_limit(INPUT_SECONDS):
            loader.load(fmt, text)
    except SpecError as err:
        problem = position_problem(err, loader.files(fmt, text))
        try:
            str(err)
        except Exception as exc:            # noqa: BLE001 - rendering must not fail either
            problem = f"rendering the error fails: {type(exc).__name__}: {exc}"
        if problem is None:
            tally.refused += 1
            return None
        signature = f"{fmt}: position: {problem.split(' of ')[0]}: {err.message[:60]}"
        tally.add_finding(signature, text, f"{problem}: {err}")
        return f"{signature}\n{err}"
    except _Timeout:
        tally.slow += 1
        tally.add_finding(f"{fmt}: slow: over {INPUT_SECONDS} s", text, "")
        return None
    except Exception as exc:                 # noqa: BLE001 - this is what the fuzzer looks for
        where = _where(exc)
        signature = f"{fmt}: {type(exc).__name__} at {where}"
        tally.add_finding(signature, text, f"{type(exc).__name__}: {str(exc)[:300]}")
        return f"{signature}: {str(exc)[:300]}"
    tally.loaded += 1
    return None


def _where(exc) -> str:
    import traceback
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/framework/" in f.filename or "/planners/" in f.filename
            or f.filename.startswith("<plyspec")]
    f = (ours or frames)[-1]
    return f"{Path(f.filename).name}:{f.lineno}"


# ---------------------------------------------------------------------------- strategies
def _apply(text: str, edits) -> str:
    for kind, a, b, token in edits:
        n = len(text)
        i = int(a * n)
        j = min(n, i + 1 + int(b * 12))
        lines = text.split("\n")
        k, m = int(a * len(lines)) % len(lines), int(b * len(lines)) % len(lines)
        if kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "insert":
            text = text[:i] + token + text[i:]
        elif kind == "replace":
            text = text[:i] + token + text[j:]
        elif kind == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif kind == "swap_lines":
            lines[k], lines[m] = lines[m], lines[k]
            text = "\n".join(lines)
        elif kind == "indent":
            lines[k] = token.strip("\n")[:4].replace("\n", "") + lines[k].lstrip() if b < 0.5 \
                else "  " + lines[k]
            text = "\n".join(lines)
        else:                                  # "number": the k-th number becomes token-ish
            numbers = list(re.finditer(r"\d+", text))
            if numbers:
                hit = numbers[int(a * len(numbers)) % len(numbers)]
                value = [HUGE, "0", "100001", "4097", "-1", "65", "1.5", "99999"][int(b * 8) % 8]
                text = text[:hit.start()] + value + text[hit.end():]
    return text


def mutations(texts):
    from hypothesis import strategies as st
    edit = st.tuples(st.sampled_from(EDITS), st.floats(0, 1, exclude_max=True),
                     st.floats(0, 1, exclude_max=True), st.sampled_from(TOKENS))
    return st.builds(_apply, st.sampled_from(texts), st.lists(edit, min_size=1, max_size=4))


def yaml_structures(fmt):
    """Random YAML documents built from the format's own keys."""
    from hypothesis import strategies as st
    from framework.frontend import yaml_spec
    if fmt == "yaml":
        keys = [*yaml_spec.SECTIONS, *yaml_spec.BOARD_KEYS, *yaml_spec.VARIABLE_KEYS,
                *yaml_spec.ACTION_KEYS, "place(c in cell)", "x", "X", "O"]
        top = {"game": st.text(max_size=8), "players": st.lists(st.sampled_from(["X", "O", "A", "x"]), max_size=3)}
    else:
        from planners.formats import yaml_spec as plan_spec
        keys = [*plan_spec.TOP_KEYS, *plan_spec.ACTION_KEYS, "Move(x - place)", "place", "A"]
        top = {"problem": st.text(max_size=8)}
    scalars = (st.integers() | st.integers(0, 4200).map(lambda d: 10 ** d) | st.floats() | st.booleans()
               | st.none() | st.text(max_size=20) | st.sampled_from(TOKENS))
    values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(st.sampled_from(keys) | st.text(max_size=6), inner, max_size=4),
                          max_leaves=10)
    doc = st.fixed_dictionaries(top, optional={k: values for k in keys[:14] if k not in top})
    return st.tuples(doc, st.booleans()).map(_dump)


def _dump(pair) -> str:
    doc, flow = pair
    try:
        return yaml.safe_dump(doc, allow_unicode=True, default_flow_style=flow, sort_keys=False)
    except (ValueError, yaml.YAMLError):     # e.g. ints too long for str(): not a spec
        return yaml.safe_dump({k: str(v)[:50] for k, v in doc.items()}, sort_keys=False)


def random_text():
    from hypothesis import strategies as st
    piece = st.text(max_size=30) | st.sampled_from(TOKENS)
    return st.lists(piece, max_size=20).map("".join)


def strategy(fmt: str, kind: str, texts: dict):
    if kind == "mutations":
        return mutations(texts[fmt])
    if kind == "yaml_structures":
        return yaml_structures("yaml" if fmt in ("yaml", "game") else "plan-yaml")
    return random_text()


# ---------------------------------------------------------------------------- campaign
def campaign(inputs: int, *, seed: int | None = None, formats=FORMATS, kinds=KINDS,
             progress=None, stop_after: int | None = None) -> Tally:
    """Runs about `inputs` inputs spread evenly over the formats and kinds of input;
    `progress(tally)` is called every few seconds."""
    texts = seed_texts()
    loader = Loader()
    tally = Tally()
    jobs = [(f, k) for f in formats for k in kinds
            if not (k == "yaml_structures" and f not in ("yaml", "plan-yaml"))]
    start = time.perf_counter()
    last = [start]
    try:
        _run_jobs(jobs, inputs, seed, texts, loader, tally, progress, start, last, stop_after)
    finally:
        shutil.rmtree(loader.folder, ignore_errors=True)      # nothing left in the temporary folder
    tally.seconds = time.perf_counter() - start
    return tally


def _run_jobs(jobs, inputs, seed, texts, loader, tally, progress, start, last, stop_after):
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as seeded
    from framework.conformance.games import scratch_storage
    for number, (fmt, kind) in enumerate(jobs):
        share = inputs * (number + 1) // len(jobs) - inputs * number // len(jobs)
        config = settings(max_examples=share, database=None, deadline=None,
                          derandomize=seed is None, verbosity=Verbosity.quiet,
                          suppress_health_check=list(HealthCheck), phases=[Phase.generate])

        test = config(given(strategy(fmt, kind, texts))(_runner(loader, fmt, tally, progress, start, last)))
        if seed is not None:
            test = seeded(seed + number)(test)
        with scratch_storage():
            test()
        if stop_after is not None and tally.finding_count >= stop_after:
            break


def _runner(loader, fmt, tally, progress, start, last):
    def one(text):
        known = len(tally.findings)
        finding = run_one(loader, fmt, text, tally)
        if progress and finding and len(tally.findings) > known:     # a new kind: say so now
            progress(tally, f"new finding: {finding}")
        now = time.perf_counter()
        if progress and now - last[0] >= 5:
            last[0] = now
            tally.seconds = now - start
            progress(tally)
    return one


def progress_line(tally: Tally) -> str:
    rate = tally.inputs / max(tally.seconds, 1e-9)
    return (f"{tally.inputs:>9,} inputs  {tally.loaded:,} loaded  {tally.refused:,} refused with a "
            f"SpecError  {tally.finding_count:,} findings  {tally.slow:,} slow  "
            f"{tally.seconds:,.0f} s  ({rate:,.0f}/s)")


def report(tally: Tally) -> str:
    lines = [progress_line(tally), "by format: " + ", ".join(f"{f} {n:,}" for f, n in tally.by_format.items())]
    if not tally.findings:
        lines.append("no findings: every input loaded or was refused with a SpecError inside the input")
    for signature, (count, example, message) in tally.findings.items():
        lines.append(f"FINDING x{count}: {signature}\n    {message[:400]}\n    example input: {example[:300]!r}")
    return "\n".join(lines)

