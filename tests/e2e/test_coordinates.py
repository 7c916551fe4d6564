"""Coordinates beside the boards: switched on in Settings, letters over the columns and
numbers beside the rows as the notation names them (a1 top-left), on both boards."""

from __future__ import annotations

from typing import Any

from tests.e2e.dots_pages import DOTS_BOARD, new_dots_game
from tests.e2e.pages import BOARD, new_game
from tests.e2e.test_dots_play import SHOTS_DOTS


def _labels(page: Any) -> list[str]:
    return [
        str(text).strip()
        for text in page.locator("[data-testid='coordinates'] text").all_text_contents()
    ]


def test_coordinates_are_a_setting_for_both_boards(contexts: Any) -> None:
    SHOTS_DOTS.mkdir(parents=True, exist_ok=True)
    for width, height, tag in ((1280, 800, "desktop"), (390, 844, "phone")):
        page = contexts.new(width=width, height=height).new_page()
        new_game(page, "Two on one device", size="3×3")
        page.locator(BOARD).wait_for()
        assert page.locator("[data-testid='coordinates']").count() == 0
        page.goto("/settings")
        page.get_by_label("Show coordinates beside the board").check()
        new_game(page, "Two on one device", size="3×3")
        page.locator(f"{BOARD} [data-testid='coordinates']").wait_for()
        # Four columns of dots (a to d) and four rows (1 to 4), a1 at the top left.
        assert _labels(page) == ["a", "b", "c", "d", "1", "2", "3", "4"]
        a = page.locator(f"{BOARD} [data-testid='coordinates'] text", has_text="a").bounding_box()
        one = page.locator(f"{BOARD} [data-testid='coordinates'] text", has_text="1").first
        assert a is not None and one.bounding_box() is not None
        assert a["y"] < one.bounding_box()["y"]
        page.screenshot(path=str(SHOTS_DOTS / f"coordinates-boxes-{tag}.png"))

        new_dots_game(page, "Two on one device", size="39×32")
        page.locator(f"{DOTS_BOARD} [data-testid='coordinates']").wait_for()
        labels = _labels(page)
        assert "a" in labels and "1" in labels
        page.screenshot(path=str(SHOTS_DOTS / f"coordinates-dots-{tag}.png"))
