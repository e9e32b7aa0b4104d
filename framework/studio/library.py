"""The specs the studio may open: the shipped games and planning problems (the rows of
`plyspec list`) and the spec files under the folder `plyspec studio FOLDER` was given.

A spec is named `tictactoe` (shipped, as on the command line) or `folder:sub/x.yaml` (a
path relative to the folder).  `path_of(name)` is the only way from a name to a file: a
shipped name must be one `plyspec list` shows, a folder name must stay inside the folder
once every link is resolved (no `..`, no absolute paths, no link out) and have a spec
suffix; anything else is a `NotFound`.
"""
from __future__ import annotations

import threading
from pathlib import Path

from framework.files import read_text

FOLDER_PREFIX = "folder:"
SUFFIXES = (".yaml", ".yml", ".game", ".plan", ".pddl")
MAX_FOLDER_FILES = 500


class NotFound(LookupError):
    """No spec the studio may open has this name."""


class Library:
    def __init__(self, folder: str | Path | None = None):
        self.folder = Path(folder).resolve() if folder else None
        self._shipped = None
        self._lock = threading.Lock()

    def shipped(self) -> list:
        """The rows of `plyspec list --json` (computed once: every shipped game is compiled;
        the server starts this as it starts)."""
        with self._lock:
            if self._shipped is None:
                from framework.cli.list_cmd import spec_rows
                self._shipped = [dict(r, source="shipped") for r in spec_rows()]
        return self._shipped

    def folder_files(self) -> list:
        if self.folder is None:
            return []
        import os
        from framework.conformance.discover import spec_kind
        rows = []
        for top, dirs, files in os.walk(self.folder):       # links to folders are not followed
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                path = Path(top) / name
                if path.suffix.lower() in SUFFIXES and path.is_file() and self._inside(path):
                    kind = "pddl" if path.suffix.lower() == ".pddl" else spec_kind(path)
                    rows.append({"name": FOLDER_PREFIX + path.relative_to(self.folder).as_posix(),
                                 "kind": kind, "file": str(path), "source": "folder"})
                    if len(rows) >= MAX_FOLDER_FILES:   # a huge folder (`studio /`) is listed in part
                        return rows
        return rows

    def _inside(self, path: Path) -> bool:
        return path.resolve().is_relative_to(self.folder)

    def path_of(self, name) -> Path:
        if not isinstance(name, str) or not name or len(name) > 1000:
            raise NotFound("give a spec name (see GET /api/specs)")
        if name.startswith(FOLDER_PREFIX):
            if self.folder is None:
                raise NotFound("the studio was started without a folder")
            relative = Path(name[len(FOLDER_PREFIX):])
            if relative.is_absolute() or ".." in relative.parts:
                raise NotFound(f"{name}: only files inside the folder can be opened")
            path = (self.folder / relative)
            if not path.is_file() or not self._inside(path) or path.suffix.lower() not in SUFFIXES:
                raise NotFound(f"no spec file {name} in the folder")
            return path
        for row in self.shipped():
            if row["name"] == name:
                return Path(row["file"])
        from framework.errors import did_you_mean
        hint = did_you_mean(name, [r["name"] for r in self.shipped()])
        raise NotFound(f"no shipped spec named {name!r}" + (f"; {hint}" if hint else ""))

    def text(self, name) -> dict:
        path = self.path_of(name)
        return {"name": name, "file": str(path), "format": path.suffix.lower().lstrip("."),
                "text": read_text(path)}
