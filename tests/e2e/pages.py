"""Small helpers that speak the client's screens, so the tests read like a player's story."""

from __future__ import annotations

import time
from typing import Any

BOARD = "svg.boxes-board"
ACTIVE_BOARD = "svg.boxes-board.is-active"
FREE_LINE = "[data-line][aria-disabled='false']"
GAME_OVER = "[data-testid='game-over']"
INVITE = "[data-testid='invite']"
# The start screen's opponent buttons carry short names; tests speak the full ones.
MODE_BUTTONS = {
    "Against the computer": "Computer",
    "Two on one device": "One device",
    "With a friend, live": "Friend, live",
    "With a friend, by correspondence": "Correspondence",
    "correspondence": "Correspondence",
    "Board of the day": "Board of the day",
}


def choose_mode(page: Any, mode: str) -> None:
    """On the start screen, pick the opponent (full or short name)."""
    page.locator("form.new-game label.mode", has_text=MODE_BUTTONS.get(mode, mode)).click()


def new_game(page: Any, mode: str, size: str = "3×3", game: str = "Dots and Boxes") -> str:
    """From the start screen, start a game; returns the room id."""
    page.goto("/")
    page.locator("form.new-game").wait_for()
    page.locator("form.new-game label", has_text=game).first.click()
    choose_mode(page, mode)
    if mode != "Board of the day":
        page.locator("form.new-game label", has_text=size).first.click()
    page.get_by_role("button", name="Start").click()
    # A friend room shows its invitation where the board will be until the guest comes.
    page.locator(f"{BOARD}, {INVITE}").first.wait_for()
    return str(page.url.rsplit("/r/", 1)[1].split("#")[0])


def drawn_count(page: Any) -> int:
    return int(page.locator("[data-drawn]").count())


def version(page: Any) -> int:
    return int(page.locator(".room").get_attribute("data-version"))


def click_first_free(page: Any) -> str:
    line = page.locator(f"{ACTIVE_BOARD} {FREE_LINE}").first
    key = str(line.get_attribute("data-line"))
    line.click()
    return key


def wait_turn_or_over(page: Any, timeout: float = 20.0) -> bool:
    """Wait until this page may move (True) or the game is over (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator(GAME_OVER).count():
            return False
        if page.locator(ACTIVE_BOARD).count():
            return True
        page.wait_for_timeout(50)
    raise AssertionError(
        f"neither my turn nor game over: {page.locator('[data-testid=turn]').inner_text()}"
    )


def scores(page: Any) -> tuple[int, int]:
    return (
        int(page.get_by_test_id("score-0").inner_text()),
        int(page.get_by_test_id("score-1").inner_text()),
    )


def focused_line(page: Any) -> str | None:
    return page.evaluate(
        "() => document.activeElement && document.activeElement.getAttribute('data-line')"
    )


def tab_to_board(page: Any) -> str:
    """Press Tab until a line of the board has the keyboard focus."""
    page.locator("body").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        key = focused_line(page)
        if key:
            return key
    raise AssertionError("Tab never reached the board")


def error_text(page: Any) -> str:
    loc = page.get_by_test_id("error")
    loc.wait_for()
    return str(loc.inner_text())
