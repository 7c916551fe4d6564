"""Real processes for tests of the deployed shape: `tetrad serve`, redis-server, Caddy, a
PostgreSQL database of the test's own. Each starts on free loopback ports, writes its
output to a file in the test's directory, and is stopped (or found dead) at the end."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import httpx
import psycopg

REPO = Path(__file__).resolve().parents[1]
T = TypeVar("T", bound="Running")
POSTGRES_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
START_TIMEOUT = 120.0
"""The bound on a server process starting (a loaded two-core machine has taken over 60 s
to start two workers with their computer pools)."""


def free_port() -> int:
    """A loopback port free right now (for programs that cannot take a socket by fd)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def listening_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def wait_started(running: Running, check: Callable[[], object], what: str) -> None:
    """Wait for a process just spawned to be ready; stop it if it never gets there, so a
    failed start leaves nothing running."""
    try:
        wait_until(check, what)
    except BaseException:
        with contextlib.suppress(Exception):
            running.stop(timeout=5)
        raise


def wait_until(check: Callable[[], object], what: str, timeout: float = START_TIMEOUT) -> None:
    """Poll ``check()`` until it holds (a state to reach, with a generous bound)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise TimeoutError(f"{what}: not within {timeout} s")


@dataclass
class Running:
    """A child process with its output in ``log``."""

    name: str
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill_9(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self, timeout: float = 20.0) -> int:
        """SIGTERM, then SIGKILL if it does not end in ``timeout``; the exit status."""
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise


def spawn(name: str, args: list[str], directory: Path, env: dict[str, str] | None = None,
          pass_fds: tuple[int, ...] = (),
          preexec_fn: Callable[[], object] | None = None) -> Running:  # fmt: skip
    log = directory / f"{name}.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            args,
            cwd=REPO,
            env={**os.environ, **(env or {})},
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            pass_fds=pass_fds,
            # Only ever a setrlimit, which is safe between fork and exec.
            preexec_fn=preexec_fn,  # noqa: PLW1509
        )
    return Running(name, process, log)


@dataclass
class Tetrad(Running):
    url: str = ""

    def ready(self, path: str = "/readyz") -> bool:
        if not self.alive():
            raise RuntimeError(f"{self.name} exited with {self.process.returncode}:\n"
                               f"{self.output()[-3000:]}")  # fmt: skip
        try:
            return httpx.get(self.url + path, timeout=2).status_code == 200
        except httpx.TransportError:
            return False


def start_tetrad(name: str, directory: Path, *args: str, env: dict[str, str] | None = None,
                 wait: bool = True,
                 preexec_fn: Callable[[], object] | None = None) -> Tetrad:  # fmt: skip
    """``tetrad serve`` on a listening socket handed over by fd (no port race);
    ``preexec_fn`` runs in the child before it starts (to lower its limits, say)."""
    sock = listening_socket()
    port = sock.getsockname()[1]
    try:
        running = spawn(
            name,
            [sys.executable, "-m", "server.cli", "serve", "--fd", str(sock.fileno()), *args],
            directory,
            env,
            pass_fds=(sock.fileno(),),
            preexec_fn=preexec_fn,
        )
    finally:
        sock.close()
    tetrad = Tetrad(running.name, running.process, running.log, f"http://127.0.0.1:{port}")
    if wait:
        wait_started(tetrad, tetrad.ready, f"{name} ready")
    return tetrad


@dataclass
class RedisServer(Running):
    port: int = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


def start_redis(directory: Path, *options: str, config: Path | None = None,
                port: int | None = None) -> RedisServer:  # fmt: skip
    """A redis-server of the test's own on a free port (or ``port``: a restart), data in
    ``directory``."""
    binary = shutil.which("redis-server")
    assert binary, "redis-server is needed (Debian package redis-server)"
    for _ in range(5):
        port = port or free_port()
        args = [binary] + ([str(config)] if config else []) + [
            "--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory),
            "--daemonize", "no", "--protected-mode", "yes", *options,
        ]  # fmt: skip
        running = spawn(f"redis-{port}", args, directory)
        redis = RedisServer(running.name, running.process, running.log, port)

        def answers(redis: RedisServer = redis) -> bool:
            if not redis.alive():
                return True
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", redis.port), timeout=1) as conn,
            ):
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
            return False

        wait_started(redis, answers, "redis-server answers")
        if redis.alive():
            return redis
    raise RuntimeError("could not start redis-server on a free port")


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A PostgreSQL database of this test alone (created, then dropped); its URL."""
    name = f"tt_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def forget_keys(redis_url: str, prefix: str) -> None:
    """Delete every key under ``prefix`` (what a long run left in a shared Redis)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start : start + 1000])
    finally:
        client.close()


@dataclass
class Processes:
    """Everything a test started, stopped at its end (whatever state it is in)."""

    started: list[Running] = field(default_factory=list)

    def add(self, running: T) -> T:
        self.started.append(running)
        return running

    def stop_all(self) -> None:
        for running in reversed(self.started):
            with contextlib.suppress(Exception):
                running.stop()


def descendants(pid: int) -> set[int]:
    """Live (not zombie) processes below ``pid``, read from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


CADDYFILE = REPO / "infra" / "Caddyfile"


@dataclass
class Caddy(Running):
    https_port: int = 0
    root_certificate: Path = field(default_factory=Path)

    @property
    def url(self) -> str:
        return f"https://localhost:{self.https_port}"

    @property
    def ws_url(self) -> str:
        return f"wss://localhost:{self.https_port}"

    def tls(self) -> ssl.SSLContext:
        """A client TLS context that trusts this Caddy's own authority only."""
        return ssl.create_default_context(cafile=str(self.root_certificate))


def start_caddy(directory: Path, upstreams: list[str], domain: str = "localhost") -> Caddy:
    """Debian's caddy running the project's own Caddyfile; only the addresses differ (the
    file reads them from the environment). Its authority and certificates live in
    ``directory``, and its root certificate is what clients trust."""
    binary = shutil.which("caddy")
    assert binary, "caddy is needed (Debian package caddy; .ci/run installs it)"
    home = directory / "caddy-home"
    env = {
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "TETRAD_DOMAIN": domain,
        "TETRAD_UPSTREAMS": " ".join(upstreams),
    }
    for attempt in range(3):  # the ports are probed, then bound by caddy: retry a lost race
        ports = {name: free_port() for name in ("CADDY_HTTP_PORT", "CADDY_HTTPS_PORT")}
        admin = f"localhost:{free_port()}"
        running = spawn(
            f"caddy-{attempt}",
            [binary, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
            directory,
            {**env, **{k: str(v) for k, v in ports.items()}, "CADDY_ADMIN": admin},
        )
        caddy = Caddy(
            running.name,
            running.process,
            running.log,
            ports["CADDY_HTTPS_PORT"],
            home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt",
        )

        def serving(caddy: Caddy = caddy) -> bool:
            if not caddy.alive():
                return True
            if not caddy.root_certificate.exists():
                return False
            try:  # any answer over verified TLS will do: the backends may not be up yet
                httpx.get(caddy.url + "/metrics", verify=caddy.tls(), timeout=2)
            except (httpx.TransportError, OSError):
                return False
            return True

        wait_started(caddy, serving, "caddy serves https")
        if caddy.alive():
            return caddy
    raise RuntimeError(f"caddy did not start:\n{caddy.output()[-3000:]}")
