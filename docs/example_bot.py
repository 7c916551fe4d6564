"""A greedy Dots and Boxes bot, written on the tetrad-client package (docs/bots.md).

tetrad-bot --engine example_bot:choose_move --size 3x3   # let the runner play it
python example_bot.py --level easy                       # or play one game by hand
"""

import argparse
import asyncio
import random

from tetrad_client import BoxesPosition, Tetrad


def choose_move(position: BoxesPosition):
    """Close a box if one can be closed, else draw a line that gives no box away, else the
    line that gives away the fewest; ties are drawn by lot."""
    closes, gives = position.closes, position.gives
    return min(position.legal_moves(), key=lambda ln: (-closes(ln), gives(ln), random.random()))


async def play(server: str, level: str) -> None:
    async with Tetrad(server) as tetrad:
        grant = await tetrad.create_room("boxes", mode="computer", level=level, rows=3, cols=3)
        async with tetrad.connect(grant.room_id, grant.token) as room:
            while not room.over:
                await room.until(lambda r: r.over or (r.my_turn and not r.status.thinking))
                if not room.over:
                    await room.move(choose_move(room.position()))
            scores = room.status.scores
            print(f"game over: {scores[room.seat]}:{scores[1 - room.seat]}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="A greedy Dots and Boxes bot")
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--level", choices=["easy", "normal", "hard"], default="easy")
    args = parser.parse_args()
    asyncio.run(play(args.server, args.level))
