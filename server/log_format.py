"""Logs: one JSON object per line for every logger of the process (tetrad's own, uvicorn's,
the access log, libraries'), or plain text when ``log_json`` is off.

Seat tokens and invite codes are never passed to a logger; the access log writes paths
without their query strings for the same reason.

Python's own warnings go through logging too (``py.warnings``), so they are JSON as well.
One process writes to stderr without us: multiprocessing's resource tracker, a bare
interpreter the computer's process pool starts, which after a ``kill -9`` of the server
prints a plain-text warning about the semaphores it then removes. Nothing is lost, so that
warning is turned off (:func:`quiet_resource_tracker`) rather than left to break the format.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from typing import Any

STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "color_message",  # uvicorn's coloured copy of the message
    "taskName",
}
PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


class JsonFormatter(logging.Formatter):
    """``{"ts", "level", "logger", "msg", …extra fields, "exc"}`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in STANDARD and not key.startswith("_"):
                entry[key] = (
                    value
                    if value is None or isinstance(value, str | int | float | bool)
                    else repr(value)
                )
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


WEBSOCKET_CHATTER = frozenset(
    {
        '%s - "WebSocket %s" [accepted]',
        '%s - "WebSocket %s" 403',
        '%s - "WebSocket %s" %d',
        "connection open",
        "connection closed",
    }
)
"""What uvicorn (and the websockets library through it) says at INFO about every websocket:
the access log already has one line per socket, and uvicorn's lines carry the query
string, where a careless client may have put a token."""


class WithoutWebsocketChatter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.name == "uvicorn.error" and record.msg in WEBSOCKET_CHATTER)


class TetradHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The stderr handler tetrad installs (a type of its own, so it is installed once)."""

    def __init__(self, as_json: bool = True) -> None:
        super().__init__(sys.stderr)
        self.setFormatter(JsonFormatter() if as_json else logging.Formatter(PLAIN_FORMAT))
        self.addFilter(WithoutWebsocketChatter())


def logging_config(level: str, as_json: bool) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for a server process (given to uvicorn as its
    ``log_config``): everything goes to stderr through one handler in one format."""
    level = level.upper()
    handler = {"()": TetradHandler, "as_json": as_json}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "handlers": {"tetrad": handler},
        "root": {"handlers": ["tetrad"], "level": "WARNING"},
        "loggers": {
            "tetrad": {"handlers": ["tetrad"], "level": level, "propagate": False},
            "uvicorn": {"handlers": ["tetrad"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            # Requests are logged by server.http_observer, with their duration.
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }


QUIET_TRACKER = "ignore::UserWarning:multiprocessing.resource_tracker"
"""A warnings filter for the resource tracker's leftovers notice (see the module's account)."""


def quiet_resource_tracker() -> None:
    """Have processes started from now on (the resource tracker among them, which inherits
    the environment) ignore the tracker's plain-text warnings."""
    current = [part for part in os.environ.get("PYTHONWARNINGS", "").split(",") if part]
    if QUIET_TRACKER not in current:
        os.environ["PYTHONWARNINGS"] = ",".join([*current, QUIET_TRACKER])


def configure_logging(level: str, as_json: bool) -> None:
    """Give the ``tetrad`` loggers a handler when nothing did yet (an app built by tests or
    embedded in another server; ``tetrad serve`` configures logging through uvicorn)."""
    quiet_resource_tracker()
    logging.captureWarnings(True)
    root = logging.getLogger("tetrad")
    root.setLevel(level.upper())
    if any(isinstance(h, TetradHandler) for h in root.handlers):
        return
    root.addHandler(TetradHandler(as_json))
    root.propagate = False
