"""The room websocket against a real uvicorn: move-sized events applied to a snapshot, acks,
catch-up, resync, takeover, lost pub/sub messages and bad input."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import redis.asyncio as aioredis
import websockets
from websockets.exceptions import ConnectionClosed

from server.protocol import server_message_adapter
from tests.conftest import REDIS_URL, LiveServer, StartServer
from tests.server.room_client import (
    RoomModel,
    Socket,
    create_room,
    join_room,
    line,
    move,
    point,
    read_room,
)


async def live_room(server: LiveServer, **body):
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="live", **body)
        guest = await join_room(client, grant)
    return grant, guest


async def both_connected(socket: Socket) -> None:
    await socket.expect("presence", lambda m: all(s["connected"] for s in m["seats"]))


async def snapshot_of(server: LiveServer, room: str) -> dict:
    async with httpx.AsyncClient(base_url=server.url) as client:
        return await read_room(client, room)


async def test_a_live_game_arrives_as_small_events_that_rebuild_the_room(
    server: LiveServer,
) -> None:
    grant, guest = await live_room(server, rows=3, cols=3)
    room = grant["room_id"]
    gold = await Socket.open(server, room, grant["token"])
    coral = await Socket.open(server, room, guest["token"])
    watcher = await Socket.open(server, room, None)
    assert watcher.seen[0]["role"] == "spectator" and watcher.seen[0]["seat"] is None
    await both_connected(gold)
    sockets = {0: gold, 1: coral}
    sizes = []
    while not gold.model.is_over:
        mover = sockets[gold.model.status["to_move"]]
        version = gold.version
        await mover.send(type="move", move=mover.model.legal_moves()[0], version=version)
        for socket in (gold, coral, watcher):
            event = await socket.expect("event", lambda m, v=version: m["version"] == v + 1)
            sizes.append(len(json.dumps(event, separators=(",", ":"))))
            server_message_adapter.validate_python(event)
        assert {json.dumps(s.model.state["status"]) for s in (gold, coral, watcher)} == {
            json.dumps(gold.model.state["status"])
        }
    assert sum(gold.model.status["scores"]) == 9 and gold.model.legal_moves() == []
    assert max(sizes) <= 340, max(sizes)
    # Applying the events, each client holds exactly what a fresh snapshot says.
    fresh = RoomModel(await snapshot_of(server, room)).comparable()
    for socket in (gold, coral, watcher):
        assert socket.model.comparable() == fresh
    await watcher.send(type="move", move=line(0, 0, 1, 0), ref="w1")
    refused = await watcher.expect("error")
    assert refused["code"] == "not_allowed" and refused["ref"] == "w1"
    for socket in (gold, coral, watcher):
        await socket.close()


async def test_a_dots_game_with_captures_rebuilds_the_room_from_events(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(
            client, game="dots", mode="correspondence", first="me", width=8, height=8
        )
        guest = await join_room(client, grant)
    room = grant["room_id"]
    pen = await Socket.open(server, room, grant["token"])
    pencil = await Socket.open(server, room, guest["token"])
    sockets = {0: pen, 1: pencil}
    # Pencil's mark at (2, 2) surrounded by pen; then a pen house at (6, 6); filler elsewhere.
    script = [
        (0, point(2, 1)), (1, point(2, 2)), (0, point(1, 2)), (1, point(0, 7)),
        (0, point(3, 2)), (1, point(1, 7)), (0, point(2, 3)),
        (1, point(2, 7)), (0, point(6, 5)), (1, point(3, 7)), (0, point(5, 6)),
        (1, point(4, 7)), (0, point(7, 6)), (1, point(5, 7)), (0, point(6, 7)),
    ]  # fmt: skip
    capture_sizes = []
    for seat, mv in script:
        version = pen.version
        await sockets[seat].send(type="move", move=mv, move_id=f"m{version}", ref=f"r{version}")
        ack = await sockets[seat].expect("ack", lambda m, v=version: m["ref"] == f"r{v}")
        assert ack["version"] == version + 1 and ack["move_id"] == f"m{version}"
        for socket in (pen, pencil):
            await socket.until_version(version + 1)
            event = next(m for m in socket.seen if m.get("version") == version + 1)
            if event["event"].get("captures"):
                capture_sizes.append(len(json.dumps(event, separators=(",", ":"))))
    assert pen.model.status["scores"] == [1, 0]
    assert capture_sizes and max(capture_sizes) <= 2048
    assert any(house["owner"] == 0 for house in pen.model.state["board"]["houses"])
    assert [2, 2] not in [m["point"] for m in pen.model.legal_moves()]
    fresh = RoomModel(await snapshot_of(server, room)).comparable()
    assert pen.model.comparable() == fresh and pencil.model.comparable() == fresh
    await pen.close()
    await pencil.close()


async def test_move_refused_while_the_opponent_is_offline(server: LiveServer) -> None:
    grant, guest = await live_room(server)
    gold = await Socket.open(server, grant["room_id"], grant["token"])
    await gold.send(type="move", move=line(0, 0, 1, 0), ref="m1")
    refused = await gold.expect("error")
    assert refused["code"] == "opponent_offline" and refused["ref"] == "m1"
    coral = await Socket.open(server, grant["room_id"], guest["token"])
    await both_connected(gold)
    await gold.send(type="move", move=line(0, 0, 1, 0), ref="m2")
    assert (await gold.expect("ack"))["ref"] == "m2"
    await coral.expect("event", lambda m: m["event"]["kind"] == "move")
    await coral.close()
    await gold.expect("presence", lambda m: not m["seats"][1]["connected"])
    await coral_turn_refused(gold)
    await gold.close()


async def coral_turn_refused(gold: Socket) -> None:
    await gold.send(type="move", move=line(0, 1, 1, 1), ref="m3")
    error = await gold.expect("error")
    assert error["code"] in ("not_your_turn", "opponent_offline") and error["ref"] == "m3"


async def test_reconnect_gets_exactly_the_missed_events(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="correspondence", first="me")
        guest = await join_room(client, grant)
        room = grant["room_id"]
        coral = await Socket.open(server, room, guest["token"])
        seen, model = coral.version, coral.model
        await coral.close()
        moves = [
            (line(0, 0, 1, 0), grant["token"]),
            (line(1, 0, 2, 0), guest["token"]),
            (line(2, 0, 3, 0), grant["token"]),
        ]
        for mv, token in moves:
            assert (await move(client, room, token, mv)).status_code == 200
    coral = await Socket.open(server, room, guest["token"], since=seen, model=model)
    welcome = coral.seen[0]
    assert welcome["snapshot"] is None
    assert [e["version"] for e in welcome["events"]] == [seen + 1, seen + 2, seen + 3]
    assert [e["event"]["move"] for e in welcome["events"]] == [mv for mv, _ in moves]
    assert coral.version == seen + 3
    assert coral.model.comparable() == RoomModel(await snapshot_of(server, room)).comparable()
    await coral.close()


async def test_reconnect_beyond_the_kept_history_gets_a_snapshot(
    start_server: StartServer,
) -> None:
    server = await start_server(events_kept=8)
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="local")
        for x in range(5):
            for y in (0, 5):
                await move(client, grant["room_id"], grant["token"], line(x, y, x + 1, y))
    socket = await Socket.open(server, grant["room_id"], grant["token"], since=1)
    welcome = socket.seen[0]
    assert welcome["events"] == [] and welcome["snapshot"]["version"] == 11
    assert welcome["snapshot"]["move_count"] == 10
    await socket.close()


async def test_sync_answers_one_resync_with_the_missed_events_or_a_snapshot(
    start_server: StartServer,
) -> None:
    server = await start_server(events_kept=8)
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="local")
        socket = await Socket.open(server, grant["room_id"], grant["token"])
        for x in range(3):
            await move(client, grant["room_id"], grant["token"], line(x, 0, x + 1, 0))
        await socket.until_version(4)
        await socket.send(type="sync", since=2, ref="s1")
        resync = await socket.expect("resync")
        assert resync["ref"] == "s1" and resync["snapshot"] is None
        assert [e["version"] for e in resync["events"]] == [3, 4]
        for x in range(5):
            await move(client, grant["room_id"], grant["token"], line(x, 5, x + 1, 5))
        await socket.until_version(9)
        await socket.send(type="sync", since=0, ref="s2")
        resync = await socket.expect("resync")
        assert resync["snapshot"]["version"] == 9 and resync["events"] == []
    assert len([m for m in socket.seen if m["type"] == "resync"]) == 2
    await socket.close()


async def test_a_move_published_while_pubsub_is_down_still_reaches_every_socket(
    server: LiveServer, key_prefix: str
) -> None:
    """Pub/sub loses what is published while a subscriber reconnects; the hub catches up."""
    grant, guest = await live_room(server)
    room = grant["room_id"]
    gold = await Socket.open(server, room, grant["token"])
    coral = await Socket.open(server, room, guest["token"])
    await both_connected(gold)
    hub = server.app.state.hub
    resubscribed = hub.resubscribed
    redis = aioredis.Redis.from_url(REDIS_URL)
    try:
        for _ in range(3):
            version = gold.version
            killed = await redis.client_kill_filter(_type="pubsub", skipme=True)
            assert killed >= 1
            await gold.send(type="move", move=gold.model.legal_moves()[0], ref=f"k{version}")
            await gold.expect("ack", lambda m, v=version: m["ref"] == f"k{v}")
            for socket in (gold, coral):
                await socket.until_version(version + 1)
            # the other seat moves next, through the same recovered path
            version = coral.version
            await coral.send(type="move", move=coral.model.legal_moves()[0])
            for socket in (gold, coral):
                await socket.until_version(version + 1)
    finally:
        await redis.aclose()
    assert hub.resubscribed > resubscribed
    assert gold.gaps == coral.gaps == 0
    fresh = RoomModel(await snapshot_of(server, room)).comparable()
    assert gold.model.comparable() == fresh == coral.model.comparable()
    await gold.close()
    await coral.close()


async def test_second_tab_takes_over_the_seat(server: LiveServer) -> None:
    grant, _ = await live_room(server)
    first = await Socket.open(server, grant["room_id"], grant["token"])
    second = await Socket.open(server, grant["room_id"], grant["token"])
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await first.next()
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4001 and closed.value.rcvd.reason == "taken_over"
    await second.send(type="ping", ref="still-here")
    assert (await second.expect("pong"))["ref"] == "still-here"
    await second.close()


async def test_every_command_gets_an_ack_or_an_error_with_its_ref(
    start_server: StartServer,
) -> None:
    server = await start_server(messages_per_second=1000, message_burst=1000)
    grant, guest = await live_room(server)
    socket = await Socket.open(server, grant["room_id"], grant["token"])
    await Socket.open(server, grant["room_id"], guest["token"])
    await both_connected(socket)
    cases = [
        ('{"type": "move", "ref": "p1", "move": 5}', "invalid_move"),
        ('{"type": "launch", "ref": "p2"}', "bad_request"),
        ('{"type": "move", "ref": "p3"', "bad_request"),  # truncated: ref unknowable
        ('{"type": "offer", "kind": "end", "ref": "p4"}', None),
        ('{"type": "decline", "kind": "end", "ref": "p5"}', None),
        ('{"type": "undo", "ref": "p6"}', "not_allowed"),
        ('{"type": "move", "move": {"line": [[0, 0], [1, 0]]}, "ref": "p7"}', None),
    ]
    for text, code in cases:
        await socket.ws.send(text)
        reply = await socket.expect("ack" if code is None else "error")
        if code is not None:
            assert reply["code"] == code, (text, reply)
        ref = json.loads(text)["ref"] if text.endswith("}") else None
        assert reply["ref"] == ref, (text, reply)
    await socket.close()


async def test_bad_messages_get_errors_and_the_connection_stays_open(
    start_server: StartServer,
) -> None:
    server = await start_server(messages_per_second=1000, message_burst=1000)
    grant, guest = await live_room(server)
    socket = await Socket.open(server, grant["room_id"], grant["token"])
    await Socket.open(server, grant["room_id"], guest["token"])
    await both_connected(socket)
    cases = [
        ("not json", "bad_request"),
        (json.dumps([1, 2]), "bad_request"),
        (json.dumps({"type": "launch"}), "bad_request"),
        (json.dumps({"type": "move"}), "bad_request"),
        (json.dumps({"type": "move", "move": {"line": [[0, 0]]}}), "invalid_move"),
        (json.dumps({"type": "move", "move": {"line": [[0, 0], [5, 5]]}}), "invalid_move"),
        (json.dumps({"type": "move", "move": {"line": [[0, 0], [-1, 0]]}}), "invalid_move"),
        (json.dumps({"type": "move", "move": {"line": [[0, 0], [1, 0]]}, "x": 1}), "bad_request"),
        (
            json.dumps({"type": "move", "move": {"line": [[0, 0], [1, 0]]}, "version": 99}),
            "stale_version",
        ),
        (json.dumps({"type": "hello", "token": None}), "bad_request"),
        (json.dumps({"type": "undo"}), "not_allowed"),
        (json.dumps({"type": "accept", "kind": "restart"}), "no_request"),
        ("x" * 5000, "message_too_large"),
        (json.dumps({"type": "ping", "ref": "r" * 10_000}), "message_too_large"),
    ]
    for text, code in cases:
        await socket.ws.send(text)
        error = await socket.expect("error")
        assert error["code"] == code, (text[:60], error)
        assert error["message"]
    await socket.ws.send(b'{"type": "ping", "ref": "bytes"}')
    assert (await socket.expect("pong"))["ref"] == "bytes"
    version = socket.version
    await socket.send(type="move", move=line(0, 0, 1, 0), version=version)
    await socket.until_version(version + 1)
    assert socket.model.state["board"]["lines"][-1]["line"] == [[0, 0], [1, 0]]
    await socket.close()


async def test_floods_are_rate_limited(start_server: StartServer) -> None:
    server = await start_server(messages_per_second=1, message_burst=5)
    grant, _ = await live_room(server)
    socket = await Socket.open(server, grant["room_id"], grant["token"])
    for index in range(20):
        await socket.send(type="ping", ref=str(index))
    replies = [await socket.next() for _ in range(20)]
    kinds = [
        r["type"] if r["type"] != "error" else r["code"]
        for r in replies
        if r["type"] in ("pong", "error")
    ]
    assert kinds.count("pong") <= 6 and "rate_limited" in kinds
    await socket.close()


async def test_hello_errors(server: LiveServer) -> None:
    grant, _ = await live_room(server)
    async with websockets.connect(f"{server.ws_url}/api/rooms/{grant['room_id']}/ws") as ws:
        await ws.send(json.dumps({"type": "ping"}))
        assert json.loads(await ws.recv())["code"] == "bad_request"
        await ws.send(json.dumps({"type": "hello", "token": grant["token"]}))
        assert json.loads(await ws.recv())["type"] == "welcome"
    # A token that holds no seat ends the connection at once, with its own close code.
    async with websockets.connect(f"{server.ws_url}/api/rooms/{grant['room_id']}/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "token": "guess", "ref": "h1"}))
        refused = json.loads(await ws.recv())
        assert refused["code"] == "bad_token" and refused["ref"] is None
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 10)
        assert ws.close_code == 4003
    async with websockets.connect(f"{server.ws_url}/api/rooms/unknown/ws") as ws:
        await ws.send(json.dumps({"type": "hello"}))
        assert json.loads(await ws.recv())["code"] == "room_not_found"
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 10)
        assert ws.close_code == 4004


async def test_a_resent_move_id_is_acked_as_a_duplicate(server: LiveServer) -> None:
    grant, guest = await live_room(server)
    room = grant["room_id"]
    gold = await Socket.open(server, room, grant["token"])
    coral = await Socket.open(server, room, guest["token"])
    await both_connected(gold)
    version = gold.version
    await gold.send(type="move", move=line(0, 0, 1, 0), version=version, move_id="m-1", ref="r1")
    applied = await gold.expect("event")
    assert applied["version"] == version + 1 and applied["event"]["move_id"] == "m-1"
    # The reply was "lost": the client sends the same move again after reconnecting.
    await gold.send(type="move", move=line(0, 0, 1, 0), version=version, move_id="m-1", ref="r2")
    ack = await gold.expect("ack", lambda m: m["ref"] == "r2")
    assert ack == {
        "protocol": 3,
        "type": "ack",
        "room": room,
        "version": version + 1,
        "ref": "r2",
        "move_id": "m-1",
        "duplicate": True,
    }
    assert not [m for m in gold.seen if m["type"] == "error"]
    # Nothing was played twice: the opponent saw one event, and the room holds one move.
    await coral.send(type="ping", ref="sync")
    await coral.expect("pong")
    assert [m["version"] for m in coral.seen if m["type"] == "event"] == [version + 1]
    state = await snapshot_of(server, room)
    assert state["version"] == version + 1 and state["move_count"] == 1
    await gold.close()
    await coral.close()


async def test_move_ids_are_scoped_to_the_seat_and_the_game(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="correspondence", first="me")
        guest = await join_room(client, grant)
        room, gold, coral = grant["room_id"], grant["token"], guest["token"]

        async def play(token: str, mv: dict) -> dict:
            response = await move(client, room, token, mv, move_id="same-id")
            assert response.status_code == 200, response.text
            return response.json()

        assert not (await play(gold, line(0, 0, 1, 0)))["duplicate"]
        assert not (await play(coral, line(1, 0, 2, 0)))["duplicate"]  # the other seat
        assert (await play(gold, line(0, 0, 1, 0)))["duplicate"]  # resent: the same seat, game
        # Another move under a used id is refused, not dropped as a resend.
        reused = await move(client, room, gold, line(2, 0, 3, 0), move_id="same-id")
        assert reused.status_code == 409, reused.text
        assert reused.json()["code"] == "move_id_reused"
        assert reused.json()["details"] == {"played": "a1-b1"}
        assert (await read_room(client, room))["move_count"] == 2
        await client.post(
            f"/api/rooms/{room}/actions",
            json={"type": "offer", "kind": "restart"},
            headers={"Authorization": f"Bearer {gold}"},
        )
        await client.post(
            f"/api/rooms/{room}/actions",
            json={"type": "accept", "kind": "restart"},
            headers={"Authorization": f"Bearer {coral}"},
        )
        assert not (await play(gold, line(0, 0, 1, 0)))["duplicate"]  # a new game
        state = await read_room(client, room)
    assert state["game_number"] == 2 and state["move_count"] == 1


def _server_tasks() -> list[asyncio.Task]:
    """Tasks of the server side (uvicorn and tetrad code) in this event loop."""
    tasks = []
    for task in asyncio.all_tasks():
        code = getattr(task.get_coro(), "cr_code", None)
        if code is not None and ("/uvicorn/" in code.co_filename or "/server/" in code.co_filename):
            tasks.append(task)
    return tasks


async def test_an_idle_websocket_costs_one_task(server: LiveServer) -> None:
    """Memory per idle connection stays small: no sender, heartbeat or reader task of its
    own (presence is kept per process), only the connection's ASGI task itself."""
    grant, guest = await live_room(server)
    room = grant["room_id"]
    warm = await Socket.open(server, room, None)
    before = len(_server_tasks())
    sockets = [await Socket.open(server, room, None) for _ in range(10)]
    sockets.append(await Socket.open(server, room, grant["token"]))
    sockets.append(await Socket.open(server, room, guest["token"]))
    for socket in sockets:
        await socket.send(type="ping", ref="idle")
        await socket.expect("pong")
    for _ in range(1000):  # let short-lived flush tasks finish (no clock involved)
        if len(_server_tasks()) - before == len(sockets):
            break
        await asyncio.sleep(0)
    assert len(_server_tasks()) - before == len(sockets)
    for socket in [*sockets, warm]:
        await socket.close()


async def test_a_silent_client_is_closed_with_hello_timeout(start_server: StartServer) -> None:
    server = await start_server(hello_timeout_seconds=0.5)
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="live")
    async with websockets.connect(f"{server.ws_url}/api/rooms/{grant['room_id']}/ws") as ws:
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), 30)
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4008, "hello_timeout")


async def test_a_seat_taken_on_another_process_is_known_at_hello(
    start_server: StartServer,
) -> None:
    """A process whose copy of the room predates the join still seats the guest."""
    first, second = await start_server(), await start_server()
    async with httpx.AsyncClient(base_url=second.url) as client:
        grant = await create_room(client, mode="live")
        await read_room(client, grant["room_id"])  # the second process now caches the room
    async with httpx.AsyncClient(base_url=first.url) as client:
        guest = await join_room(client, grant)
    coral = await Socket.open(second, grant["room_id"], guest["token"])
    assert coral.seen[0]["seat"] == 1 and coral.seen[0]["role"] == "player"
    async with httpx.AsyncClient(base_url=second.url) as client:
        again = await join_room(client, grant, token=guest["token"])
        assert again["seat"] == 1
    await coral.close()


class SayingHello:
    """A socket of this process that has joined its room but not claimed its seat yet."""

    def __init__(self, room_id: str) -> None:
        self.room_id = room_id
        self.id = "new-tab"
        self.seat = 0
        self.closing = False
        self.ready = False
        self.watching = False
        self.computer_room = False
        self.closed: tuple[int, str] | None = None

    def deliver(self, kind: str, version: int, text: str, committed: float | None = None) -> None:
        return None

    def control(self, payload: dict) -> None:
        return None

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def test_a_tab_still_saying_hello_is_not_taken_over_by_the_one_it_replaces(
    server: LiveServer, key_prefix: str
) -> None:
    """Between joining the room's channel and claiming the seat, the seat's key still names
    the old tab: a presence round then must not close the new one."""
    grant, _ = await live_room(server)
    room = grant["room_id"]
    old = await Socket.open(server, room, grant["token"])
    hub, keeper = server.app.state.hub, server.app.state.presence
    newcomer = SayingHello(room)
    await hub.join(newcomer)
    try:
        await keeper.round()
        assert newcomer.closed is None
        newcomer.ready = True  # as if welcomed without claiming: the old tab holds the seat
        await keeper.round()
        assert newcomer.closed == (4001, "taken_over")
    finally:
        await hub.leave(newcomer)
    await old.close()
