"""Fixtures of the tests that run tetrad as an operator does."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.processes import Processes


@pytest.fixture
def processes() -> Iterator[Processes]:
    """Processes a test starts; each is stopped at the end, whatever happened."""
    started = Processes()
    yield started
    started.stop_all()
