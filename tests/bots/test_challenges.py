"""Bot accounts, challenges and the ladder over the wire, as bots and people meet them: real
uvicorn, real Redis, the bots' event stream read as a bot would read it."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
import websockets

from server.bots.accounts import add_bot, revoke_bot
from server.protocol import CLOSE_BAD_TOKEN
from tests.conftest import LiveServer, StartServer
from tests.server.room_client import Socket, bearer

BOARD = {"game": "boxes", "rows": 2, "cols": 2}


def new_bot(server: LiveServer, name: str) -> str:
    return add_bot(server.app.state.engine, name)


class Stream:
    """A bot's server-sent event stream, read event by event."""

    def __init__(self, lines: AsyncIterator[str]) -> None:
        self.lines = lines

    async def next(self, timeout: float = 15) -> tuple[str, dict[str, Any]]:
        async def read() -> tuple[str, dict[str, Any]]:
            event = ""
            async for line in self.lines:
                if line.startswith("event: "):
                    event = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    return event, json.loads(line.removeprefix("data: "))
            raise EOFError("the stream ended")

        return await asyncio.wait_for(read(), timeout)

    async def expect(self, kind: str) -> dict[str, Any]:
        while True:
            event, data = await self.next()
            if event == kind:
                return data


@asynccontextmanager
async def stream(server: LiveServer, token: str) -> AsyncIterator[Stream]:
    async with (
        httpx.AsyncClient(base_url=server.url, timeout=None) as client,
        client.stream("GET", "/api/bots/stream", headers=bearer(token)) as response,
    ):
        assert response.status_code == 200, await response.aread()
        assert response.headers["content-type"].startswith("text/event-stream")
        yield Stream(response.aiter_lines())


async def play_out(sockets: dict[int, Socket], seed: int) -> dict[str, Any]:
    """Both seats play random legal moves until the game ends; the final status."""
    rng = random.Random(seed)
    any_socket = next(iter(sockets.values()))
    assert any_socket.model is not None
    refs = 0
    while not any_socket.model.is_over:
        seat = any_socket.model.status["to_move"]
        mover = sockets[seat]
        assert mover.model is not None
        await mover.until_version(any_socket.version)
        refs += 1
        choice = rng.choice(mover.model.legal_moves())
        await mover.send(type="move", move=choice, ref=f"r{refs}", move_id=f"m{refs}")
        reply = await mover.expect_reply(f"r{refs}")
        assert reply["type"] == "ack", reply
        await any_socket.until_version(reply["version"])
    return any_socket.model.status


async def ladder_games(client: httpx.AsyncClient, game: str, size: str, player: str) -> int:
    table = (await client.get(f"/api/ladder/{game}/{size}")).json()
    return next((e["games"] for e in table["entries"] if e["player"] == player), 0)


async def until_rated(client: httpx.AsyncClient, player: str, games: int) -> dict[str, Any]:
    """Wait for the outbox to write the finished game and the ladder to rate it."""
    for _ in range(400):
        if await ladder_games(client, "boxes", "small", player) >= games:
            table = (await client.get("/api/ladder/boxes/small")).json()
            return {e["player"]: e for e in table["entries"]}
        await asyncio.sleep(0.05)
    raise AssertionError(f"{player} was not rated")


async def test_two_bots_meet_through_a_challenge_and_the_rated_game_moves_their_ratings(
    server: LiveServer,
) -> None:
    alpha, beta = new_bot(server, "Alpha"), new_bot(server, "Beta")
    async with (
        httpx.AsyncClient(base_url=server.url) as client,
        stream(server, alpha) as alpha_events,
        stream(server, beta) as beta_events,
    ):
        posted = await client.post(
            "/api/challenges", json={**BOARD, "rated": True, "to": "beta"}, headers=bearer(alpha)
        )
        assert posted.status_code == 201, posted.text
        challenge = posted.json()["challenge"]
        assert posted.json()["token"] is None  # a bot's own token holds its seat
        assert challenge["from"] == {"name": "Alpha", "bot": True} and challenge["to"] == "beta"
        offered = await beta_events.expect("challenge")
        assert offered["id"] == challenge["id"] and offered["rated"] is True
        listed = (await client.get("/api/challenges", headers=bearer(beta))).json()
        assert [c["id"] for c in listed] == [challenge["id"]]
        assert (await client.get("/api/challenges")).json() == []  # not open to anyone

        accepted = await client.post(
            f"/api/challenges/{challenge['id']}/accept", headers=bearer(beta)
        )
        assert accepted.status_code == 200, accepted.text
        taken = accepted.json()
        assert taken["token"] is None
        started = await alpha_events.expect("game")
        assert started["room_id"] == taken["room_id"] and started["seat"] == 1 - taken["seat"]
        gone = await beta_events.expect("challenge_gone")
        assert gone == {"id": challenge["id"], "status": "accepted"}
        again = await client.post(f"/api/challenges/{challenge['id']}/accept", headers=bearer(beta))
        assert again.status_code == 404 and again.json()["code"] == "challenge_not_found"

        room = taken["room_id"]
        sockets = {
            taken["seat"]: await Socket.open(server, room, beta),
            started["seat"]: await Socket.open(server, room, alpha),
        }
        snapshot = sockets[0].model.state  # type: ignore[union-attr]
        names = {seat["seat"]: (seat.get("name"), seat.get("bot")) for seat in snapshot["seats"]}
        assert names == {taken["seat"]: ("Beta", True), started["seat"]: ("Alpha", True)}
        assert snapshot["rated"] is True
        # A rated game is played out: nothing is taken back.
        assert snapshot["status"]["allowed"] == [["resign"], ["resign"]]
        status = await play_out(sockets, seed=3)
        winner = status["outcome"]["winner"]
        for socket in sockets.values():
            await socket.close()

        ratings = await until_rated(client, "Alpha", 1)
        names_by_seat = {taken["seat"]: "Beta", started["seat"]: "Alpha"}
        if winner is None:
            assert ratings["Alpha"]["draws"] == 1
        else:
            won, lost = names_by_seat[winner], names_by_seat[1 - winner]
            assert ratings[won]["rating"] > 1500 > ratings[lost]["rating"]
            assert (ratings[won]["wins"], ratings[lost]["losses"]) == (1, 1)
        assert ratings["level:hard"]["rating"] == 1600 and ratings["level:hard"]["computer"]
        games = (await client.get("/api/ladder/players/Alpha/games")).json()
        assert games[0]["room_id"] == room and games[0]["rated"] is True
        review = await client.get(f"/api/games/{games[0]['game_id']}/review")
        assert review.status_code == 200, review.text
        reviewed = {seat["seat"]: (seat["name"], seat["bot"]) for seat in review.json()["seats"]}
        assert reviewed == {seat: (name, True) for seat, name in names_by_seat.items()}
        listed_bots = (await client.get("/api/bots")).json()
        assert {b["name"]: b["connected"] for b in listed_bots} == {"Alpha": True, "Beta": True}


async def test_a_bot_declines_with_a_reason_and_the_challenger_hears_it(
    server: LiveServer,
) -> None:
    alpha, beta = new_bot(server, "Alpha"), new_bot(server, "Beta")
    async with httpx.AsyncClient(base_url=server.url) as client, stream(server, alpha) as events:
        posted = await client.post(
            "/api/challenges", json={**BOARD, "to": "Alpha"}, headers=bearer(beta)
        )
        challenge = posted.json()["challenge"]
        await events.expect("challenge")
        other = await client.post(
            f"/api/challenges/{challenge['id']}/decline", json={"reason": "x"}, headers=bearer(beta)
        )
        assert other.status_code == 403 and other.json()["code"] == "not_allowed"
        declined = await client.post(
            f"/api/challenges/{challenge['id']}/decline",
            json={"reason": "only 5x5 boards"},
            headers=bearer(alpha),
        )
        assert declined.status_code == 200, declined.text
        assert (declined.json()["status"], declined.json()["reason"]) == (
            "declined",
            "only 5x5 boards",
        )
        gone = await events.expect("challenge_gone")
        assert gone == {"id": challenge["id"], "status": "declined", "reason": "only 5x5 boards"}


async def test_a_bot_that_closes_its_stream_is_soon_shown_gone(server: LiveServer) -> None:
    """Within a round or two, well before a stream's "seen" mark would run out (20 s)."""
    alpha = new_bot(server, "Alpha")

    async def connected(client: httpx.AsyncClient) -> bool:
        listed = (await client.get("/api/bots")).json()
        return bool({b["name"]: b["connected"] for b in listed}["Alpha"])

    async with httpx.AsyncClient(base_url=server.url) as client:
        async with stream(server, alpha):
            assert await connected(client)
        async with asyncio.timeout(12):
            while await connected(client):
                await asyncio.sleep(0.2)


async def test_open_challenges_expire(start_server: StartServer) -> None:
    server = await start_server(challenge_live_seconds=5)
    alpha = new_bot(server, "Alpha")
    async with httpx.AsyncClient(base_url=server.url) as client, stream(server, alpha) as events:
        posted = await client.post("/api/challenges", json={**BOARD, "name": "Ann"})
        challenge = posted.json()["challenge"]
        assert challenge["from"] == {"name": "Ann", "bot": False}
        assert (await events.expect("challenge"))["id"] == challenge["id"]
        assert [c["id"] for c in (await client.get("/api/challenges")).json()] == [challenge["id"]]
        gone = await events.expect("challenge_gone")
        assert gone == {"id": challenge["id"], "status": "expired"}
        assert (await client.get("/api/challenges")).json() == []
        late = await client.post(f"/api/challenges/{challenge['id']}/accept", headers=bearer(alpha))
        assert late.status_code == 404 and "expired" in late.json()["message"]


async def test_a_person_challenges_a_bot_and_withdraws_another(server: LiveServer) -> None:
    alpha = new_bot(server, "Alpha")
    async with httpx.AsyncClient(base_url=server.url) as client:
        posted = await client.post("/api/challenges", json={**BOARD, "to": "Alpha", "name": "Ann"})
        person = posted.json()["token"]
        challenge = posted.json()["challenge"]
        rated = await client.post("/api/challenges", json={**BOARD, "rated": True})
        assert rated.status_code == 400 and rated.json()["code"] == "invalid_options"
        taken = (
            await client.post(f"/api/challenges/{challenge['id']}/accept", headers=bearer(alpha))
        ).json()
        seen = (
            await client.get(f"/api/challenges/{challenge['id']}", headers=bearer(person))
        ).json()
        assert seen["status"] == "accepted" and seen["room_id"] == taken["room_id"]
        assert seen["seat"] == 1 - taken["seat"]
        room = (await client.get(f"/api/rooms/{taken['room_id']}", headers=bearer(person))).json()
        assert room["you"]["seat"] == seen["seat"]
        seats = {s["seat"]: (s.get("name"), s.get("bot")) for s in room["state"]["seats"]}
        assert seats == {seen["seat"]: ("Ann", None), taken["seat"]: ("Alpha", True)}

        second = await client.post("/api/challenges", json=BOARD)
        withdrawn = second.json()["challenge"]["id"]
        wrong = await client.delete(f"/api/challenges/{withdrawn}", headers=bearer(person))
        assert wrong.status_code == 401
        gone = await client.delete(
            f"/api/challenges/{withdrawn}", headers=bearer(second.json()["token"])
        )
        assert gone.status_code == 204
        assert (await client.get(f"/api/challenges/{withdrawn}")).json()["status"] == "cancelled"


async def test_a_revoked_token_ends_its_stream_and_sockets_at_once(server: LiveServer) -> None:
    alpha = new_bot(server, "Alpha")
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = (
            await client.post(
                "/api/rooms",
                json={**BOARD, "mode": "computer", "level": "easy", "first": "me"},
                headers=bearer(alpha),
            )
        ).json()
        assert grant["token"] is None
        socket = await Socket.open(server, grant["room_id"], alpha)
        async with stream(server, alpha) as events:
            assert revoke_bot(server.app.state.engine, "Alpha")
            assert (await events.expect("revoked"))["message"]
            with pytest.raises(EOFError):
                await events.next()
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await socket.next()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_BAD_TOKEN
        me = await client.get("/api/bots/me", headers=bearer(alpha))
        assert me.status_code == 401 and me.json()["code"] == "bad_token"
        read = await client.get(f"/api/rooms/{grant['room_id']}", headers=bearer(alpha))
        assert read.json()["you"] is None


async def test_a_bot_plays_a_rated_game_against_the_computer_up_to_its_cap(
    start_server: StartServer,
) -> None:
    server = await start_server(bot_games_at_once=1)
    alpha = new_bot(server, "Alpha")
    body = {**BOARD, "mode": "computer", "level": "easy", "rated": True, "first": "me"}
    async with httpx.AsyncClient(base_url=server.url) as client:
        created = await client.post("/api/rooms", json=body, headers=bearer(alpha))
        assert created.status_code == 201, created.text
        grant = created.json()
        over_cap = await client.post("/api/rooms", json=body, headers=bearer(alpha))
        assert over_cap.status_code == 409 and over_cap.json()["code"] == "too_many_games"
        assert (await client.post("/api/rooms", json={**BOARD, "rated": True})).status_code == 400
        socket = await Socket.open(server, grant["room_id"], alpha)
        assert socket.model is not None
        undo = await client.post(
            f"/api/rooms/{grant['room_id']}/actions", json={"type": "undo"}, headers=bearer(alpha)
        )
        assert undo.status_code == 403 and undo.json()["code"] == "not_allowed"
        rng = random.Random(5)
        refs = 0
        while not socket.model.is_over:
            if socket.model.status["to_move"] != grant["seat"] or socket.model.status["thinking"]:
                await socket.next()
                continue
            refs += 1
            choice = rng.choice(socket.model.legal_moves())
            await socket.send(type="move", move=choice, ref=f"r{refs}", move_id=f"m{refs}")
            await socket.expect_reply(f"r{refs}")
        await socket.close()
        ratings = await until_rated(client, "Alpha", 1)
        assert ratings["Alpha"]["games"] == 1 and ratings["level:easy"]["rating"] == 800
        me = (await client.get("/api/bots/me", headers=bearer(alpha))).json()
        assert set(me["ratings"]) == {"boxes/small"}
        # The game ended: the cap has room again.
        assert (
            await client.post("/api/rooms", json=body, headers=bearer(alpha))
        ).status_code == 201


async def test_matchmaking_pairs_idle_ladder_bots_and_gives_the_odd_one_the_computer(
    start_server: StartServer,
) -> None:
    server = await start_server(ladder_pace_seconds=1, ladder_boards="boxes:2x2")
    engine = server.app.state.engine
    tokens = {name: add_bot(engine, name, ladder=True) for name in ("Ann", "Bob", "Cid")}
    add_bot(engine, "Idle")  # not on the ladder: never paired
    async with (
        stream(server, tokens["Ann"]) as ann,
        stream(server, tokens["Bob"]) as bob,
        stream(server, tokens["Cid"]) as cid,
    ):
        games = {name: await events.expect("game") for name, events in
                 (("Ann", ann), ("Bob", bob), ("Cid", cid))}  # fmt: skip
    rooms = {game["room_id"] for game in games.values()}
    assert len(rooms) == 2 and all(game["rated"] for game in games.values())
    modes = sorted(game["mode"] for game in games.values())
    assert modes == ["computer", "live", "live"]
    paired = [name for name, game in games.items() if game["mode"] == "live"]
    one, two = (games[name] for name in paired)
    assert one["room_id"] == two["room_id"] and {one["seat"], two["seat"]} == {0, 1}
    async with httpx.AsyncClient(base_url=server.url) as client:
        state = (await client.get(f"/api/rooms/{one['room_id']}")).json()["state"]
        assert {s["name"] for s in state["seats"]} == set(paired) and state["rated"]
        alone = next(game for game in games.values() if game["mode"] == "computer")
        state = (await client.get(f"/api/rooms/{alone['room_id']}")).json()["state"]
        assert state["level"] == "hard"  # a new bot (1500) is nearest to hard (1600)


async def test_a_bot_that_stays_away_from_a_rated_live_game_loses_it(
    start_server: StartServer,
) -> None:
    server = await start_server(bot_forfeit_seconds=2)
    alpha, beta = new_bot(server, "Alpha"), new_bot(server, "Beta")
    async with httpx.AsyncClient(base_url=server.url) as client:
        posted = await client.post(
            "/api/challenges", json={**BOARD, "rated": True, "to": "Beta"}, headers=bearer(alpha)
        )
        url = f"/api/challenges/{posted.json()['challenge']['id']}"
        taken = (await client.post(f"{url}/accept", headers=bearer(beta))).json()
        mine = (await client.get(url, headers=bearer(alpha))).json()["seat"]
        socket = await Socket.open(server, taken["room_id"], alpha)  # Beta never comes
        assert socket.model is not None
        while not socket.model.is_over:
            await socket.next()
        outcome = socket.model.status["outcome"]
        assert (outcome["winner"], outcome["reason"]) == (mine, "resignation")
        await socket.close()
        ratings = await until_rated(client, "Alpha", 1)
        assert ratings["Alpha"]["rating"] > 1500 > ratings["Beta"]["rating"]
