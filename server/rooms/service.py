"""The room service: the rules of rooms (seats, turns, presence, requests, computer turns).

Every change follows one path: load the room, decide with ``core``, commit by
compare-and-set on the version together with the event and its publication. The game
rules themselves live in ``core``; this module never re-implements them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from core.errors import IllegalMove, InvalidMove, TetradError
from server.api.schemas import ActionResult, CreateBoxesRoom, CreateDotsRoom, SeatGrant
from server.errors import ApiError
from server.rooms import daily, games
from server.rooms.computer import ComputerPlayer
from server.rooms.document import (
    RoomDoc,
    SeatRecord,
    hash_token,
    new_invite_code,
    new_room_id,
    new_token,
    token_matches,
)
from server.rooms.games import AnyGame
from server.settings import Settings
from server.store.room_store import RoomStore
from server.ws.protocol import (
    Accept,
    Decline,
    DeclinedEvent,
    EndedEvent,
    EventMessage,
    Hint,
    JoinedEvent,
    LevelEvent,
    MakeMove,
    MovedEvent,
    NewGame,
    Offer,
    OutcomeView,
    PendingRequest,
    PresenceMessage,
    RequestedEvent,
    Resign,
    RestartedEvent,
    RoomAction,
    RoomEvent,
    RoomState,
    SeatView,
    SetLevel,
    Undo,
    UndoneEvent,
    VersionedEvent,
)

log = logging.getLogger("tetrad.rooms")

FRIEND_MODES = ("live", "correspondence")
GAMES_KEPT = 2048
COMMIT_ATTEMPTS = 8


@dataclass(slots=True)
class LoadedRoom:
    version: int
    doc: RoomDoc
    game: AnyGame
    connected: tuple[bool, bool] = (False, False)
    """Which seats had a live connection when the room was read."""
    expires_in: int | None = None
    """Seconds before the room expires unless something happens; None: never."""
    spectators: int = 0
    """How many spectator connections watched the room when it was read."""


@dataclass(slots=True)
class Change:
    """What a decision produces: the new document (its record already updated) and event."""

    doc: RoomDoc
    game: AnyGame
    event: RoomEvent
    move_id: str | None = None


@dataclass(slots=True)
class Committed:
    version: int
    doc: RoomDoc
    game: AnyGame
    state: RoomState
    duplicate: bool = False


@dataclass(slots=True)
class FinishedGame:
    room_id: str
    game: str
    mode: str
    game_number: int
    daily: str | None
    record: dict[str, Any]
    winner: int | None
    reason: str
    scores: tuple[int, int]
    human_seat: int | None


@dataclass
class RoomMetrics:
    """Hooks the app connects to Prometheus; plain no-ops by default."""

    on_room_created: Callable[[str, str], None] = lambda game, mode: None
    on_move: Callable[[str, str], None] = lambda game, mode: None
    on_ai_think: Callable[[float], None] = lambda seconds: None
    extra: dict[str, Any] = field(default_factory=dict)


Decision = Callable[[LoadedRoom], Awaitable[Change | None]]


def _seed(room_id: str, version: int) -> int:
    digest = hashlib.sha256(f"{room_id}:{version}".encode()).digest()
    return int.from_bytes(digest[:4])


class RoomService:
    def __init__(
        self,
        store: RoomStore,
        settings: Settings,
        computer: ComputerPlayer,
        *,
        on_finished: Callable[[FinishedGame], Awaitable[None]] | None = None,
        metrics: RoomMetrics | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.computer = computer
        self.on_finished = on_finished
        self.metrics = metrics or RoomMetrics()
        self.process_id = uuid.uuid4().hex
        self._background: set[asyncio.Task[None]] = set()
        # Games this process committed or read, by (room, creation time, version): a room's
        # version names exactly one record, so a hit skips replaying the whole game. Only
        # a cache: every change is still decided on what Redis holds and committed by CAS.
        self._games: OrderedDict[tuple[str, float, int], AnyGame] = OrderedDict()

    # -- loading and viewing ---------------------------------------------------------------

    async def load(self, room_id: str) -> LoadedRoom:
        stored = await self.store.load(room_id) if _plausible_room_id(room_id) else None
        if stored is None:
            raise ApiError("room_not_found", "no such room (it may have expired)")
        doc = RoomDoc.model_validate_json(stored.doc)
        expires_in = None if stored.ttl_ms is None else max(0, -(-stored.ttl_ms // 1000))
        key = (room_id, doc.created_at, stored.version)
        game = self._games.get(key)
        if game is None:
            game = games.from_record(doc.record)
            self._remember(key, game)
        return LoadedRoom(
            stored.version, doc, game, stored.connected, expires_in, stored.spectators
        )

    def _remember(self, key: tuple[str, float, int], game: AnyGame) -> None:
        self._games[key] = game
        self._games.move_to_end(key)
        while len(self._games) > GAMES_KEPT:
            self._games.popitem(last=False)

    def seat_of(self, doc: RoomDoc, token: str | None) -> int | None:
        """The seat ``token`` holds in this room, or None. Compares every seat in
        constant time so the answer's timing says nothing about the token."""
        if not token:
            return None
        found: int | None = None
        for index, seat in enumerate(doc.seats):
            if token_matches(seat.token_hash, token) and found is None:
                found = index
        return found

    def require_seat(self, doc: RoomDoc, token: str | None) -> int:
        seat = self.seat_of(doc, token)
        if seat is None:
            raise ApiError("bad_token", "a valid seat token is required (Authorization: Bearer …)")
        return seat

    @staticmethod
    def seat_views(doc: RoomDoc, connected: tuple[bool, bool]) -> list[SeatView]:
        """The seats, with who was connected when the room was read (``connected``)."""
        views = []
        for index, seat in enumerate(doc.seats):
            if seat.kind == "computer":
                taken, online = True, True
            elif doc.mode == "local":
                taken, online = True, connected[0]
            else:
                taken, online = seat.token_hash is not None, connected[index]
            views.append(
                SeatView.model_construct(
                    seat=0 if index == 0 else 1,
                    kind=seat.kind,
                    taken=taken,
                    connected=online,
                    colour="gold" if index == 0 else "coral",
                )
            )
        return views

    def room_view(self, room: LoadedRoom) -> RoomState:
        """What clients see of ``room`` as it was read (presence and expiry included)."""
        return self.view(
            room.doc, room.game, room.version, self.seat_views(room.doc, room.connected),
            room.expires_in, spectators=room.spectators,
        )  # fmt: skip

    def view(
        self,
        doc: RoomDoc,
        game: AnyGame,
        version: int,
        seats: list[SeatView],
        expires_in: int | None,
        *,
        spectators: int = 0,
    ) -> RoomState:
        # Built from trusted values: no validation (model_construct) on this hot path.
        board = game.view()
        outcome = game.outcome()
        computer_seat = doc.computer_seat
        return RoomState.model_construct(
            id=doc.id,
            game=doc.game,
            mode=doc.mode,
            version=version,
            game_number=doc.game_number,
            level=doc.level,
            daily=doc.daily,
            computer_seat=None if computer_seat is None else (0 if computer_seat == 0 else 1),
            seats=seats,
            to_move=game.to_move,
            scores=game.scores,
            is_over=game.is_over,
            outcome=None
            if outcome is None
            else OutcomeView.model_construct(
                winner=outcome.winner, reason=outcome.reason, scores=outcome.scores
            ),
            moves=[games.move_json(game, move) for move in game.moves],
            last_move=games.move_json(game, game.moves[-1]) if game.moves else None,
            legal_moves=[]
            if game.is_over
            else [games.move_json(game, move) for move in game.legal_moves()],
            requests=list(doc.requests),
            board=board,
            thinking=computer_seat is not None
            and not game.is_over
            and game.to_move == computer_seat,
            spectators=spectators,
            expires_in_seconds=expires_in,
        )

    async def state(self, room_id: str) -> tuple[LoadedRoom, RoomState]:
        room = await self.load(room_id)
        state = self.room_view(room)
        if state.thinking:
            self.schedule_computer_turn(room_id)
        return room, state

    def invite_url(self, doc: RoomDoc, base_url: str) -> str | None:
        if doc.invite_code is None:
            return None
        base = (self.settings.public_url or base_url).rstrip("/")
        return f"{base}/r/{doc.id}#invite={doc.invite_code}"

    # -- committing ------------------------------------------------------------------------

    def _ttl(self, doc: RoomDoc) -> int:
        return doc.ttl_seconds

    async def _commit(
        self, room: LoadedRoom | None, change: Change, *, create: bool = False
    ) -> Committed | None:
        """Compare-and-set; None if the room moved on meanwhile."""
        version = 1 if create or room is None else room.version + 1
        doc = change.doc
        doc.record = change.game.to_json()
        doc.updated_at = time.time()
        if change.move_id is not None:
            doc.remember_move_id(change.move_id, version)
        # Presence as read with the room: a change since then arrives as a presence message.
        connected = room.connected if room is not None and not create else (False, False)
        spectators = room.spectators if room is not None and not create else 0
        state = self.view(
            doc,
            change.game,
            version,
            self.seat_views(doc, connected),
            doc.ttl_seconds or None,
            spectators=spectators,
        )
        stored = VersionedEvent(version=version, event=change.event)
        message = EventMessage(room=doc.id, version=version, event=change.event, state=state)
        result = await self.store.commit(
            doc.id,
            expected_version=None if create or room is None else room.version,
            new_version=version,
            doc=doc.model_dump_json(),
            stored_event=stored.model_dump_json(),
            message=message.model_dump_json(),
            events_kept=self.settings.events_kept,
            ttl_seconds=self._ttl(doc),
        )
        if not result.committed:
            if result.version == 0 and not create:
                raise ApiError("room_not_found", "no such room (it may have expired)")
            return None
        self._remember((doc.id, doc.created_at, version), change.game)
        return Committed(version, doc, change.game, state)

    async def _mutate(self, room_id: str, decide: Decision) -> Committed:
        """Load, decide, commit; on a lost race decide again on the new version (a
        decision pinned to a version answers ``stale_version`` then)."""
        for _ in range(COMMIT_ATTEMPTS):
            room = await self.load(room_id)
            was_over = room.game.is_over
            change = await decide(room)
            if change is None:
                state = self.room_view(room)
                return Committed(room.version, room.doc, room.game, state, duplicate=True)
            committed = await self._commit(room, change)
            if committed is None:
                continue
            self._after_commit(committed, was_over)
            return committed
        raise ApiError("stale_version", "the room kept changing; reload and retry")

    def _after_commit(self, committed: Committed, was_over: bool) -> None:
        game = committed.game
        if game.is_over and not was_over and self.on_finished is not None:
            self._spawn(self._record_finished(committed))
        if committed.state.thinking:
            self.schedule_computer_turn(committed.doc.id)

    async def _record_finished(self, committed: Committed) -> None:
        outcome = committed.game.outcome()
        if outcome is None or self.on_finished is None:
            return
        doc = committed.doc
        computer_seat = doc.computer_seat
        finished = FinishedGame(
            room_id=doc.id,
            game=doc.game,
            mode=doc.mode,
            game_number=doc.game_number,
            daily=doc.daily,
            record=committed.game.to_json(),
            winner=outcome.winner,
            reason=outcome.reason,
            scores=outcome.scores,
            human_seat=None if computer_seat is None else 1 - computer_seat,
        )
        try:
            await self.on_finished(finished)
        except Exception:
            log.exception("could not store finished game", extra={"room": doc.id})

    def _spawn(self, coroutine: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        for task in list(self._background):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # -- creating and joining --------------------------------------------------------------

    async def create(
        self, request: CreateBoxesRoom | CreateDotsRoom, client: str, base_url: str
    ) -> SeatGrant:
        hits = await self.store.count_hit("create", client, 60)
        if hits > self.settings.room_creations_per_minute:
            raise ApiError("rate_limited", "too many rooms created from your address; wait")
        daily_date: str | None = None
        if isinstance(request, CreateBoxesRoom) and request.daily:
            day = daily.today()
            daily_date = day.isoformat()
            mode = "computer"
            level = daily.DAILY_LEVEL
            options: dict[str, Any] = {"rows": daily.DAILY_ROWS, "cols": daily.DAILY_COLS}
            start_lines = daily.daily_lines(day)
            first = "me"
        else:
            mode = request.mode or ("live" if request.game == "boxes" else "correspondence")
            level = request.level
            start_lines = []
            if isinstance(request, CreateBoxesRoom):
                options = {"rows": request.rows, "cols": request.cols}
            else:
                options = {"width": request.width, "height": request.height}
                if request.start != "empty":
                    options["start"] = request.start
            first = request.first or ("random" if mode == "correspondence" else "me")
        game = games.new_game(request.game, options)
        if start_lines:
            lines = [game.move_from_json(line) for line in start_lines]
            game = games.new_game(request.game, {**options, "lines": lines})
        creator_seat = secrets.randbelow(2) if first == "random" else (0 if first == "me" else 1)
        token = new_token()
        seats = [SeatRecord(kind="human"), SeatRecord(kind="human")]
        seats[creator_seat].token_hash = hash_token(token)
        if mode == "computer":
            seats[1 - creator_seat] = SeatRecord(kind="computer")
        elif mode == "local":
            seats[1 - creator_seat].token_hash = hash_token(token)
        now = time.time()
        ttl = (
            self.settings.correspondence_ttl_seconds
            if mode == "correspondence"
            else self.settings.room_ttl_seconds
        )
        setup = game.to_json()
        for _ in range(5):
            doc = RoomDoc(
                id=new_room_id(),
                game=request.game,
                mode=mode,
                level=level if mode == "computer" else None,
                daily=daily_date,
                setup=setup,
                record=setup,
                seats=seats,
                invite_code=new_invite_code() if mode in FRIEND_MODES else None,
                ttl_seconds=ttl,
                created_at=now,
                updated_at=now,
            )
            change = Change(doc, game, JoinedEvent(seat=creator_seat))
            committed = await self._commit(None, change, create=True)
            if committed is not None:
                break
        else:
            raise ApiError("internal_error", "could not allocate a room id")
        self.metrics.on_room_created(doc.game, doc.mode)
        log.info("room created", extra={"room": doc.id, "game": doc.game, "mode": doc.mode})
        self._after_commit(committed, was_over=False)
        return SeatGrant(
            room_id=doc.id,
            seat=creator_seat,
            role="player",
            token=token,
            invite_code=doc.invite_code,
            invite_url=self.invite_url(doc, base_url),
            state=committed.state,
        )

    async def join(
        self, room_id: str, invite_code: str, token: str | None, base_url: str
    ) -> SeatGrant:
        room = await self.load(room_id)
        own = self.seat_of(room.doc, token)
        if own is not None and token is not None:
            _, state = await self.state(room_id)
            return SeatGrant(
                room_id=room_id,
                seat=own,
                role="player",
                token=token,
                invite_code=room.doc.invite_code,
                invite_url=self.invite_url(room.doc, base_url),
                state=state,
            )
        if room.doc.invite_code is None or not hmac.compare_digest(
            room.doc.invite_code.encode(), invite_code.encode()
        ):
            raise ApiError("bad_invite", "this invite code does not open this room")
        new_seat_token = new_token()
        granted: list[int] = []

        async def take_free_seat(current: LoadedRoom) -> Change | None:
            granted.clear()
            free = [i for i, s in enumerate(current.doc.seats) if s.token_hash is None]
            if not free:
                return None
            doc = current.doc.model_copy(deep=True)
            doc.seats[free[0]].token_hash = hash_token(new_seat_token)
            granted.append(free[0])
            return Change(doc, current.game, JoinedEvent(seat=free[0]))

        committed = await self._mutate(room_id, take_free_seat)
        if granted:
            log.info("guest joined", extra={"room": room_id, "seat": granted[0]})
            return SeatGrant(
                room_id=room_id,
                seat=granted[0],
                role="player",
                token=new_seat_token,
                invite_code=committed.doc.invite_code,
                invite_url=self.invite_url(committed.doc, base_url),
                state=committed.state,
            )
        return SeatGrant(
            room_id=room_id,
            seat=None,
            role="spectator",
            token=None,
            invite_code=None,
            invite_url=None,
            state=committed.state,
        )

    # -- moves -----------------------------------------------------------------------------

    async def move(self, room_id: str, token: str | None, request: MakeMove) -> ActionResult:
        move_wire = request.move.model_dump()

        async def play(current: LoadedRoom) -> Change | None:
            seat = self.require_seat(current.doc, token)
            if current.doc.seats[seat].kind == "computer":
                raise ApiError("not_allowed", "that seat belongs to the computer")
            if request.move_id is not None and request.move_id in current.doc.move_ids:
                return None  # a retry of a move already applied
            _require_version(current, request.version)
            return await self._decide_move(current, seat, move_wire, request.move_id)

        committed = await self._mutate(room_id, play)
        if not committed.duplicate:
            self.metrics.on_move(committed.doc.game, committed.doc.mode)
        return ActionResult(
            version=committed.version, state=committed.state, duplicate=committed.duplicate
        )

    async def _decide_move(
        self, room: LoadedRoom, seat: int, move_wire: dict[str, Any], move_id: str | None
    ) -> Change:
        doc, game = room.doc, room.game
        if game.is_over:
            raise ApiError("game_over", "the game is over; offer a restart for a new one")
        actor = game.to_move if doc.mode == "local" else seat
        if game.to_move != actor:
            raise ApiError("not_your_turn", f"it is seat {game.to_move}'s turn")
        try:
            move = game.move_from_json(move_wire)
            after = game.play(move)
        except InvalidMove as error:
            raise ApiError("invalid_move", error.reason) from error
        except IllegalMove as error:
            raise ApiError("illegal_move", error.reason) from error
        except TetradError as error:
            raise ApiError("invalid_move", error.reason) from error
        if doc.mode == "live":
            other = 1 - seat
            if doc.seats[other].token_hash is None or not room.connected[other]:
                raise ApiError(
                    "opponent_offline",
                    "the other player is not connected; a live move needs both",
                    seat=other,
                )
        # A shallow copy: the move replaces the record and only adds to ``move_ids``.
        new_doc = doc.model_copy(update={"requests": [], "move_ids": dict(doc.move_ids)})
        event = MovedEvent(seat=actor, move=game.move_to_json(move), move_id=move_id)
        return Change(new_doc, after, event, move_id=move_id)

    # -- requests and other actions ------------------------------------------------------

    async def act(self, room_id: str, token: str | None, action: RoomAction) -> ActionResult:
        room = await self.load(room_id)
        seat = self.require_seat(room.doc, token)
        if isinstance(action, Hint):
            move = await self.hint(room, seat)
            state = self.room_view(room)
            return ActionResult(version=room.version, state=state, hint=move)

        async def decide(current: LoadedRoom) -> Change | None:
            return self._decide_action(current, seat, action)

        committed = await self._mutate(room_id, decide)
        return ActionResult(version=committed.version, state=committed.state)

    def _restart(self, doc: RoomDoc) -> Change:
        new_doc = doc.model_copy(deep=True)
        new_doc.game_number += 1
        new_doc.requests = []
        game = games.from_record(new_doc.setup)
        return Change(new_doc, game, RestartedEvent(game_number=new_doc.game_number))

    def _decide_action(self, room: LoadedRoom, seat: int, action: RoomAction) -> Change | None:
        doc, game = room.doc, room.game
        friend = doc.mode in FRIEND_MODES
        other = 1 - seat
        guest_joined = all(s.token_hash is not None for s in doc.seats)
        pending = {(r.kind, r.seat) for r in doc.requests}

        if isinstance(action, Offer | Accept):
            kind = action.kind
            if isinstance(action, Accept) and (kind, other) not in pending:
                raise ApiError("no_request", f"the other player has not asked to {kind}")
            if kind == "end" and game.is_over:
                raise ApiError("game_over", "the game is already over")
            if kind == "restart" and (not friend or not guest_joined):
                return self._restart(doc)
            if kind == "end" and doc.mode == "computer":
                raise ApiError("not_allowed", "against the computer, resign or start a new game")
            if kind == "end" and not friend:
                return self._end_by_agreement(doc, game)
            if kind == "end" and not guest_joined:
                raise ApiError("not_allowed", "nobody has joined yet")
            if (kind, other) in pending:
                if kind == "restart":
                    return self._restart(doc)
                return self._end_by_agreement(doc, game)
            if (kind, seat) in pending:
                return None
            new_doc = doc.model_copy(deep=True)
            new_doc.requests.append(PendingRequest(kind=kind, seat=seat))
            return Change(new_doc, game, RequestedEvent(request=kind, seat=seat))

        if isinstance(action, Decline):
            if not any(r.kind == action.kind for r in doc.requests):
                raise ApiError("no_request", f"there is no pending {action.kind} request")
            new_doc = doc.model_copy(deep=True)
            new_doc.requests = [r for r in doc.requests if r.kind != action.kind]
            return Change(new_doc, game, DeclinedEvent(request=action.kind, seat=seat))

        if isinstance(action, Resign):
            if game.is_over:
                raise ApiError("game_over", "the game is already over")
            loser = game.to_move if doc.mode == "local" else seat
            new_doc = doc.model_copy(deep=True)
            new_doc.requests = []
            return Change(
                new_doc,
                game.resign(0 if loser == 0 else 1),
                EndedEvent(reason="resignation", seat=loser),
            )

        if isinstance(action, Undo):
            return self._undo(doc, game, seat)

        if isinstance(action, SetLevel):
            if doc.mode != "computer":
                raise ApiError("not_allowed", "only computer rooms have a level")
            new_doc = doc.model_copy(deep=True)
            new_doc.level = action.level
            return Change(new_doc, game, LevelEvent(level=action.level))

        if isinstance(action, NewGame):
            if friend:
                raise ApiError("not_allowed", "in friend rooms, offer a restart instead")
            change = self._restart(doc)
            if action.first is not None and doc.mode == "computer":
                human_seat = 0 if action.first == "human" else 1
                human = next(s for s in doc.seats if s.kind == "human")
                change.doc.seats = [SeatRecord(kind="computer"), SeatRecord(kind="computer")]
                change.doc.seats[human_seat] = human.model_copy()
            return change

        raise ApiError("bad_request", "unknown action")

    def _end_by_agreement(self, doc: RoomDoc, game: AnyGame) -> Change:
        new_doc = doc.model_copy(deep=True)
        new_doc.requests = []
        return Change(new_doc, game.end_by_agreement(), EndedEvent(reason="agreement", seat=None))

    def _undo(self, doc: RoomDoc, game: AnyGame, seat: int) -> Change:
        if doc.mode not in ("computer", "local"):
            raise ApiError("not_allowed", "undo exists only against the computer and on one device")
        outcome = game.outcome()
        if outcome is not None and outcome.reason in ("resignation", "agreement"):
            raise ApiError("game_over", "a game ended by resignation or agreement stays ended")
        who = games.movers(doc.setup, game)
        if doc.mode == "local":
            keep = len(who) - 1
        else:
            mine = [i for i, mover in enumerate(who) if mover == seat]
            keep = mine[-1] if mine else -1
        if keep < 0:
            raise ApiError("not_allowed", "there is no move of yours to take back")
        restored = games.replay_moves(doc.setup, game.moves[:keep])
        new_doc = doc.model_copy(deep=True)
        new_doc.requests = []
        count = len(who) - keep
        return Change(new_doc, restored, UndoneEvent(seat=seat, count=count))

    # -- the computer ------------------------------------------------------------------------

    async def hint(self, room: LoadedRoom, seat: int) -> dict[str, Any]:
        doc, game = room.doc, room.game
        if doc.mode not in ("computer", "local"):
            raise ApiError("not_allowed", "hints exist only against the computer and on one device")
        if game.is_over:
            raise ApiError("game_over", "the game is over")
        if doc.mode == "computer" and game.to_move != seat:
            raise ApiError("not_your_turn", "the computer is to move")
        move, seconds = await self.computer.choose(
            doc.record,
            doc.level or "normal",
            _seed(doc.id, room.version),
            self.settings.ai_time_limit,
        )
        self.metrics.on_ai_think(seconds)
        return move

    def schedule_computer_turn(self, room_id: str) -> None:
        self._spawn(self.play_computer_turns(room_id))

    async def play_computer_turns(self, room_id: str) -> None:
        """Think for the computer seat while it is to move, under a lease so that exactly
        one process thinks for a room; a thinker that dies lets its lease expire and the
        next request, reconnect or heartbeat starts over."""
        owner = f"{self.process_id}:{uuid.uuid4().hex[:8]}"
        ttl = self.settings.ai_lease_seconds
        for _ in range(4):
            if not await self.store.acquire_lease(room_id, owner, ttl):
                return
            keeper = asyncio.ensure_future(self._keep_lease(room_id, owner, ttl))
            try:
                await self._think_while_computer_to_move(room_id)
            except ApiError as error:
                if error.code != "room_not_found":
                    log.warning("computer turn failed", extra={"room": room_id, "code": error.code})
                return
            except Exception:
                log.exception("computer turn failed", extra={"room": room_id})
                return
            finally:
                keeper.cancel()
                await self.store.release_lease(room_id, owner)
            # A move may have landed between our last check and the release: look again.
            room = await self.load(room_id)
            if not self.computer_to_move(room):
                return

    async def _keep_lease(self, room_id: str, owner: str, ttl: float) -> None:
        while True:
            await asyncio.sleep(ttl / 3)
            await self.store.refresh_lease(room_id, owner, ttl)

    @staticmethod
    def computer_to_move(room: LoadedRoom) -> bool:
        seat = room.doc.computer_seat
        return seat is not None and not room.game.is_over and room.game.to_move == seat

    async def _think_while_computer_to_move(self, room_id: str) -> None:
        while True:
            room = await self.load(room_id)
            if not self.computer_to_move(room):
                return
            computer_seat: int = room.doc.computer_seat or 0
            move_wire, seconds = await self.computer.choose(
                room.doc.record,
                room.doc.level or "normal",
                _seed(room_id, room.version),
                self.settings.ai_time_limit,
            )
            self.metrics.on_ai_think(seconds)

            async def play(
                current: LoadedRoom,
                seat: int = computer_seat,
                wire: dict[str, Any] = move_wire,
                version: int = room.version,
            ) -> Change:
                _require_version(current, version)
                return await self._decide_move(current, seat, wire, None)

            try:
                committed = await self._mutate(room_id, play)
            except ApiError as error:
                if error.code == "stale_version":
                    continue  # the room changed while thinking (undo, new game): look again
                raise
            self.metrics.on_move(committed.doc.game, committed.doc.mode)

    # -- events and presence --------------------------------------------------------------

    async def events_since(
        self, room_id: str, since: int
    ) -> tuple[list[VersionedEvent], bool, LoadedRoom]:
        room = await self.load(room_id)
        raw = await self.store.events(room_id)
        events = [VersionedEvent.model_validate_json(item) for item in raw]
        missed = [e for e in events if e.version > since]
        if since >= room.version:
            return [], True, room
        complete = bool(missed) and missed[0].version == since + 1
        return missed, complete, room

    async def touch(self, room: LoadedRoom) -> None:
        await self.store.touch(room.doc.id, room.doc.ttl_seconds)

    async def publish_presence(self, room_id: str) -> None:
        room = await self.load(room_id)
        seats = self.seat_views(room.doc, room.connected)
        message = PresenceMessage(
            room=room_id, version=room.version, seats=seats, spectators=room.spectators
        )
        await self.store.publish(room_id, "presence", room.version, message.model_dump_json())

    async def publish_control(self, room_id: str, payload: dict[str, Any]) -> None:
        await self.store.publish(room_id, "control", 0, json.dumps(payload))


def _require_version(room: LoadedRoom, expected: int | None) -> None:
    if expected is not None and room.version != expected:
        raise ApiError(
            "stale_version",
            f"the room is at version {room.version}, not {expected}",
            version=room.version,
        )


def _plausible_room_id(room_id: str) -> bool:
    return 1 <= len(room_id) <= 32 and all(c.isalnum() or c in "-_" for c in room_id)


def daily_date(value: str | None) -> date | None:
    return None if value is None else date.fromisoformat(value)
