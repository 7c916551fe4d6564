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


async def test_a_runner_bot_plays_a_rated_game_against_hard(server: LiveServer) -> None:
    token = add_bot(server.app.state.engine, "Plucky")
    args = ["--computer", "hard", "--rated", "--size", "2x2", "--engine", "random", "--seed", "2"]
    bot = await Bot.start("--server", server.url, "--token", token, *args)
    assert await bot.finish(timeout=180) == 0, bot.lines
    verdict = next(line.split()[2] for line in bot.lines if line.startswith("game 1 "))
    async with httpx.AsyncClient(base_url=server.url) as client:
        for _ in range(400):
            table = (await client.get("/api/ladder/boxes/small")).json()["entries"]
            rows = {row["player"]: row for row in table}
            if "Plucky" in rows:
                break
            await asyncio.sleep(0.05)
    plucky = rows["Plucky"]
    assert plucky["games"] == 1 and rows["level:hard"]["rating"] == 1600
    if verdict == "lost":  # what random does against hard, nearly always
        assert plucky["rating"] < 1500 and plucky["losses"] == 1
    elif verdict == "won":
        assert plucky["rating"] > 1500


async def test_a_runner_bot_declines_what_it_does_not_play_and_takes_the_rest(
    server: LiveServer,
) -> None:
    engine = server.app.state.engine
    picky, asker = add_bot(engine, "Picky"), add_bot(engine, "Asker")
    listener = await Bot.start("--server", server.url, "--token", picky, "--engine", "greedy",
                               "--listen", "--only", "boxes:3x3", "--games", "1")  # fmt: skip
    async with httpx.AsyncClient(base_url=server.url) as client:
        while not any(b["connected"] for b in (await client.get("/api/bots")).json()):
            await asyncio.sleep(0.1)  # the listener's stream is not open yet
        headers = {"Authorization": f"Bearer {asker}"}
        for game, options in (("boxes", {"rows": 5, "cols": 5}), ("dots", {})):
            body = {"game": game, "to": "Picky", "mode": "live", **options}
            posted = await client.post("/api/challenges", json=body, headers=headers)
            assert posted.status_code == 201, posted.text
            path = f"/api/challenges/{posted.json()['challenge']['id']}"
            while (seen := (await client.get(path)).json())["status"] == "open":
                await asyncio.sleep(0.1)
            assert (seen["status"], seen["reason"]) == ("declined", "this bot plays only boxes 3x3")
    challenge = ["--size", "3x3", "--challenge", "Picky", "--games", "1"]
    challenger = await Bot.start("--server", server.url, "--token", asker, "--engine", "random",
                                 *challenge)  # fmt: skip
    assert await challenger.finish(timeout=180) == 0, challenger.lines
    assert await listener.finish(timeout=60) == 0, listener.lines
    assert any(line.startswith("game 1 ") for line in listener.lines), listener.lines
