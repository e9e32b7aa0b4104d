"""Security: plyspec trusts nothing it did not make itself (docs/security.md).

- Caches: planted pickles and marshalled code in an untrusted cache folder (mode 0777,
  another user's, a relative XDG_CACHE_HOME) or with a wrong HMAC in a trusted one do not
  run during an ordinary `plyspec check` (each payload would create a marker file).
- Special files: a FIFO, a link to /dev/zero, a device node (root only) and a socket as
  every kind of input (spec, PDDL domain beside a task, --book, alphabeta:book=, golden
  file, --resume journal, the language server's domain) and as every output (-o/--csv,
  even with --force) are refused with a SpecError, without blocking, and left as they were.
- Written files honour the umask; reads stop at the limit + 1 byte.
- Terminal output: markup in a game name is text, control characters are shown as escapes.
- Ray: a local runtime starts only with token authentication.
"""
from __future__ import annotations

import json
import marshal
import os
import pickle
import shutil
import signal
import socket
import stat
import subprocess
import sys

import pytest

from conftest import ROOT, SPECS
from framework.cli import main
from framework.errors import SpecError
from framework.files import check_output, read_bytes, read_text, write_atomic

ROOT_ONLY = "needs root (os.mknod of a device node / chown to another user); not root here"
PDDL = ROOT / "planners" / "data" / "pddl" / "miconic-fulladl"


@pytest.fixture(autouse=True)
def never_blocks():
    """A read that blocks on a FIFO fails the test instead of hanging the suite."""
    def hung(signum, frame):
        raise AssertionError("blocked (a FIFO or device was opened as a file)")
    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(120)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


# ---------------------------------------------------------------- caches

class Payload:
    """Unpickling this creates the folder `marker`: proof that a planted pickle ran."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.makedirs, (self.marker,)


def _run_check(env, cwd=ROOT):
    run = subprocess.run([sys.executable, "-m", "framework", "check", str(SPECS / "tictactoe.yaml")],
                         cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and ": ok: Tic-tac-toe" in run.stdout, run.stderr
    return run


def _env(**changes):
    env = {k: v for k, v in os.environ.items() if k not in ("PLYSPEC_CACHE", "XDG_CACHE_HOME")}
    env["PYTHONPATH"] = str(ROOT)
    env.update(changes)
    return env


@pytest.fixture(scope="module")
def cache_names(tmp_path_factory):
    """The names of the cache files a `check` stores, and the record templates a process
    compiles (the keys an old marshal cache held)."""
    folder = tmp_path_factory.mktemp("trusted")
    _run_check(_env(PLYSPEC_CACHE=str(folder)))
    names = sorted(p.name for p in folder.iterdir() if p.name.startswith("lark-"))
    assert names, "check stored no parser in a trusted cache folder"
    templates = subprocess.run([sys.executable, "-c", "import framework.loader, framework.records as r;"
                                "import json; print(json.dumps(list(r._TEMPLATES)))"],
                               cwd=ROOT, capture_output=True, text=True, check=True, timeout=600).stdout
    return names, json.loads(templates)


def _plant(folder, names, templates, marker, *, mac_prefix=False):
    """Pickles that create `marker` under every parser-cache name (raw, as the old cache
    read them, or behind 32 bytes standing for an HMAC), and a marshal record-template
    cache whose every template creates `marker` when it runs."""
    body = pickle.dumps(Payload(str(marker)))
    for name in names:
        (folder / name).write_bytes((b"\0" * 32 if mac_prefix else b"") + body)
        os.chmod(folder / name, 0o600)
    evil = {}
    for text in templates:
        head, _, rest = text.partition(":\n")
        code = compile(f"{head}:\n  __import__('os').makedirs({str(marker)!r}, exist_ok=True)\n{rest}",
                       "<planted>", "exec")
        evil[text] = next(c for c in code.co_consts if hasattr(c, "co_code"))
    (folder / "record-templates.marshal").write_bytes(marshal.dumps((sys.version, evil)))


def _snapshot(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_a_planted_cache_in_a_folder_writable_by_all_does_not_run(tmp_path, cache_names):
    folder = tmp_path / "cache"
    folder.mkdir()
    os.chmod(folder, 0o777)
    _plant(folder, *cache_names, tmp_path / "ran")
    before = _snapshot(folder)
    _run_check(_env(PLYSPEC_CACHE=str(folder)))
    assert not (tmp_path / "ran").exists()
    assert _snapshot(folder) == before          # nothing rewritten, no key left there


@pytest.mark.skipif(os.geteuid() != 0, reason=ROOT_ONLY)
def test_a_planted_cache_in_another_users_folder_does_not_run(tmp_path, cache_names):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    _plant(folder, *cache_names, tmp_path / "ran")
    os.chown(folder, 4242, 4242)
    for p in folder.iterdir():
        os.chown(p, 4242, 4242)
    _run_check(_env(PLYSPEC_CACHE=str(folder)))
    assert not (tmp_path / "ran").exists()


def test_a_relative_xdg_cache_home_is_ignored(tmp_path, cache_names):
    """XDG_CACHE_HOME=rel (and PLYSPEC_CACHE=rel) would point into the current folder:
    ignored, the cache is ~/.cache/plyspec of a private home."""
    work, home = tmp_path / "work", tmp_path / "home"
    planted = work / "rel" / "plyspec"
    planted.mkdir(parents=True, mode=0o700)
    home.mkdir(mode=0o700)
    _plant(planted, *cache_names, tmp_path / "ran")
    _run_check(_env(XDG_CACHE_HOME="rel", HOME=str(home)), cwd=work)
    _run_check(_env(PLYSPEC_CACHE="rel/plyspec", HOME=str(home)), cwd=work)
    assert not (tmp_path / "ran").exists() and not (planted / "key").exists()
    assert sorted(p.name for p in (home / ".cache" / "plyspec").glob("lark-*")) == cache_names[0]


def test_a_planted_cache_without_the_users_hmac_does_not_run(tmp_path, cache_names):
    """In the user's own private folder, a file not written by this user's plyspec (its
    HMAC does not match the key) is not unpickled; it is replaced by a good one."""
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    _run_check(_env(PLYSPEC_CACHE=str(folder)))
    key = folder / "key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 32
    _plant(folder, *cache_names, tmp_path / "ran", mac_prefix=True)
    _run_check(_env(PLYSPEC_CACHE=str(folder)))
    assert not (tmp_path / "ran").exists()
    assert all(pickle.dumps(Payload(str(tmp_path / "ran"))) not in (folder / n).read_bytes()
               for n in cache_names[0])


def test_cache_files_are_private_and_links_are_not_followed(tmp_path, monkeypatch):
    from framework import cache
    monkeypatch.setenv("PLYSPEC_CACHE", str(tmp_path / "c"))
    cache.store("x", b"payload")
    assert cache.load("x") == b"payload"
    folder = tmp_path / "c"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in folder.iterdir())
    os.chmod(folder / "x", 0o644)                       # readable by others: not trusted
    assert cache.load("x") is None
    os.chmod(folder / "x", 0o600)
    (folder / "y").symlink_to(folder / "x")             # a link to a good file: not followed
    assert cache.load("y") is None
    (folder / "x").write_bytes(b"\0" * 32 + b"payload")  # the payload alone, forged MAC
    assert cache.load("x") is None
    link = tmp_path / "link"
    link.symlink_to(folder)                              # the folder reached through a link
    monkeypatch.setenv("PLYSPEC_CACHE", str(link))
    cache.store("z", b"payload")
    assert cache.load("z") is None and not (folder / "z").exists()


# ---------------------------------------------------------------- special files

def _fifo(path):
    os.mkfifo(path)
    return path


def _zero_link(path):
    path.symlink_to("/dev/zero")        # reading it would never end
    return path


def _device(path):
    if os.geteuid() != 0:
        pytest.skip(ROOT_ONLY)
    os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 5))      # a private /dev/zero
    return path


def _socket(path):
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(path))
    s.close()
    return path


SPECIAL = {"fifo": _fifo, "zero link": _zero_link, "device": _device, "socket": _socket}
SPECIAL_KIND = {"fifo": stat.S_ISFIFO, "zero link": stat.S_ISLNK, "device": stat.S_ISCHR,
                "socket": stat.S_ISSOCK}


@pytest.fixture(params=sorted(SPECIAL))
def special(request, tmp_path):
    """A maker of special files of one kind: special(path) -> path."""
    kind = request.param

    def make(path):
        return SPECIAL[kind](path)
    make.kind = kind
    make.unchanged = lambda path: SPECIAL_KIND[kind](os.lstat(path).st_mode)
    return make


def _refused(argv, capsys, *words):
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert code == 1 and ("not a regular file" in err or "symbolic link" in err), err
    assert "Traceback" not in err
    assert all(w in err for w in words), err
    return err


def test_a_special_file_as_a_spec_is_refused(tmp_path, special, capsys):
    spec = special(tmp_path / "spec.yaml")
    _refused(["check", spec], capsys, "spec.yaml")
    _refused(["solve", spec], capsys)
    assert special.unchanged(spec)


def test_a_special_domain_beside_a_task_is_refused(tmp_path, special, capsys):
    shutil.copy(PDDL / "task01.pddl", tmp_path / "task01.pddl")
    special(tmp_path / "domain.pddl")
    _refused(["check", tmp_path / "task01.pddl"], capsys, "domain.pddl")
    _refused(["plan", tmp_path / "domain.pddl", tmp_path / "task01.pddl"], capsys)


def test_the_language_server_skips_a_special_domain(tmp_path, special):
    from framework.lsp.analysis import Analysis
    from framework.lsp.planning import analyse_pddl
    task = tmp_path / "task01.pddl"
    shutil.copy(PDDL / "task01.pddl", task)
    special(tmp_path / "domain.pddl")
    with pytest.raises(SpecError, match="not a regular file"):
        analyse_pddl(str(task), task.read_text(), Analysis("pddl"), {})


def test_a_special_book_journal_or_golden_file_is_refused(tmp_path, special, capsys):
    book = special(tmp_path / "book.json")
    _refused(["solve", SPECS / "tictactoe.yaml", "--book", book, "--depth", "1"], capsys)
    match = ["match", SPECS / "nim.yaml", "--agent", "random", "--agent", "first", "--games", "2",
             "--workers", "0", "--json"]
    journal = special(tmp_path / "run.jsonl")
    _refused(match + ["-o", journal, "--resume"], capsys)
    spec = tmp_path / "nim.yaml"
    shutil.copy(SPECS / "nim.yaml", spec)
    (tmp_path / "golden").mkdir()
    special(tmp_path / "golden" / "nim.perft.json")
    from framework.conformance.golden import read_golden_data, write_golden
    with pytest.raises(SpecError, match="not a regular file"):
        read_golden_data(tmp_path / "golden" / "nim.perft.json")
    with pytest.raises(SpecError):
        write_golden(tmp_path / "golden" / "nim.perft.json", {}, [1])
    assert special.unchanged(tmp_path / "golden" / "nim.perft.json")


def test_an_agent_book_that_is_a_special_file_fails_that_game_only(tmp_path, special, capsys):
    book = special(tmp_path / "book.json")
    code = main(["match", str(SPECS / "tictactoe.yaml"), "--agent", f"alphabeta:depth=1,book={book}",
                 "--agent", "random", "--games", "1", "--workers", "0", "--json", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 1 and "not a regular file" in out + err and "Traceback" not in err


OUTPUTS = {      # each with --force where the command has it (--tree and golden files replace theirs)
    "tournament --csv": lambda out: ["tournament", SPECS / "nim.yaml", "--agent", "random", "--agent",
                                     "first", "--games", "2", "--workers", "0", "--csv", out, "--force"],
    "match -o": lambda out: ["match", SPECS / "nim.yaml", "--agent", "random", "--agent", "first",
                             "--games", "2", "--workers", "0", "-o", out, "--force"],
    "book -o": lambda out: ["book", SPECS / "tictactoe.yaml", "--plies", "1", "--games", "2", "-o", out,
                            "--force"],
    "tree -o": lambda out: ["tree", SPECS / "nim.yaml", "--depth", "1", "-o", out, "--force"],
    "convert -o": lambda out: ["convert", SPECS / "nim.yaml", "--to", "game", "-o", out, "--force"],
    "solve --tree": lambda out: ["solve", SPECS / "nim.yaml", "--depth", "1", "--tree", out],
    "perft --write-golden": lambda out: ["perft", SPECS / "nim.yaml", "-d", "1", "--write-golden", out],
}


@pytest.mark.parametrize("command", sorted(OUTPUTS))
def test_a_special_output_is_refused_even_with_force(tmp_path, special, command, capsys):
    out = special(tmp_path / "out.txt")
    _refused(OUTPUTS[command](out), capsys, "out.txt")
    assert special.unchanged(out)


def test_write_atomic_refuses_special_targets_and_links(tmp_path, special):
    target = special(tmp_path / "t")
    for force in (False, True):
        with pytest.raises(SpecError):
            write_atomic(target, "x", force=force)
    assert special.unchanged(target) and [p.name for p in tmp_path.iterdir()] == ["t"]


def test_written_files_honour_the_umask(tmp_path, capsys):
    previous = os.umask(0o027)
    try:
        write_atomic(tmp_path / "a", "x")
        write_atomic(tmp_path / "b", b"x", private=True)
        assert main(["tree", str(SPECS / "nim.yaml"), "--depth", "1", "-o", str(tmp_path / "t.txt")]) == 0
        os.umask(0o002)
        write_atomic(tmp_path / "a", "y", force=True)
    finally:
        os.umask(previous)
    mode = {p.name: stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()}
    assert mode == {"a": 0o664, "b": 0o600, "t.txt": 0o640}
    assert (tmp_path / "a").read_text() == "y"


def test_reads_stop_at_the_limit(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 10)
    assert read_bytes(path, limit=10, what="spec") == b"x" * 10
    with pytest.raises(SpecError, match="larger than 9 bytes"):
        read_bytes(path, limit=9, what="spec")
    path.write_bytes("ok\nab\xe9\n".encode("latin-1"))
    with pytest.raises(SpecError, match="not UTF-8") as err:
        read_text(path)
    assert (err.value.line, err.value.col) == (2, 3)
    with pytest.raises(SpecError, match="a folder"):
        read_text(tmp_path)
    check_output(tmp_path / "new")              # absent: fine
    with pytest.raises(SpecError, match="does not exist"):
        check_output(tmp_path / "no" / "new")


def test_what_the_outside_review_found_is_a_clear_error(tmp_path, capsys):
    """A loop of symbolic links as a spec (was a RuntimeError traceback), a --set value
    nested 5,000 deep and a book nested 100,000 deep (were RecursionError tracebacks)."""
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    assert main(["check", str(loop)]) == 1 and "symbolic links" in capsys.readouterr().err
    assert main(["check", str(SPECS / "nim.yaml"), "--set", "heaps=" + "[" * 5000]) == 2
    assert "cannot read the value of --set" in capsys.readouterr().err
    book = tmp_path / "book.json"
    book.write_text("[" * 100_000)
    code = main(["solve", str(SPECS / "tictactoe.yaml"), "--book", str(book), "--depth", "1"])
    assert code in (1, 2) and "opening book" in capsys.readouterr().err


def test_the_fuzz_files_sweep_finds_nothing():
    """`plyspec fuzz --files`: every command with every special file as each input and
    output, hostile contents and options (against the code before these fixes it found 45)."""
    from framework.cli.fuzz_files import sweep
    result = sweep()
    kinds = set(result["special_files"])
    assert {"fifo", "zero", "socket", "folder", "dangling", "loop"} <= kinds
    assert ("device" in kinds) == (os.geteuid() == 0)        # device nodes: root only
    assert result["command_lines"] >= 18 * len(kinds) + 20
    assert result["findings"] == []


# ---------------------------------------------------------------- terminal output

HOSTILE = ["[/oops] [bold]x", "\x1b]0;owned\x07\x1b[2J", "\u202eevil"]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_game_name_is_printed_as_text(tmp_path, name, capsys):
    spec = tmp_path / "g.yaml"
    text = (SPECS / "nim.yaml").read_text()
    spec.write_text(text.replace("game: Misère Nim", f"game: {json.dumps(name)}", 1))
    for command in (["check"], ["solve"], ["match", "--agent", "first", "--agent", "random",
                                            "--games", "1", "--workers", "0"]):
        code = main(command[:1] + [str(spec)] + command[1:])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert not any(c in out + err for c in "\x1b\x07\u202e"), out
        from framework.terminal import plain
        assert plain(name) in out


def test_control_characters_in_a_spec_error_are_shown_as_escapes(tmp_path, capsys):
    spec = tmp_path / "g.game"
    spec.write_text('game "x"\n\x1b]0;owned\x07 oops\n')
    assert main(["check", str(spec)]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "\\x1b" in err


def test_the_caret_stays_under_what_it_marks_past_an_escape():
    err = SpecError("bad", file="f", line=1, col=5, end_col=7, source_line="a\x1bb c de")
    quoted, caret = str(err).split("\n")[1:3]
    assert quoted == "    a\\x1bb c de" and caret.index("^") == quoted.index("c ") and caret.count("^") == 2


def test_progress_lines_keep_their_own_terminal_codes(monkeypatch):
    """plan's progress line redraws itself with \\r and erase-line on a terminal: written
    beneath the escaping stream, its codes work; a game name would not get through."""
    import io
    from types import SimpleNamespace
    from framework.cli.plan_cmd import _progress_printer
    from framework.terminal import PlainStream

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", PlainStream(screen))
    report, tty = _progress_printer("astar")
    report(SimpleNamespace(depth=0, expanded=5, nodes=9, time_s=0.1))
    sys.stderr.write("\x1b]0;owned\x07")
    assert tty and screen.getvalue().startswith("\r[astar] expanded 5") and "\x1b[K" in screen.getvalue()
    assert screen.getvalue().endswith("\\x1b]0;owned\\x07")


def test_plain_keeps_text_and_shows_controls():
    from framework.terminal import plain
    assert plain("a\tb\nc é ♟") == "a\tb\nc é ♟"
    assert plain("\x1b[2J\x07\x9b\x7f\r") == "\\x1b[2J\\x07\\x9b\\x7f\\x0d"


# ---------------------------------------------------------------- Ray

class FakeRay:
    """Stands for the `ray` module: records what `RayPool` asks of it."""

    def __init__(self):
        self.calls = []

    def is_initialized(self):
        return False

    def init(self, **kwargs):
        self.calls.append(("init", kwargs, os.environ.get("RAY_AUTH_MODE"), os.environ.get("RAY_AUTH_TOKEN")))

    def shutdown(self):
        self.calls.append(("shutdown",))

    def remote(self, **kwargs):
        return lambda f: f


@pytest.fixture
def fake_ray(monkeypatch):
    from framework.parallel import ray_backend
    ray = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", ray)
    for name in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(ray_backend, "_token_auth_on", lambda: True)
    return ray


def test_a_local_ray_runtime_starts_with_token_authentication(fake_ray):
    from framework.parallel.ray_backend import RayPool
    RayPool(None, workers=2)
    [(what, kwargs, mode, token)] = fake_ray.calls
    assert kwargs["include_dashboard"] is False and kwargs["num_cpus"] == 2 and "address" not in kwargs
    assert token and len(token) == 64            # a fresh random token, in the environment only
    assert mode is None or mode == "token"       # (set before Ray is imported; Ray >= 2.52 defaults to it)


def test_a_local_ray_runtime_without_authentication_is_refused(fake_ray, monkeypatch):
    from framework.parallel import ray_backend
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    with pytest.raises(ValueError, match="token authentication"):
        ray_backend.RayPool(None)
    assert fake_ray.calls == []                   # refused before anything started
    monkeypatch.delenv("RAY_AUTH_MODE")
    monkeypatch.setattr(ray_backend, "_token_auth_on", lambda: False)
    with pytest.raises(ValueError, match="token authentication"):
        ray_backend.RayPool(None)
    assert [c[0] for c in fake_ray.calls] == ["init", "shutdown"]


def test_a_cluster_address_is_the_users_choice(fake_ray, monkeypatch):
    from framework.parallel.ray_backend import RayPool
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    RayPool("ray://head:10001")
    assert fake_ray.calls[0][1]["address"] == "ray://head:10001"
