"""The ladder left to itself: a server with matchmaking on, and the shipped engines as bot
accounts (random, greedy, and core's easy, normal and hard), each a ``tetrad-bot --listen``
process opted in to the ladder. After ``--minutes`` the ladder's table is printed (markdown),
with the computer levels' anchors among the rows.

    .venv/bin/python bench/ladder.py --minutes 30

Every game is a rated Dots and Boxes game on ``--board`` (matchmaking pairs idle bots at
random every ``--pace`` seconds, the odd one out against the computer level rated nearest
to it). Expected: random at the bottom, hard at the top, easy below normal.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOTS = {
    "Random": "random",
    "Greedy": "greedy",
    "CoreEasy": "easy",
    "CoreNormal": "normal",
    "CoreHard": "hard",
}


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get(url: str) -> object:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def wait_healthy(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("the server stopped")
        try:
            get(f"{url}/healthz")
            return
        except OSError:
            time.sleep(0.5)
    raise SystemExit("the server did not come up")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--board", default="4x4", help="Dots and Boxes ROWSxCOLS")
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between pairings")
    parser.add_argument("--think", type=float, default=0.3, help="seconds a move: core levels")
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="tetrad-ladder-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "TETRAD_LADDER_PACE_SECONDS": str(args.pace),
        "TETRAD_LADDER_BOARDS": f"boxes:{args.board}",
        "TETRAD_AI_TIME_LIMIT": str(args.think),
        "TETRAD_BOT_GAMES_AT_ONCE": "1",
        "TETRAD_LOG_LEVEL": "WARNING",
        "TETRAD_EMBEDDED_FSYNC": "no",
    }
    tetrad = [sys.executable, "-m", "server.cli"]
    log = (data / "server.log").open("wb")
    server = subprocess.Popen(
        [*tetrad, "serve", "--port", str(port), "--data-dir", str(data)],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    runners: list[subprocess.Popen[bytes]] = []
    started = time.monotonic()
    try:
        wait_healthy(url, server)
        for name, engine in BOTS.items():
            made = subprocess.run(
                [*tetrad, "bots", "add", name, "--ladder", "--data-dir", str(data)],
                cwd=ROOT, env=env, check=True, capture_output=True, text=True,
            )  # fmt: skip
            token = made.stdout.strip().splitlines()[-1]
            out = (data / f"{name}.log").open("wb")
            command = [
                sys.executable, "-m", "tetrad_client.runner", "--server", url,
                "--token", token, "--listen", "--games", "0", "--engine", engine,
                "--think", str(args.think), "--seed", str(len(runners) + 1),
            ]  # fmt: skip
            runners.append(
                subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
            )
        deadline = started + args.minutes * 60
        while time.monotonic() < deadline:
            time.sleep(min(30.0, max(0.0, deadline - time.monotonic())))
            print(
                f"{(time.monotonic() - started) / 60:.1f} min", table(url, args.board), flush=True
            )
        print(f"\nfinal, after {args.minutes} minutes on Dots and Boxes {args.board}:\n")
        print(table(url, args.board, markdown=True))
    finally:
        for process in [*runners, server]:
            process.send_signal(signal.SIGTERM)
        for process in [*runners, server]:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
    return 0


def table(url: str, board: str, markdown: bool = False) -> str:
    rows, cols = (int(n) for n in board.split("x"))
    side = max(rows, cols)
    size = "small" if side <= 3 else "standard" if side <= 6 else "large"
    ladder = get(f"{url}/api/ladder/boxes/{size}")
    assert isinstance(ladder, dict)
    entries = ladder["entries"]
    if not markdown:
        return " ".join(f"{e['player']}={e['rating']}({e['games']})" for e in entries)
    lines = [
        "| rank | player | rating | ± (sigma) | games | W/D/L |",
        "|---|---|---|---|---|---|",
    ]
    for e in entries:
        fixed = " (fixed anchor)" if e["computer"] else ""
        record = "—" if e["computer"] else f"{e['wins']}/{e['draws']}/{e['losses']}"
        lines.append(
            f"| {e['rank']} | {e['player']}{fixed} | {e['rating']} | {e['deviation']} | "
            f"{e['games'] or '—'} | {record} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
