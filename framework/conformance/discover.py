"""Which files are specs, of which kind, and which game has versions in both syntaxes."""
from __future__ import annotations

from pathlib import Path

SPEC_SUFFIXES = (".yaml", ".yml", ".game", ".plan")


def spec_kind(path) -> str:
    """"game" or "planning": `.plan` files and YAML files with a `problem:` or `domain:`
    key are planning problems; everything else is taken for a game spec (so that a broken
    game spec is reported by the game checks)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in (".plan", ".game"):
        return "planning" if suffix == ".plan" else "game"
    import yaml
    from framework.errors import SpecError
    from framework.files import read_text
    try:
        data = yaml.safe_load(read_text(path))
    except (SpecError, ValueError, yaml.YAMLError):
        return "game"
    return "planning" if isinstance(data, dict) and ("problem" in data or "domain" in data) else "game"


def twin(path) -> Path | None:
    """The same game in the other syntax (`x.yaml` <-> `x.game`), when it exists."""
    path = Path(path)
    other = {".yaml": ".game", ".yml": ".game", ".game": ".yaml"}.get(path.suffix.lower())
    if other is None:
        return None
    candidate = path.with_suffix(other)
    return candidate if candidate.exists() else None


def shipped_spec_dirs() -> list:
    """`game_specs/` of the source tree (or the working directory) and the planning
    problems shipped in the `planners` package."""
    import importlib.util
    import planners
    root = Path(__file__).resolve().parents[2]
    zoo = [root / "game_specs"]                 # the source tree's zoo, else the installed one
    if not zoo[0].is_dir():
        installed = importlib.util.find_spec("game_specs")
        zoo = [Path(p) for p in installed.submodule_search_locations][:1] if installed else []
    dirs = [d for d in (*zoo, Path.cwd() / "game_specs") if d.is_dir()]
    dirs.append(Path(planners.PROBLEMS_DIR))
    unique = []
    for d in dirs:
        if d.resolve() not in [u.resolve() for u in unique]:
            unique.append(d)
    return unique


def shipped_specs() -> list:
    """Every spec file in the shipped spec directories, sorted (golden files excluded),
    relative to the working directory when they are below it."""
    here = Path.cwd().resolve()
    found = []
    for d in shipped_spec_dirs():
        for p in sorted(d.resolve().iterdir()):
            if p.is_file() and p.suffix.lower() in SPEC_SUFFIXES:
                found.append(p.relative_to(here) if p.is_relative_to(here) else p)
    return found


def resolve(name) -> Path:
    """`name` itself when it is a file; else the shipped spec it names (`tictactoe`,
    `gripper.plan`), so that every command takes a zoo spec by name from any folder."""
    path = Path(name)
    if path.exists() or path.parent != Path("."):
        return path
    wanted = [path.name] if path.suffix else [path.name + s for s in (".yaml", ".game", ".plan")]
    for folder in shipped_spec_dirs():
        for candidate in wanted:
            if (folder / candidate).is_file():
                return folder / candidate
    return path


def shipped_names() -> list:
    return sorted({p.stem for p in shipped_specs()})


def pddl_samples_dir() -> Path:
    """The PDDL samples shipped in the `planners` package: DOMAIN/domain.pddl, DOMAIN/taskNN.pddl."""
    import planners
    return planners.PDDL_DIR


def pddl_sample(name) -> tuple | None:
    """(domain file, problem file) of the shipped PDDL sample `name`: `scanalyzer` (its
    first task) or `scanalyzer/task02` (`.pddl` optional); None when `name` names none."""
    domain, _, task = str(name).removesuffix(".pddl").partition("/")
    folder = pddl_samples_dir() / domain
    if not domain or "/" in task or not (folder / "domain.pddl").is_file():
        return None
    tasks = sorted(p for p in folder.glob("*.pddl") if p.name != "domain.pddl")
    chosen = [p for p in tasks if p.stem == task] if task else tasks[:1]
    return (folder / "domain.pddl", chosen[0]) if chosen else None


def pddl_sample_names() -> list:
    """`DOMAIN` and `DOMAIN/TASK` for every shipped PDDL sample."""
    folders = [d for d in sorted(pddl_samples_dir().iterdir()) if (d / "domain.pddl").is_file()]
    return [n for d in folders for n in (d.name, *(f"{d.name}/{p.stem}" for p in sorted(d.glob("*.pddl"))
                                                   if p.name != "domain.pddl"))]
