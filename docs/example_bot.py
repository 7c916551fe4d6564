"""A bot that plays Dots and Boxes against the tetrad server's computer (protocol 2).

    python docs/example_bot.py --server http://127.0.0.1:8000 --level easy

Needs `httpx` and `websockets` (pip install httpx websockets). It creates a computer
room over REST, connects to the room's websocket, says hello with its seat token, keeps
the board up to date from the events it receives, and moves whenever it is its turn,
until the game is over.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import uuid

import httpx
import websockets


class Board:
    """The lines drawn so far, from the snapshot in `welcome` and every `move` event."""

    def __init__(self, snapshot: dict) -> None:
        board = snapshot["board"]
        self.rows, self.cols = board["rows"], board["cols"]
        self.drawn = {self.key(entry["line"]) for entry in board["lines"]}
        self.status = snapshot["status"]
        self.version = snapshot["version"]

    @staticmethod
    def key(line: list) -> tuple:
        return tuple(sorted(map(tuple, line)))

    def apply(self, message: dict) -> bool:
        """Apply an event message; False if one was missed (ask for a `sync`)."""
        if message["version"] <= self.version:
            return True
        if message["version"] > self.version + 1:
            return False
        event = message["event"]
        if event["kind"] == "move":
            self.drawn.add(self.key(event["move"]["line"]))
        elif event["kind"] in ("restarted", "undone"):
            self.drawn = {self.key(entry["line"]) for entry in event["board"]["lines"]}
        self.status = {**self.status, "outcome": None, **message["status"]}
        self.version = message["version"]
        return True

    def legal_moves(self) -> list[dict]:
        """Every line between adjacent dots that is not drawn yet."""
        every = [[[x, y], [x + 1, y]] for y in range(self.rows + 1) for x in range(self.cols)]
        every += [[[x, y], [x, y + 1]] for y in range(self.rows) for x in range(self.cols + 1)]
        return [{"line": line} for line in every if self.key(line) not in self.drawn]


def pick_move(board: Board, rng: random.Random) -> dict:
    """Any legal line. Put your strategy here, or replay the position with `core` if
    tetrad is installed (`core.boxes`, `core.ai.choose_move`)."""
    return rng.choice(board.legal_moves())


async def play(server: str, level: str, rows: int, cols: int) -> None:
    rng = random.Random()
    async with httpx.AsyncClient(base_url=server) as client:
        response = await client.post(
            "/api/rooms",
            json={"game": "boxes", "mode": "computer", "level": level, "rows": rows, "cols": cols},
        )
        response.raise_for_status()
        grant = response.json()
    room, token, seat = grant["room_id"], grant["token"], grant["seat"]
    print(f"room {room}: I am seat {seat}, the computer plays {level}")
    ws_url = server.replace("http", "ws", 1) + f"/api/rooms/{room}/ws"
    async with websockets.connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))  # token never in the URL
        board: Board | None = None
        asked = -1  # the version at which we last moved: one move per turn
        while True:
            message = json.loads(await ws.recv())
            kind = message["type"]
            if kind == "error":
                print("refused:", message["code"], message["message"])
                asked = -1
            elif kind in ("welcome", "resync"):
                if message["snapshot"] is not None:
                    board = Board(message["snapshot"])
                for event in message["events"]:
                    if board is not None:
                        board.apply(event)
            elif kind == "event" and board is not None and not board.apply(message):
                await ws.send(json.dumps({"type": "sync", "since": board.version}))
                continue
            if board is None:
                continue
            status = board.status
            if status.get("outcome") is not None:
                scores, winner = status["scores"], status["outcome"]["winner"]
                verdict = (
                    "draw" if winner is None else "I won" if winner == seat else "the computer won"
                )
                print(f"game over: {scores[seat]}:{scores[1 - seat]}, {verdict}")
                return
            if status["to_move"] == seat and asked != board.version:
                asked = board.version
                move = {"type": "move", "move": pick_move(board, rng), "version": board.version}
                await ws.send(json.dumps({**move, "move_id": uuid.uuid4().hex}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--level", choices=["easy", "normal", "hard"], default="easy")
    parser.add_argument("--rows", type=int, default=3)
    parser.add_argument("--cols", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(play(args.server, args.level, args.rows, args.cols))


if __name__ == "__main__":
    main()
