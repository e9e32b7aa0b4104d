"""Latency of `plyspec studio` as a person sees it, in headless Chromium (Playwright, Debian's
chromium): the library page's load, a move's round trip (click -> the board and move list
redrawn), and an AI move (alpha-beta at depth 4 on Connect Four, from the page and from the
API).  Starts its own studio on a free port; prints medians of --runs runs.

    python benchmarks/bench_studio.py [--runs 7] [--chromium /usr/bin/chromium]
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def post(base, path, body):
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


# Clicks `selector` inside the page and resolves when `until` matches `count` elements: the
# time the person waits, without the test driver's own round trips
TIMED_CLICK = """([selector, until, count]) => new Promise(resolve => {
  const start = performance.now();
  const done = () => document.querySelectorAll(until).length >= count;
  const watch = new MutationObserver(() => { if (done()) { watch.disconnect(); resolve(performance.now() - start); } });
  watch.observe(document.body, { childList: true, subtree: true });
  document.querySelector(selector).dispatchEvent(new MouseEvent("click", { bubbles: true }));
})"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--chromium", default=shutil.which("chromium"))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    started = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "framework", "studio", "--port", "0"], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = re.search(r"(http://\S+/)", server.stdout.readline()).group(1)
    ms = lambda t: f"{1000 * t:.0f} ms"                       # noqa: E731
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            page = browser.new_page()
            page.set_default_timeout(120_000)
            page.goto(base + "#library")
            page.wait_for_selector('tr[data-spec="tictactoe"]')
            print(f"first page load (server just started, library compiled): {ms(time.perf_counter() - started)}")
            loads = []
            for _ in range(args.runs):
                t = time.perf_counter()
                page.goto(base + "#library")
                page.wait_for_selector('tr[data-spec="tictactoe"]')
                loads.append(time.perf_counter() - t)
            print(f"page load (library shown):              median {ms(statistics.median(loads))} of {args.runs}")
            trips = []
            for _ in range(args.runs):
                page.close()
                page = browser.new_page()                 # a fresh page: a new game
                page.goto(base + "#play/tictactoe")
                page.wait_for_selector("svg.board")
                field = page.locator('input[data-seat="1"]')
                field.fill("human")
                field.dispatch_event("change")
                for n in range(1, 5):
                    page.wait_for_selector("g.cell.legal")
                    trips.append(page.evaluate(TIMED_CLICK, ["g.cell.legal", "#moves li", n]) / 1000)
            print(f"move round trip (click -> redrawn, in the page): median {ms(statistics.median(trips))} of {len(trips)}")
            ai = []
            for _ in range(args.runs):
                page.close()
                page = browser.new_page()
                page.goto(base + "#play/connect_four")
                page.wait_for_selector("svg.board")
                ai.append(page.evaluate(TIMED_CLICK, ["#ai-move", "#moves li.agent", 1]) / 1000)
            print(f"AI move, Connect Four alphabeta:depth=4 (page): median {ms(statistics.median(ai))} of {args.runs}")
            browser.close()
        sid = post(base, "api/sessions", {"spec": "connect_four"})["id"]
        api, search = [], []
        for _ in range(args.runs):
            t = time.perf_counter()
            job = post(base, f"api/sessions/{sid}/agent", {"agent": "alphabeta:depth=4", "play": False, "wait": True})
            api.append(time.perf_counter() - t)
            search.append(job["result"]["time_s"])
        print(f"AI move, Connect Four alphabeta:depth=4 (API): median {ms(statistics.median(api))} "
              f"(the search itself {ms(statistics.median(search))}, {job['result']['nodes']:,} nodes)")
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
