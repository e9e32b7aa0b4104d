"""Benchmark of the language server's latency (not a test; prints a table): the time from
a `didChange` to the diagnostics it publishes, for every shipped spec and planning file,
measured as an editor sees it (a real `plyspec lsp` process over stdio, pygls' client).
The debounce counts: it is part of what the user waits for.

Each file is opened, then changed `--changes` times (a new comment line each time, so
that nothing is cached on the text) with a pause between changes longer than the
debounce; the table gives the median and the worst latency, and the analysis alone
(`framework.lsp.analysis.analyse` in this process, best of the same number of runs).

    python benchmarks/bench_lsp.py [--changes 5] [--only draughts]
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


def files(only: str | None) -> list:
    found = [*sorted((ROOT / "game_specs").glob("*.yaml")), *sorted((ROOT / "game_specs").glob("*.game")),
             *sorted((ROOT / "planners/problems").glob("*.yaml")), *sorted((ROOT / "planners/problems").glob("*.plan")),
             *sorted((ROOT / "planners/pddl").glob("*/domain.pddl"))]
    return [f for f in found if only is None or only in str(f)]


def comment(path: pathlib.Path, i: int) -> str:
    return f"\n; edit {i}\n" if path.suffix == ".pddl" else f"\n# edit {i}\n"


async def measure(paths, changes: int) -> list:
    from lsprotocol import types as t
    from pygls.lsp.client import LanguageClient
    from framework.lsp.server import DEBOUNCE_S
    client = LanguageClient("bench", "1")
    published = {}

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params):
        published.setdefault(params.uri, asyncio.get_running_loop().create_future())
        if not published[params.uri].done():
            published[params.uri].set_result(time.perf_counter())

    async def wait(uri):
        published[uri] = asyncio.get_running_loop().create_future()
        return published[uri]

    await client.start_io(sys.executable, "-m", "framework", "lsp", cwd=str(ROOT))
    await client.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities(),
                                                     root_uri=ROOT.as_uri()))
    client.initialized(t.InitializedParams())
    rows = []
    for path in paths:
        uri, text = path.as_uri(), path.read_text()
        done = await wait(uri)
        client.text_document_did_open(t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(uri=uri, language_id="plyspec", version=1, text=text)))
        await asyncio.wait_for(done, 60)
        latencies = []
        for i in range(changes):
            done = await wait(uri)
            start = time.perf_counter()
            client.text_document_did_change(t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=i + 2),
                content_changes=[t.TextDocumentContentChangeWholeDocument(text=text + comment(path, i))]))
            latencies.append((await asyncio.wait_for(done, 60)) - start)
            await asyncio.sleep(DEBOUNCE_S * 2)
        rows.append((path, latencies))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return rows


def analysis_alone(path: pathlib.Path, runs: int) -> float:
    from framework.lsp.analysis import analyse
    text, best = path.read_text(), float("inf")
    for i in range(runs):
        start = time.perf_counter()
        analyse(str(path), text + comment(path, i))
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=5, help="changes per file (default 5)")
    parser.add_argument("--only", help="only the files whose path contains this text")
    args = parser.parse_args()
    from framework.lsp.server import DEBOUNCE_S
    paths = files(args.only)
    rows = asyncio.run(measure(paths, args.changes))
    print(f"didChange -> publishDiagnostics, debounce {DEBOUNCE_S * 1000:.0f} ms included "
          f"({args.changes} changes per file)")
    print(f"{'file':34} {'median ms':>9} {'worst ms':>9} {'analysis ms':>11}")
    worst_all = []
    for path, latencies in rows:
        worst_all.append(max(latencies))
        print(f"{str(path.relative_to(ROOT)):34} {statistics.median(latencies) * 1000:9.0f} "
              f"{max(latencies) * 1000:9.0f} {analysis_alone(path, args.changes) * 1000:11.1f}")
    print(f"worst over all files: {max(worst_all) * 1000:.0f} ms; files over 200 ms: "
          f"{sum(w > 0.2 for w in worst_all)} of {len(worst_all)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
