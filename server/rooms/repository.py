"""Rooms in the store: load, cache and commit by compare-and-set.

Redis holds the truth: a room document (everything but the moves), the moves of the current
game as a list (a move appends one item), a version and a history epoch (bumped when the
list is rewritten: undo, new game). This process keeps recently used rooms in memory, keyed
by room and version, so a move costs one round trip: the commit. A stale entry is found out
by the compare-and-set (or by an event of a newer version seen on pub/sub) and reloaded,
fetching only the moves it lacks.
"""

from __future__ import annotations

import functools
import json
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from core.boxes import BoxesState, Line
from core.dots import DotsState, Point
from core.errors import TetradError
from core.game import ending_from_json
from server.refusals import Refusal
from server.rooms import games
from server.rooms.clock import Clock, TimeControl
from server.rooms.model import (
    AnyGame,
    Change,
    Move,
    PendingRequest,
    PreviousGame,
    Room,
    SeatRecord,
)
from server.rooms.stores import Commit, CommitResult, RoomStore

ROOMS_CACHED = 4096


@dataclass(frozen=True, slots=True)
class LoadedRoom:
    """A room at a version, as this process last saw it."""

    version: int
    epoch: int
    room: Room


class RoomRepository:
    def __init__(self, store: RoomStore, cached: int = ROOMS_CACHED) -> None:
        self.store = store
        self.cached = cached
        self._rooms: OrderedDict[str, LoadedRoom] = OrderedDict()
        self._seen: dict[str, int] = {}

    async def get(self, room_id: str) -> LoadedRoom:
        """The room, from memory if it is known to be current, else from the store."""
        loaded = self._rooms.get(room_id)
        if loaded is not None and self._seen.get(room_id, 0) <= loaded.version:
            self._rooms.move_to_end(room_id)
            return loaded
        return await self.reload(room_id)

    async def reload(self, room_id: str) -> LoadedRoom:
        """The room as the store holds it now (room_not_found if it is gone)."""
        cached = self._rooms.get(room_id) if _plausible_room_id(room_id) else None
        if cached is not None:
            stored = await self.store.load(
                room_id, epoch=cached.epoch, moves_from=len(cached.room.game.moves)
            )
        elif _plausible_room_id(room_id):
            stored = await self.store.load(room_id)
        else:
            stored = None
        if stored is None:
            self.forget(room_id)
            raise Refusal("room_not_found", "no such room (it may have expired)")
        meta = json.loads(stored.meta)
        base = cached.room.game if cached is not None and stored.moves_from else None
        room = room_from_meta(meta, stored.moves, base)
        loaded = LoadedRoom(stored.version, stored.epoch, room)
        self._remember(room_id, loaded)
        return loaded

    def saw_version(self, room_id: str, version: int) -> None:
        """A newer version exists (seen on pub/sub): the cached room is stale past it."""
        loaded = self._rooms.get(room_id)
        if loaded is not None and version > loaded.version:
            self._seen[room_id] = version

    def forget(self, room_id: str) -> None:
        self._rooms.pop(room_id, None)
        self._seen.pop(room_id, None)

    def _remember(self, room_id: str, loaded: LoadedRoom) -> None:
        self._rooms[room_id] = loaded
        self._rooms.move_to_end(room_id)
        if self._seen.get(room_id, 0) <= loaded.version:
            self._seen.pop(room_id, None)
        while len(self._rooms) > self.cached:
            gone, _ = self._rooms.popitem(last=False)
            self._seen.pop(gone, None)

    async def create(self, room: Room, messages: list[str]) -> bool:
        """Store a new room; False if its id is taken."""
        result = await self.store.commit(
            room.id,
            Commit(
                expected_version=None,
                messages=messages,
                meta=meta_json(room),
                history="rewrite",
                moves=[move_text(move) for move in room.game.moves],
                ttl_seconds=room.ttl_seconds,
            ),
        )
        if result.status != "committed":
            return False
        self._remember(room.id, LoadedRoom(result.version, 1, room))
        return True

    async def commit(
        self,
        loaded: LoadedRoom,
        change: Change,
        messages: list[str],
        *,
        command_id: str | None = None,
        outbox: str | None = None,
    ) -> CommitResult:
        """Commit ``change`` if the room is still at ``loaded.version``."""
        room = change.room
        history = change.history
        if history == "append":
            last = room.game.last_move  # not .moves, which copies them all
            assert last is not None
            moves = [move_text(last)]
            meta_changed = room.requests != loaded.room.requests or room.clock != loaded.room.clock
        elif history == "rewrite":
            moves = [move_text(move) for move in room.game.moves]
            meta_changed = True
        else:
            moves = []
            meta_changed = True
        result = await self.store.commit(
            room.id,
            Commit(
                expected_version=loaded.version,
                messages=messages,
                meta=meta_json(room) if meta_changed else None,
                history=history,
                moves=moves,
                command_id=command_id,
                require_present=change.require_present,
                outbox=outbox,
                ttl_seconds=room.ttl_seconds,
            ),
        )
        if result.status == "committed":
            epoch = loaded.epoch + 1 if history == "rewrite" else loaded.epoch
            self._remember(room.id, LoadedRoom(result.version, epoch, room))
        elif result.status in ("moved_on", "gone"):
            self.forget(room.id)
        return result


def _plausible_room_id(room_id: str) -> bool:
    return 1 <= len(room_id) <= 32 and all(c.isalnum() or c in "-_" for c in room_id)


# -- the stored form ---------------------------------------------------------------------


@functools.lru_cache(maxsize=8192)
def move_text(move: Move) -> str:
    """A move as stored in the move list: core's notation (``a1-b1``, ``c5``); remembered,
    since the same few hundred lines and points are written move after move."""
    return str(move)


def parse_move(text: str) -> Move:
    """A stored move. Servers before protocol 3 stored numbers (``x1,y1,x2,y2`` or ``x,y``);
    rooms they left in Redis are still read."""
    if "," in text:
        numbers = [int(part) for part in text.split(",")]
        if len(numbers) == 4:
            return Line((numbers[0], numbers[1]), (numbers[2], numbers[3]))
        return Point(numbers[0], numbers[1])
    return Line.from_str(text) if "-" in text else Point.from_str(text)


def _seats(data: list[list[Any]]) -> tuple[SeatRecord, SeatRecord]:
    """Seats as stored: ``[kind, token_hash]``, then the name and the bot flag when given
    (rooms stored before names came have two fields)."""
    first, second = (
        SeatRecord(seat[0], seat[1])
        if len(seat) == 2
        else SeatRecord(seat[0], seat[1], seat[2], bool(seat[3]))
        for seat in data
    )
    return (first, second)


def _seats_json(seats: tuple[SeatRecord, SeatRecord]) -> list[list[Any]]:
    return [
        [seat.kind, seat.token_hash]
        if seat.name is None and not seat.bot
        else [seat.kind, seat.token_hash, seat.name, seat.bot]
        for seat in seats
    ]


def meta_json(room: Room) -> str:
    """The room document: everything but the moves of the current game."""
    previous = room.previous
    data = {
        "id": room.id,
        "game": room.game_name,
        "mode": room.mode,
        "level": room.level,
        "daily": room.daily,
        "daily_player": room.daily_player,
        "invite_code": room.invite_code,
        "game_number": room.game_number,
        "seats": _seats_json(room.seats),
        "requests": [[request.kind, request.seat] for request in room.requests],
        "setup": room.setup,
        "end": room.game.to_json().get("end") if room.game.is_over else None,
        "previous": None
        if previous is None
        else {
            "game_number": previous.game_number,
            "seats": _seats_json(previous.seats),
            "record": previous.game.to_json(),
        },
        "ttl_seconds": room.ttl_seconds,
        "created_at": room.created_at,
        "clock": None if room.clock is None else _clock_json(room.clock),
    }
    if room.rated:
        data["rated"] = True
    return json.dumps(data, separators=(",", ":"))


def _clock_json(clock: Clock) -> dict[str, Any]:
    control = clock.control
    return {
        "initial": control.initial,
        "increment": control.increment,
        "per_move": control.per_move,
        "left": list(clock.left),
        "running": clock.running,
        "since": clock.since,
    }


def _clock(data: dict[str, Any] | None) -> Clock | None:
    if data is None:
        return None
    control = TimeControl(data["initial"], data["increment"], data["per_move"])
    left = (float(data["left"][0]), float(data["left"][1]))
    return Clock(control, left, data["running"], data["since"])


def room_from_meta(meta: dict[str, Any], moves: list[str], base: AnyGame | None = None) -> Room:
    """Rebuild a room from its document and moves (``moves`` continue ``base`` if given)."""
    try:
        game = base if base is not None else games.from_record(meta["setup"])
        for text in moves:
            game = game.play(parse_move(text))
        end = meta.get("end")
        if end is not None and not game.is_over:
            game = _ended(game, end)
    except (TetradError, KeyError, ValueError) as error:
        raise RuntimeError(f"room {meta.get('id')} has a broken record: {error}") from error
    previous = meta.get("previous")
    return Room(
        id=meta["id"],
        game_name=meta["game"],
        mode=meta["mode"],
        seats=_seats(meta["seats"]),
        setup=meta["setup"],
        game=game,
        level=meta.get("level"),
        daily=meta.get("daily"),
        daily_player=meta.get("daily_player"),
        invite_code=meta.get("invite_code"),
        game_number=meta.get("game_number", 1),
        requests=tuple(PendingRequest(kind, seat) for kind, seat in meta.get("requests", [])),
        previous=None
        if previous is None
        else PreviousGame(
            previous["game_number"],
            _seats(previous["seats"]),
            games.from_record(previous["record"]),
        ),
        ttl_seconds=meta.get("ttl_seconds", 0),
        created_at=meta.get("created_at", time.time()),
        clock=_clock(meta.get("clock")),
        rated=bool(meta.get("rated", False)),
    )


def _ended(game: AnyGame, end: dict[str, Any]) -> AnyGame:
    """``game`` ended as the stored ``end`` says (resignation, agreement or grounding)."""
    if isinstance(game, DotsState):
        return game.end(ending_from_json(end, "grounding"))
    assert isinstance(game, BoxesState)
    return game.end(ending_from_json(end))
