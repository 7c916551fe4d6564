"""A bot that plays Dots and Boxes against the tetrad server's computer.

    python docs/example_bot.py --server http://127.0.0.1:8000 --level easy

Needs `httpx` and `websockets` (pip install httpx websockets). It creates a computer
room over REST, connects to the room's websocket, says hello with its seat token, and
answers every position in which it is to move, until the game is over.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import uuid

import httpx
import websockets


def pick_move(state: dict, rng: random.Random) -> dict:
    """Any legal line. Put your strategy here: `state["board"]` has the drawn lines and the
    claimed boxes, or replay the position with `core` if tetrad is installed."""
    return rng.choice(state["legal_moves"])


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
        version = -1
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "error":
                print("refused:", message["code"], message["message"])
                continue
            if message["type"] not in ("welcome", "event") or message["version"] <= version:
                continue
            state, version = message["state"], message["version"]
            if state["is_over"]:
                outcome = state["outcome"]
                verdict = (
                    "draw"
                    if outcome["winner"] is None
                    else ("I won" if outcome["winner"] == seat else "the computer won")
                )
                print(f"game over: {state['scores'][seat]}:{state['scores'][1 - seat]}, {verdict}")
                return
            if state["to_move"] == seat:
                move = pick_move(state, rng)
                await ws.send(
                    json.dumps(
                        {
                            "type": "move",
                            "move": move,
                            "version": version,
                            "move_id": uuid.uuid4().hex,
                        }
                    )
                )


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
