"""Helpers that speak the Dots screens, so the Dots tests read like a player's story."""

from __future__ import annotations

import time
from typing import Any

from tests.e2e.pages import INVITE, choose_mode

DOTS_BOARD = "svg.dots-board"
ACTIVE_DOTS = "svg.dots-board.is-active"
GAME_OVER = "[data-testid='game-over']"

# Screen position of grid point (x, y), whatever the zoom, pan and letterboxing; read
# until two frames agree, so a click does not land where the board was a moment ago (a
# banner or the fonts arriving can still move it while the page settles).
_POINT_JS = """async ([x, y]) => {
  const where = () => {
    const svg = document.querySelector('svg.dots-board');
    const r = svg.getBoundingClientRect();
    const vb = svg.viewBox.baseVal;
    const cell = +svg.dataset.cell, margin = +svg.dataset.margin;
    let fx = margin + x * cell, fy = margin + y * cell;
    if (svg.dataset.turned === 'true') {
      // A landscape sheet turned a quarter clockwise on a portrait phone.
      const sheetH = (+svg.dataset.height - 1) * cell + 2 * margin;
      [fx, fy] = [sheetH - fy, fx];
    }
    const scale = Math.min(r.width / vb.width, r.height / vb.height);
    const ox = r.left + (r.width - vb.width * scale) / 2;
    const oy = r.top + (r.height - vb.height * scale) / 2;
    return [ox + (fx - vb.x) * scale, oy + (fy - vb.y) * scale];
  };
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  let last = where();
  for (;;) {
    await frame();
    await frame();
    const now = where();
    if (now[0] === last[0] && now[1] === last[1]) return now;
    last = now;
  }
}"""


def choose_dots(page: Any) -> None:
    """On the start screen, pick the Dots game (not Dots and Boxes)."""
    page.locator("form.new-game").wait_for()
    page.locator("form.new-game label", has_text="Dots").filter(has_not_text="Boxes").first.click()


def new_dots_game(
    page: Any, mode: str, size: str = "15×15", start: str | None = None, level: str | None = None
) -> str:
    """From the start screen, start a Dots game; returns the room id."""
    page.goto("/")
    choose_dots(page)
    choose_mode(page, mode)
    page.locator("form.new-game label", has_text=size).first.click()
    if start:
        page.locator("form.new-game label", has_text=start).first.click()
    if level:
        page.locator("form.new-game label", has_text=level).first.click()
    page.get_by_role("button", name="Start").click()
    page.locator(f"{DOTS_BOARD}, {INVITE}").first.wait_for()
    # The header settles once connected; points are clicked by their screen position.
    page.locator("[data-conn='online']").wait_for()
    return str(page.url.rsplit("/r/", 1)[1].split("#")[0])


def point_xy(page: Any, x: int, y: int) -> tuple[float, float]:
    sx, sy = page.evaluate(_POINT_JS, [x, y])
    return float(sx), float(sy)


def version(page: Any) -> int:
    return int(page.locator(".room").get_attribute("data-version"))


def marks(page: Any) -> int:
    return int(page.locator("[data-mark]").count())


def wait_version_above(page: Any, v: int) -> None:
    page.wait_for_function("v => +document.querySelector('.room').dataset.version > v", arg=v)


def click_point(page: Any, x: int, y: int, wait: bool = True) -> None:
    """Click grid point (x, y) with the mouse and (by default) wait until it is confirmed."""
    page.locator(ACTIVE_DOTS).wait_for()
    before = version(page)
    sx, sy = point_xy(page, x, y)
    page.mouse.click(sx, sy)
    if wait:
        page.locator(f"[data-mark='{x}:{y}']").wait_for()
        wait_version_above(page, before)


def tap_point(page: Any, x: int, y: int) -> None:
    sx, sy = point_xy(page, x, y)
    page.touchscreen.tap(sx, sy)


def scores(page: Any) -> tuple[int, int]:
    return (
        int(page.get_by_test_id("score-0").inner_text()),
        int(page.get_by_test_id("score-1").inner_text()),
    )


def wait_my_turn(page: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.locator(ACTIVE_DOTS).count():
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"not my turn: {page.get_by_test_id('turn').inner_text()}")


def free_point_near(page: Any, x: int, y: int) -> tuple[int, int]:
    """A free point on the board near (x, y), read from the drawn marks."""
    taken = set(
        page.evaluate(
            "() => [...document.querySelectorAll('[data-mark]')].map(e => e.dataset.mark)"
        )
    )
    for r in range(10):
        for dx in range(-r, r + 1):
            for dy in range(-r, r + 1):
                if f"{x + dx}:{y + dy}" not in taken and x + dx >= 0 and y + dy >= 0:
                    return x + dx, y + dy
    raise AssertionError("no free point")
