"""The rooms bots play and the ladder's ratings, in the database.

Every room with a bot on a seat is written down when it is made (:func:`record_room`): the
cap on a bot's games at once counts them, the leaderboard links to them. When a game of
such a room ends (the outbox writes finished games, :func:`finish` follows), a rated game
moves both ratings, in the same transaction that marks it finished, so a game is rated once
however many processes see it end. The computer levels are anchors: their ratings never
move. A bot's game against itself changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Engine, or_
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, func, select

from server.bots.challenges import now_utc
from server.bots.ratings import ANCHOR_PREFIX, ANCHORS, Skill, anchor_player, anchor_skill, rate
from server.db.models import BotGameRow, RatingRow

PERSON = "person"
"""A seat held by a person (``person:NAME`` when they gave a name): never rated."""


@dataclass(frozen=True, slots=True)
class LadderRow:
    player: str
    computer: bool
    rating: float
    sigma: float
    games: int
    wins: int
    draws: int

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws


@dataclass(frozen=True, slots=True)
class BotGame:
    room_id: str
    game: str
    size_class: str
    mode: str
    rated: bool
    players: tuple[str, str]
    started_at: datetime
    finished_at: datetime | None
    winner: int | None
    game_id: str | None


def record_room(
    engine: Engine,
    room_id: str,
    game: str,
    size: str,
    mode: str,
    rated: bool,
    players: tuple[str, str],
) -> None:
    row = BotGameRow(
        room_id=room_id,
        game=game,
        size_class=size,
        mode=mode,
        rated=rated,
        player0=players[0],
        player1=players[1],
        started_at=now_utc(),
    )
    with Session(engine) as session:
        session.add(row)
        try:
            session.commit()
        except IntegrityError:
            session.rollback()


def games_in_play(engine: Engine, player: str, within: timedelta) -> int:
    """Games ``player`` has begun in the last ``within`` that have not ended (a room that
    expired unfinished stops counting once ``within`` has passed)."""
    since = now_utc() - within
    query = (
        select(func.count())
        .select_from(BotGameRow)
        .where(
            or_(col(BotGameRow.player0) == player, col(BotGameRow.player1) == player),
            col(BotGameRow.finished_at).is_(None),
            BotGameRow.started_at >= since,
        )
    )
    with Session(engine) as session:
        return int(session.exec(query).one())


def busy_players(engine: Engine, within: timedelta) -> set[str]:
    """Every player with a game going on (begun in the last ``within``)."""
    since = now_utc() - within
    query = select(BotGameRow.player0, BotGameRow.player1).where(
        col(BotGameRow.finished_at).is_(None), BotGameRow.started_at >= since
    )
    with Session(engine) as session:
        return {player for pair in session.exec(query).all() for player in pair}


def seat_holders(session: Session, room_id: str) -> tuple[tuple[str | None, bool], ...]:
    """Who held each seat of a room bots played in, as ``(name, bot)``: a bot's name, the
    name a person gave, or None (an unnamed person, a computer level, no bot game)."""
    row = session.get(BotGameRow, room_id)
    if row is None:
        return ((None, False), (None, False))

    def holder(player: str) -> tuple[str | None, bool]:
        if player.startswith(ANCHOR_PREFIX) or player == PERSON:
            return (None, False)
        if player.startswith(PERSON + ":"):
            return (player.removeprefix(PERSON + ":"), False)
        return (player, True)

    return (holder(row.player0), holder(row.player1))


def rated_live_rooms(engine: Engine, within: timedelta) -> list[str]:
    """The rated live games going on (begun in the last ``within``)."""
    since = now_utc() - within
    query = select(BotGameRow.room_id).where(
        col(BotGameRow.finished_at).is_(None),
        BotGameRow.rated == True,  # noqa: E712 - SQL
        BotGameRow.mode == "live",
        BotGameRow.started_at >= since,
    )
    with Session(engine) as session:
        return list(session.exec(query).all())


def finish(engine: Engine, room_id: str, game_id: str, winner: int | None) -> bool:
    """Mark the bot game of ``room_id`` finished and, if rated, move the ratings; False if it
    is no bot game or was finished before."""
    with Session(engine) as session:
        row = session.get(BotGameRow, room_id, with_for_update=True)
        if row is None or row.finished_at is not None:
            return False
        row.finished_at = now_utc()
        row.winner = winner
        row.game_id = game_id
        session.add(row)
        players = (row.player0, row.player1)
        if row.rated and players[0] != players[1]:
            stored = [session.get(RatingRow, (p, row.game, row.size_class)) for p in players]
            skills = [
                anchor_skill(p) or (Skill() if r is None else Skill(r.mu, r.sigma))
                for p, r in zip(players, stored, strict=True)
            ]
            after = rate(skills[0], skills[1], winner)
            for index, player in enumerate(players):
                if anchor_skill(player) is not None:
                    continue
                rating = stored[index] or RatingRow(
                    player=player,
                    game=row.game,
                    size_class=row.size_class,
                    mu=0,
                    sigma=0,
                    updated_at=now_utc(),
                )
                rating.mu, rating.sigma = after[index].mu, after[index].sigma
                rating.games += 1
                rating.wins += winner == index
                rating.draws += winner is None
                rating.updated_at = now_utc()
                session.add(rating)
        session.commit()
    return True


def leaderboard(engine: Engine, game: str, size: str) -> list[LadderRow]:
    """The rated bots of ``game`` on ``size`` boards and the anchors, best first."""
    query = select(RatingRow).where(RatingRow.game == game, RatingRow.size_class == size)
    with Session(engine) as session:
        rows = [
            LadderRow(r.player, False, r.mu, r.sigma, r.games, r.wins, r.draws)
            for r in session.exec(query).all()
        ]
    for level, mu in ANCHORS.items():
        rows.append(LadderRow(anchor_player(level), True, mu, 0.0, 0, 0, 0))
    return sorted(rows, key=lambda row: -row.rating)


def rating_of(engine: Engine, player: str, game: str, size: str) -> Skill | None:
    fixed = anchor_skill(player)
    if fixed is not None:
        return fixed
    with Session(engine) as session:
        row = session.get(RatingRow, (player, game, size))
        return None if row is None else Skill(row.mu, row.sigma)


def ratings_of(engine: Engine, players: list[str]) -> dict[str, dict[str, float]]:
    """Each player's ratings, ``{"boxes/standard": 1543.2, …}``."""
    if not players:
        return {}
    found: dict[str, dict[str, float]] = {player: {} for player in players}
    query = select(RatingRow).where(col(RatingRow.player).in_(players))
    with Session(engine) as session:
        for row in session.exec(query).all():
            found[row.player][f"{row.game}/{row.size_class}"] = row.mu
    return found


def recent_games(engine: Engine, player: str, limit: int = 10) -> list[BotGame]:
    """The latest games ``player`` finished, newest first."""
    query = (
        select(BotGameRow)
        .where(
            or_(col(BotGameRow.player0) == player, col(BotGameRow.player1) == player),
            col(BotGameRow.finished_at).is_not(None),
        )
        .order_by(col(BotGameRow.finished_at).desc())
        .limit(limit)
    )
    with Session(engine) as session:
        return [
            BotGame(
                r.room_id,
                r.game,
                r.size_class,
                r.mode,
                r.rated,
                (r.player0, r.player1),
                r.started_at,
                r.finished_at,
                r.winner,
                r.game_id,
            )
            for r in session.exec(query).all()
        ]
