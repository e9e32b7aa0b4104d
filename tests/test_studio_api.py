"""The studio's JSON API (framework.studio) through Starlette's test client: every endpoint,
the answers checked against what the command line and the library compute on their own,
bad input answered 4xx with a message, and the budgets (defaults, caps, time-outs, cancel)."""
from __future__ import annotations

import io
import os
import time
from contextlib import redirect_stdout

import pytest

pytest.importorskip("starlette", reason="the studio needs starlette (pip install \".[studio]\")")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx")

import warnings  # noqa: E402
with warnings.catch_warnings():
    warnings.simplefilter("ignore")          # Starlette's note on httpx versions
    from starlette.testclient import TestClient  # noqa: E402

import framework  # noqa: E402
from framework.studio import jobs  # noqa: E402
from framework.studio.app import create_app  # noqa: E402

HOME = "http://127.0.0.1:8765"        # what create_app answers by default (framework.studio.guard)
JSON = {"content-type": "application/json"}
NIM_SMALL = "game: Tiny nim\nplayers: [A, B]\nstate:\n  n: {type: 0..3, initial: 3}\nactions:\n  take(k in 1..2):\n    if: k <= n\n    then: n -= k\nterminal: n == 0\nwinner: next(mover)\n"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("specs")
    (folder / "mine.yaml").write_text(NIM_SMALL)
    (folder / "sub").mkdir()
    (folder / "sub" / "ttt.yaml").write_text(open(_shipped("tictactoe.yaml")).read())
    outside = tmp_path_factory.mktemp("outside") / "secret.yaml"
    outside.write_text(NIM_SMALL)
    os.symlink(outside, folder / "link.yaml")
    with TestClient(create_app(folder, warm=False), base_url=HOME) as c:
        yield c


def _shipped(name):
    from framework.conformance.discover import resolve
    return resolve(name)


def _new(client, **body):
    r = client.post("/api/sessions", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def _error(r, status):
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"] and "Traceback" not in r.text
    return body


# -- library -------------------------------------------------------------------------------
def test_the_library_lists_what_plyspec_list_lists_and_the_folder(client):
    from framework.cli.list_cmd import spec_rows
    names = [r["name"] for r in client.get("/api/specs").json()["specs"]]
    assert [r["name"] for r in spec_rows()] == names[:len(spec_rows())]
    assert {"folder:mine.yaml", "folder:sub/ttt.yaml"} <= set(names)
    assert "folder:link.yaml" not in names                  # a link out of the folder is not listed


def test_spec_text_is_served_from_shipped_specs_and_the_folder_only(client):
    r = client.get("/api/spec", params={"name": "tictactoe"})
    assert r.json()["text"] == open(_shipped("tictactoe.game")).read() and r.json()["format"] == "game"
    assert client.get("/api/spec", params={"name": "folder:mine.yaml"}).json()["text"] == NIM_SMALL
    for bad in ("folder:../outside/secret.yaml", "folder:/etc/passwd", "folder:link.yaml", "/etc/passwd",
                "../../etc/passwd", "folder:sub/../../x.yaml", ""):
        _error(client.get("/api/spec", params={"name": bad}), 404)
    assert "tictactoe" in _error(client.get("/api/spec", params={"name": "tictactoo"}), 404)["error"]


def test_the_page_and_its_files_are_served_and_nothing_else(client):
    assert "plyspec studio" in client.get("/").text
    assert client.get("/static/play.js").status_code == 200
    assert client.get("/static/..%2fapp.py").status_code == 404
    _error(client.get("/api/nothing"), 404)


# -- playing -------------------------------------------------------------------------------
def test_a_game_of_tictactoe_moves_by_index_and_text_and_ends_with_the_returns(client):
    v = _new(client, spec="tictactoe")
    assert v["board"]["width"] == 3 and v["to_move"] == "X" and len(v["actions"]) == 9
    assert v["actions"][4] == {"index": 4, "text": "place(1,1)", "cells": [[1, 1]], "column": None}
    sid = v["id"]
    for text in ("place(0,0)", "place(0,1)", "place(1,0)", "place(1,1)"):
        v = client.post(f"/api/sessions/{sid}/move", json={"action": text}).json()
    v = client.post(f"/api/sessions/{sid}/move", json={"index": [a["text"] for a in v["actions"]].index("place(2,0)")}).json()
    assert v["terminal"] and v["result"] == "X wins" and v["returns"] == [1, -1]
    assert v["board"]["cells"][0] == ["X", "X", "X"] and v["board"]["symbols"]["X"] == "X"
    assert [m["text"] for m in v["moves"]] == ["place(0,0)", "place(0,1)", "place(1,0)", "place(1,1)", "place(2,0)"]
    _error(client.post(f"/api/sessions/{sid}/move", json={"index": 0}), 409)
    v = client.post(f"/api/sessions/{sid}/undo", json={"plies": 2}).json()
    assert v["ply"] == 3 and v["to_move"] == "O" and not v["terminal"]
    assert client.get(f"/api/sessions/{sid}").json() == v


def test_connect_four_columns_and_gravity(client):
    v = _new(client, spec="connect_four")
    assert all(a["column"] == i and a["cells"] == [] for i, a in enumerate(v["actions"]))
    v = client.post(f"/api/sessions/{v['id']}/move", json={"index": 3}).json()
    h = v["board"]["height"]
    assert v["board"]["cells"][h - 1][3] == "R" and all(row[3] == "empty" for row in v["board"]["cells"][:h - 1])


def test_draughts_moves_name_their_cells_in_order(client):
    v = _new(client, spec="draughts")
    game = framework.load("draughts")
    state = game.initial_state()
    assert [a["cells"] for a in v["actions"]] == [[list(c) for c in game.view.action_cells(a)] for a in state.actions()]
    assert all(len(a["cells"]) == 2 for a in v["actions"])


def test_pig_shows_chance_outcomes_with_their_probabilities(client):
    v = _new(client, spec="pig", seed=3)
    v = client.post(f"/api/sessions/{v['id']}/move", json={"action": "roll"}).json()
    assert v["to_move"] == "chance" and [o["text"] for o in v["chance"]] == [f"d={d}" for d in range(1, 7)]
    assert sum(o["probability"] for o in v["chance"]) == pytest.approx(1)
    v = client.post(f"/api/sessions/{v['id']}/move", json={"index": 5}).json()
    assert v["moves"][-1] == {"ply": 2, "player": "chance", "text": "d=6", "by": "chance",
                              "search": {"probability": pytest.approx(1 / 6, abs=1e-6)}}
    assert dict(v["variables"])["total"] == "6"
    v = client.post(f"/api/sessions/{v['id']}/move", json={"action": "roll"}).json()
    v = client.post(f"/api/sessions/{v['id']}/move", json={"random": True}).json()
    assert v["moves"][-1]["by"] == "chance" and v["moves"][-1]["text"].startswith("d=")


def test_hex_is_drawn_as_a_rhombus_and_square_boards_are_not(client):
    assert _new(client, spec="hex")["board"]["shear"] == 0.5
    assert _new(client, spec="othello")["board"]["shear"] == 0


def test_games_without_a_board_get_variables_and_actions(client):
    for name in ("nim", "kalah"):
        v = _new(client, spec=name)
        assert v["board"] is None and v["variables"] and v["actions"]


def test_a_game_from_text_with_options_and_a_three_player_game(client):
    v = _new(client, text=NIM_SMALL, format="yaml")
    assert v["game"]["name"] == "Tiny nim" and [a["text"] for a in v["actions"]] == ["take(1)", "take(2)"]
    v = _new(client, spec="tictactoe", options={"m": 4, "n": 4})
    assert v["board"]["width"] == 4
    v = _new(client, spec="tictactoe3")
    assert v["game"]["players"] == ["X", "O", "Y"]
    v = _new(client, spec="folder:sub/ttt.yaml")
    assert v["source"] == {"kind": "spec", "name": "folder:sub/ttt.yaml", "options": {}}


def test_an_agent_move_reports_its_search_and_plays_it(client):
    v = _new(client, spec="tictactoe")
    sid = v["id"]
    for text in ("place(0,0)", "place(0,1)", "place(1,0)", "place(1,1)"):
        client.post(f"/api/sessions/{sid}/move", json={"action": text})
    job = client.post(f"/api/sessions/{sid}/agent", json={"agent": "alphabeta:depth=3", "wait": True}).json()
    found = job["result"]
    assert job["status"] == "done" and found["text"] == "place(2,0)" and found["value"] == 1   # the win
    assert found["depth"] >= 1 and found["nodes"] >= 1 and found["pv"][0] == "place(2,0)"
    v = client.get(f"/api/sessions/{sid}").json()
    assert v["terminal"] and v["moves"][-1]["by"] == "agent" and v["moves"][-1]["search"]["value"] == 1
    v = _new(client, spec="tictactoe")
    job = client.post(f"/api/sessions/{v['id']}/agent", json={"agent": "random", "play": False, "wait": True}).json()
    assert job["result"]["text"] in [a["text"] for a in v["actions"]]
    assert client.get(f"/api/sessions/{v['id']}").json()["ply"] == 0


def test_the_search_tree_is_the_one_plyspec_tree_prints(client):
    from framework.cli import main
    v = _new(client, spec="tictactoe")
    sid = v["id"]
    for text in ("place(0,0)", "place(1,1)"):
        client.post(f"/api/sessions/{sid}/move", json={"action": text})
    job = client.post(f"/api/sessions/{sid}/tree", json={"algo": "alphabeta", "depth": 3}).json()
    tree = job["result"]
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["tree", "tictactoe", "--moves", "place(0,0) place(1,1)", "--depth", "3"]) == 0
    lines = out.getvalue().splitlines()
    cut_lines = [line.split("pruned: ")[1] for line in lines if "✂ pruned: " in line]
    assert tree["pruned"] == sum(len(c.split(", ")) for c in cut_lines) > 0
    assert tree["cutoffs"] == len(cut_lines)
    assert tree["nodes"] == len(lines) - len(cut_lines)
    assert tree["steps"] == 2 * tree["nodes"] and tree["root"]["enter"] == 0 and tree["root"]["exit"] == tree["steps"] - 1
    assert tree["root"]["alpha"] == "-inf" and tree["root"]["beta"] == "inf"
    minimax = client.post(f"/api/sessions/{sid}/tree", json={"algo": "minimax", "depth": 3}).json()["result"]
    assert minimax["pruned"] == 0 and minimax["root"]["value"] == tree["root"]["value"] and minimax["nodes"] > tree["nodes"]


# -- editor: check and test ---------------------------------------------------------------
def test_check_gives_the_positions_plyspec_check_gives(client):
    bad = NIM_SMALL.replace("if: k <= n", "if: k <= nn")
    body = client.post("/api/check", json={"text": bad, "format": "yaml"}).json()
    with pytest.raises(framework.SpecError) as err:
        framework.loader.load_text(bad, "yaml", "x.yaml")
    d = body["diagnostics"][0]
    assert not body["ok"] and (d["line"], d["col"], d["message"]) == (err.value.line, err.value.col, err.value.message)
    assert d["hint"] and "n" in d["hint"]
    assert client.post("/api/check", json={"text": NIM_SMALL}).json() == {"kind": "game", "ok": True, "diagnostics": []}
    game_text = open(_shipped("tictactoe.game")).read()
    assert client.post("/api/check", json={"text": game_text, "format": "game"}).json()["ok"]
    planning = open(_shipped("monkey_bananas.yaml")).read()
    assert client.post("/api/check", json={"text": planning}).json()["kind"] == "planning"


def test_plyspec_test_on_editor_text_gives_the_property_table(client):
    job = client.post("/api/test", json={"text": NIM_SMALL, "examples": 5, "wait": True}).json()
    assert job["status"] == "done", job
    spec = job["result"]["specs"][0]
    statuses = {p["property"]: p["status"] for p in spec["properties"]}
    assert job["result"]["ok"] and statuses["loads"] == "passed" and statuses["playouts_terminate"] == "passed"


# -- planning ------------------------------------------------------------------------------
def test_a_plan_is_the_one_plyspec_plan_finds_replayed_step_by_step(client):
    job = client.post("/api/plan", json={"problem": "monkey_bananas", "config": "optimal", "wait": True}).json()
    found = job["result"]
    assert job["status"] == "done" and found["valid"] and found["length"] == 4
    steps = found["replay"]["steps"]
    assert [s["action"] for s in steps[1:]] == found["plan"]
    assert set(steps[-1]["goal_met"]) == set(found["replay"]["goal"]) and not steps[0]["goal_met"]
    for before, after in zip(steps, steps[1:]):
        assert set(after["state"]) == (set(before["state"]) - set(after["delete"])) | set(after["add"])


def test_pasted_pddl_plans(client):
    domain = "(define (domain d) (:predicates (a) (b)) (:action go :precondition (a) :effect (and (b) (not (a)))))"
    task = "(define (problem p) (:domain d) (:init (a)) (:goal (b)))"
    job = client.post("/api/plan", json={"domain_text": domain, "task_text": task, "config": "lama-first",
                                         "wait": True}).json()
    assert job["status"] == "done" and job["result"]["plan"] == ["(go)"]
    assert job["result"]["replay"]["steps"][1] == {"action": "(go)", "cost": 1, "add": ["(b)"], "delete": ["(a)"],
                                                   "state": ["(b)"], "goal_met": ["(b)"]}
    job = client.post("/api/plan", json={"domain_text": domain, "task_text": task.replace("(b)))", "(c)))"),
                                         "wait": True}).json()
    assert job["status"] == "failed" and job["error"].startswith("task.pddl:1:") and "tmp" not in job["error"]


# -- bad requests --------------------------------------------------------------------------
def test_bad_requests_get_4xx_with_a_message(client):
    sid = _new(client, spec="tictactoe")["id"]
    _error(client.post("/api/sessions", content=b"{not json", headers=JSON), 400)
    _error(client.post("/api/sessions", json=[1, 2]), 400)
    _error(client.post("/api/sessions", json={"spec": 5}), 400)
    _error(client.post("/api/sessions", json={"spec": "gripper"}), 400)          # a planning problem
    _error(client.post("/api/sessions", json={"spec": "tictactoe", "options": {"k": "x"}}), 400)
    body = _error(client.post("/api/sessions", json={"text": "game: x\nplayers: [A\n"}), 400)
    assert body["line"] and "^" in body["text"]
    _error(client.post("/api/sessions", json={"text": "x", "format": "docx"}), 400)
    _error(client.post("/api/sessions", json={"text": "x" * 1_000_001}), 413)
    assert "surrogate" in _error(client.post("/api/check", content=b'{"text": "game: \\udc80"}', headers=JSON), 400)["error"]
    _error(client.post("/api/check", content=b"x" * 3_000_001), 413)
    _error(client.get("/api/sessions/nope"), 404)
    _error(client.post(f"/api/sessions/{sid}/move", json={"action": "place(9,9)"}), 400)
    _error(client.post(f"/api/sessions/{sid}/move", json={"index": 99}), 400)
    _error(client.post(f"/api/sessions/{sid}/move", json={"index": True}), 400)
    _error(client.post(f"/api/sessions/{sid}/move", json={}), 400)
    _error(client.post(f"/api/sessions/{sid}/undo", json={"plies": 1}), 409)
    _error(client.post(f"/api/sessions/{sid}/undo", json={"plies": 0}), 400)
    assert "alphabeta" in _error(client.post(f"/api/sessions/{sid}/agent", json={"agent": "alphabta"}), 400)["hint"]
    _error(client.post(f"/api/sessions/{sid}/agent", json={"agent": "alphabeta:depth=x"}), 400)
    _error(client.post(f"/api/sessions/{sid}/agent", json={"agent": "human"}), 400)
    _error(client.post(f"/api/sessions/{sid}/tree", json={"algo": "mcts"}), 400)
    pig = _new(client, spec="pig")["id"]
    _error(client.post(f"/api/sessions/{pig}/tree", json={}), 400)
    _error(client.post("/api/plan", json={}), 400)
    _error(client.post("/api/plan", json={"problem": "monkey_bananas", "config": "fastest"}), 400)
    _error(client.post("/api/plan", json={"problem": "../etc/passwd"}), 404)
    _error(client.get("/api/jobs/nope"), 404)
    _error(client.delete("/api/jobs/nope"), 404)


def test_budgets_have_caps(client):
    sid = _new(client, spec="connect_four")["id"]
    for body in ({"agent": "alphabeta", "time": 31}, {"agent": "alphabeta", "time": 0},
                 {"agent": "alphabeta", "time": "1"}, {"agent": "alphabeta", "nodes": 10**9}):
        _error(client.post(f"/api/sessions/{sid}/agent", json=body), 400)
    _error(client.post(f"/api/sessions/{sid}/tree", json={"max_nodes": 20_001}), 400)
    _error(client.post(f"/api/sessions/{sid}/tree", json={"depth": 201}), 400)
    _error(client.post("/api/plan", json={"problem": "gripper", "time": 121}), 400)
    _error(client.post("/api/test", json={"text": NIM_SMALL, "examples": 501}), 400)
    job = client.post(f"/api/sessions/{sid}/tree", json={"depth": 6, "max_nodes": 50}).json()
    assert job["status"] == "failed" and "more than 50 nodes" in job["error"]
    # a searcher given no budget searches for the default time at most, and says it stopped
    job = client.post(f"/api/sessions/{sid}/agent", json={"agent": "alphabeta", "time": 0.3, "play": False,
                                                           "wait": True}).json()
    assert job["status"] == "done" and job["result"]["complete"] is False and job["result"]["time_s"] < 120   # a hang guard, not a timing


def test_a_job_past_its_budget_is_killed_and_a_running_job_can_be_cancelled(client, monkeypatch):
    monkeypatch.setattr(jobs, "GRACE_SECONDS", 0.2)
    slow = jobs.forked("test", lambda: time.sleep(60), 0.1)
    deadline = time.monotonic() + 300
    while not slow.finished and time.monotonic() < deadline:
        time.sleep(0.05)
    assert slow.status == "timeout"
    monkeypatch.setattr(jobs, "GRACE_SECONDS", 5.0)
    sid = _new(client, spec="connect_four")["id"]
    job = client.post(f"/api/sessions/{sid}/agent", json={"agent": "alphabeta:depth=30", "time": 30}).json()
    assert job["status"] == "running"
    assert client.get(f"/api/sessions/{sid}").status_code == 200       # the server answers meanwhile
    assert client.delete(f"/api/jobs/{job['id']}").json()["status"] == "cancelled"
    assert client.get(f"/api/jobs/{job['id']}").json()["status"] == "cancelled"
    assert client.get(f"/api/sessions/{sid}").json()["ply"] == 0        # the cancelled move was not played


# -- who may call: DNS rebinding and cross-site requests ----------------------------------
def test_a_request_for_another_host_name_is_refused(client):
    """A page on evil.example whose name is rebound to 127.0.0.1 reaches the server with
    `Host: evil.example`: refused, whatever the method; the loopback names pass."""
    for host in ("evil.example", "evil.example:8765", "127.0.0.1:9999", "127.0.0.1", ""):
        body = _error(client.get("/api/spec?name=tictactoe", headers={"host": host}), 403)
        assert "host name" in body["error"] and HOME in body["hint"]
        _error(client.post("/api/check", json={"text": NIM_SMALL}, headers={"host": host}), 403)
        _error(client.get("/", headers={"host": host}), 403)
    for host in ("127.0.0.1:8765", "localhost:8765", "LOCALHOST:8765", "[::1]:8765"):
        assert client.get("/api/spec?name=tictactoe", headers={"host": host}).status_code == 200, host
    with TestClient(create_app(warm=False, host="192.0.2.7", port=80), base_url="http://192.0.2.7") as other:
        assert other.get("/").status_code == 200
        assert other.get("/", headers={"host": "192.0.2.7:80"}).status_code == 200
        _error(other.get("/", headers={"host": "127.0.0.1:8765"}), 403)


def test_a_state_change_from_another_origin_is_refused(client):
    """A cross-site form or `fetch` can POST text/plain without a preflight: refused by its
    Origin (or Referer), and a body that is not declared JSON is refused anyway."""
    cross = [{"origin": "http://evil.example"}, {"origin": "null"}, {"origin": "http://127.0.0.1:9999"},
             {"origin": "https://127.0.0.1:8765"}, {"referer": "http://evil.example/page.html"}]
    for headers in cross:
        body = _error(client.post("/api/check", content=b'{"text": "game: x"}',
                                  headers={**headers, "content-type": "text/plain"}), 403)
        assert "only the studio's own page" in body["error"], headers
        _error(client.post("/api/sessions", json={"spec": "tictactoe"}, headers=headers), 403)
        _error(client.delete("/api/jobs/nope", headers=headers), 403)
    assert client.get("/api/specs", headers=cross[0]).status_code == 200       # reading is not a change
    preflight = client.options("/api/check", headers={**cross[0], "access-control-request-method": "POST",
                                                      "access-control-request-headers": "content-type"})
    assert preflight.status_code >= 400 and not any(h.startswith("access-control-") for h in preflight.headers)
    for headers in ({"origin": HOME}, {"origin": "http://localhost:8765"}, {"referer": HOME + "/#editor"}, {}):
        assert client.post("/api/check", json={"text": NIM_SMALL}, headers=headers).status_code == 200, headers
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {"origin": HOME, **({"content-type": kind} if kind else {})}
        body = _error(client.post("/api/check", content=b'{"text": "game: x"}', headers=headers), 415)
        assert "application/json" in body["error"]
    assert client.post("/api/check", content=b'{"text": "game: x"}',
                       headers={"content-type": "application/json; charset=utf-8"}).status_code == 200


# -- the command ---------------------------------------------------------------------------
def test_studio_binds_127_0_0_1_and_warns_about_another_host(monkeypatch, capsys):
    import uvicorn
    from framework.cli import main
    seen = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: seen.append((*sockets[0].getsockname(), self)))
    assert main(["studio", "--port", "0"]) == 0
    out = capsys.readouterr()
    assert seen[-1][0] == "127.0.0.1" and out.out.startswith("plyspec studio: http://127.0.0.1:") and not out.err
    assert main(["studio", "--port", "0", "--host", "0.0.0.0", "connect_four"]) == 0
    out = capsys.readouterr()
    assert seen[-1][0] == "0.0.0.0" and "warning" in out.err and "/#play/connect_four " in out.out
    server = TestClient(seen[-1][2].config.app, base_url=f"http://0.0.0.0:{seen[-1][1]}")   # its own host
    assert server.get("/").status_code == 200 and server.get("/", headers={"host": "evil.example"}).status_code == 403
    assert main(["studio", "no_such_thing"]) == 2


def test_the_printed_address_accepts_connections_at_once():
    """`plyspec studio` listens before it prints its address: a browser opened on it at once
    waits for the page instead of being refused (the browser tests were, on a loaded machine)."""
    import re
    import socket
    import subprocess
    import sys
    from conftest import ROOT
    child = subprocess.Popen([sys.executable, "-m", "framework", "studio", "--port", "0"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", child.stdout.readline()).group(1))
        socket.create_connection(("127.0.0.1", port), timeout=60).close()    # refused if not yet listening
    finally:
        child.terminate()
        child.wait(120)
