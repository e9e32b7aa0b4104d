"""Benchmark of the language server's latency (not a test; prints a table): the time from
a `didChange` to the diagnostics it publishes, for every shipped spec and planning file,
measured as an editor sees it (a real `plyspec lsp` process over stdio, pygls' client).
The debounce counts: it is part of what the user waits for.

Each file is opened, then changed `--changes` times (a new comment line each time, so
that nothing is cached on the text) with a pause between changes longer than the
debounce; the table gives the median and the worst latency, and the analysis alone
(`framework.lsp.analysis.analyse` in this process, best of the same number of runs).
A generated gripper task of `--pddl-lines` lines (`gripper_task`) is measured with them.

It also measures the start-up (launch to the `initialize` answer, `--starts` times) and
the hover latency in tictactoe.game while a gripper task of `--big-bytes` bytes is being
analysed (the hovers sent one after another as long as the large file's diagnostics are
not published).

    python benchmarks/bench_lsp.py [--changes 5] [--only draughts] [--pddl-lines 2000]
"""
from __future__ import annotations

import argparse
import asyncio
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def gripper_task(balls: int) -> str:
    """A gripper task (IPC 1998's domain) with `balls` balls: about 2 * balls + 8 lines."""
    names = " ".join(f"ball{i}" for i in range(balls))
    init = "\n".join(f"    (ball ball{i}) (at ball{i} rooma)" for i in range(balls))
    goal = "\n".join(f"    (at ball{i} roomb)" for i in range(balls))
    return (f"(define (problem big) (:domain gripper-strips)\n (:objects rooma roomb left right {names})\n"
            f" (:init (room rooma) (room roomb) (gripper left) (gripper right) (at-robby rooma)\n"
            f"    (free left) (free right)\n{init})\n (:goal (and\n{goal})))\n")


def gripper_folder(folder: pathlib.Path, text: str, name: str = "task01.pddl") -> pathlib.Path:
    """`text` saved as a task beside a copy of gripper's domain in `folder`."""
    import shutil
    shutil.copy(ROOT / "planners/data/pddl/gripper/domain.pddl", folder / "domain.pddl")
    (folder / name).write_text(text)
    return folder / name


def files(only: str | None) -> list:
    found = [*sorted((ROOT / "game_specs").glob("*.yaml")), *sorted((ROOT / "game_specs").glob("*.game")),
             *sorted((ROOT / "planners/data/problems").glob("*.yaml")), *sorted((ROOT / "planners/data/problems").glob("*.plan")),
             *sorted((ROOT / "planners/data/pddl").glob("*/domain.pddl"))]
    return [f for f in found if only is None or only in str(f)]


def comment(path: pathlib.Path, i: int) -> str:
    return f"\n; edit {i}\n" if path.suffix == ".pddl" else f"\n# edit {i}\n"


async def start(published: dict):
    """A `plyspec lsp` process with a client; (client, seconds from launch to `initialize`)."""
    from lsprotocol import types as t
    from pygls.lsp.client import LanguageClient
    client = LanguageClient("bench", "1")

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params):
        published.setdefault(params.uri, asyncio.get_running_loop().create_future())
        if not published[params.uri].done():
            published[params.uri].set_result(time.perf_counter())

    begin = time.perf_counter()
    await client.start_io(sys.executable, "-m", "framework", "lsp", cwd=str(ROOT))
    await client.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities(), root_uri=ROOT.as_uri()))
    ready = time.perf_counter() - begin
    client.initialized(t.InitializedParams())
    return client, ready


async def stop(client):
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


def open_text(client, uri: str, text: str) -> None:
    from lsprotocol import types as t
    client.text_document_did_open(t.DidOpenTextDocumentParams(
        text_document=t.TextDocumentItem(uri=uri, language_id="plyspec", version=1, text=text)))


async def measure(paths, changes: int) -> list:
    from lsprotocol import types as t
    from framework.lsp.server import DEBOUNCE_S
    published = {}

    async def wait(uri):
        published[uri] = asyncio.get_running_loop().create_future()
        return published[uri]

    client, _ = await start(published)
    rows = []
    for path in paths:
        uri, text = path.as_uri(), path.read_text()
        done = await wait(uri)
        open_text(client, uri, text)
        await asyncio.wait_for(done, 120)
        latencies = []
        for i in range(changes):
            done = await wait(uri)
            start_time = time.perf_counter()
            client.text_document_did_change(t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=i + 2),
                content_changes=[t.TextDocumentContentChangeWholeDocument(text=text + comment(path, i))]))
            latencies.append((await asyncio.wait_for(done, 120)) - start_time)
            await asyncio.sleep(DEBOUNCE_S * 2)
        rows.append((path, latencies))
    await stop(client)
    return rows


async def startup(times: int) -> list:
    """Seconds from launching `plyspec lsp` to its `initialize` answer, `times` times."""
    out = []
    for _ in range(times):
        client, ready = await start({})
        out.append(ready)
        await stop(client)
    return out


async def hovers_during(big: pathlib.Path) -> tuple:
    """(hover latencies in tictactoe.game while `big` is analysed, seconds `big` took)."""
    from lsprotocol import types as t
    published = {}
    client, _ = await start(published)
    small = (ROOT / "game_specs/tictactoe.game")
    text = small.read_text()
    row = text.split("\n").index("    then board[c] = mover")
    published[small.as_uri()] = asyncio.get_running_loop().create_future()
    open_text(client, small.as_uri(), text)
    await asyncio.wait_for(published[small.as_uri()], 120)
    done = published[big.as_uri()] = asyncio.get_running_loop().create_future()
    begin = time.perf_counter()
    open_text(client, big.as_uri(), big.read_text())
    latencies = []
    while not done.done():
        start_time = time.perf_counter()
        await client.text_document_hover_async(t.HoverParams(
            text_document=t.TextDocumentIdentifier(uri=small.as_uri()), position=t.Position(line=row, character=21)))
        latencies.append(time.perf_counter() - start_time)
        await asyncio.sleep(0.01)
    took = done.result() - begin
    await stop(client)
    return latencies, took


def analysis_alone(path: pathlib.Path, runs: int) -> float:
    from framework.lsp.analysis import analyse
    text, best = path.read_text(), float("inf")
    for i in range(runs):
        start = time.perf_counter()
        analyse(str(path), text + comment(path, i))
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    import tempfile
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=5, help="changes per file (default 5)")
    parser.add_argument("--only", help="only the files whose path contains this text")
    parser.add_argument("--pddl-lines", type=int, default=2000, help="lines of the generated gripper task (0: none)")
    parser.add_argument("--starts", type=int, default=5, help="start-ups timed (default 5)")
    parser.add_argument("--big-bytes", type=int, default=900_000,
                        help="size of the task analysed while hovering (0: skip; default 900,000)")
    args = parser.parse_args()
    from framework.lsp.server import DEBOUNCE_S
    with tempfile.TemporaryDirectory(prefix="plyspec-bench-lsp-") as folder:
        paths = files(args.only)
        if args.pddl_lines:
            paths.append(gripper_folder(pathlib.Path(folder), gripper_task((args.pddl_lines - 8) // 2)))
        starts = asyncio.run(startup(args.starts))
        print(f"launch -> initialize answered: median {statistics.median(starts) * 1000:.0f} ms, "
              f"worst {max(starts) * 1000:.0f} ms ({args.starts} starts)")
        rows = asyncio.run(measure(paths, args.changes))
        print(f"didChange -> publishDiagnostics, debounce {DEBOUNCE_S * 1000:.0f} ms included "
              f"({args.changes} changes per file)")
        print(f"{'file':34} {'lines':>6} {'median ms':>9} {'worst ms':>9} {'analysis ms':>11}")
        worst_all = []
        for path, latencies in rows:
            worst_all.append(max(latencies))
            shown = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else f"(generated) {path.name}"
            print(f"{shown:34} {len(path.read_text().splitlines()):6} {statistics.median(latencies) * 1000:9.0f} "
                  f"{max(latencies) * 1000:9.0f} {analysis_alone(path, args.changes) * 1000:11.1f}")
        print(f"worst over all files: {max(worst_all) * 1000:.0f} ms; files over 200 ms: "
              f"{sum(w > 0.2 for w in worst_all)} of {len(worst_all)}")
        if args.big_bytes:
            balls = args.big_bytes // 70
            big = gripper_folder(pathlib.Path(folder), gripper_task(balls), "task02.pddl")
            latencies, took = asyncio.run(hovers_during(big))
            print(f"hover in tictactoe.game while a {big.stat().st_size:,}-byte task is analysed ({took:.1f} s): "
                  f"{len(latencies)} hovers, median {statistics.median(latencies) * 1000:.0f} ms, "
                  f"worst {max(latencies) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
