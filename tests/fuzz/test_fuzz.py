"""A few thousand hostile REST bodies and websocket frames against a real server: no 500,
every refusal documented, no connection handler lost, the room unchanged. The long run
(100,000 cases and more) is ``make fuzz-long``."""

from __future__ import annotations

import logging

import pytest

from tests.conftest import StartServer
from tests.fuzz.runner import FUZZ_SETTINGS, run

pytestmark = pytest.mark.fuzz


async def test_hostile_input_gets_documented_refusals_only(
    start_server: StartServer, caplog: pytest.LogCaptureFixture
) -> None:
    server = await start_server(**FUZZ_SETTINGS)
    logger = logging.getLogger("tetrad")
    logger.addHandler(caplog.handler)
    try:
        report = await run(server.url, count=3000, seed=20261130)
    finally:
        logger.removeHandler(caplog.handler)
    print(report.summary())
    assert not report.problems, report.problems
    assert report.replies["status-500"] == 0 and report.cases == 3000
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
