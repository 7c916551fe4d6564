"""Every screen in one view, at 1280×800 and on a 390×844 phone, for every mode of both
games; and axe-core finds no serious or critical accessibility problem on any of them."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.dots_pages import DOTS_BOARD, choose_dots
from tests.e2e.pages import (
    ACTIVE_BOARD,
    BOARD,
    FREE_LINE,
    GAME_OVER,
    INVITE,
    choose_mode,
    version,
)

AXE = Path(__file__).resolve().parents[2] / "client" / "node_modules" / "axe-core" / "axe.min.js"
SHOTS_VIEW = Path(os.environ.get("TETRAD_SHOTS_VIEW", "/tmp/shots-view"))
"""Where every screen checked here is saved as a picture, to look at."""
SIZES = [pytest.param(1280, 800, id="desktop"), pytest.param(390, 844, id="phone")]

_SERIOUS = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.id} (${v.impact}): ${v.help} at `
      + v.nodes.map(n => n.target.join(' ')).slice(0, 4).join(' | '));
}"""


def open_page(contexts: Any, width: int, height: int, locale: str = "en-US") -> Any:
    ctx = contexts.new(width=width, height=height, locale=locale)
    # Injected by the browser itself, so the page's strict CSP does not stand in the way.
    ctx.add_init_script(path=str(AXE))
    return ctx.new_page()


# Cards fade in: contrast is judged once every animation that ends has ended.
_SETTLED = """() => document.getAnimations().every(
  a => a.playState !== 'running' || !isFinite(a.effect.getComputedTiming().endTime))"""


def assert_accessible(page: Any, where: str) -> None:
    page.wait_for_function(_SETTLED)
    problems = page.evaluate(_SERIOUS)
    assert not problems, f"{where}: " + "; ".join(problems)


def assert_in_view(page: Any, where: str, *selectors: str) -> None:
    """Each element is on screen as the page opens: nothing to scroll to."""
    page.evaluate("() => window.scrollTo(0, 0)")
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    for selector in selectors:
        loc = page.locator(selector).first
        loc.wait_for()
        box = loc.bounding_box()
        assert box is not None, f"{where}: {selector} has no box"
        inside = (
            box["x"] >= -0.5
            and box["y"] >= -0.5
            and box["x"] + box["width"] <= width + 0.5
            and box["y"] + box["height"] <= height + 0.5
        )
        assert inside, f"{where}: {selector} at {box} is outside the {width}×{height} view"
    SHOTS_VIEW.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^a-z0-9]+", "-", where.lower()).strip("-")
    page.screenshot(path=str(SHOTS_VIEW / f"{name}-{width}x{height}.png"))


def start(page: Any, mode: str, game: str = "boxes", size: str | None = None) -> None:
    page.goto("/")
    if game == "dots":
        choose_dots(page)
    else:
        page.locator("form.new-game").wait_for()
    choose_mode(page, mode)
    if size:
        page.locator("form.new-game label", has_text=size).first.click()
    page.get_by_role("button", name="Start", exact=True).click()
    page.locator(f"{BOARD}, {DOTS_BOARD}, {INVITE}").first.wait_for()
    page.locator("[data-conn='online']").wait_for()


def play_out(page: Any) -> None:
    """Draw the first free line until the game ends (one-device and computer rooms)."""
    for _ in range(80):
        if page.locator(GAME_OVER).count():
            return
        active = page.locator(f"{ACTIVE_BOARD} {FREE_LINE}")
        if active.count():
            before = version(page)
            active.first.click()
            page.wait_for_function(
                "v => +document.querySelector('.room').dataset.version > v"
                " || document.querySelector(\"[data-testid='game-over']\")",
                arg=before,
            )
        else:
            page.locator(f"{ACTIVE_BOARD}, {GAME_OVER}").first.wait_for(timeout=30_000)
    page.locator(GAME_OVER).wait_for()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_start_rules_settings_and_missing_pages(contexts: Any, width: int, height: int) -> None:
    page = open_page(contexts, width, height)
    page.goto("/")
    page.locator("form.new-game").wait_for()
    # The usual game is one click away, and the whole form with its Start button is in view.
    assert_in_view(
        page, "start", "[data-testid='quick-start']", "form.new-game button[type=submit]"
    )
    assert page.evaluate("() => document.documentElement.scrollHeight") <= height
    assert page.locator("h1").count() == 1
    assert_accessible(page, "start")
    choose_dots(page)
    assert_in_view(page, "start (Dots)", "form.new-game button[type=submit]")
    # A checked option is named without its decorative tick.
    name = page.get_by_role("radio", name="Dots", exact=True)
    assert name.is_checked()
    for path, where in (("/rules", "rules"), ("/settings", "settings"), ("/nowhere", "not found")):
        page.goto(path)
        page.locator("h1").first.wait_for()
        assert page.locator("h1").count() == 1, where
        assert_accessible(page, where)
    page.goto("/r/NoSuchRoom1")
    page.get_by_test_id("room-gone").wait_for()
    assert "no such game" in page.locator("h1").inner_text().lower()
    assert_in_view(page, "gone", "[data-testid='room-gone'] .btn")
    assert_accessible(page, "gone")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_computer_game_and_its_result_in_one_view(contexts: Any, width: int, height: int) -> None:
    page = open_page(contexts, width, height)
    page.goto("/")
    page.get_by_test_id("quick-start").click()
    page.locator(BOARD).wait_for()
    page.locator("[data-conn='online']").wait_for()
    assert page.locator(BOARD).get_attribute("data-rows") == "5"
    assert_in_view(page, "computer", BOARD, ".players", "[data-testid='turn']", ".controls")
    assert_accessible(page, "computer game")
    # The tab tells a player in another tab that it is their move, with the score.
    page.wait_for_function("() => document.title.startsWith('Your move · 0:0')")
    # The board takes the room it is given: most of the short side of the window.
    box = page.locator(BOARD).bounding_box()
    assert box["width"] >= min(width - 40, height - 120) * 0.9, box
    # Undo has nothing to take back yet; New game asks first once a line is drawn.
    assert page.get_by_role("button", name="Undo").is_disabled()
    before = version(page)
    page.locator(f"{ACTIVE_BOARD} {FREE_LINE}").first.click()
    page.wait_for_function("v => +document.querySelector('.room').dataset.version > v", arg=before)
    page.locator(ACTIVE_BOARD).wait_for(timeout=30_000)
    assert page.get_by_role("button", name="Undo").is_enabled()
    page.get_by_role("button", name="New game").click()
    page.get_by_role("group", name="Start a new game?").wait_for()
    page.get_by_role("button", name="Keep playing").click()
    assert page.locator("[data-drawn]:not(.start)").count() >= 1
    play_out(page)
    assert_in_view(page, "computer over", GAME_OVER, f"{GAME_OVER} .btn.primary")
    assert_accessible(page, "computer game over")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_friend_room_invite_offers_and_spectators_in_one_view(
    contexts: Any, width: int, height: int
) -> None:
    host = open_page(contexts, width, height)
    start(host, "With a friend, live", size="5×5")
    # Waiting for the guest: the invitation, not a board that looks playable.
    assert host.locator(BOARD).count() == 0
    host.locator("[data-testid='invite-qr'][data-ready='true']").wait_for()
    assert_in_view(
        host,
        "invite",
        "[data-testid='invite-url']",
        "[data-testid='invite'] .btn.primary",
        "[data-testid='invite-qr']",
    )
    assert "deleted" in host.get_by_test_id("invite").inner_text()
    assert_accessible(host, "invite")
    invite = host.get_by_test_id("invite-url").input_value()

    guest = open_page(contexts, width, height, locale="ru-RU")
    guest.goto(invite)
    guest.locator(BOARD).wait_for()
    host.locator(BOARD).wait_for()
    host.get_by_role("button", name="Offer a new game").click()
    guest.get_by_test_id("offers").wait_for()
    assert_in_view(guest, "offer", BOARD, "[data-testid='offers'] .btn.primary", ".controls")
    assert_accessible(guest, "offer (ru)")
    guest.get_by_role("button", name="Отклонить").click()
    host.get_by_test_id("info").wait_for()

    watcher = open_page(contexts, width, height)
    watcher.goto(host.url.split("#")[0])
    watcher.locator(BOARD).wait_for()
    assert_in_view(watcher, "spectator", BOARD, "[data-testid='spectating']", ".players")
    assert_accessible(watcher, "spectator")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_dots_rooms_in_one_view(contexts: Any, width: int, height: int) -> None:
    page = open_page(contexts, width, height)
    start(page, "Two on one device", game="dots", size="39×32")
    assert_in_view(page, "dots 39×32", DOTS_BOARD, ".players", ".controls", ".dots-zoom")
    assert_accessible(page, "dots one device")
    start(page, "Against the computer", game="dots", size="15×15")
    assert_in_view(page, "dots computer", DOTS_BOARD, ".controls")
    start(page, "correspondence", game="dots", size="20×20")
    assert_in_view(page, "dots invite", "[data-testid='invite-url']", "[data-testid='invite-qr']")
    assert_accessible(page, "dots invite")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_one_device_result_card(contexts: Any, width: int, height: int) -> None:
    page = open_page(contexts, width, height)
    start(page, "Two on one device", size="3×3")
    play_out(page)
    assert_in_view(page, "one device over", GAME_OVER, f"{GAME_OVER} .btn.primary")
    # The card folds away to look at the board, and comes back.
    page.get_by_role("button", name="Look at the board").click()
    page.get_by_role("button", name="Show the result").click()
    page.locator(GAME_OVER).wait_for()
