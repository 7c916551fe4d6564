"""Two bot accounts run by ``tetrad-bot`` (a process each) meet through challenges and
play rated games: the bot that listens takes what the other posts, and the ladder moves
both ratings the way the games went."""

from __future__ import annotations

import asyncio

import httpx

from server.bots.accounts import add_bot
from tests.clients.test_bots import Bot
from tests.conftest import LiveServer


async def test_two_runner_bots_accept_each_others_challenges_and_play_rated_games(
    server: LiveServer,
) -> None:
    engine = server.app.state.engine
    greedy, scatter = add_bot(engine, "Greedy"), add_bot(engine, "Scatter")
    common = ["--server", server.url, "--game", "boxes", "--size", "3x3", "--seed", "4"]
    listener = await Bot.start(*common, "--token", greedy, "--engine", "greedy", "--listen",
                               "--games", "2")  # fmt: skip
    challenge = ["--engine", "random", "--challenge", "Greedy", "--rated", "--games", "1"]
    async with httpx.AsyncClient(base_url=server.url) as client:
        while not any(b["connected"] for b in (await client.get("/api/bots")).json()):
            await asyncio.sleep(0.1)  # the listener's stream is not open yet
        for _ in range(2):
            challenger = await Bot.start(*common, "--token", scatter, *challenge)
            assert await challenger.finish(timeout=180) == 0, challenger.lines
            assert any(line.startswith("game 1 ") for line in challenger.lines), challenger.lines
        assert await listener.finish(timeout=60) == 0, listener.lines
        results = [line.split()[2] for line in listener.lines if line.startswith("game 1 ")]
        assert len(results) == 2, listener.lines
        for _ in range(400):
            table = (await client.get("/api/ladder/boxes/small")).json()["entries"]
            rows = {row["player"]: row for row in table}
            if rows.get("Greedy", {}).get("games") == 2:
                break
            await asyncio.sleep(0.05)
        greedy_row, scatter_row = rows["Greedy"], rows["Scatter"]
        assert (greedy_row["games"], scatter_row["games"]) == (2, 2)
        assert greedy_row["wins"] == results.count("won") == scatter_row["losses"]
        if results == ["won", "won"]:
            assert greedy_row["rating"] > 1500 > scatter_row["rating"]
        elif results == ["lost", "lost"]:
            assert greedy_row["rating"] < 1500 < scatter_row["rating"]
