"""The studio's Starlette application: the page (static files) and the JSON API under
/api/ that the page uses and any client may call (docs/studio.md lists every endpoint).

Requests must name the server in `Host`, and state changes come from its own page
(framework.studio.guard).  Every request body is a JSON object (framework.studio.requests),
sent as `Content-Type: application/json`; spec text goes through the
limits `plyspec check` applies (MAX_SPEC_BYTES, then the checker's own); searches, trees,
plans and tests run as jobs (framework.studio.jobs) under a budget with a default and a
cap.  A bad request gets a 4xx answer {"error": message, "hint": ...}; an error of
plyspec's own is a 500 with the message, never a traceback.
"""
from __future__ import annotations

import asyncio
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from framework.errors import SpecError
from framework.studio import jobs, sessions
from framework.studio.guard import Guard, server_hosts
from framework.studio.library import Library, NotFound
from framework.studio.requests import FORMATS, BadRequest, body, field, spec_text, text_format

STATIC = Path(__file__).with_name("static")
# budgets: (default, cap)
AGENT_SECONDS, AGENT_NODES = (2.0, 30.0), 5_000_000
TREE_NODES, TREE_SECONDS = (2_000, 20_000), 20.0
PLAN_SECONDS, TEST_SECONDS, TEST_EXAMPLES = (10.0, 120.0), 120.0, (30, 500)
WAIT_SECONDS = 150.0                 # the longest a request with "wait": true waits


def session_of(request: Request):
    found = sessions.get(request.path_params["sid"])
    if found is None:
        raise BadRequest(f"no session {request.path_params['sid']!r} (the server may have restarted)", 404)
    return found


# ------------------------------------------------------------------------------ library
async def list_specs(request):
    library = request.app.state.library
    shipped = await run_in_threadpool(library.shipped)
    return JSONResponse({"specs": shipped + library.folder_files(),
                         "folder": str(library.folder) if library.folder else None})


async def get_spec(request):
    return JSONResponse(request.app.state.library.text(request.query_params.get("name")))


# ------------------------------------------------------------------------------ sessions
async def new_session(request):
    data = await body(request)
    options = field(data, "options", dict, {})
    seed = field(data, "seed", int, 0)
    if "text" in data:
        text, fmt = spec_text(data), text_format(data)
        if fmt not in ("yaml", "game"):
            raise BadRequest("a game is written in YAML or .game; plan a planning problem with /api/plan")
        from framework.loader import load_text, refuse_planning
        filename = "editor" + FORMATS[fmt]
        refuse_planning(filename, text)
        game = await run_in_threadpool(lambda: load_text(text, fmt, filename, **options))
        source = {"kind": "text", "format": fmt}
    else:
        name = field(data, "spec", str, required=True)
        path = request.app.state.library.path_of(name)
        from framework import load
        from framework.loader import refuse_planning
        refuse_planning(path)
        game = await run_in_threadpool(lambda: load(path, **options))
        source = {"kind": "spec", "name": name}
    session = sessions.add(sessions.Session(game, dict(source, options=options), seed))
    return JSONResponse(session.view())


async def get_session(request):
    return JSONResponse(session_of(request).view())


async def move(request):
    session, data = session_of(request), await body(request)
    if data.get("random"):
        session.play()
    else:
        index, text = field(data, "index", int), field(data, "action", str)
        if (index is None) == (text is None):
            raise BadRequest('give the action\'s "index" or its text as "action" (or "random": true at a chance node)')
        session.play(index=index, text=text)
    return JSONResponse(session.view())


async def undo(request):
    session, data = session_of(request), await body(request)
    session.undo(field(data, "plies", int, 1))
    return JSONResponse(session.view())


async def agent(request):
    session, data = session_of(request), await body(request)
    from framework.agents import parse_agent
    agent = parse_agent(field(data, "agent", str, required=True)).seeded(session.rng.randrange(2**31))
    if agent.is_human:                    # a bad agent is a 400 now, not a failed job
        raise BadRequest("a human seat moves by clicking; ask an agent such as random or alphabeta:depth=4")
    own = agent.options.get("time_limit")     # the agent's own time=, else the request's, else the default
    seconds = jobs.budget(data.get("time", own), *AGENT_SECONDS, "time")
    nodes = field(data, "nodes", int, AGENT_NODES)
    if not 0 < nodes <= AGENT_NODES:
        raise BadRequest(f"nodes must be from 1 to {AGENT_NODES:,}")
    play = field(data, "play", bool, True)
    state, ply, game = session.state, len(session.moves), session.game
    if state.terminal_test() or state.is_chance():
        raise BadRequest("no player is to move here (the game is over, or chance moves)", 409)

    def done(found):
        if play:
            session.play(index=found["index"], by="agent", search=found, expect_ply=ply)
        return found
    job = jobs.forked("agent", lambda: sessions.agent_move(game, state, agent, seconds, nodes), seconds, on_done=done)
    return await answer(job, data)


async def tree(request):
    session, data = session_of(request), await body(request)
    algorithm = field(data, "algo", str, "alphabeta")
    if algorithm not in ("alphabeta", "minimax"):
        raise BadRequest("algo must be alphabeta or minimax")
    depth = field(data, "depth", int)
    if depth is not None and not 0 <= depth <= 200:
        raise BadRequest("depth must be from 0 to 200 (or absent: to the end)")
    max_nodes = field(data, "max_nodes", int, TREE_NODES[0])
    if not 1 <= max_nodes <= TREE_NODES[1]:
        raise BadRequest(f"max_nodes must be from 1 to {TREE_NODES[1]:,}")
    game, state = session.game, session.state
    if game.num_players != 2 or game.chance:
        raise BadRequest(f"the search view draws minimax and alpha-beta trees of two-player games without "
                         f"chance; {game.name} has {game.num_players} player(s)" + (" and chance" if game.chance else ""))
    job = jobs.forked("tree", lambda: sessions.tree(game, state, algorithm, depth, max_nodes), TREE_SECONDS)
    return await answer(job, dict(data, wait=data.get("wait", True)))


# ------------------------------------------------------------------------------ check, test, plan
async def check(request):
    data = await body(request)
    text, fmt = spec_text(data), text_format(data)
    from framework.lsp.analysis import analyse
    result = await run_in_threadpool(analyse, "editor" + FORMATS[fmt], text)
    diagnostics = [{"line": d.line, "col": d.col, "end_col": d.end_col, "message": d.message,
                    "hint": d.hint, "severity": d.severity} for d in result.diagnostics]
    return JSONResponse({"kind": result.kind, "ok": not any(d["severity"] == "error" for d in diagnostics),
                         "diagnostics": diagnostics})


async def test(request):
    data = await body(request)
    examples = field(data, "examples", int, TEST_EXAMPLES[0])
    if not 1 <= examples <= TEST_EXAMPLES[1]:
        raise BadRequest(f"examples must be from 1 to {TEST_EXAMPLES[1]}")
    flags = ["--json", "--examples", str(examples), "--workers", "0", *_sets(data)]
    with _files_of(request, data) as (files, names, folder):
        job = jobs.command("test", ["test", *names, *flags], TEST_SECONDS, cwd=folder, on_end=files.cleanup)
    return await answer(job, data)


async def plan(request):
    data = await body(request)
    seconds = jobs.budget(data.get("time"), *PLAN_SECONDS, "time")
    flags = ["--json", "--progress", "--time", f"{seconds:g}"]
    config, algo, heuristic = (field(data, k, str) for k in ("config", "algo", "heuristic"))
    from framework.cli.plan_cmd import ALGORITHMS, CONFIGS, HEURISTICS
    for value, allowed, flag in ((config, CONFIGS, "--config"), (algo, ALGORITHMS, "--algo"),
                                 (heuristic, HEURISTICS, "--heuristic")):
        if value is not None:
            if value not in allowed:
                raise BadRequest(f"{flag[2:]} must be one of {', '.join(allowed)}")
            flags += [flag, value]
    nodes = field(data, "nodes", int)
    if nodes is not None:
        if not 1 <= nodes <= 10**9:
            raise BadRequest("nodes must be from 1 to 1,000,000,000")
        flags += ["--nodes", str(nodes)]
    flags += _sets(data)
    with _files_of(request, data) as (files, names, folder):

        def done(found):                 # replayed before the job's files are removed
            if found.get("solved") and found.get("plan"):
                from framework.studio.plans import replay
                found["replay"] = replay(files.paths, field(data, "options", dict, {}), found["plan"])
            return found
        job = jobs.command("plan", ["plan", *names, *flags], seconds, on_done=done, cwd=folder, on_end=files.cleanup)
    return await answer(job, data)


def _sets(data) -> list:
    """`--set NAME=VALUE` for each of the request's options (JSON is YAML: --set reads each
    value back as it was sent)."""
    import json
    return [x for name, value in field(data, "options", dict, {}).items()
            for x in ("--set", f"{name}={json.dumps(value)}")]


class _Files:
    """The files a test or plan names: spec files of the library, or pasted text written to a
    temporary folder that `cleanup()` removes."""

    def __init__(self, paths, folder=None):
        self.paths, self.folder = paths, folder

    def cleanup(self):
        if self.folder is not None:
            self.folder.cleanup()


@contextmanager
def _files_of(request, data):
    """(files, names for the command line, its folder or None) of a test or plan request:
    `problem` (a spec name), or `domain` and `task` (two names), or pasted text (`text`, or
    `domain_text` and `task_text`) written to a fresh temporary folder, named relative to it
    (so messages say `task.pddl:3:5`), and removed if the job does not start."""
    library = request.app.state.library
    if "problem" in data:
        paths = [library.path_of(field(data, "problem", str, required=True))]
    elif "domain" in data or "task" in data:
        paths = [library.path_of(field(data, "domain", str, required=True)),
                 library.path_of(field(data, "task", str, required=True))]
    else:
        paths = None
    if paths is not None:
        yield _Files(paths), [str(p) for p in paths], None
        return
    if "domain_text" in data or "task_text" in data:
        texts = [("domain.pddl", spec_text(data, "domain_text")), ("task.pddl", spec_text(data, "task_text"))]
    elif "text" in data:
        texts = [("spec" + FORMATS[text_format(data)], spec_text(data))]
    else:
        raise BadRequest('name a "problem" (or "domain" and "task"), or send "text" (or "domain_text" and "task_text")')
    folder = tempfile.TemporaryDirectory(prefix="plyspec-studio-")
    files = _Files([Path(folder.name) / name for name, _ in texts], folder)
    try:
        for path, (_, text) in zip(files.paths, texts):
            path.write_text(text, encoding="utf-8")
        yield files, [name for name, _ in texts], folder.name
    except BaseException:
        files.cleanup()
        raise


# ------------------------------------------------------------------------------ jobs
async def answer(job, data: dict):
    """The job as JSON, once it has finished or after "wait" seconds (true: WAIT_SECONDS),
    whichever comes first; the server serves other requests meanwhile."""
    wait = data.get("wait")
    if wait is True:
        wait = WAIT_SECONDS
    if wait is not None and wait is not False and (not isinstance(wait, (int, float)) or not 0 <= wait):
        raise BadRequest("wait must be true, false or a number of seconds")
    deadline = time.monotonic() + min(wait or 0, WAIT_SECONDS)
    while not job.finished and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    return JSONResponse(job.to_json(), status_code=200 if job.finished else 202)


async def get_job(request):
    job = jobs.get(request.path_params["jid"])
    if job is None:
        raise BadRequest(f"no job {request.path_params['jid']!r}", 404)
    text = request.query_params.get("wait", "0")
    try:
        wait = float(text)
    except ValueError:
        raise BadRequest(f"wait must be a number of seconds, not {text!r}") from None
    return await answer(job, {"wait": wait if wait == wait else 0})


async def cancel_job(request):
    job = jobs.get(request.path_params["jid"])
    if job is None:
        raise BadRequest(f"no job {request.path_params['jid']!r}", 404)
    job.cancel()
    return JSONResponse(job.to_json())


# ------------------------------------------------------------------------------ errors
def _error(message: str, status: int, hint=None, **more):
    return JSONResponse({"error": message, "hint": hint, **more}, status_code=status)


async def on_bad_request(request, err: BadRequest):
    return _error(err.message, err.status, err.hint)


async def on_spec_error(request, err: SpecError):
    status = 409 if isinstance(err, sessions.Conflict) else 400
    return _error(err.message, status, err.hint, line=err.line, col=err.col, text=str(err))


async def on_value_error(request, err):
    status = {sessions.Conflict: 409, NotFound: 404, jobs.Busy: 429}.get(type(err), 400)
    return _error(str(err.args[0]) if err.args else type(err).__name__, status)


async def on_http(request, err: HTTPException):
    return _error(err.detail, err.status_code)


async def on_other(request, err: Exception):
    if isinstance(err, RecursionError):
        return _error("the input is nested too deeply", 400)
    return _error(f"plyspec failed ({type(err).__name__}: {err}); please report it", 500)


async def index(request):
    return FileResponse(STATIC / "index.html")


def create_app(folder=None, warm: bool = True, host: str = "127.0.0.1", port: int = 8765) -> Starlette:
    """The application, answering only requests for `host` (or a loopback name) and `port`
    (framework.studio.guard); `warm` starts reading the library at once (in a thread)."""
    api = [
        Route("/api/specs", list_specs), Route("/api/spec", get_spec),
        Route("/api/sessions", new_session, methods=["POST"]),
        Route("/api/sessions/{sid}", get_session),
        Route("/api/sessions/{sid}/move", move, methods=["POST"]),
        Route("/api/sessions/{sid}/undo", undo, methods=["POST"]),
        Route("/api/sessions/{sid}/agent", agent, methods=["POST"]),
        Route("/api/sessions/{sid}/tree", tree, methods=["POST"]),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/test", test, methods=["POST"]),
        Route("/api/plan", plan, methods=["POST"]),
        Route("/api/jobs/{jid}", get_job), Route("/api/jobs/{jid}", cancel_job, methods=["DELETE"]),
    ]
    app = Starlette(routes=[Route("/", index), *api, Mount("/static", StaticFiles(directory=STATIC), name="static")],
                    exception_handlers={BadRequest: on_bad_request, SpecError: on_spec_error,
                                        sessions.Conflict: on_value_error, NotFound: on_value_error,
                                        jobs.Busy: on_value_error, ValueError: on_value_error,
                                        HTTPException: on_http, Exception: on_other},
                    middleware=[Middleware(Guard, hosts=server_hosts(host, port))])
    app.state.library = Library(folder)
    jobs.preload()
    if warm:
        import threading
        threading.Thread(target=app.state.library.shipped, daemon=True).start()
    return app
