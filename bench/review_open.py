"""How fast a long Dots game's review opens and steps in a real browser, and how many
bytes its analysis polls cost, with the client of a baseline revision measured in the
same run.

Run by hand (after ``make client``)::

    .venv/bin/python bench/review_open.py [--baseline d7781b0] [--steps 50] [--big]

A fighting Dots game is played by a fixed-seed policy (marks near the last ones, taking
what it can take): 39×32 with 500 moves, and with ``--big`` also 60×60 with 3,320 moves.
Each client (this checkout's ``client/dist``, and the baseline revision's client built
into a temporary directory with this checkout's ``node_modules``) is served by a real
uvicorn server; headless Chromium imports the game's record as a person would (the record
kept in the browser, ``/review``) and the bench prints:

* open: milliseconds from the navigation's start until the review shows the board and
  the move list (``performance.now()`` in the page);
* step: milliseconds from a step (the → and ← keys, a click in the move list) until the
  page shows the new move and its layout is done, median and 95th percentile;
* poll: the bytes a client reads per poll (every 0.7 s, from half way through the
  analysis of the 39×32 game): asking for the whole analysis, asking only for what
  changed since its last reply (``?since=``), and the whole one gzipped.

The first page each server shows is a short game's, not measured (the server starts up).
Times depend on the machine and its load; compare the two clients of one run.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core import dots

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
BROWSER_FLAGS = "--no-sandbox --disable-gpu --disable-background-networking"
BROWSER_FLAGS += " --disable-component-update --disable-sync --no-first-run"
REVIEW_KEY = "tetrad:v1:review-record"
"""Where the client keeps the record imported for review (client/src/storage)."""


def fighting_game(width: int, height: int, moves: int, tries: int, seed: int = 1) -> dots.DotsState:
    """A game whose marks crowd round the last ones and take what they can: up to ``tries``
    nearby points are tried for a capture before one is played."""
    rng = random.Random(seed)
    state = dots.new_game(width=width, height=height)
    recent: list[dots.Point] = []
    while len(recent) < moves and not state.is_over:
        near = [
            dots.Point(p.x + dx, p.y + dy)
            for p in recent[-8:]
            for dx in range(-2, 3)
            for dy in range(-2, 3)
            if 0 <= p.x + dx < width and 0 <= p.y + dy < height
        ]
        rng.shuffle(near)
        near = [p for p in dict.fromkeys(near) if state.is_legal(p)][:tries]
        me = state.to_move
        pick = next((p for p in near if state.play(p).scores[me] > state.scores[me]), None)
        if pick is None and near and rng.random() < 0.9:
            pick = near[0]
        if pick is None:
            pick = rng.choice(list(state.legal_moves()))
        state = state.play(pick)
        recent.append(pick)
    return state


@contextlib.contextmanager
def server(dist: Path, data: Path) -> Iterator[str]:
    """A real uvicorn (embedded store, SQLite in ``data``) serving the client in ``dist``."""
    with socket.socket() as sock:  # a free port
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    env = {
        **os.environ,
        "TETRAD_DATA_DIR": str(data),
        "TETRAD_CLIENT_DIST": str(dist),
        "TETRAD_LOG_JSON": "false",
        "TETRAD_LOG_LEVEL": "WARNING",
        "TETRAD_EMBEDDED_FSYNC": "no",
    }
    for name in ("TETRAD_REDIS_URL", "TETRAD_DATABASE_URL", "TETRAD_PUBLIC_URL"):
        env.pop(name, None)
    command = [sys.executable, "-m", "uvicorn", "--factory", "server.app:app_from_env"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    log = data / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError(f"the server did not come up: {log}") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def build_baseline(revision: str, into: Path) -> Path:
    """The client of ``revision`` built into ``into`` (with this checkout's node_modules)."""
    archive = subprocess.run(
        ["git", "archive", revision, "client"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    client = into / "client"
    (client / "node_modules").symlink_to(ROOT / "client" / "node_modules")
    # the API types are generated from the server; the baseline's own copy is in the archive
    subprocess.run(["npx", "vite", "build"], cwd=client, check=True, capture_output=True)
    return client / "dist"


OPENED = """(() => {
  // the moment the review first shows the board's marks and the current move in the list
  const opened = () => document.querySelector(".dots-board [data-mark]")
    && document.querySelector(".move-list [aria-current='step']");
  const watch = new MutationObserver(() => {
    if (window.__reviewOpened || !opened()) return;
    document.body.getBoundingClientRect();
    window.__reviewOpened = performance.now();
    watch.disconnect();
  });
  watch.observe(document, { childList: true, subtree: true });
})();"""

STEP = """async ([how, target]) => {
  const review = document.querySelector("[data-testid='review']");
  const want = String(target);
  const current = () => document.querySelector(".move-list [aria-current='step']");
  const shown = () => review.getAttribute("data-ply") === want
    && current()?.getAttribute("data-move") === want;
  const done = new Promise((resolve) => {
    const check = () => {
      if (!shown()) return false;
      document.body.getBoundingClientRect();  // the new move laid out, not only in the DOM
      resolve(performance.now());
      return true;
    };
    const watch = new MutationObserver(() => check() && watch.disconnect());
    watch.observe(review, { attributes: true, subtree: true, childList: true });
  });
  const started = performance.now();
  if (how === "click") document.querySelector(`.move-list [data-move='${want}']`).click();
  else document.body.dispatchEvent(new KeyboardEvent("keydown", { key: how, bubbles: true }));
  return (await done) - started;
}"""


IN_SIGHT = """() => {
  const list = document.querySelector(".move-list").getBoundingClientRect();
  return [...document.querySelectorAll(".move-list [data-move]:not([aria-current])")]
    .filter((b) => {
      const r = b.getBoundingClientRect();
      return r.top >= list.top && r.bottom <= list.bottom;
    })
    .map((b) => Number(b.dataset.move));
}"""


def measure_client(browser: Any, url: str, record: str, steps: int) -> dict[str, Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=url)
    ctx.set_default_timeout(600_000)
    kept = f"localStorage.setItem({json.dumps(REVIEW_KEY)}, {json.dumps(json.dumps(record))})"
    ctx.add_init_script(kept)
    ctx.add_init_script(OPENED)
    page = ctx.new_page()
    page.goto("/review", wait_until="commit")
    opened = page.wait_for_function("() => window.__reviewOpened", polling=100).json_value()
    total = int(page.locator("[data-testid='review']").get_attribute("data-total"))
    # from the middle of the game: forward, back, and jumps to moves a few rows away
    start = total // 2
    page.evaluate(f"() => {{ location.hash = '#{start}' }}")
    review = "document.querySelector(\"[data-testid='review']\")"
    page.wait_for_function(f"() => {review}.dataset.ply === '{start}'")
    rng = random.Random(7)
    times = []
    ply = start
    for i in range(steps):
        kind = i % 5
        if kind in (0, 1, 2):
            how, target = "ArrowRight", ply + 1
        elif kind == 3:
            how, target = "ArrowLeft", ply - 1
        else:
            # a move in sight in the list, other than the current one
            how, target = "click", rng.choice(page.evaluate(IN_SIGHT))
        times.append(page.evaluate(STEP, [how, target]))
        ply = target
    ctx.close()
    times.sort()
    return {
        "open": opened,
        "median": statistics.median(times),
        "p95": times[min(len(times) - 1, round(0.95 * (len(times) - 1)))],
    }


def warm(browser: Any, url: str) -> None:
    """Open a short review once, so that the measured ones find the server started."""
    ctx = browser.new_context(base_url=url)
    record = dots.format_record(fighting_game(10, 10, 20, 3))
    ctx.add_init_script(
        f"localStorage.setItem({json.dumps(REVIEW_KEY)}, {json.dumps(json.dumps(record))})"
    )
    page = ctx.new_page()
    page.goto("/review")
    page.locator("[data-testid='review']").wait_for(timeout=120_000)
    ctx.close()


def poll_bytes(url: str, record: str, polls: int = 10) -> dict[str, float]:
    """Bytes a client reads polling a running analysis every 0.7 s: asking for the whole
    analysis each time, or only for what changed since its last reply (``?since=``);
    both read one after the other at each poll, and the whole one gzipped too."""

    def call(method: str, path: str, body: dict[str, Any] | None = None) -> bytes:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"{url}{path}", data=data, method=method)
        req.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(req, timeout=120) as res:
            return bytes(res.read())

    started = json.loads(call("POST", "/api/analysis", {"record": record}))
    key = started["id"]
    # polls matter once the analysis holds many positions: from half way through
    deadline = time.monotonic() + 600
    while True:
        got = json.loads(call("GET", f"/api/analysis/{key}"))
        if got["done"] >= got["total"] // 2 or got["status"] != "running":
            break
        if time.monotonic() > deadline:
            break
        time.sleep(1)
    done = got["done"]
    whole = since = zipped = 0
    for _ in range(polls):
        time.sleep(0.7)
        delta = call("GET", f"/api/analysis/{key}?since={done}")
        full = call("GET", f"/api/analysis/{key}")
        done = json.loads(delta)["done"]
        since += len(delta)
        whole += len(full)
        zipped += len(gzip.compress(full))
    return {"whole": whole / polls, "since": since / polls, "gzip": zipped / polls, "done": done}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--baseline", default="d7781b0", help="revision whose client is the baseline"
    )
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--big", action="store_true", help="also 60×60 with 3,320 moves")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    games = [(39, 32, 500, 10)] + ([(60, 60, 3320, 3)] if args.big else [])
    records = []
    for width, height, moves, tries in games:
        state = fighting_game(width, height, moves, tries)
        records.append((f"{width}×{height}, {len(state.moves)} moves", dots.format_record(state)))
        areas, houses = len(state.areas()), len(state.houses())
        print(f"{records[-1][0]}: {areas} areas, {houses} houses, score {state.scores}")

    with tempfile.TemporaryDirectory() as tmp:
        clients = [(f"baseline {args.baseline}", build_baseline(args.baseline, Path(tmp)))]
        # a copy: a build of the checkout meanwhile does not change what is measured
        checkout = shutil.copytree(ROOT / "client" / "dist", Path(tmp) / "dist")
        clients.append(("this checkout", checkout))
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=CHROMIUM, args=BROWSER_FLAGS.split(), headless=True
            )
            for label, dist in clients:
                data = Path(tmp) / f"data-{len(label)}"
                data.mkdir()
                with server(dist, data) as url:
                    # the first page of a server pays for starting up: not measured
                    warm(browser, url)
                    for name, record in records:
                        got = measure_client(browser, url, record, args.steps)
                        print(
                            f"{label:>24} | {name:>22} | open {got['open']:8.0f} ms"
                            f" | step median {got['median']:7.1f} ms, p95 {got['p95']:7.1f} ms"
                        )
                    if dist == clients[-1][1]:
                        polled = poll_bytes(url, records[0][1])
                        print(
                            f"analysis polls of {records[0][0]}, every 0.7 s up to"
                            f" {polled['done']} positions (from half way), bytes a poll: whole"
                            f" {polled['whole']:.0f}, since the last {polled['since']:.0f},"
                            f" whole gzipped {polled['gzip']:.0f}"
                        )
            browser.close()
        shutil.rmtree(Path(tmp) / "client", ignore_errors=True)


if __name__ == "__main__":
    main()
