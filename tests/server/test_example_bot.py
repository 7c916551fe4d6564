"""The documented example bot runs against a real server and finishes its game."""

from __future__ import annotations

import importlib.util
import io
from contextlib import redirect_stdout
from pathlib import Path

from tests.conftest import LiveServer

BOT = Path(__file__).resolve().parents[2] / "docs" / "example_bot.py"


async def test_example_bot_plays_a_game_to_the_end(server: LiveServer) -> None:
    spec = importlib.util.spec_from_file_location("example_bot", BOT)
    assert spec is not None and spec.loader is not None
    bot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bot)
    output = io.StringIO()
    with redirect_stdout(output):
        await bot.play(server.url, "easy")
    assert "game over: " in output.getvalue()
