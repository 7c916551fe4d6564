"""Dots (the encirclement game) in a real browser against a real server."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from tests.e2e.dots_pages import (
    ACTIVE_DOTS,
    DOTS_BOARD,
    GAME_OVER,
    choose_dots,
    click_point,
    marks,
    new_dots_game,
    point_xy,
    scores,
    tap_point,
    version,
    wait_my_turn,
    wait_version_above,
)

SHOTS_DOTS = Path(os.environ.get("TETRAD_SHOTS_DOTS", "/tmp/shots-dots"))

# Hot-seat plan on a 15×15 sheet: pen surrounds the pencil cross at (2, 2).
CAPTURE_PLAN = [(2, 1), (2, 2), (3, 2), (10, 10), (2, 3), (11, 11), (1, 2)]


def test_a_capture_made_with_the_mouse_is_drawn_and_scored(contexts: Any) -> None:
    page = contexts.new().new_page()
    new_dots_game(page, "Two on one device")
    assert page.locator(DOTS_BOARD).get_attribute("data-width") == "15"
    assert "pen dots" in page.locator(".player.seat0").inner_text()
    assert "pencil crosses" in page.locator(".player.seat1").inner_text()
    for x, y in CAPTURE_PLAN:
        click_point(page, x, y)
    # The area is outlined along its chain and hatched in pen's colour.
    area = page.locator("[data-area='0']")
    area.wait_for()
    assert area.get_attribute("data-captor") == "0"
    outline = area.locator("polygon.area-outline")
    assert len(outline.get_attribute("points").split()) == 4
    assert re.match(
        r"url\(#dots\d+-hatch0\)", area.locator("polygon.area-hatch").get_attribute("fill")
    )
    # The captured cross is struck through; the score counts it.
    prisoner = page.locator("[data-mark='2:2']")
    assert prisoner.get_attribute("data-captured") == "true"
    assert prisoner.locator("path.strike").count() == 1
    assert scores(page) == (1, 0)
    assert page.locator("[data-last='1:2']").count() == 1
    # Nobody may play inside: a click on the captured point is refused with a reason.
    before = version(page)
    sx, sy = point_xy(page, 2, 2)
    page.mouse.click(sx, sy)
    page.get_by_test_id("info").filter(has_text="already").wait_for()
    assert version(page) == before

    # A drag pans the zoomed sheet and places nothing.
    page.get_by_role("button", name="Zoom in").click()
    zoom = float(page.locator(DOTS_BOARD).get_attribute("data-zoom"))
    assert zoom > 1.2
    box = page.locator(DOTS_BOARD).bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    vb = page.locator(DOTS_BOARD).get_attribute("viewBox")
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 60, cy + 40, steps=5)
    page.mouse.up()
    page.wait_for_timeout(300)
    assert page.locator(DOTS_BOARD).get_attribute("viewBox") != vb
    assert version(page) == before
    # Ctrl+wheel zooms further.
    page.mouse.move(cx, cy)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -400)
    page.keyboard.up("Control")
    page.wait_for_function(
        "z => +document.querySelector('svg.dots-board').dataset.zoom > z", arg=zoom
    )

    # The game is saved: after closing the tab the start screen continues it.
    room = page.url.rsplit("/r/", 1)[1]
    page.goto("/")
    page.get_by_test_id("continue").first.click()
    page.wait_for_url(f"**/r/{room}")
    page.locator("[data-area='0']").wait_for()
    assert marks(page) == len(CAPTURE_PLAN)


def test_touch_taps_preview_then_place(contexts: Any) -> None:
    ctx = contexts.browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        locale="en-US",
        base_url=contexts.base_url,
    )
    contexts.opened.append(ctx)
    page = ctx.new_page()
    new_dots_game(page, "Two on one device")
    before = version(page)
    tap_point(page, 7, 7)
    page.locator("[data-preview='7:7']").wait_for()
    page.wait_for_timeout(300)
    assert marks(page) == 0 and version(page) == before
    tap_point(page, 7, 7)
    page.locator("[data-mark='7:7']").wait_for()
    wait_version_above(page, before)


def test_keyboard_play(contexts: Any) -> None:
    page = contexts.new().new_page()
    new_dots_game(page, "Two on one device")
    page.locator("body").focus()
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.classList.contains('dots-board')"):
            break
    else:
        raise AssertionError("Tab never reached the Dots board")
    # The cursor starts in the middle of the sheet: 15×15 → (7, 7).
    board = page.locator(DOTS_BOARD)
    assert board.get_attribute("data-cursor") == "7:7"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    assert "point i7: free" in board.get_attribute("aria-label")
    before = version(page)
    page.keyboard.press("Enter")
    page.locator("[data-mark='8:6']").wait_for()
    wait_version_above(page, before)
    assert "pen dot" in board.get_attribute("aria-label")
    page.keyboard.press("ArrowDown")
    page.locator(".cursor-ring").wait_for()
    SHOTS_DOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS_DOTS / "dots-keyboard-desktop.png"))


def _join_pair(contexts: Any) -> tuple[Any, Any, str, str]:
    host = contexts.new().new_page()
    room = new_dots_game(host, "correspondence")
    invite = host.get_by_test_id("invite-url").input_value()
    assert f"/r/{room}" in invite
    guest_ctx = contexts.new(width=390, height=844)
    guest = guest_ctx.new_page()
    guest.goto(invite)
    guest.get_by_test_id("join-offer").wait_for()
    SHOTS_DOTS.mkdir(parents=True, exist_ok=True)
    guest.screenshot(path=str(SHOTS_DOTS / "dots-join-phone.png"), full_page=True)
    guest.get_by_role("button", name="Join", exact=True).click()
    guest.locator(".player.me").wait_for()
    host.wait_for_function("() => !document.querySelector('[data-testid=invite-url]')")
    return host, guest, room, invite


def _my_seat(page: Any) -> int:
    return int(page.locator(".player.me").get_attribute("data-seat"))


def test_correspondence_game_waits_for_a_closed_browser_and_ends_by_agreement(
    contexts: Any,
) -> None:
    host, guest, room, _invite = _join_pair(contexts)
    assert {_my_seat(host), _my_seat(guest)} == {0, 1}
    # Whoever drew the first move by lot plays it; the other sees it appear by itself.
    if _my_seat(guest) == 0:
        click_point(guest, 5, 5)
        host.locator("[data-mark='5:5']").wait_for()
    # The guest closes the browser (keeping its site data), the host moves meanwhile.
    saved = guest.context.storage_state()
    guest.context.close()
    host.locator(".player:not(.me) .presence.offline").wait_for()
    wait_my_turn(host)
    click_point(host, 7, 7)
    # Later the guest comes back through its link and finds the move on the sheet.
    back_ctx = contexts.browser.new_context(
        viewport={"width": 390, "height": 844},
        locale="en-US",
        base_url=contexts.base_url,
        storage_state=saved,
    )
    contexts.opened.append(back_ctx)
    guest = back_ctx.new_page()
    guest.goto(f"/r/{room}")
    guest.locator("[data-mark='7:7']").wait_for()
    guest.locator(".player.me").wait_for()
    assert guest.get_by_test_id("join-offer").count() == 0
    guest.get_by_test_id("turn").filter(has_text="Your move").wait_for()
    click_point(guest, 9, 9)
    host.locator("[data-mark='9:9']").wait_for()
    # The room is listed under "My online games" in the guest's browser.
    guest.goto("/")
    guest.locator(f"[data-room='{room}']").wait_for()
    guest.locator(f"[data-room='{room}'] a").click()
    guest.locator("[data-mark='9:9']").wait_for()
    # They finish by agreement.
    host.get_by_role("button", name="Offer to end the game").click()
    guest.get_by_test_id("offers").get_by_text("offers to end the game").wait_for()
    guest.get_by_role("button", name="Accept").click()
    for page in (host, guest):
        page.locator(GAME_OVER).wait_for()
        assert "Ended by agreement" in page.locator(GAME_OVER).inner_text()
    guest.screenshot(path=str(SHOTS_DOTS / "dots-agreed-phone.png"), full_page=True)
    assert host.locator(ACTIVE_DOTS).count() == 0


def test_against_the_computer_with_undo(contexts: Any) -> None:
    page = contexts.new().new_page()
    new_dots_game(page, "Against the computer", level="Easy")
    click_point(page, 7, 7)
    page.wait_for_function("() => document.querySelectorAll('[data-mark]').length === 2")
    wait_my_turn(page)
    reply = page.evaluate(
        "() => [...document.querySelectorAll('[data-mark]')].map(e => e.dataset.mark)"
        ".find(k => k !== '7:7')"
    )
    x, y = (3, 3) if reply != "3:3" else (4, 3)
    click_point(page, x, y)
    page.wait_for_function("() => document.querySelectorAll('[data-mark]').length === 4")
    wait_my_turn(page)
    # A hint rings a free point and changes nothing.
    before = version(page)
    page.get_by_role("button", name="Hint").click()
    page.locator("[data-hint]").wait_for()
    assert version(page) == before
    page.get_by_role("button", name="Undo").click()
    wait_version_above(page, before)
    # My second mark and the computer's answer to it are gone; the first pair stays.
    page.wait_for_function("() => document.querySelectorAll('[data-mark]').length === 2")
    assert page.locator(f"[data-mark='{x}:{y}']").count() == 0
    assert page.locator("[data-mark='7:7']").count() == 1
    assert page.locator(f"[data-mark='{reply}']").count() == 1
    wait_my_turn(page)


# Several captures and a house on the notebook sheet, as hot-seat moves (pen, pencil, …).
BIG_PLAN = [
    (5, 4),
    (5, 5),
    (6, 5),
    (30, 3),
    (5, 6),
    (31, 3),
    (4, 5),  # pen takes one cross
    (20, 19),
    (20, 20),
    (21, 19),
    (21, 20),
    (22, 20),
    (10, 25),
    (21, 21),
    (11, 25),
    (20, 21),
    (12, 25),
    (19, 20),  # pencil takes two dots
    (30, 2),
    (15, 28),
    (31, 2),
    (16, 28),
    (32, 3),
    (17, 28),
    (31, 4),
    (18, 28),
    (30, 4),
    (25, 15),
    (29, 3),  # pen takes the two crosses at the top right
    (26, 16),
    (8, 8),
    (25, 17),
    (9, 9),
    (24, 16),  # a pencil house round (25, 16)
]


def test_big_sheet_screenshots(contexts: Any) -> None:
    """A 39×32 game with several captures on a phone and on a desktop (looked at by hand)."""
    SHOTS_DOTS.mkdir(parents=True, exist_ok=True)
    for width, height, tag in ((390, 844, "phone"), (1280, 800, "desktop")):
        page = contexts.new(width=width, height=height).new_page()
        page.goto("/")
        choose_dots(page)
        page.screenshot(path=str(SHOTS_DOTS / f"dots-start-{tag}.png"), full_page=True)
        new_dots_game(page, "Two on one device", size="39×32")
        for x, y in BIG_PLAN:
            click_point(page, x, y)
        assert page.locator("[data-area]").count() == 3
        assert page.locator("polygon.house").count() == 1
        assert scores(page) == (3, 2)
        # On an upright phone the notebook sheet is shown turned, to use the screen.
        turned = page.locator(DOTS_BOARD).get_attribute("data-turned")
        assert turned == ("true" if tag == "phone" else "false")
        page.screenshot(path=str(SHOTS_DOTS / f"dots-39x32-{tag}.png"), full_page=True)
        # Closer: zoom in round the pencil capture.
        sx, sy = point_xy(page, 20, 20)
        page.mouse.move(sx, sy)
        page.keyboard.down("Control")
        for _ in range(4):
            page.mouse.wheel(0, -250)
            page.wait_for_timeout(60)
        page.keyboard.up("Control")
        page.mouse.move(*point_xy(page, 23, 22))
        page.screenshot(path=str(SHOTS_DOTS / f"dots-39x32-{tag}-zoomed.png"), full_page=True)
