"""Server settings, read from ``TETRAD_*`` environment variables (or passed in by tests)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DAY = 24 * 3600


class Settings(BaseSettings):
    """Everything a self-hoster may tune; the defaults run the embedded setup on a laptop."""

    model_config = SettingsConfigDict(env_prefix="TETRAD_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = Field(default=1, ge=1)
    data_dir: Path = Path(".tetrad")
    redis_url: str | None = Field(
        default=None, description="Redis URL; unset starts an embedded valkey in data_dir"
    )
    database_url: str | None = Field(
        default=None, description="SQLAlchemy URL; unset uses SQLite in data_dir"
    )
    key_prefix: str = Field(default="tetrad", pattern=r"^[A-Za-z0-9_.:-]{1,64}$")
    public_url: str | None = Field(
        default=None, description="Base URL used in invite links; default: the request's own"
    )
    client_dist: Path | None = Field(
        default=None, description="Built client to serve at /; default client/dist if present"
    )

    room_ttl_seconds: int = Field(default=7 * DAY, ge=60)
    correspondence_ttl_seconds: int = Field(
        default=0, ge=0, description="0 keeps correspondence rooms forever"
    )
    events_kept: int = Field(
        default=32, ge=8, description="recent events kept per room for reconnecting clients"
    )

    presence_ttl_seconds: float = Field(default=15.0, gt=0)
    heartbeat_seconds: float = Field(default=5.0, gt=0)
    hello_timeout_seconds: float = Field(default=20.0, gt=0)

    ai_workers: int = Field(default=1, ge=1)
    ai_time_limit: float = Field(default=1.0, gt=0)
    ai_lease_seconds: float = Field(default=8.0, gt=0)

    max_message_bytes: int = Field(default=4096, ge=256)
    room_creations_per_minute: int = Field(default=30, ge=1)
    messages_per_second: float = Field(default=10.0, gt=0)
    message_burst: int = Field(default=30, ge=1)
    rest_moves_per_minute: int = Field(default=240, ge=1)

    embedded_fsync: str = Field(default="always", pattern="^(always|everysec|no)$")
    log_level: str = "INFO"
    log_json: bool = True
