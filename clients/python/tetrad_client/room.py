"""One room over its websocket, kept up to date the way docs/api.md says a client must.

* **Catching up.** ``hello`` says the version held; ``welcome`` brings the events after it or
  a snapshot. Events are applied in version order: one already held is dropped, one further
  ahead than the next sends one ``sync`` and keeps later events until its ``resync``.
* **The status rule.** An event's status replaces the one held, except ``allowed``, kept
  when absent.
* **Commands.** Each gets a ``ref``; :meth:`Room.command` returns its ``ack`` (the room
  already holds what it did: events come before their ack) or raises :class:`Refused`.
* **Reconnecting.** A dropped connection is opened again with backoff and ``hello`` with
  the version held; commands not yet answered are sent again, a move with its ``move_id``
  (the server applies it at most once). Close codes that say "stop" (``4001 taken_over``,
  ``4003 bad_token``, ``4004 room_not_found``, ``4010 room_gone``) end the room with
  :class:`RoomClosed` instead.
* **Pacing.** Messages go out at most at the server's default rate (10 a second, bursts of
  30); a command refused ``rate_limited`` is sent again after its ``retry_after``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections.abc import Callable
from typing import Any, Literal

import websockets
from pydantic import TypeAdapter
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tetrad_client import models
from tetrad_client.moves import Move, from_wire, line, wire_move
from tetrad_client.position import Position, position_of

SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(models.ServerMessage)

# Close codes after which reconnecting cannot help (docs/api.md, "Close codes").
FINAL_CLOSE_CODES = {
    4001: "taken_over",
    4003: "bad_token",
    4004: "room_not_found",
    4010: "room_gone",
}


class Refused(Exception):
    """The server refused a command: ``code`` is stable (docs/api.md, "Errors")."""

    def __init__(
        self,
        code: str,
        message: str,
        details: dict[str, Any] | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details = details or {}
        self.retry_after = retry_after


class RoomClosed(Exception):
    """The server ended the connection for good (or the room was closed here)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"connection closed: {code} {reason}")
        self.code = code
        self.reason = reason


class Pacer:
    """A token bucket: at most ``rate`` messages a second after a burst of ``burst``."""

    def __init__(self, rate: float = 10.0, burst: int = 30) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.paused_until = 0.0

    def pause(self, seconds: float) -> None:
        """The server said to wait: nothing goes out before ``seconds`` from now."""
        self.paused_until = max(self.paused_until, time.monotonic() + seconds)
        self.tokens = 0.0

    async def take(self) -> None:
        while True:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            wait = self.paused_until - now
            if wait <= 0 and self.tokens >= 1:
                self.tokens -= 1
                return
            await asyncio.sleep(max(wait, (1 - self.tokens) / self.rate))


class Room:
    """A live view of one room and the commands of one seat (or of a spectator)."""

    def __init__(
        self,
        ws_url: str,
        room_id: str,
        token: str | None,
        *,
        pacer: Pacer | None = None,
        reconnect_for: float = 120.0,
        on_message: Callable[[str | bytes], None] | None = None,
    ) -> None:
        self.url = f"{ws_url.rstrip('/')}/api/rooms/{room_id}/ws"
        self.room_id = room_id
        self.token = token
        self.pacer = pacer or Pacer()
        self.reconnect_for = reconnect_for
        self.on_message = on_message
        self.seat: int | None = None
        self.role: Literal["player", "spectator"] = "spectator"
        self.state: models.RoomSnapshot | None = None
        self.history: list[Move] | None = None
        self.connections = 0
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._pending: dict[str, tuple[dict[str, Any], asyncio.Future[Any]]] = {}
        self._refs = 0
        self._syncing = False
        self._held: list[models.EventMessage] = []
        self._changed = asyncio.Event()
        self._failure: RoomClosed | None = None
        self._closing = False

    # -- the room as it stands ------------------------------------------------------------

    @property
    def version(self) -> int:
        return self.state.version if self.state is not None else 0

    @property
    def snapshot(self) -> models.RoomSnapshot:
        if self.state is None:
            raise RuntimeError("the room is not open")
        return self.state

    @property
    def status(self) -> models.Status:
        return self.snapshot.status

    @property
    def over(self) -> bool:
        return self.status.outcome is not None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and not self.over and self.status.to_move == self.seat

    @property
    def closed(self) -> RoomClosed | None:
        """Why the room ended, once it has."""
        return self._failure

    def position(self) -> Position:
        """The position as an engine reads it."""
        return position_of(self.snapshot, self.seat, self.history)

    async def until(self, condition: Callable[[Room], bool], timeout: float | None = None) -> None:
        """Wait until ``condition(room)`` holds, checked after every change of the room;
        RoomClosed if the room ends first."""
        async with asyncio.timeout(timeout):
            while True:
                changed = self._changed
                if self._failure is not None:
                    raise self._failure
                if self.state is not None and condition(self):
                    return
                await changed.wait()

    # -- opening and closing ----------------------------------------------------------------

    async def open(self) -> Room:
        """Connect and say hello; RoomClosed if the server refuses the seat or the room."""
        await self._connect_retrying(first_delay=0)
        self._reader = asyncio.create_task(self._read_forever(), name=f"tetrad room {self.room_id}")
        return self

    async def close(self) -> None:
        self._closing = True
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        self._fail(RoomClosed(1000, "closed by the client"))

    async def __aenter__(self) -> Room:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _connect(self) -> None:
        ws = await websockets.connect(self.url, max_size=2**22, open_timeout=20)
        hello = {"type": "hello", "token": self.token, "since": self._since()}
        while True:
            try:
                if hello:
                    await ws.send(json.dumps(hello))
                    hello = {}
                text = await ws.recv()
            except ConnectionClosed as closed:
                raise self._closed_error(closed) from None
            message = SERVER_MESSAGE.validate_json(text)
            if isinstance(message, models.WelcomeMessage):
                break
            # An error here (bad_token, room_not_found, unavailable) is followed by the
            # close, whose code says whether to try again.
        self._ws = ws
        self.connections += 1
        self._receive(text, message)

    def _since(self) -> int | None:
        return None if self.state is None else self.state.version

    @staticmethod
    def _closed_error(closed: ConnectionClosed) -> RoomClosed:
        code = closed.rcvd.code if closed.rcvd is not None else 1006
        reason = closed.rcvd.reason if closed.rcvd is not None else "connection lost"
        return RoomClosed(code, reason or FINAL_CLOSE_CODES.get(code, ""))

    async def _connect_retrying(self, first_delay: float) -> None:
        """Connect, trying again with backoff what may pass (storage unavailable, 1013; a
        refused or dropped connection); RoomClosed on a final close code, or once
        ``reconnect_for`` seconds have passed without a connection."""
        delay, started = first_delay, time.monotonic()
        while True:
            if delay:
                await asyncio.sleep(delay * (0.5 + random.random()))
            try:
                await self._connect()
                return
            except RoomClosed as closed:
                if closed.code in FINAL_CLOSE_CODES:
                    raise
                error = closed
            except (OSError, InvalidHandshake, TimeoutError) as failed:
                error = RoomClosed(1006, f"cannot connect: {failed}")
            if time.monotonic() - started > self.reconnect_for:
                raise error
            delay = min(max(delay * 2, 0.1), 5.0)

    async def _read_forever(self) -> None:
        while not self._closing:
            ws = self._ws
            assert ws is not None
            try:
                async for text in ws:
                    self._receive(text)
                code = ws.close_code or 1006
                error = RoomClosed(code, ws.close_reason or FINAL_CLOSE_CODES.get(code, ""))
            except ConnectionClosed as closed:
                error = self._closed_error(closed)
            if self._closing:
                return
            if error.code in FINAL_CLOSE_CODES:
                self._fail(error)
                return
            try:  # the hello says the version held; what was not answered goes again
                await self._connect_retrying(first_delay=0.1)
            except RoomClosed as closed:
                self._fail(closed)
                return
            await self._resend()

    def _fail(self, error: RoomClosed) -> None:
        if self._failure is None:
            self._failure = error
        for _, future in self._pending.values():
            if not future.done():
                future.set_exception(error)
        self._pending.clear()
        self._notify()

    # -- commands ---------------------------------------------------------------------------

    async def command(self, message_type: str, /, **fields: Any) -> Any:
        """Send a command (``offer``, ``accept``, ``new_game``, ...) and wait for its reply:
        the ``ack`` (or ``pong``) message, or Refused with the error's code."""
        if self._failure is not None:
            raise self._failure
        self._refs += 1
        ref = f"c{self._refs}"
        payload = {"type": message_type, **fields, "ref": ref}
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[ref] = (payload, future)
        await self._send(payload)
        return await future

    async def move(
        self, move: Any, *, move_id: str | None = None, checked: bool = True
    ) -> models.AckMessage:
        """Play ``move`` (a tuple, a wire dict or a generated model). ``checked``: made
        against the version held (refused ``stale_version`` if the room moved on)."""
        fields: dict[str, Any] = {"move": wire_move(move), "move_id": move_id or uuid.uuid4().hex}
        if checked:
            fields["version"] = self.version
        ack: models.AckMessage = await self.command("move", **fields)
        return ack

    async def offer(self, kind: str) -> models.AckMessage:
        return await self.command("offer", kind=kind)  # type: ignore[no-any-return]

    async def accept(self, kind: str) -> models.AckMessage:
        return await self.command("accept", kind=kind)  # type: ignore[no-any-return]

    async def decline(self, kind: str) -> models.AckMessage:
        return await self.command("decline", kind=kind)  # type: ignore[no-any-return]

    async def resign(self) -> models.AckMessage:
        return await self.command("resign")  # type: ignore[no-any-return]

    async def new_game(self, first: str | None = None) -> models.AckMessage:
        fields = {} if first is None else {"first": first}
        return await self.command("new_game", **fields)  # type: ignore[no-any-return]

    async def hint(self) -> models.HintView | None:
        ack: models.AckMessage = await self.command("hint")
        return ack.hint

    async def line_values(self) -> models.LineValuesView | None:
        """What every undrawn line of the position is worth (Dots and Boxes against the
        computer, on your turn): the review's analysis of the position, exact or not."""
        ack: models.AckMessage = await self.command("line_values")
        return ack.line_values

    async def ping(self) -> models.PongMessage:
        return await self.command("ping")  # type: ignore[no-any-return]

    async def _send(self, payload: dict[str, Any]) -> None:
        await self.pacer.take()
        ws = self._ws
        if ws is None:
            return
        with contextlib.suppress(ConnectionClosed):  # sent again once reconnected
            await ws.send(json.dumps(payload))

    async def _resend(self) -> None:
        for payload, future in list(self._pending.values()):
            if not future.done():
                await self._send(payload)

    async def _resend_later(self, payload: dict[str, Any], seconds: float) -> None:
        self.pacer.pause(seconds)
        await self._send(payload)

    # -- what the server says -----------------------------------------------------------

    def _receive(self, text: str | bytes, message: Any = None) -> None:
        if message is None:
            message = SERVER_MESSAGE.validate_json(text)
        if self.on_message is not None:
            self.on_message(text)
        if isinstance(message, models.EventMessage):
            self._on_event(message)
        elif isinstance(message, models.WelcomeMessage):
            self.seat, self.role = message.seat, message.role
            self._catch_up(message.events, message.snapshot)
            self.snapshot.seats, self.snapshot.spectators = message.seats, message.spectators
        elif isinstance(message, models.ResyncMessage):
            self._syncing = False
            self._catch_up(message.events, message.snapshot)
            held, self._held = self._held, []
            for event in held:
                self._on_event(event)
        elif isinstance(message, models.PresenceMessage):
            if self.state is not None:
                self.state.seats, self.state.spectators = message.seats, message.spectators
        elif isinstance(message, models.AckMessage | models.PongMessage):
            self._answer(message.ref, message)
        elif isinstance(message, models.ErrorMessage):
            self._on_error(message)
        self._notify()

    def _notify(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    def _answer(self, ref: str | None, result: Any, error: Exception | None = None) -> None:
        entry = self._pending.pop(ref or "", None)
        if entry is None or entry[1].done():
            return
        if error is not None:
            entry[1].set_exception(error)
        else:
            entry[1].set_result(result)

    def _on_error(self, message: models.ErrorMessage) -> None:
        entry = self._pending.get(message.ref or "")
        if message.code == "rate_limited" and entry is not None:
            asyncio.get_running_loop().create_task(
                self._resend_later(entry[0], message.retry_after or 1.0)
            )
            return
        refusal = Refused(message.code, message.message, message.details, message.retry_after)
        self._answer(message.ref, None, refusal)

    def _catch_up(
        self, events: list[models.EventMessage], snapshot: models.RoomSnapshot | None
    ) -> None:
        if snapshot is not None:
            self.state = snapshot
            self.history = known_history(snapshot)
        for event in events:
            self._on_event(event)

    def _on_event(self, message: models.EventMessage) -> None:
        if self.state is None:
            return
        if self._syncing:
            self._held.append(message)
            return
        if message.version <= self.state.version:
            return
        if message.version > self.state.version + 1:
            self._syncing = True
            self._held.append(message)
            asyncio.get_running_loop().create_task(self._sync())
            return
        self._apply(message)

    async def _sync(self) -> None:
        self._refs += 1
        await self._send({"type": "sync", "since": self.version, "ref": f"s{self._refs}"})

    def _apply(self, message: models.EventMessage) -> None:
        state = self.snapshot
        event = message.event
        board = state.board
        if isinstance(event, models.MoveEvent):
            state.move_count += 1
            if isinstance(board, models.BoxesBoard) and isinstance(event.move, models.LineMove):
                board.lines.append(models.DrawnLine(line=event.move.line, player=event.seat))
                board.boxes += [
                    models.OwnedBox(box=b, owner=event.seat) for b in event.closed or []
                ]
                board.last_move = event.move
            elif isinstance(board, models.DotsBoard) and isinstance(event.move, models.PointMove):
                x, y = event.move.point
                board.marks.append((x, y, event.seat))
                gone = {tuple(key) for key in event.areas_removed or []}
                board.areas = [a for a in board.areas if tuple(a.key) not in gone]
                board.areas += event.captures or []
                left = {tuple(h) for h in event.houses_removed or []}
                board.houses = [h for h in board.houses if (*h.key, h.owner) not in left]
                board.houses += event.houses_added or []
                board.last_move = event.move
            if self.history is not None:
                self.history.append(from_wire(event.move))
        elif isinstance(event, models.JoinedEvent):
            state.seats[event.seat].taken = True
        elif isinstance(event, models.RequestedEvent):
            state.requests.append(models.PendingRequestView(kind=event.request, seat=event.seat))
        elif isinstance(event, models.DeclinedEvent):
            state.requests = [r for r in state.requests if r.kind != event.request]
        elif isinstance(event, models.NewBoardEvent):
            known = self.history
            state.board = event.board
            state.game_number = event.game_number
            state.move_count = event.move_count
            state.computer_seat = event.computer_seat
            if state.mode == "computer" and event.computer_seat is not None:
                for seat in state.seats:
                    seat.kind = "computer" if seat.seat == event.computer_seat else "human"
                if self.seat is not None:  # a new game may give the computer the other seat
                    self.seat = 1 - event.computer_seat
            state.requests = []
            self.history = known_history(state)
            if self.history is None and known is not None and event.kind == "undone":
                self.history = known[: event.move_count]
        elif isinstance(event, models.EndedEvent):
            state.requests = []
        elif isinstance(event, models.LevelEvent):
            state.level = event.level
        status = message.status
        if status.allowed is None:
            status.allowed = state.status.allowed
        state.status = status
        state.version = message.version


def known_history(state: models.RoomSnapshot) -> list[Move] | None:
    """The moves of the game in order, where the snapshot tells them: a Dots and Boxes
    board lists its lines in the order drawn; a Dots board only its marks, so its moves are
    known only at the start of a game."""
    board = state.board
    if isinstance(board, models.BoxesBoard):
        return [line(*entry.line) for entry in board.lines if entry.player is not None]
    return [] if state.move_count == 0 else None
