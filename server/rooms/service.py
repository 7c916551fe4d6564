"""The room service: orchestration only. It resolves seats, asks the rules
(:mod:`server.rooms.rules`) what a command does, commits the change through the repository
and reports what happened; the rules of rooms live in the reducer, the rules of the games in
``core``. It receives its storage, one small store per concern
(:class:`server.rooms.stores.Stores`), and owns the parts that act on it: the repository,
presence (:mod:`server.rooms.presence`) and the computer's turns
(:mod:`server.rooms.computer_turns`), which it starts after each commit that leaves the
computer to move.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from core.game import Player
from core.review import Limits
from server.db.records import FinishedGame
from server.protocol import (
    HintView,
    LineValuesView,
    RoomSnapshot,
    hint_adapter,
    line_values_adapter,
)
from server.refusals import Refusal
from server.rooms import daily, history, rules, views
from server.rooms.computer import ComputerPlayer
from server.rooms.computer_turns import ComputerTurns, seed
from server.rooms.history import CatchUp
from server.rooms.model import (
    Change,
    Command,
    Join,
    Joined,
    MoveMade,
    Opening,
    PlayMove,
    Room,
    RoomOptions,
)
from server.rooms.presence import Presence
from server.rooms.repository import LoadedRoom, RoomRepository
from server.rooms.stores import SpectatorsCounted, Stores
from server.rooms.time_outs import TimeOuts
from server.settings import Settings

log = logging.getLogger("tetrad.rooms")

COMMIT_ATTEMPTS = 8
SEAT_TOKEN_NEEDED = "a valid seat token is required (Authorization: Bearer …)"


@dataclass(frozen=True, slots=True)
class Done:
    """A command's result: the room's version after it, whether it had been done before
    (a resent command id), a hint when one was asked for, and the texts of the events it
    committed (which take the room to ``version``)."""

    version: int
    duplicate: bool = False
    hint: HintView | None = None
    line_values: LineValuesView | None = None
    events: tuple[str, ...] = ()
    committed_at: float | None = None
    """When ``events`` were committed (seconds since the epoch)."""


@dataclass(frozen=True, slots=True)
class Granted:
    """A seat given to a player (``seat`` None: a spectator) and the room as they see it."""

    room: Room
    seat: Player | None
    token: str | None
    snapshot: RoomSnapshot


@dataclass
class RoomMetrics:
    """Hooks the app connects to Prometheus; plain no-ops by default."""

    on_room_created: Callable[[str, str], None] = lambda game, mode: None
    on_move: Callable[[str, str], None] = lambda game, mode: None
    on_ai_think: Callable[[float], None] = lambda seconds: None
    on_commit: Callable[[float], None] = lambda seconds: None
    extra: dict[str, Any] = field(default_factory=dict)


@functools.lru_cache(maxsize=8192)
def hash_token(token: str) -> str:
    """How a seat token is stored: its SHA-256 (remembered for the tokens in use, since every
    command of a seat presents its token again)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A seat token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def seat_of(room: Room, token: str | None) -> Player | None:
    """The seat ``token`` holds in ``room``, or None. Compares every seat in constant time so
    the answer's timing says nothing about the token."""
    if not token:
        return None
    presented = hash_token(token)
    found: Player | None = None
    for index, seat in enumerate(room.seats):
        stored = seat.token_hash
        if stored is not None and hmac.compare_digest(stored, presented) and found is None:
            found = 0 if index == 0 else 1
    return found


def command_key(room: Room, seat: Player, command_id: str) -> str:
    """Command ids are scoped to the seat and the game: the same id from the other seat, or
    in the next game, is a new command."""
    return f"{seat}:{room.game_number}:{command_id}"


class RoomService:
    def __init__(
        self,
        stores: Stores,
        settings: Settings,
        computer: ComputerPlayer,
        *,
        metrics: RoomMetrics | None = None,
        on_finished: Callable[[], None] = lambda: None,
        full: Callable[[], bool] = lambda: False,
        revoked: Callable[[str], bool] = lambda token_hash: False,
        analyst: ComputerPlayer | None = None,
    ) -> None:
        self.stores = stores
        self.repository = RoomRepository(stores.rooms)
        self.settings = settings
        self.computer = computer
        self.analyst = analyst or computer
        """The pool hints think in: apart from the computer's moves, so that a hint never
        makes a live room's computer wait (the same pool when none is given)."""
        self.metrics = metrics or RoomMetrics()
        self.on_finished = on_finished
        """Called after a commit that put a finished game in the outbox."""
        self.full = full
        """Whether Redis holds all the operator allows (see server.store.memory_watch)."""
        self.revoked = revoked
        """Whether a token hash is a revoked bot token's (see server.bots.streams): it
        holds no seat any more."""
        self.turns = ComputerTurns(
            self.repository,
            self._computer_plays,
            stores.leases,
            computer,
            settings,
            on_think=self.metrics.on_ai_think,
        )
        self.time_outs = TimeOuts(self.end_on_time)
        self.presence = Presence(
            stores.presence,
            stores.rooms,
            stores.leases,
            self.repository,
            self.turns,
            self.time_outs,
            settings,
        )

    # -- reading ---------------------------------------------------------------------------

    async def load(self, room_id: str) -> LoadedRoom:
        return await self.repository.get(room_id)

    async def seat_for(self, room_id: str, token: str | None) -> tuple[LoadedRoom, Player | None]:
        """The room and the seat ``token`` holds in it. A token this process's copy of the
        room does not know may hold a seat taken since on another process: look again."""
        loaded = await self.repository.get(room_id)
        seat = self.seat_in(loaded.room, token)
        if seat is None and token:
            loaded = await self.repository.reload(room_id)
            seat = self.seat_in(loaded.room, token)
        return loaded, seat

    def seat_in(self, room: Room, token: str | None) -> Player | None:
        """The seat ``token`` holds in ``room`` (none, if it is a revoked bot token)."""
        if token and self.revoked(hash_token(token)):
            return None
        return seat_of(room, token)

    async def snapshot(
        self, room_id: str, counted: SpectatorsCounted | None = None
    ) -> tuple[LoadedRoom, RoomSnapshot]:
        """The room as it is now, with presence and expiry; ``counted``: as read when a
        spectator was counted in (the room is read again only if this process's copy is
        not at that version)."""
        if counted is None:
            loaded = await self.repository.reload(room_id)
            presence = await self.presence.now(room_id)
            left = await self.stores.rooms.expires_in(room_id)
        else:
            loaded = await self.repository.get(room_id)
            if loaded.version != counted.version:
                loaded = await self.repository.reload(room_id)
            presence = views.Presence(counted.presence.connected, counted.presence.spectators)
            left = counted.expires_in
        expires = None if left is None else math.ceil(left)
        snapshot = views.snapshot(loaded.room, loaded.version, presence, expires, time.time())
        return loaded, snapshot

    async def catch_up(
        self, room_id: str, since: int | None, counted: SpectatorsCounted | None = None
    ) -> CatchUp:
        """What brings a client holding version ``since`` (None: nothing) up to date: the
        events after it, or a snapshot (see :mod:`server.rooms.history`); ``counted``: the
        room as read when a spectator was counted in, if it was."""
        if since is not None:
            stored = await self.stores.rooms.events_after(room_id, since)
            if stored.version == 0:
                self.repository.forget(room_id)
                raise Refusal("room_not_found", "no such room (it may have expired)")
            events = history.events_after(since, stored.version, stored.messages)
            if events is not None:
                return CatchUp(stored.version, events)
        loaded, snapshot = await self.snapshot(room_id, counted)
        return CatchUp(loaded.version, snapshot=snapshot)

    def invite_url(self, room: Room, base_url: str) -> str | None:
        if room.invite_code is None:
            return None
        base = (self.settings.public_url or base_url).rstrip("/")
        return f"{base}/r/{room.id}#invite={room.invite_code}"

    # -- creating and joining ----------------------------------------------------------------

    async def create(
        self,
        request: RoomOptions,
        client: str | None,
        *,
        token_hash: str | None = None,
        guest_token_hash: str | None = None,
    ) -> Granted:
        """Make a room; its creator gets a new seat token, or holds the seat of
        ``token_hash`` (a bot's own token, a challenger's). ``guest_token_hash`` takes the
        other seat at once (an accepted challenge). ``client`` None: made by the server
        itself (the ladder), not limited per address."""
        if self.full():
            raise Refusal("server_full", "this server holds all the games it can; try later")
        if client is not None:
            per_minute = self.settings.room_creations_per_minute
            await self._limit("create", client, per_minute, "rooms")
        token = None if token_hash is not None else new_token()
        holder_hash = token_hash if token is None else hash_token(token)
        assert holder_hash is not None
        for _ in range(5):
            opening = Opening(
                room_id=secrets.token_urlsafe(8),
                invite_code=secrets.token_urlsafe(12),
                token_hash=holder_hash,
                coin=0 if secrets.randbelow(2) == 0 else 1,
                today=daily.today(),
                now=time.time(),
                room_ttl=self.settings.room_ttl_seconds,
                correspondence_ttl=self.settings.correspondence_ttl_seconds,
                guest_token_hash=guest_token_hash,
            )
            asked = request
            if request.daily_player is not None:
                asked = replace(request, daily_player=hash_token(request.daily_player))
            room = rules.new_room(asked, opening)
            if isinstance(room, Refusal):
                raise room
            first = next(i for i, s in enumerate(room.seats) if s.token_hash == opening.token_hash)
            change = Change(room, (Joined(0 if first == 0 else 1),))
            messages = views.event_texts(room, room, change.events, 1, opening.now)
            if await self.repository.create(room, messages):
                break
        else:
            raise Refusal("internal_error", "could not allocate a room id")
        if room.computer_to_move:
            self.turns.start(room.id)
        self.metrics.on_room_created(room.game_name, room.mode)
        log.info("room created", extra={"room": room.id, "game": room.game_name, "mode": room.mode})
        _, snapshot = await self.snapshot(room.id)
        return Granted(room, 0 if first == 0 else 1, token, snapshot)

    async def join(
        self, room_id: str, invite_code: str, token: str | None, name: str | None = None
    ) -> Granted:
        loaded, own = await self.seat_for(room_id, token)
        if own is not None:
            _, snapshot = await self.snapshot(room_id)
            return Granted(loaded.room, own, token, snapshot)
        code = loaded.room.invite_code
        if code is None or not hmac.compare_digest(code.encode(), invite_code.encode()):
            raise Refusal("bad_invite", "this invite code does not open this room")
        new_seat_token = new_token()
        await self.execute(room_id, None, Join(hash_token(new_seat_token), name))
        loaded, snapshot = await self.snapshot(room_id)
        seat = seat_of(loaded.room, new_seat_token)
        if seat is None:  # no seat was free: a spectator
            return Granted(loaded.room, None, None, snapshot)
        log.info("guest joined", extra={"room": room_id, "seat": seat})
        return Granted(loaded.room, seat, new_seat_token, snapshot)

    # -- commands ----------------------------------------------------------------------------

    async def execute(
        self, room_id: str, token: str | None, command: Command, *, seat: Player | None = None
    ) -> Done:
        """Load, decide, commit; on a lost race decide again on the newer version. ``seat``
        acts without a token (the computer's own moves, joining)."""
        checked = False
        for _ in range(COMMIT_ATTEMPTS):
            if seat is None and not isinstance(command, Join):
                loaded, found = await self.seat_for(room_id, token)
                if found is None:
                    raise Refusal("bad_token", SEAT_TOKEN_NEEDED)
                actor: Player = found
            else:
                loaded = await self.repository.get(room_id)
                actor = seat if seat is not None else 0
            room = loaded.room
            now = time.time()
            timed_out = rules.time_out(room, now)
            if timed_out is not None:
                # The time ran out before this command came: the game ends first, and the
                # command is decided again on the ended game.
                await self._commit(loaded, timed_out, None, None)
                continue
            key = _command_key(room, actor, command)
            decision = rules.decide(room, loaded.version, actor, command, now=now)
            if decision is None:
                return Done(loaded.version)
            if isinstance(decision, Refusal):
                if not checked and await self.stores.rooms.version(room_id) != loaded.version:
                    # Decided on an old copy: decide again on what the store holds now.
                    checked = True
                    await self.repository.reload(room_id)
                    continue
                if key is not None:
                    assert isinstance(command, PlayMove)
                    applied = await self.stores.rooms.applied_command(room_id, key)
                    if applied.move is not None:
                        return _resent(command, applied.version, applied.move)
                raise decision
            done = await self._commit(loaded, decision, key, command, now)
            if done is not None:
                return done
        raise Refusal("stale_version", "the room kept changing; reload and retry")

    async def _commit(
        self,
        loaded: LoadedRoom,
        change: Change,
        key: str | None,
        command: Command | None,
        now: float | None = None,
    ) -> Done | None:
        """Commit ``change`` (what ``command`` does, made at ``now``); None if the room moved
        on meanwhile (decide again)."""
        before, after = loaded.room, change.room
        at = time.time() if now is None else now
        messages = views.event_texts(before, after, change.events, loaded.version + 1, at)
        finished = _finished(after) if after.game.is_over and not before.game.is_over else None
        started = time.perf_counter()
        result = await self.repository.commit(
            loaded,
            change,
            messages,
            command_id=key,
            outbox=None if finished is None else finished.to_json(),
        )
        self.metrics.on_commit(time.perf_counter() - started)
        if result.status == "moved_on":
            return None
        if result.status == "gone":
            raise Refusal("room_not_found", "no such room (it may have expired)")
        if result.status == "duplicate":
            assert isinstance(command, PlayMove) and result.played is not None
            return _resent(command, result.version, result.played)
        if result.status == "absent":
            raise Refusal(
                "opponent_offline",
                "the other player is not connected; a live move needs both",
                seat=change.require_present,
            )
        if isinstance(change.events[-1], MoveMade):
            self.metrics.on_move(after.game_name, after.mode)
        if finished is not None:
            await self.stores.outbox.mark(after.id)
            self.on_finished()
        if after.computer_to_move:
            self.turns.start(after.id)
        if after.clock is not None:
            self.time_outs.watch(after)
        return Done(result.version, events=tuple(messages), committed_at=time.time())

    async def end_on_time(self, room_id: str) -> None:
        """End the game of ``room_id`` if its running clock has run out (else watch it)."""
        for _ in range(COMMIT_ATTEMPTS):
            loaded = await self.repository.reload(room_id)
            change = rules.time_out(loaded.room, time.time())
            if change is None:
                self.time_outs.watch(loaded.room)
                return
            if await self._commit(loaded, change, None, None) is not None:
                return

    async def hint(self, room_id: str, token: str | None) -> Done:
        """The move the computer would make for the seat of ``token`` (nothing changes)."""
        loaded, _ = await self._asking_seat(room_id, token, rules.refuse_hint)
        room = loaded.room
        # The hint is always hard's analysis, whatever level the computer plays at.
        hint, seconds = await self.analyst.hint(
            room.game.to_json(), seed(room.id, loaded.version), self.settings.ai_time_limit
        )
        self.metrics.on_ai_think(seconds)
        return Done(loaded.version, hint=hint_adapter.validate_python(hint))

    async def line_values(self, room_id: str, token: str | None) -> Done:
        """What every undrawn line of the position is worth, for the seat of ``token`` in a
        practice game against the computer (nothing changes). It thinks where hints do, in
        the analyst's pool, never in front of a computer move, and as long as the review
        gives a position (so the values are exact where the review's would be)."""
        loaded, seat = await self._asking_seat(room_id, token, rules.refuse_line_values)
        room = loaded.room
        limit = self.settings.line_values_per_minute
        await self._limit(f"line-values:{room_id}", str(seat), limit, "line values")
        seconds = self.settings.analysis_position_seconds
        limits = Limits(exact_seconds=seconds, moves_seconds=seconds / 2, hint_seconds=0.1)
        found, took = await self.analyst.line_values(room.game.to_json(), limits)
        self.metrics.on_ai_think(took)
        return Done(loaded.version, line_values=line_values_adapter.validate_python(found))

    async def _asking_seat(
        self,
        room_id: str,
        token: str | None,
        refuse: Callable[[Room, Player], Refusal | None],
    ) -> tuple[LoadedRoom, Player]:
        """The room and the seat of ``token`` when that seat may ask the computer a question
        (``refuse`` says why not): a hint, line values."""
        loaded, seat = await self.seat_for(room_id, token)
        if seat is None:
            raise Refusal("bad_token", SEAT_TOKEN_NEEDED)
        refusal = refuse(loaded.room, seat)
        if refusal is not None:
            raise Refusal(refusal.code, refusal.message)
        return loaded, seat

    async def _computer_plays(self, room_id: str, command: Command, seat: Player) -> Done:
        return await self.execute(room_id, None, command, seat=seat)

    async def rest_move_allowed(self, room_id: str, token: str | None) -> None:
        """REST moves are limited per seat token (websocket messages per connection)."""
        subject = hash_token(token or "")[:32]
        limit = self.settings.rest_moves_per_minute
        await self._limit(f"rest-move:{room_id}", subject, limit, "moves over REST")

    async def record_read_allowed(self, client: str) -> None:
        """Reading game records (reviews, downloads, rooms continuing from a record) is
        limited per client address, before the record is read: reading one costs."""
        limit = self.settings.record_reads_per_minute
        await self._limit("records", client, limit, "game records read")

    async def analysis_allowed(self, client: str) -> None:
        """Starting analyses is limited per client address, like creating rooms."""
        limit = self.settings.room_creations_per_minute
        await self._limit("analysis", client, limit, "analyses")

    async def allow(self, bucket: str, subject: str, per_minute: int, what: str) -> None:
        """Count one request of ``subject`` in ``bucket``; ``rate_limited`` past
        ``per_minute`` (for limits kept by other services, such as the bots')."""
        await self._limit(bucket, subject, per_minute, what)

    async def _limit(self, bucket: str, subject: str, per_minute: int, what: str) -> None:
        hits = await self.stores.limits.hit(bucket, subject, 60)
        if hits.count > per_minute:
            raise Refusal(
                "rate_limited",
                f"more than {per_minute} {what} a minute from you; wait",
                retry_after=hits.retry_after,
            )

    async def touch(self, room: Room) -> None:
        await self.stores.rooms.touch(room.id, room.ttl_seconds)


def _resent(command: PlayMove, version: int, played: str) -> Done:
    """A move id seen before: the same move again is a resend (done, nothing to do); another
    move under the same id is refused, never silently dropped."""
    if played != str(command.move):
        raise Refusal(
            "move_id_reused",
            f"move id {command.move_id} was used for {played} in this game; "
            "choose a new id for a new move",
            played=played,
        )
    return Done(version, duplicate=True)


def _command_key(room: Room, seat: Player, command: Command) -> str | None:
    if isinstance(command, PlayMove) and command.move_id is not None:
        return command_key(room, seat, command.move_id)
    return None


def _finished(room: Room) -> FinishedGame:
    outcome = room.game.outcome()
    assert outcome is not None
    computer = room.computer_seat
    return FinishedGame(
        room_id=room.id,
        game=room.game_name,
        mode=room.mode,
        game_number=room.game_number,
        daily=room.daily,
        record=room.game.to_json(),
        winner=outcome.winner,
        reason=outcome.reason,
        scores=outcome.scores,
        human_seat=None if computer is None else 1 - computer,
        finished_at=time.time(),
        daily_player=room.daily_player,
        level=room.level,
    )
