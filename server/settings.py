"""Server settings, read from ``TETRAD_*`` environment variables (or passed in by tests).

Every field carries a ``description``: ``docs/self-hosting.md`` lists them all, and a test
checks that the two agree.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DAY = 24 * 3600


class Settings(BaseSettings):
    """Everything a self-hoster may tune; the defaults run the embedded setup on a laptop."""

    model_config = SettingsConfigDict(env_prefix="TETRAD_", extra="ignore")

    # -- where and how the server listens ------------------------------------------------
    host: str = Field(default="127.0.0.1", description="Address to listen on.")
    port: int = Field(default=8000, ge=0, le=65535, description="TCP port to listen on.")
    workers: int = Field(
        default=1,
        ge=1,
        description="Server processes started by `tetrad serve`; they share one socket.",
    )
    trusted_proxies: str = Field(
        default="127.0.0.1,::1",
        description=(
            "Comma-separated addresses or networks (CIDR) of reverse proxies whose "
            "X-Forwarded-For and X-Forwarded-Proto headers are believed: the client address "
            "used for rate limits and the scheme of invite links come from them. `*` trusts "
            "every peer (only when nothing but the proxy can reach the server)."
        ),
    )
    public_url: str | None = Field(
        default=None,
        description=(
            "Base URL of the site as players see it (`https://dots.example.org`), used in "
            "invite links; unset, each request's own scheme and host are used."
        ),
    )
    allowed_origins: str = Field(
        default="",
        description=(
            "Comma-separated origins (`https://dots.example.org`) whose pages may open a "
            "websocket, besides the server's own (the request's host, and public_url's); "
            "programs that send no Origin are always let in."
        ),
    )
    client_dist: Path | None = Field(
        default=None,
        description="Built web client served at `/`; unset, client/dist of the checkout.",
    )

    # -- storage -------------------------------------------------------------------------
    data_dir: Path = Field(
        default=Path(".tetrad"),
        description="Directory of the embedded store and the SQLite database.",
    )
    redis_url: str | None = Field(
        default=None,
        description=(
            "Redis URL of live rooms: one server (`redis://host:6379/0`, `rediss://…`, "
            "`unix:///path.sock`), a Redis Cluster (`redis+cluster://host:port,host:port`) or "
            "the master a Sentinel names (`redis+sentinel://host:26379,host:26379/service`); "
            "unset, an embedded valkey with append-only persistence runs in data_dir."
        ),
    )
    database_url: str | None = Field(
        default=None,
        description=(
            "SQLAlchemy URL of the database of finished games and daily results "
            "(`postgresql://user:password@host/db`); unset, SQLite in data_dir."
        ),
    )
    redis_timeout: float = Field(
        default=1.5,
        gt=0,
        description=(
            "Seconds to wait for Redis to accept a connection or answer a command; past it "
            "the request is answered `unavailable` (503) instead of hanging."
        ),
    )
    key_prefix: str = Field(
        default="tetrad",
        pattern=r"^[A-Za-z0-9_.:-]{1,64}$",
        description="Prefix of every Redis key, so several sites can share one Redis.",
    )
    embedded_fsync: str = Field(
        default="always",
        pattern="^(always|everysec|no)$",
        description=(
            "How often the embedded valkey flushes its append-only file to disk: `always` "
            "loses nothing on a power cut, `everysec` at most a second of moves."
        ),
    )

    # -- rooms ---------------------------------------------------------------------------
    room_ttl_seconds: int = Field(
        default=7 * DAY, ge=60, description="An idle live or computer room expires after this."
    )
    correspondence_ttl_seconds: int = Field(
        default=0,
        ge=0,
        description="An idle correspondence room expires after this; 0 keeps them forever.",
    )
    correspondence_idle_seconds: int = Field(
        default=7 * DAY,
        ge=0,
        description=(
            "A correspondence room that never expires and is idle this long leaves Redis for "
            "the database, and comes back on its next visit; 0 keeps every room in Redis."
        ),
    )
    redis_memory_limit_mb: int = Field(
        default=0,
        ge=0,
        description=(
            "New rooms are refused (`server_full`) while Redis uses more than this many "
            "MiB; games already going on continue. 0: no limit. A room costs about 8 KiB; "
            "set it below Redis's own `maxmemory`, which should not evict."
        ),
    )
    events_kept: int = Field(
        default=32,
        ge=8,
        description="Recent events kept per room for clients that reconnect.",
    )

    # -- websocket presence ----------------------------------------------------------------
    presence_ttl_seconds: float = Field(
        default=4.0,
        gt=0,
        description="A seat counts as connected until this long after its last heartbeat.",
    )
    heartbeat_seconds: float = Field(
        default=1.0, gt=0, description="How often a live connection refreshes its presence."
    )
    hello_timeout_seconds: float = Field(
        default=20.0,
        gt=0,
        description="A websocket that sends no `hello` within this is closed.",
    )

    # -- the computer player -------------------------------------------------------------
    ai_workers: int = Field(
        default=1, ge=1, description="Processes per server process that think for the computer."
    )
    ai_time_limit: float = Field(
        default=1.0, gt=0, description="Seconds the computer may think about one move."
    )
    analysis_position_seconds: float = Field(
        default=1.0,
        gt=0,
        description="Game review: seconds of processor time the exact solver may spend on "
        "one position of an analysis (and half of it again on its other lines) before the "
        "hard level's estimate is used; the analysis worker's own time, so that it does the "
        "same work however busy the machine is.",
    )
    analysis_workers: int = Field(
        default=1,
        ge=1,
        description="Game review and hints: processes per server process that analyse games "
        "and suggest moves, apart from those thinking for the computer in live rooms.",
    )
    analysis_niceness: int = Field(
        default=10,
        ge=0,
        le=19,
        description="Game review and hints: how much lower the OS priority (nice) of their "
        "processes is, so that on a busy machine the computer's moves in live rooms come first.",
    )
    analysis_stale_seconds: float = Field(
        default=60.0,
        gt=0,
        description="Game review: a running analysis whose progress has not moved for this "
        "long belonged to a process that died; the next request for it goes on from the "
        "positions it had saved.",
    )
    analysis_game_seconds: float = Field(
        default=120.0,
        gt=0,
        description="Game review: seconds of the computer's time a whole Dots analysis may "
        "take; a long game gets less time a position (at least 0.02 s), so that no analysis "
        "holds the workers for minutes.",
    )
    ai_lease_seconds: float = Field(
        default=8.0,
        gt=0,
        description=(
            "How long one server process holds a room's computer turn; if it dies, another "
            "takes the turn over after this."
        ),
    )

    # -- limits ----------------------------------------------------------------------------
    max_message_bytes: int = Field(
        default=4096, ge=256, description="Largest websocket message accepted, in bytes."
    )
    room_creations_per_minute: int = Field(
        default=30, ge=1, description="Rooms one client address may create per minute."
    )
    record_reads_per_minute: int = Field(
        default=120,
        ge=1,
        description="Game records one client address may have read per minute: reviews of "
        "finished games and of records sent, downloads, rooms continuing from a record "
        "(counted before the record is read).",
    )
    messages_per_second: float = Field(
        default=10.0, gt=0, description="Sustained websocket messages per second per connection."
    )
    message_burst: int = Field(
        default=30, ge=1, description="Websocket messages a connection may send in a burst."
    )
    http_idle_seconds: float = Field(
        default=5.0,
        gt=0,
        description=(
            "An HTTP connection with no request in flight (idle after an answer, or open "
            "without a complete request) is closed after this many seconds."
        ),
    )
    max_connections_per_address: int = Field(
        default=128,
        ge=0,
        description=(
            "Open connections (HTTP and websocket) one client address may hold on one server "
            "process; past it, new ones are refused with `rate_limited` (429; a websocket is "
            "closed with 1013). Addresses in trusted_proxies are exempt. 0: no limit."
        ),
    )
    rest_moves_per_minute: int = Field(
        default=240, ge=1, description="Moves per minute one seat may make over REST."
    )
    line_values_per_minute: int = Field(
        default=30,
        ge=1,
        description="Times per minute one seat may ask for the values of the lines of its "
        "position (the practice overlay against the computer).",
    )

    # -- bots ------------------------------------------------------------------------------
    challenge_live_seconds: int = Field(
        default=60, ge=5, description="An open challenge to a live game expires after this."
    )
    challenge_correspondence_seconds: int = Field(
        default=DAY,
        ge=60,
        description="An open challenge to a correspondence game expires after this.",
    )
    bot_requests_per_minute: int = Field(
        default=120,
        ge=1,
        description=(
            "Challenge requests (post, accept, decline, cancel) one bot, or one address "
            "without a bot token, may make per minute."
        ),
    )
    bot_games_at_once: int = Field(
        default=4,
        ge=1,
        description=(
            "Games one bot may play at the same time; challenges past it are refused "
            "(`too_many_games`)."
        ),
    )

    bot_forfeit_seconds: float = Field(
        default=60.0,
        ge=0,
        description=(
            "In a rated live game, a bot that stays disconnected this long, or lets this long "
            "pass on its turn with nothing happening, loses the game (it resigns by the "
            "server's hand); 0: never."
        ),
    )
    ladder_pace_seconds: float = Field(
        default=30.0,
        ge=0,
        description=(
            "Every this many seconds the server pairs the connected, idle bots that opted "
            "in to the ladder (with each other, or the one left over with the computer level "
            "rated nearest to it) for a rated game; 0: no matchmaking."
        ),
    )
    ladder_boards: str = Field(
        default="boxes:5x5",
        pattern=r"^\s*(boxes|dots):\d+x\d+\s*(,\s*(boxes|dots):\d+x\d+\s*)*$",
        description=(
            "The boards matchmaking draws from, comma-separated: `boxes:ROWSxCOLS` or "
            "`dots:WIDTHxHEIGHT` (Dots start with a cross)."
        ),
    )

    # -- logs ------------------------------------------------------------------------------
    log_level: str = Field(
        default="INFO",
        pattern="(?i)^(debug|info|warning|error|critical)$",
        description="Least severe log level written (`DEBUG`, `INFO`, `WARNING`, `ERROR`).",
    )
    log_json: bool = Field(
        default=True,
        description="One JSON object per log line (access log included); false: plain text.",
    )
