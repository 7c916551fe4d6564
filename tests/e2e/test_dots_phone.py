"""Dots on a phone (390×844, touch) on the biggest sheet, 39×32: a sheet fingers can play."""

from __future__ import annotations

import math
from typing import Any

from tests.e2e.dots_pages import (
    DOTS_BOARD,
    free_point_near,
    new_dots_game,
    point_xy,
    tap_point,
    version,
)
from tests.e2e.test_dots_play import SHOTS_DOTS

FINGER_PX = 28
"""The least room between grid lines a finger can aim at."""


def _phone(contexts: Any) -> Any:
    ctx = contexts.browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        locale="en-US",
        base_url=contexts.base_url,
    )
    ctx.set_default_timeout(45_000)
    contexts.opened.append(ctx)
    return ctx.new_page()


def _spacing(page: Any, x: int, y: int) -> float:
    """Screen pixels between grid point (x, y) and its neighbours across and down."""
    ax, ay = point_xy(page, x, y)
    bx, by = point_xy(page, x + 1, y)
    cx, cy = point_xy(page, x, y + 1)
    return min(math.hypot(bx - ax, by - ay), math.hypot(cx - ax, cy - ay))


def _on_board(page: Any, x: int, y: int) -> bool:
    box = page.locator(DOTS_BOARD).bounding_box()
    sx, sy = point_xy(page, x, y)
    return bool(
        box["x"] <= sx <= box["x"] + box["width"] and box["y"] <= sy <= box["y"] + box["height"]
    )


def _view(page: Any) -> str:
    return str(page.locator(DOTS_BOARD).get_attribute("viewBox"))


def _touch(cdp: Any, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send(
        "Input.dispatchTouchEvent",
        {
            "type": kind,
            "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)],
        },
    )


def _gesture(cdp: Any, start: list[tuple[float, float]], end: list[tuple[float, float]]) -> None:
    """Fingers down at `start`, moved in small steps to `end`, lifted."""
    _touch(cdp, "touchStart", start)
    steps = 8
    for k in range(1, steps + 1):
        now = [
            (sx + (ex - sx) * k / steps, sy + (ey - sy) * k / steps)
            for (sx, sy), (ex, ey) in zip(start, end, strict=True)
        ]
        _touch(cdp, "touchMove", now)
    _touch(cdp, "touchEnd", [])


def test_a_39x32_sheet_on_a_phone_is_played_with_fingers(contexts: Any) -> None:
    page = _phone(contexts)
    new_dots_game(page, "Two on one device", size="39×32")
    board = page.locator(DOTS_BOARD)
    # The sheet opens close enough for fingers, round its middle (turned to fit the phone).
    assert board.get_attribute("data-turned") == "true"
    assert _spacing(page, 19, 15) >= FINGER_PX
    assert _on_board(page, 19, 15)
    help_line = page.get_by_test_id("dots-help")
    assert "Ctrl" not in help_line.inner_text()
    assert "pinch" in help_line.inner_text().lower()

    # A first tap shows the mark and says how to place it; the second places it.
    x, y = free_point_near(page, 17, 13)
    before = version(page)
    tap_point(page, x, y)
    page.locator(f"[data-preview='{x}:{y}']").wait_for()
    page.get_by_text("Tap the same point again to put your mark there.").wait_for()
    assert version(page) == before
    tap_point(page, x, y)
    page.locator(f"[data-mark='{x}:{y}']").wait_for()
    page.get_by_text("Tap the same point again").wait_for(state="detached")
    SHOTS_DOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS_DOTS / "dots-39x32-phone-fingers.png"))

    # A drag moves the sheet and a pinch zooms it; neither places nor previews a mark.
    cdp = page.context.new_cdp_session(page)
    placed = version(page)
    marks_before = page.locator("[data-mark]").count()
    box = board.bounding_box()
    mid = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    seen = _view(page)
    _gesture(cdp, [mid], [(mid[0] + 150, mid[1] + 220)])
    page.wait_for_function(
        "v => document.querySelector('svg.dots-board').getAttribute('viewBox') !== v", arg=seen
    )
    zoom = float(board.get_attribute("data-zoom"))
    _gesture(
        cdp,
        [(mid[0] - 30, mid[1] - 30), (mid[0] + 30, mid[1] + 30)],
        [(mid[0] - 110, mid[1] - 110), (mid[0] + 110, mid[1] + 110)],
    )
    page.wait_for_function(
        "z => +document.querySelector('svg.dots-board').dataset.zoom > z", arg=zoom
    )
    assert page.locator("[data-preview]").count() == 0
    assert page.locator("[data-mark]").count() == marks_before
    assert version(page) == placed

    # The last move is now out of view: the control says so and brings it back, close.
    last = page.get_by_role("button", name="Go to the last move")
    if _on_board(page, x, y):
        _gesture(cdp, [mid], [(mid[0] - 160, mid[1] - 300)])
    page.wait_for_function(
        "() => document.querySelector('button[aria-label=\"Go to the last move\"]')"
        ".dataset.offView === 'true'"
    )
    last.click()
    page.wait_for_function(
        "() => document.querySelector('button[aria-label=\"Go to the last move\"]')"
        ".dataset.offView === 'false'"
    )
    assert _on_board(page, x, y)
    assert _spacing(page, x, y) >= FINGER_PX

    # "-" and "+" zoom round the previewed point: it stays under the finger.
    px, py = free_point_near(page, x + 2, y + 1)
    tap_point(page, px, py)
    page.locator(f"[data-preview='{px}:{py}']").wait_for()
    for button, closer in (("Zoom out", False), ("Zoom in", True)):
        at = point_xy(page, px, py)
        zoom = float(board.get_attribute("data-zoom"))
        page.get_by_role("button", name=button).click()
        page.wait_for_function(
            "([z, closer]) => { const now = +document.querySelector('svg.dots-board')"
            ".dataset.zoom; return closer ? now > z : now < z; }",
            arg=[zoom, closer],
        )
        moved = point_xy(page, px, py)
        assert math.hypot(moved[0] - at[0], moved[1] - at[1]) < 40, (button, at, moved)
    page.locator(f"[data-preview='{px}:{py}']").wait_for()
    assert version(page) == placed
