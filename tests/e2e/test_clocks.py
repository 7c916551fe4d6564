"""Clocks in friend rooms: chosen on the start screen, shown on both player cards and
counting down, a game lost on time said so; a correspondence move's time limit reminded
in My games."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.e2e.pages import BOARD, GAME_OVER, INVITE, choose_mode, click_first_free
from tests.e2e.test_dots_play import SHOTS_DOTS

SHORT_GAME_MINUTES = 0.1
"""What the test makes of "1 minute" for each player: six seconds, to run out quickly."""


def _new_friend_room(page: Any, mode: str, pick: dict[str, str]) -> str:
    page.goto("/")
    page.locator("form.new-game").wait_for()
    page.locator("form.new-game label", has_text="Dots and Boxes").first.click()
    choose_mode(page, mode)
    page.locator("form.new-game label", has_text="3×3").first.click()
    for name, option in pick.items():
        page.get_by_label(name).select_option(label=option)
    page.get_by_role("button", name="Start").click()
    page.locator(INVITE).wait_for()
    return str(page.get_by_test_id("invite-url").input_value())


def _shorten_the_clock(route: Any) -> None:
    body = json.loads(route.request.post_data)
    if (body.get("clock") or {}).get("minutes"):
        body["clock"] = {"minutes": SHORT_GAME_MINUTES, "increment": 0}
    route.continue_(post_data=json.dumps(body))


def test_a_live_game_lost_on_time(contexts: Any) -> None:
    gold = contexts.new().new_page()
    gold.route("**/api/rooms", _shorten_the_clock)
    invite = _new_friend_room(
        gold,
        "With a friend, live",
        {"Minutes for each player": "1 minute", "Seconds added after each move": "2 seconds"},
    )
    assert "Whoever runs out of time loses" in gold.get_by_test_id("invite").inner_text()
    coral = contexts.new(width=390, height=844).new_page()
    coral.goto(invite)
    coral.locator(BOARD).wait_for()
    gold.locator(BOARD).wait_for()
    # Both clocks on both cards; none runs before the first move.
    for page in (gold, coral):
        assert page.get_by_role("timer").count() == 2
        assert page.get_by_test_id("clock-0").inner_text() == "0:06"
        assert page.get_by_test_id("clock-1").inner_text() == "0:06"
    click_first_free(gold)
    # Coral's clock runs (and is seen running on both screens); gold's does not.
    for page in (gold, coral):
        page.locator("[data-testid='clock-1'].running").wait_for()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=clock-1]').textContent !== '0:06'"
        )
    coral.screenshot(path=str(SHOTS_DOTS / "clocks-running-phone.png"))
    assert gold.get_by_test_id("clock-0").inner_text() == "0:06"
    # Coral does not move: the server decides coral ran out of time.
    gold.locator(GAME_OVER).filter(has_text="Friend ran out of time.").wait_for()
    coral.locator(GAME_OVER).filter(has_text="You ran out of time.").wait_for()
    assert coral.get_by_test_id("clock-1").inner_text() == "0:00"
    gold.screenshot(path=str(SHOTS_DOTS / "clocks-lost-on-time-desktop.png"))


def test_a_correspondence_move_limit_is_reminded_in_my_games(contexts: Any) -> None:
    host = contexts.new().new_page()
    invite = _new_friend_room(host, "correspondence", {"Time for each move": "3 days"})
    assert "within 3 days" in host.get_by_test_id("invite").inner_text()
    guest = contexts.new(width=390, height=844).new_page()
    guest.goto(invite)
    guest.locator(BOARD).wait_for()
    host.locator(BOARD).wait_for()
    first, second = (
        (host, guest)
        if host.locator(".player.me").get_attribute("data-seat") == "0"
        else (guest, host)
    )
    first.locator(".board-wrap svg.is-active").wait_for()
    click_first_free(first)
    second.locator(
        "[data-testid='clock-1'].running, [data-testid='clock-0'].running"
    ).first.wait_for()
    for page, whose in ((second, "Your move"), (first, "Friend's move")):
        page.goto("/games")
        reminder = page.get_by_test_id("deadline")
        reminder.wait_for()
        text = reminder.inner_text().strip(", \n")
        assert re.fullmatch(rf"{whose}: (3 days|2 days 23 hours) left", text), text
    size = "phone" if second.viewport_size["width"] < 800 else "desktop"
    second.screenshot(path=str(SHOTS_DOTS / f"clocks-my-games-{size}.png"))
