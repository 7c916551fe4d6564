"""Browser end-to-end tests: Debian's headless Chromium drives the built web client
served by a real uvicorn server (embedded store, SQLite) on a free port.

They never skip: without /usr/bin/chromium the run stops before the first test with one
line saying what to install, and an unbuilt client fails them loudly.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENT_DIST = ROOT / "client" / "dist"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
MISSING_CHROMIUM = (
    f"the browser tests need Chromium at {CHROMIUM}: install it "
    "(Debian/Ubuntu: apt-get install chromium), or leave them out: pytest --ignore=tests/e2e"
)
SHOTS = Path(os.environ.get("TETRAD_SHOTS", "/tmp/shots"))
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
"""Where a failed test leaves each page's screenshot and HTML."""
KEPT_LINES = 200
"""Console lines and websocket frames remembered per test, printed when it fails."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the browser tests and run them last.

    Playwright's sync API keeps an event loop running in the main thread while it is
    open, which pytest-asyncio cannot run tests beside; running these tests after all
    others (and closing Playwright with this package) keeps the two apart.
    """
    here = Path(__file__).parent
    browser_tests = [item for item in items if here in Path(str(item.fspath)).parents]
    if browser_tests and not Path(CHROMIUM).exists():
        pytest.exit(MISSING_CHROMIUM, returncode=pytest.ExitCode.USAGE_ERROR)
    for item in browser_tests:
        item.add_marker(pytest.mark.e2e)
    chosen = set(map(id, browser_tests))
    items[:] = [item for item in items if id(item) not in chosen] + browser_tests


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited early:\n{log.read_text()[-4000:]}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1) as res:
                if res.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not come up:\n{log.read_text()[-4000:]}")


@pytest.fixture(scope="session")
def e2e_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data directory of the browser tests' server (its SQLite database: bot accounts)."""
    return tmp_path_factory.mktemp("e2e-data")


@pytest.fixture(scope="session")
def e2e_server(e2e_data: Path) -> Iterator[str]:
    """A real uvicorn serving the API and client/dist; yields its base URL."""
    if not (CLIENT_DIST / "index.html").is_file():
        pytest.fail("client/dist is not built: run `make client` (make test does it first)")
    data = e2e_data
    port = _free_port()
    env = {
        **os.environ,
        "TETRAD_DATA_DIR": str(data),
        "TETRAD_CLIENT_DIST": str(CLIENT_DIST),
        "TETRAD_LOG_JSON": "false",
        "TETRAD_LOG_LEVEL": "WARNING",
        "TETRAD_AI_TIME_LIMIT": "0.2",
        "TETRAD_HEARTBEAT_SECONDS": "0.5",
        "TETRAD_PRESENCE_TTL_SECONDS": "3",
        "TETRAD_ROOM_CREATIONS_PER_MINUTE": "1000",
        "TETRAD_RECORD_READS_PER_MINUTE": "1000",
        "TETRAD_EMBEDDED_FSYNC": "no",
    }
    for name in ("TETRAD_REDIS_URL", "TETRAD_DATABASE_URL", "TETRAD_PUBLIC_URL"):
        env.pop(name, None)
    log = data / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "--factory",
                "server.app:app_from_env",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


class Contexts:
    """Browser contexts (separate 'browsers': own storage) closed after the test.

    Every page's console and websocket frames are kept (the last few), so a test that fails
    says what the pages were told and complained about, with a screenshot of each."""

    def __init__(self, browser: Any, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.opened: list[Any] = []
        self.log: deque[str] = deque(maxlen=KEPT_LINES)
        self.started = time.monotonic()

    def new(self, width: int = 1280, height: int = 800, locale: str = "en-US") -> Any:
        ctx = self.browser.new_context(
            viewport={"width": width, "height": height},
            locale=locale,
            base_url=self.base_url,
            permissions=["clipboard-read", "clipboard-write"],
        )
        # Waits are on state, so a generous bound costs nothing when things work; it only
        # keeps a machine under heavy load (the first AI worker starting, a page loading
        # while other suites run) from failing a wait that would have succeeded.
        ctx.set_default_timeout(45_000)
        name = f"context {len(self.opened)} ({width}x{height})"
        ctx.on("page", lambda page: self._watch(page, name))
        self.opened.append(ctx)
        return ctx

    def _note(self, who: str, line: str) -> None:
        self.log.append(f"{time.monotonic() - self.started:8.3f}s {who}: {line[:300]}")

    def _watch(self, page: Any, who: str) -> None:
        page.on("console", lambda line: self._note(who, f"console.{line.type} {line.text}"))
        page.on("pageerror", lambda error: self._note(who, f"page error {error}"))
        page.on("framenavigated", lambda frame: self._note(who, f"at {frame.url}"))

        def websocket(ws: Any) -> None:
            self._note(who, f"websocket open {ws.url}")
            ws.on("framesent", lambda payload: self._note(who, f"ws sent {payload}"))
            ws.on("framereceived", lambda payload: self._note(who, f"ws got {payload}"))
            ws.on("close", lambda _: self._note(who, "websocket closed"))

        page.on("websocket", websocket)

    def record_failure(self, test: str) -> None:
        """Print what the pages saw and keep a screenshot and the HTML of each page."""
        folder = ARTIFACTS / test.replace("/", "_")
        folder.mkdir(parents=True, exist_ok=True)
        print(f"--- the pages' last {len(self.log)} console lines and websocket frames ---")
        print("\n".join(self.log))
        for index, ctx in enumerate(self.opened):
            for number, page in enumerate(ctx.pages):
                with contextlib.suppress(Exception):  # best effort: the page may be gone
                    stem = folder / f"context{index}-page{number}"
                    page.screenshot(path=f"{stem}.png", full_page=True)
                    stem.with_suffix(".html").write_text(page.content())
                    print(f"page {index}.{number} at {page.url}: {stem}.png, {stem}.html")

    def close(self) -> None:
        for ctx in self.opened:
            with contextlib.suppress(Exception):  # best effort at teardown
                ctx.close()


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Iterator[None]:
    """Tell the test's fixtures whether its body failed (for :meth:`Contexts.record_failure`)."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when == "call":
        item.stash[FAILED] = report.failed


@pytest.fixture
def contexts(browser: Any, e2e_server: str, request: pytest.FixtureRequest) -> Iterator[Contexts]:
    ctxs = Contexts(browser, e2e_server)
    yield ctxs
    if request.node.stash.get(FAILED, False):
        ctxs.record_failure(request.node.name)
    ctxs.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
