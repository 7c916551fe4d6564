"""Connections at the door of a real `tetrad serve`: it raises its soft limit on open files
to the hard one, refuses newcomers politely (503 ``server_full``, a websocket closed with
1013) once its descriptors would run out, and logs it once; one address holds at most
``TETRAD_MAX_CONNECTIONS_PER_ADDRESS`` connections (429 ``rate_limited``); idle HTTP
connections are closed, whether they sent a request or never did.

One server for the module, started with an open-file limit of 200 (soft) and 256 (hard).
Client sockets come from different loopback addresses (127.0.0.0/8 is all loopback), so the
per-address cap and the process-wide capacity are tried apart.
"""

from __future__ import annotations

import contextlib
import json
import resource
import socket
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.conftest import REDIS_URL
from tests.processes import Processes, Tetrad, forget_keys, start_tetrad, wait_until

SOFT, HARD = 200, 256
PER_ADDRESS = 6
IDLE_SECONDS = 4.0  # generous: a loaded machine may take a while between connect and send


def low_file_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (SOFT, HARD))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tetrad]:
    directory = tmp_path_factory.mktemp("connections")
    prefix = f"conns-{uuid.uuid4().hex[:8]}"
    processes = Processes()
    env = {
        "TETRAD_REDIS_URL": REDIS_URL,
        "TETRAD_KEY_PREFIX": prefix,
        "TETRAD_DATA_DIR": str(directory),
        "TETRAD_DATABASE_URL": f"sqlite:///{directory / 'connections.sqlite3'}",
        # Loopback is not a proxy here: every address is capped.
        "TETRAD_TRUSTED_PROXIES": "192.0.2.1",
        "TETRAD_MAX_CONNECTIONS_PER_ADDRESS": str(PER_ADDRESS),
        "TETRAD_HTTP_IDLE_SECONDS": str(IDLE_SECONDS),
        "TETRAD_HELLO_TIMEOUT_SECONDS": "600",
    }
    try:
        yield processes.add(start_tetrad("guarded", directory, env=env, preexec_fn=low_file_limit))
    finally:
        processes.stop_all()
        forget_keys(REDIS_URL, prefix)


def port_of(server: Tetrad) -> int:
    return int(server.url.rsplit(":", 1)[1])


def from_address(server: Tetrad, address: str) -> socket.socket:
    """A TCP connection to the server from the loopback ``address``."""
    return socket.create_connection(
        ("127.0.0.1", port_of(server)), timeout=10, source_address=(address, 0)
    )


class Sockets(ExitStack):
    """Websockets a test opens, closed at its end (those the server closed already too)."""

    def open(self, server: Tetrad, address: str) -> ClientConnection:
        url = server.url.replace("http://", "ws://") + "/api/rooms/nosuchroom/ws"
        sock = from_address(server, address)
        sock.settimeout(None)  # a held socket is quiet for as long as the test runs
        ws = connect(url, sock=sock, open_timeout=10, close_timeout=2)
        self.callback(self._close, ws)
        return ws

    @staticmethod
    def _close(ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed, TimeoutError, OSError):
            ws.close()


def first_answer(ws: ClientConnection) -> dict[str, Any]:
    """What the server says to a message sent before ``hello``: ``bad_request`` from a
    socket it took, the refusal (then a close) from one it refused."""
    with contextlib.suppress(ConnectionClosed):  # a refused socket may be closed by now
        ws.send(json.dumps({"type": "ping", "ref": "p"}))
    answer: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return answer


def get_from(server: Tetrad, address: str, path: str = "/healthz") -> httpx.Response:
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(transport=transport, timeout=10) as client:
        return client.get(server.url + path)


def log_lines(server: Tetrad) -> list[dict[str, Any]]:
    lines = []
    for line in server.output().splitlines():
        if line.strip():
            lines.append(json.loads(line))  # every line is JSON
    return lines


def read_until_closed(sock: socket.socket) -> bytes:
    """What the server sends on ``sock`` until it closes it (a timeout fails the test)."""
    sock.settimeout(30)
    received = b""
    try:
        while chunk := sock.recv(4096):
            received += chunk
    except ConnectionResetError:
        pass
    return received


def test_the_soft_limit_is_raised_to_the_hard_one(server: Tetrad) -> None:
    limits = Path(f"/proc/{server.pid}/limits").read_text()
    row = next(line for line in limits.splitlines() if line.startswith("Max open files"))
    assert row.split()[3:5] == [str(HARD), str(HARD)]
    raised = [line for line in log_lines(server) if line.get("open_file_limit_before") == SOFT]
    assert raised and raised[0]["open_file_limit"] == HARD
    assert raised[0]["level"] == "warning"  # 256 is low: the operator is told to raise it


def test_past_its_capacity_a_server_refuses_newcomers_politely(server: Tetrad) -> None:
    ready = next(line for line in log_lines(server) if line["msg"] == "tetrad ready")
    capacity = ready["connection_capacity"]
    assert 0 < capacity < HARD
    held: list[ClientConnection] = []
    refusal: dict[str, Any] | None = None
    with Sockets() as sockets:
        for n in range(HARD):
            ws = sockets.open(server, f"127.0.1.{n // PER_ADDRESS + 1}")
            answer = first_answer(ws)
            if answer["code"] != "bad_request":
                refusal = answer
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
                break
            held.append(ws)
        assert refusal is not None, f"never refused: {len(held)} held\n{server.output()[-3000:]}"
        assert refusal["code"] == "server_full" and refusal["retry_after"] > 0
        assert capacity - 3 <= len(held) <= capacity, server.output()[-6000:]
        # A plain request is answered too, not dropped.
        answer = get_from(server, "127.0.2.1")
        assert answer.status_code == 503
        assert answer.json()["code"] == "server_full"
        assert int(answer.headers["retry-after"]) >= 1
        # The server keeps working for those it took.
        assert first_answer(held[0])["code"] == "bad_request"
    # Once they leave, newcomers are welcome again.
    wait_until(lambda: get_from(server, "127.0.2.1").status_code == 200, "taken again", 30)
    lines = log_lines(server)
    # One access line per socket, and nothing from uvicorn about each one.
    assert not [line for line in lines if "WebSocket" in line["msg"]]
    warnings = [line for line in lines if line.get("reason") == "server_full"]
    assert warnings and warnings[0]["level"] == "warning"
    assert len(warnings) <= 2  # one line per interval, not one per refusal
    assert "file descriptors" in warnings[0]["msg"]


def test_one_address_holds_a_bounded_number_of_connections(server: Tetrad) -> None:
    crowded, other = "127.0.3.1", "127.0.3.2"
    with Sockets() as sockets:
        held = [sockets.open(server, crowded) for _ in range(PER_ADDRESS)]
        assert all(first_answer(ws)["code"] == "bad_request" for ws in held)
        answer = get_from(server, crowded)
        assert answer.status_code == 429 and answer.json()["code"] == "rate_limited"
        extra = sockets.open(server, crowded)
        assert first_answer(extra)["code"] == "rate_limited"
        with pytest.raises(ConnectionClosed) as closed:
            extra.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        assert get_from(server, other).status_code == 200
        held[0].close()
        wait_until(lambda: get_from(server, crowded).status_code == 200, "a place freed", 30)
    warnings = [line for line in log_lines(server) if line.get("reason") == "rate_limited"]
    assert warnings and "one address" in warnings[0]["msg"]


def test_idle_http_connections_are_closed(server: Tetrad) -> None:
    silent = from_address(server, "127.0.4.1")  # never sends a thing
    halfway = from_address(server, "127.0.4.2")  # a request head that stops coming
    halfway.sendall(b"GET /healthz HTTP/1.1\r\nHost: tetrad\r\n")
    kept_alive = from_address(server, "127.0.4.3")  # one request, then quiet
    kept_alive.sendall(b"GET /healthz HTTP/1.1\r\nHost: tetrad\r\n\r\n")
    with silent, halfway, kept_alive:
        assert read_until_closed(silent) == b""
        assert read_until_closed(halfway) == b""
        assert read_until_closed(kept_alive).startswith(b"HTTP/1.1 200")
