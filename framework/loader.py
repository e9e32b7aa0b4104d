"""Loading: spec file -> AST (by extension) -> checker -> compiler -> `Game`.

`load(path, **options)` is the public entry point (re-exported as `framework.load`).
Compiled games are cached per (path, modification time, options), and a pickled state
finds its game again through `restore_state`.
"""
from __future__ import annotations

import math
import os
import re
from pathlib import Path

from framework import builtins, runtime
from framework.checker import check
from framework.compiler import Compiler
from framework.errors import SpecError, UsageError
from framework.graph import drawn_rows, point_text
from framework.files import read_text
from framework.history import with_history
from framework.game import enforce_contract, fitting, outcome_value_text, Game

_CACHE: dict = {}
RUNTIME_HELPERS = ("bits", "set_item", "out_of_range", "item", "no_actions", "no_outcomes", "overflow", "endless_move", "span", "bad_index", "divide", "memoise", "off_board", "cell_part", "drop_cell", "extreme", "cells_mask", "moves_mask", "loop_outcome", "loop_table", "shown_value", "cell_table")


def parse_text(text: str, file: str, fmt: str):
    """Spec text -> GameSpec, with `fmt` 'yaml' or 'game'."""
    if fmt == "yaml":
        from framework.frontend.yaml_spec import load_yaml_spec
        return load_yaml_spec(text, file)
    from framework.frontend.game_format import load_game_spec
    return load_game_spec(text, file)


def spec_format(path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix in (".yaml", ".yml"):
        return "yaml"
    if suffix == ".game":
        return "game"
    raise SpecError(f"unknown spec format `{suffix or path}`", file=str(path),
                    hint="game specs end in .yaml, .yml or .game")


def planning_kind(path, text: str | None = None) -> str | None:
    """What planning file `path` is ("PDDL", "a .plan planning spec", "a YAML planning
    spec"), or None for anything else: game commands point such files to `plyspec plan`."""
    suffix = Path(path).suffix.lower()
    if suffix == ".pddl":
        return "PDDL"
    if suffix == ".plan":
        return "a .plan planning spec"
    if suffix in (".yaml", ".yml"):
        if text is None:
            try:
                text = read_text(path)
            except (OSError, SpecError):
                return None
        if re.search(r"^(problem|domain)\s*:", text, re.M) and not re.search(r"^game\s*:", text, re.M):
            return "a YAML planning spec"
    return None


def refuse_planning(path, text: str | None = None) -> None:
    """A UsageError (exit 2) when a game command is given a planning problem."""
    kind = planning_kind(path, text)
    if kind is not None:
        target = "DOMAIN.pddl PROBLEM.pddl" if kind == "PDDL" else str(path)
        raise UsageError(f"this is a planning problem ({kind}), not a game", file=str(path),
                         hint=f"plan it with `plyspec plan {target}` (`plyspec check` checks it too)")


def parse_spec(path):
    """The AST of a spec file (no checks beyond syntax)."""
    text = read_text(path)
    refuse_planning(path, text)
    return parse_text(text, str(path), spec_format(path))


def load(path, **options) -> Game:
    """Load, check and compile a game spec (a file, or a shipped game by name:
    `load("tictactoe")`); `options` override the spec's option defaults."""
    from framework.conformance.discover import resolve, shipped_names
    p = resolve(path)
    try:
        # (realpath, not Path.resolve: a loop of links is then stat's OSError, not a RuntimeError)
        key = (os.path.realpath(p), p.stat().st_mtime_ns, tuple(sorted((k, _freeze(v)) for k, v in options.items())))
    except OSError as e:
        from framework.errors import did_you_mean
        raise SpecError(f"cannot read {path}: {e.strerror}", file=str(path),
                        hint=did_you_mean(str(path), shipped_names()) or
                        "give a spec file, or a shipped game by name (plyspec list)") from None
    path = p
    if key not in _CACHE:
        game = compile_spec(parse_spec(path), options)
        game.state_class._namespace["GAME_KEY"] = key
        _CACHE[key] = game
    return _CACHE[key]


def load_text(text: str, fmt: str = "yaml", file: str = "<spec>", **options) -> Game:
    """Load a spec from a string (for tests and tools)."""
    return compile_spec(parse_text(text, file, fmt), options)


def _freeze(v):                # an option value in a cache key (the checker refuses [[1]] later)
    return tuple(map(_freeze, v)) if isinstance(v, (list, tuple)) else repr(v) if v.__hash__ is None else v


def compile_spec(spec, options=None) -> Game:
    try:
        return _compile_spec(spec, options)
    except RecursionError:          # a rule nested deeper than the checker or Python can follow
        raise SpecError.at(spec.pos, "a rule of the spec is nested too deeply to compile",
                           "split deep expressions into helper definitions") from None


def _compile_spec(spec, options=None) -> Game:
    checked = check(spec, options or {})
    compiler = Compiler(checked)
    source = compiler.module()
    namespace = _namespace(compiler, {v.name: v.pos for v in spec.variables})
    code = compile(source, f"<plyspec:{spec.file or spec.name}>", "exec")
    exec(code, namespace)   # generated from the checked AST only; no spec text is in `source`
    state_class = namespace["State"]
    info = _DisplayInfo(compiler)
    state_class.__str__ = lambda state: info.render(state)
    state_class.__repr__ = lambda s: f"<{spec.name} state: {tuple(s)}>"
    game = Game(
        name=spec.name, player_names=checked.players, chance=compiler.has_chance,
        zero_sum=checked.zero_sum, constant_sum=checked.constant_sum,
        max_utility_sum=checked.max_utility_sum,
        utility_bounds=tuple(checked.utility_bounds), options=dict(checked.options),
        source_file=spec.file, python_source=source, max_length=checked.max_length,
        has_evaluation=bool(checked.features), has_goal=checked.goal is not None,
        state_class=state_class, _initial=namespace["_initial"], spec=spec,
        _action_text=info.action_text, _parse_action=info.parse_action,
        _outcome_text=info.outcome_text, view=info)
    if checked.features:
        evaluate = namespace["_evaluate"]
        game._evaluate = lambda state, player: evaluate(*state[:len(compiler.fields)], player)
    if any(a.noisy is not None for a in checked.actions):
        game._is_noisy = _noisy_function(compiler, namespace, [a.noisy for a in checked.actions])
    if checked.symmetries:
        game._symmetries = _symmetry_function(compiler, state_class, namespace["_terminal"])
    if "k_apply" in namespace:
        from framework.kernel import Kernel
        game.kernel = state_class._kernel = Kernel(namespace, len(compiler.fields),
                                                   namespace["_evaluate"] if checked.features else None)
    namespace["GAME_KEY"] = None
    state_class._namespace = namespace
    enforce_contract(state_class, game)          # the checked course interface (framework.game)
    if checked.repetition or checked.max_moves:
        game = with_history(game, checked, compiler.fields)
    _build_initial_state(game, spec)
    return game


def _build_initial_state(game, spec):
    """Build the initial state once, so that a rule that fails on it (an index past the
    end of an option list, a division by zero) is a SpecError at load time, not in play."""
    try:
        game.initial_state()
    except (ArithmeticError, IndexError, KeyError, TypeError, ValueError) as error:
        pos = next((spec.positions[k] for k in ("init", "state", "board") if spec.positions.get(k)), spec.pos)
        raise SpecError.at(pos, f"the initial state cannot be built: {error}",
                           "check the initial values and `init` effects against the options") from None


def _namespace(compiler: Compiler, declared_at: dict) -> dict:
    """The globals of the generated module; `declared_at` maps state variables to the
    position of their declaration (for range errors during play)."""
    c = compiler.c
    ns = {"__builtins__": {"len": len, "hash": hash, "sum": sum, "min": min, "max": max, "abs": abs, "any": any,
                           "all": all, "range": range, "bool": bool, "tuple": tuple, "list": list, "sorted": sorted,
                           "KeyError": KeyError, "IndexError": IndexError, "TypeError": TypeError,
                           "ValueError": ValueError, "ZeroDivisionError": ZeroDivisionError, "OverflowError": OverflowError,
                           "repr": repr, "__build_class__": __builtins__["__build_class__"]
                           if isinstance(__builtins__, dict) else __builtins__.__build_class__},
          "__name__": "plyspec_generated",
          **{name: getattr(runtime, name) for name in RUNTIME_HELPERS}, "bits": runtime.board_bits,   # (remembered)
          "POSITIONS": compiler.positions,
          "IllegalAction": runtime.IllegalAction, "restore_state": restore_state,
          "ACTION_NAMES": tuple(a.name for a in c.actions),
          "NAMES": [(name, declared_at.get(name)) for name in compiler.names],
          "PLAYER_VALUE": compiler.player_value,
          "ENUMS": [v.enum for v in c.variables if v.type.startswith("enum:")],
          "ENUM_INDEX": [{name: i for i, name in enumerate(v.enum)} for v in c.variables
                         if v.type.startswith("enum:")]}
    ns.update(builtins.runtime_namespace())      # the builtins' own run-time helpers
    t = compiler.tables
    if t is not None:
        ns.update(FULL=t.full, XY=t.xy, CELL_OF=t.index, COL=t.col, ROW=t.row, ALL_CELLS=t.cells,
                  COLUMN_MASKS=t.column_masks, CELL=t.cell, LINE_SHIFTS=t.line_shifts())
        for name in t.neighbors:
            ns[f"NEIGHBORS_{name}"] = t.neighbors[name]
            ns[f"RAYS_{name}"] = t.rays[name]
    return ns


def restore_state(key, values):
    """Unpickling: find (or reload) the game and rebuild the state."""
    if key is None:
        raise SpecError("this state's game was loaded from text and cannot be restored by pickle",
                        hint="load games from files to pickle their states")
    path, _, options = key
    game = load(path, **{k: list(v) if isinstance(v, tuple) else v for k, v in options})
    return tuple.__new__(game.state_class, values)


def _noisy_function(compiler, namespace, noisy):
    """(state, action) -> bool from the actions' `noisy` expressions (and the tables they read)."""
    from framework.compiler import _Source
    out, before = _Source(), set(compiler.helpers)     # tables the expressions make are written before it
    out(f"def _noisy({compiler.sig}, action):")
    out.indent()
    for ai, (a, e) in enumerate(zip(compiler.c.actions, noisy)):
        if e is None or a.step:
            continue
        types = [p[2] for p in a.params]
        if compiler.single:
            compound = a.chance is None and compiler.is_compound(a)
            raw = ["action"] if len(types) == 1 and not compound else [f"action[{k}]" for k in range(len(types))]
        elif not types:
            out(f"if action == ACTION_NAMES[{ai}]:")
            raw = []
        else:
            out(f"if action[0] == ACTION_NAMES[{ai}]:")
            raw = [f"action[{k + 1}]" for k in range(len(types))]
        env, prefix = {}, ("    " if not compiler.single else "")
        for (pname, _, t), r in zip(a.params, raw):
            out(f"{prefix}p_{pname} = {compiler.decode(t, r)}")
            env[pname] = f"p_{pname}"
        out(f"{prefix}return bool({compiler.expr(e, env)})")
    out("return False")
    tables = "".join(code for name, code in compiler.helpers.items() if name not in before)
    exec(compile(tables + out.text(), "<plyspec:noisy>", "exec"), namespace)
    fn = namespace["_noisy"]
    k = len(compiler.fields)
    return lambda state, action: action != "pass" and not state.is_chance() and fn(*state[:k], action)


def _symmetry_function(compiler, state_class, terminal):
    perms = compiler.tables.permutations(compiler.c.symmetries)
    nb = len(compiler.boards)
    cell_slots = [nb + i for i, v in enumerate(compiler.c.variables) if v.type == "cell"]
    cellset_slots = [nb + i for i, v in enumerate(compiler.c.variables) if v.type == "cellset"]
    arrays = {nb + i for i, v in enumerate(compiler.c.variables) if v.is_array}
    k = len(compiler.fields)
    chance = compiler.has_chance              # a chance node (pending outcome) is never terminal

    def symmetries(state):
        out = []
        for perm in perms:
            values = list(state)
            for i in range(nb):
                values[i] = runtime.permute(values[i], perm)
            for i in cell_slots:
                values[i] = tuple(perm[x] for x in values[i]) if i in arrays else perm[values[i]]
            for i in cellset_slots:
                values[i] = tuple(runtime.permute(x, perm) for x in values[i]) if i in arrays \
                    else runtime.permute(values[i], perm)
            if not chance or not values[-2]:       # the image's own terminal flag, never its
                values[-1] = bool(terminal(*values[:k]))  # original's (a false claim shows)
            out.append(tuple.__new__(state_class, values))
        return out
    return symmetries


class _DisplayInfo:
    """Rendering and canonical action text; spec strings stay data, never source."""

    def __init__(self, compiler: Compiler):
        c = compiler.c
        self.c = c
        self.compiler = compiler
        self.tables = compiler.tables
        self.symbols = [c.display.get(v, "." if i == c.default_value else v[0]) for i, v in enumerate(c.values)]
        self.nfields = len(compiler.fields)

    def cell_values(self, state) -> list:
        """The board's cells as value indices, row by row (y = 0 first); [] without a board."""
        c = self.c
        if self.tables is None:
            return []
        boards = {i: state[k] for k, i in enumerate(self.compiler.boards)}
        return [[next((i for i, b in boards.items() if b >> self.tables.cell(x, y) & 1), c.default_value)
                 for x in range(c.width)] for y in range(c.height)]

    def variable_texts(self, state) -> list:
        """(name, value as text) of each state variable, as `str(state)` prints them."""
        return [(v.name, self._value_text(v, x)) for v, x in zip(self.c.variables, state[len(self.compiler.boards):])]

    def board(self, state) -> dict | None:
        """The board as data (plyspec studio draws it): size, each cell's value name row by
        row, each value's display symbol; None for a game without a board."""
        c = self.c
        return None if self.tables is None else {
            "width": c.width, "height": c.height, "default": c.values[c.default_value],
            "symbols": dict(zip(c.values, self.symbols)), "cells": [[c.values[v] for v in row] for row in self.cell_values(state)]}

    def action_cells(self, action) -> list:
        """The cells an action names in order (what a player clicks): its cell parameters,
        then the cells of a compound move's later steps."""
        try:
            a, values = self._schema(action)
        except (StopIteration, TypeError):
            return []
        return [v for (_, _, t), v in zip(a.params, values) if t == "cell"] + \
            [v for v in values[len(a.params):] if isinstance(v, tuple)]

    def render(self, state) -> str:
        c = self.c
        lines = drawn_rows(c.graph, self.cell_values(state), self.symbols)
        for name, text in self.variable_texts(state):
            lines.append(f"{name}: {text}")
        if state.terminal_test():
            lines.append("game over: " + ", ".join(f"{p} {state.utility(i):g}" for i, p in enumerate(c.players)))
        elif state.is_chance():
            lines.append("chance to move")
        else:
            lines.append(f"{c.players[state.player()]} to move")
        return "\n".join(lines)

    def _value_text(self, var, value):
        if var.is_array:
            items = [self._scalar_text(var, x) for x in value]
            if var.per_player:
                return ", ".join(f"{p}={x}" for p, x in zip(self.c.players, items))
            return "[" + ", ".join(items) + "]"
        return self._scalar_text(var, value)

    def _scalar_text(self, var, x):
        if var.type == "cell":
            return "none" if x < 0 else point_text(self.c.graph, self.tables.xy[x], "({},{})")
        if var.type == "player":
            return self.c.players[x] if x >= 0 else "none"
        if var.type.startswith("enum:"):
            return var.enum[x]
        if var.type == "cellset":
            return "{" + " ".join(point_text(self.c.graph, self.tables.xy[i], "({},{})") for i in runtime.bits(x)) + "}"
        return str(x)

    def _schema(self, action):
        comp, moves = self.compiler, [a for a in self.c.actions if not a.step]
        if comp.single:
            a = moves[0]
            compound = a.chance is None and comp.is_compound(a)
            values = (action,) if len(a.params) == 1 and not compound else tuple(action)
        elif isinstance(action, str):
            a, values = next(a for a in moves if a.name == action and not a.params), ()
        else:
            a, values = next(a for a in moves if a.name == action[0]), tuple(action[1:])
        return a, fitting(a.params, values, len(self.c.players))   # TypeError: not a's values

    def action_text(self, action) -> str:
        if action == "pass":
            return "pass"
        try:
            a, values = self._schema(action)
        except (StopIteration, TypeError):
            return runtime.shown_value(action)
        parts = []
        for (pname, _, t), v in zip(a.params, values):
            if t == "cell":
                parts.append(point_text(self.c.graph, v))
            elif t == "player":
                parts.append(self.c.players[v])
            else:
                parts.append(str(v))
        # the values chosen in a compound move's later steps (cells are (col, row) pairs)
        parts += [point_text(self.c.graph, v) if isinstance(v, tuple) else str(v) for v in values[len(a.params):]]
        return f"{a.name}({','.join(parts)})" if parts else a.name

    def outcome_text(self, state, outcome) -> str:
        """`var=value` for an outcome of the chance node `state`: the chance variable of
        the action being resolved, and the value as a rule would write it."""
        variables = self.c.actions[state[-2][0]].chance.variables
        values = (outcome,) if len(variables) == 1 else outcome
        return ",".join(f"{var}={outcome_value_text(kind, value, self.c.players)}"
                        for (var, _, kind), value in zip(variables, values))

    def parse_action(self, state, text: str):
        cleaned = text.strip().replace(" ", "")
        legal = state.actions()
        by_text = {self.action_text(a): a for a in legal}
        if cleaned in by_text:
            return by_text[cleaned]
        # short forms: the arguments alone, e.g. "1,2", "(1,2)", "3"
        bare = cleaned.strip("()")
        for t, a in by_text.items():
            if "(" in t and t[t.index("(") + 1:-1] == bare and (self.compiler.single or t.startswith(cleaned)):
                return a
        if cleaned in (str(a) for a in legal):
            return next(a for a in legal if str(a) == cleaned)
        sample = ", ".join(list(by_text)[:8]) + (" ..." if len(by_text) > 8 else "")
        raise SpecError(f"`{text}` is not a legal action here", hint=f"legal: {sample}" if legal else
                        "the game is over")
