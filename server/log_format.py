"""Structured (JSON-lines) logs. Seat tokens and invite codes are never passed to a logger."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
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
                entry[key] = value if isinstance(value, str | int | float | bool) else repr(value)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(level: str, as_json: bool) -> None:
    root = logging.getLogger("tetrad")
    root.setLevel(level.upper())
    if any(getattr(h, "_tetrad", False) for h in root.handlers):
        return
    handler = logging.StreamHandler()
    handler._tetrad = True  # type: ignore[attr-defined]
    handler.setFormatter(
        JsonFormatter() if as_json else logging.Formatter("%(levelname)s %(name)s %(message)s")
    )
    root.addHandler(handler)
    root.propagate = False
