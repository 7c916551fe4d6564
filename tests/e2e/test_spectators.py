"""Spectators in a real browser: the room shows how many people watch."""

from __future__ import annotations

from typing import Any

from tests.e2e.pages import BOARD


def test_the_room_shows_how_many_watch(contexts: Any) -> None:
    player = contexts.new().new_page()
    grant = player.request.post(
        "/api/rooms", data={"game": "boxes", "mode": "live", "rows": 3, "cols": 3}
    ).json()
    room = grant["room_id"]
    first = contexts.new().new_page()
    first.goto(f"/r/{room}")
    first.locator(BOARD).wait_for()
    watchers = first.get_by_test_id("spectators")
    watchers.wait_for()
    assert watchers.inner_text() == "1 watching"

    second_context = contexts.new(locale="ru-RU")
    second = second_context.new_page()
    second.goto(f"/r/{room}")
    second.get_by_test_id("spectators").filter(has_text="2 зрителя").wait_for()
    watchers.filter(has_text="2 watching").wait_for()

    second_context.close()
    watchers.filter(has_text="1 watching").wait_for()
