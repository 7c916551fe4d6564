"""The ``tetrad`` command: ``serve`` the game, ``migrate`` the database by hand, ``backup``
and ``restore`` the embedded data. Settings come from ``TETRAD_*`` variables; a flag
overrides its variable."""

from __future__ import annotations

import argparse
import asyncio
import logging
import logging.config
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import uvicorn
from redis.exceptions import RedisError
from sqlalchemy import Engine
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors import Multiprocess

from server.backup import BackupError, Outcome, backup, restore
from server.bots.accounts import (
    BotNameError,
    add_bot,
    bot_named,
    list_bots,
    revoke_bot,
    set_ladder,
)
from server.connection_guard import capacity_for, raise_open_file_limit
from server.db.session import database_url, make_engine, migrate, migrations
from server.log_format import logging_config, quiet_resource_tracker
from server.metrics import MULTIPROC_ENV
from server.serving import inherited_socket, uvicorn_config
from server.settings import Settings
from server.store.embedded import EmbeddedValkey
from server.store.persistence import persists, redis_persistence
from server.store.redis_client import RedisUrlError, check_kind, redis_client

log = logging.getLogger("tetrad.cli")

GRACEFUL_SHUTDOWN_SECONDS = 8
"""On SIGTERM, open connections get this long to finish (websockets are closed with 1012,
so clients reconnect elsewhere at once) before the process exits: less than the 10 s a
container manager waits before it sends SIGKILL."""

WORKER_START_SECONDS = 30
"""How long a worker may take to answer the supervisor's first health check: importing the
app takes seconds on a busy or CPU-limited host, and a worker that does not answer in time
is killed and started again (uvicorn's own default, 5 s, can loop forever there)."""

FAILED = 1
USAGE = 2


def _help(settings_field: str, text: str) -> str:
    """A flag's help, naming the variable it overrides."""
    return f"{text} (TETRAD_{settings_field.upper()}; default: %(default)s)"


def _storage_flags(command: argparse.ArgumentParser, defaults: Settings) -> None:
    command.add_argument(
        "--data-dir",
        type=Path,
        default=defaults.data_dir,
        help=_help("data_dir", "directory of the embedded store and the SQLite database"),
    )
    command.add_argument(
        "--redis-url",
        default=defaults.redis_url,
        help=_help("redis_url", "Redis of live rooms; unset: the embedded store in --data-dir"),
    )
    command.add_argument(
        "--database-url",
        default=defaults.database_url,
        help=_help("database_url", "database of finished games; unset: SQLite in --data-dir"),
    )


def _parser() -> argparse.ArgumentParser:
    defaults = Settings()
    parser = argparse.ArgumentParser(
        prog="tetrad",
        description="tetrad: Dots and Boxes and Dots, a self-hosted game server.",
        epilog="Every setting is described in docs/self-hosting.md.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser(
        "serve",
        help="serve the API, the websockets and the web client",
        description="Serve the API, the websockets and the web client. Exits with a "
        "non-zero status when the server cannot start (for example, Redis or the "
        "database does not answer), so that a supervisor can try again.",
    )
    serve.add_argument("--host", default=defaults.host, help=_help("host", "address to listen on"))
    serve.add_argument(
        "--port", type=int, default=defaults.port, help=_help("port", "TCP port to listen on")
    )
    serve.add_argument(
        "--fd",
        type=int,
        default=None,
        help="serve on this inherited listening socket (socket activation) instead of "
        "--host/--port; one worker",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=defaults.workers,
        help=_help("workers", "server processes sharing the listening socket"),
    )
    _storage_flags(serve, defaults)
    serve.add_argument(
        "--trusted-proxies",
        default=defaults.trusted_proxies,
        help=_help(
            "trusted_proxies",
            "comma-separated addresses or networks of reverse proxies whose X-Forwarded-* "
            "headers are believed",
        ),
    )
    serve.add_argument(
        "--log-level",
        default=defaults.log_level,
        type=str.upper,
        choices=["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"],
        help=_help("log_level", "least severe log level written"),
    )

    migrate_command = commands.add_parser(
        "migrate",
        help="show or apply database migrations by hand",
        description="Apply the database migrations (every server also does it when it "
        "starts), or show which are applied.",
    )
    _storage_flags(migrate_command, defaults)
    migrate_command.add_argument(
        "--status",
        action="store_true",
        help="list the migrations and whether each is applied; change nothing (exit status "
        "1 when some are pending)",
    )
    migrate_command.add_argument(
        "--to", default="head", help="apply migrations up to this revision (default: %(default)s)"
    )

    backup_command = commands.add_parser(
        "backup",
        help="write a consistent copy of the embedded data to an archive",
        description="Write the embedded store's live rooms (a snapshot) and the SQLite "
        "database (an online copy) to one .tar.gz archive. Safe while the server runs.",
    )
    backup_command.add_argument("archive", type=Path, help="the archive to write (.tar.gz)")
    _storage_flags(backup_command, defaults)

    restore_command = commands.add_parser(
        "restore",
        help="replace the embedded data with a backup (server stopped)",
        description="Replace the embedded data with the contents of a backup archive. Stop "
        "the server first; the data found is moved aside, not deleted.",
    )
    restore_command.add_argument("archive", type=Path, help="an archive of `tetrad backup`")
    _storage_flags(restore_command, defaults)
    _bots_parser(commands, defaults)
    return parser


def _bots_parser(commands: argparse._SubParsersAction, defaults: Settings) -> None:  # type: ignore[type-arg]
    bots = commands.add_parser(
        "bots",
        help="issue, list and revoke bot accounts",
        description="Bot accounts: a bot presents its token (Authorization: Bearer) to "
        "take challenges, play rated games and climb the ladder (docs/bots.md).",
    )
    actions = bots.add_subparsers(
        dest="bots_command", required=True, metavar="ACTION", help="what to do"
    )
    add = actions.add_parser("add", help="make a bot account and print its token once")
    add.add_argument("name", help="3-24 letters, digits, - or _; a letter first")
    add.add_argument(
        "--ladder", action="store_true", help="opt the bot in to the ladder's matchmaking"
    )
    _storage_flags(add, defaults)
    listing = actions.add_parser("list", help="list the bot accounts")
    _storage_flags(listing, defaults)
    revoke = actions.add_parser(
        "revoke", help="revoke a bot's token: its connections end within a second"
    )
    revoke.add_argument("name")
    _storage_flags(revoke, defaults)
    ladder = actions.add_parser("ladder", help="opt a bot in to matchmaking, or out")
    ladder.add_argument("name")
    ladder.add_argument("state", choices=["on", "off"])
    _storage_flags(ladder, defaults)


def _settings(args: argparse.Namespace) -> Settings:
    return Settings(
        data_dir=args.data_dir, redis_url=args.redis_url, database_url=args.database_url
    )


async def _persistence_of(url: str) -> str | None:
    """How the Redis at ``url`` persists (None: unreachable); a URL of the wrong kind for
    that Redis is refused (:class:`RedisUrlError`)."""
    redis = redis_client(url, timeout=5)
    try:
        await check_kind(redis, url)
        return await redis_persistence(redis)
    except (RedisError, OSError):
        return None  # unreachable: the workers say so when they fail to start
    finally:
        await redis.aclose()


def warn_without_persistence(url: str) -> None:
    """Refuse a Redis URL of the wrong kind (:class:`RedisUrlError`); log a warning when
    the Redis at ``url`` keeps nothing over a restart."""
    kind = asyncio.run(_persistence_of(url))
    if kind is not None and not persists(kind):
        log.warning(
            "the Redis in use persists nothing (no append-only file, no snapshots): a Redis "
            "restart ends every room; turn on appendonly (see docs/self-hosting.md)",
            extra={"redis_persistence": kind},
        )


LOW_FILE_LIMIT = 4096
"""Below this many open files a process takes few connections: said at start."""


def _raise_open_file_limit() -> None:
    """Raise the soft limit on open files to the hard one (the workers and the embedded
    store inherit it) and say what it is; warn when it stays low."""
    before, after = raise_open_file_limit()
    facts = {
        "open_file_limit": after,
        "open_file_limit_before": before,
        "connection_capacity": capacity_for(after),
    }
    if after < LOW_FILE_LIMIT:
        log.warning(
            "the limit on open files is %d: each process takes at most %d connections and "
            "refuses more (server_full); raise it (systemd: LimitNOFILE=65536, see "
            "docs/self-hosting.md)",
            after,
            capacity_for(after),
            extra=facts,
        )
    elif after != before:
        log.info("raised the limit on open files from %d to %d", before, after, extra=facts)


def serve(args: argparse.Namespace) -> int:
    settings = Settings()
    env = {
        "TETRAD_HOST": args.host,
        "TETRAD_PORT": str(args.port),
        "TETRAD_WORKERS": str(args.workers),
        "TETRAD_DATA_DIR": str(args.data_dir),
        "TETRAD_LOG_LEVEL": args.log_level,
        "TETRAD_TRUSTED_PROXIES": args.trusted_proxies,
    }
    if args.database_url:
        env["TETRAD_DATABASE_URL"] = args.database_url
    if args.fd is not None and args.workers != 1:
        print("--fd serves with one worker; start one process per socket", file=sys.stderr)
        return USAGE
    logging.config.dictConfig(logging_config(args.log_level, settings.log_json))
    logging.captureWarnings(True)
    quiet_resource_tracker()
    _raise_open_file_limit()
    embedded: EmbeddedValkey | None = None
    metrics_dir: str | None = None
    try:
        if args.redis_url:
            env["TETRAD_REDIS_URL"] = args.redis_url
            warn_without_persistence(args.redis_url)
        elif args.workers > 1:
            # Several workers share one embedded store, started (and stopped) here.
            embedded = EmbeddedValkey(Path(args.data_dir) / "valkey", settings.embedded_fsync)
            env["TETRAD_REDIS_URL"] = embedded.start()
        if args.workers > 1 and not os.environ.get(MULTIPROC_ENV):
            # Workers write their metrics to files in a directory of this run; /metrics on
            # any worker adds them up (see server.metrics).
            metrics_dir = tempfile.mkdtemp(prefix="tetrad-metrics-")
            env[MULTIPROC_ENV] = metrics_dir
        os.environ.update(env)
        config = uvicorn_config(
            "server.app:app_from_env",
            factory=True,
            host=args.host,
            port=args.port,
            workers=args.workers,
            proxy_headers=True,
            forwarded_allow_ips=args.trusted_proxies,
            log_level=args.log_level.lower(),
            log_config=logging_config(args.log_level, settings.log_json),
            access_log=False,  # server.http_observer writes the access log
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
            timeout_keep_alive=settings.http_idle_seconds,
            timeout_worker_healthcheck=WORKER_START_SECONDS,
        )
        return _run(config, args)
    except KeyboardInterrupt:
        return 0
    except RedisUrlError as error:
        log.error("tetrad could not start: %s", error)
        return USAGE
    except RuntimeError as error:  # the embedded store did not start
        log.error("tetrad could not start: %s", error)
        return FAILED
    finally:
        if embedded is not None:
            embedded.stop()
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)


def _exit_cleanly_after_stop() -> None:
    """After a graceful stop, uvicorn raises the stop signal again with the handlers it
    found; let that be a no-op, so a stop asked for ends with status 0 (not "killed by
    SIGTERM") the same way with one worker as with several."""
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, lambda signum, frame: None)


def _run(config: uvicorn.Config, args: argparse.Namespace) -> int:
    """Serve until told to stop: 0 after a clean stop, non-zero when the server (or any of
    its workers) could not start."""
    if args.fd is not None:
        server = uvicorn.Server(config)
        _exit_cleanly_after_stop()
        server.run(sockets=[inherited_socket(args.fd)])
        return 0 if server.started else STARTUP_FAILURE
    log.info("tetrad serving at http://%s:%s", args.host, args.port)
    if args.workers > 1:
        supervisor = Multiprocess(config, sockets=[config.bind_socket()])
        supervisor.run()
        # uvicorn's supervisor stops all workers when one fails to start, and returns as
        # if all were well: tell the service manager, so its restart policy applies.
        failed = any(p.exitcode == STARTUP_FAILURE for p in supervisor.processes)
        return STARTUP_FAILURE if failed else 0
    server = uvicorn.Server(config)
    _exit_cleanly_after_stop()
    server.run()
    return 0 if server.started else STARTUP_FAILURE


def migrate_command(args: argparse.Namespace) -> int:
    settings = _settings(args)
    engine = make_engine(database_url(settings.database_url, settings.data_dir))
    try:
        if not args.status:
            migrate(engine, args.to)
        known = migrations(engine)
    finally:
        engine.dispose()
    for migration in known:
        mark = "applied" if migration.applied else "pending"
        print(f"{migration.revision}  {mark:8} {migration.summary}")
    pending = [m for m in known if not m.applied]
    if args.status:
        return 1 if pending else 0
    print("database is up to date" if not pending else f"{len(pending)} migration(s) pending")
    return 0


def _archive_command(
    name: str, action: Callable[[Settings, Path], Outcome], args: argparse.Namespace,
    headline: str, kept: str, left_out: str,
) -> int:  # fmt: skip
    try:
        outcome = action(_settings(args), args.archive)
    except BackupError as error:
        print(f"tetrad {name}: {error}", file=sys.stderr)
        return FAILED
    print(headline)
    for line in outcome.done:
        print(f"  {kept}{line}")
    for line in outcome.left_out:
        print(f"  {left_out}{line}")
    return 0


def backup_command(args: argparse.Namespace) -> int:
    return _archive_command(
        "backup", backup, args, f"wrote {args.archive}", "saved: ", "not in this archive: "
    )


def restore_command(args: argparse.Namespace) -> int:
    headline = f"restored {args.archive} into {args.data_dir}"
    return _archive_command("restore", restore, args, headline, "", "not restored: ")


def bots_command(args: argparse.Namespace) -> int:
    settings = _settings(args)
    engine = make_engine(database_url(settings.database_url, settings.data_dir))
    try:
        migrate(engine)
        return _bots_action(engine, args)
    finally:
        engine.dispose()


def _bots_action(engine: Engine, args: argparse.Namespace) -> int:
    if args.bots_command == "add":
        try:
            token = add_bot(engine, args.name, ladder=args.ladder)
        except BotNameError as error:
            print(f"tetrad bots add: {error}", file=sys.stderr)
            return USAGE
        print(f"bot {args.name} added; its token (shown only now, keep it secret):")
        print(token)
        return 0
    if args.bots_command == "list":
        for bot in list_bots(engine):
            state = "active" if bot.active else f"revoked {bot.revoked_at:%Y-%m-%d %H:%M}"
            ladder = "ladder" if bot.ladder else "-"
            print(f"{bot.name:24} {state:24} {ladder:6} since {bot.created_at:%Y-%m-%d}")
        return 0
    if bot_named(engine, args.name) is None or (
        args.bots_command == "revoke" and not revoke_bot(engine, args.name)
    ):
        print(f"tetrad bots {args.bots_command}: no active bot named {args.name}", file=sys.stderr)
        return FAILED
    if args.bots_command == "ladder":
        set_ladder(engine, args.name, args.state == "on")
        print(f"bot {args.name}: ladder {args.state}")
    else:
        print(f"bot {args.name} revoked")
    return 0


COMMANDS = {
    "serve": serve,
    "migrate": migrate_command,
    "backup": backup_command,
    "restore": restore_command,
    "bots": bots_command,
}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    return COMMANDS[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
