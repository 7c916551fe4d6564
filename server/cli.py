"""``tetrad serve``: run the server (embedded store and SQLite unless told otherwise)."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

import uvicorn
from uvicorn.supervisors import Multiprocess

from server.metrics import MULTIPROC_ENV
from server.serving import inherited_socket, uvicorn_config
from server.settings import Settings
from server.store.embedded import EmbeddedValkey


def _parser() -> argparse.ArgumentParser:
    defaults = Settings()
    parser = argparse.ArgumentParser(prog="tetrad", description="tetrad game server")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the API and the web client")
    serve.add_argument("--host", default=defaults.host)
    serve.add_argument("--port", type=int, default=defaults.port)
    serve.add_argument(
        "--fd",
        type=int,
        default=None,
        help="serve on this inherited listening socket (socket activation); one worker",
    )
    serve.add_argument("--workers", type=int, default=defaults.workers)
    serve.add_argument("--data-dir", type=Path, default=defaults.data_dir)
    serve.add_argument("--redis-url", default=defaults.redis_url, help="default: embedded")
    serve.add_argument("--database-url", default=defaults.database_url, help="default: SQLite")
    serve.add_argument("--log-level", default=defaults.log_level)
    return parser


def serve(args: argparse.Namespace) -> int:
    env = {
        "TETRAD_HOST": args.host,
        "TETRAD_PORT": str(args.port),
        "TETRAD_WORKERS": str(args.workers),
        "TETRAD_DATA_DIR": str(args.data_dir),
        "TETRAD_LOG_LEVEL": args.log_level,
    }
    if args.database_url:
        env["TETRAD_DATABASE_URL"] = args.database_url
    if args.fd is not None and args.workers != 1:
        print("--fd serves with one worker; start one process per socket", file=sys.stderr)
        return 2
    embedded: EmbeddedValkey | None = None
    metrics_dir: str | None = None
    if args.redis_url:
        env["TETRAD_REDIS_URL"] = args.redis_url
    elif args.workers > 1:
        # Several workers share one embedded store, started (and stopped) here.
        embedded = EmbeddedValkey(Path(args.data_dir) / "valkey", Settings().embedded_fsync)
        env["TETRAD_REDIS_URL"] = embedded.start()
    if args.workers > 1 and not os.environ.get(MULTIPROC_ENV):
        # Workers write their metrics to files in a directory of this run; /metrics on any
        # worker adds them up (see server.metrics).
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
        log_level=args.log_level.lower(),
    )
    try:
        if args.fd is not None:
            uvicorn.Server(config).run(sockets=[inherited_socket(args.fd)])
            return 0
        print(f"tetrad serving at http://{args.host}:{args.port}", file=sys.stderr)
        if args.workers > 1:
            Multiprocess(config, sockets=[config.bind_socket()]).run()
        else:
            uvicorn.Server(config).run()
    except KeyboardInterrupt:
        pass
    finally:
        if embedded is not None:
            embedded.stop()
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "serve":
        return serve(args)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
