"""Line values in practice: against the computer, the "Line values" switch (off by default,
kept in the browser) draws on every undrawn line what it gives away, exact values only, as
the review does; one-device games do not offer it. Found by role and name, at both sizes."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.e2e.pages import ACTIVE_BOARD, BOARD, FREE_LINE, GAME_OVER, new_game, version
from tests.e2e.test_one_view import _SETTLED, assert_accessible, open_page
from tests.e2e.test_review import REVIEW_SHOTS

NOTE = "[data-testid='line-values']"
LINE_NOTES = "[data-testid='line-notes'] [data-note]"
SETTLED_NOTE = f"() => {{ const n = document.querySelector({NOTE!r});" \
    " return n && !/Valuing/.test(n.textContent); }"  # fmt: skip
"""The values of the position have come (or the server said why not)."""


def play_one_move(page: Any) -> None:
    """Draw the first free line and wait for my next turn (or the end)."""
    before = version(page)
    page.locator(f"{ACTIVE_BOARD} {FREE_LINE}").first.click()
    page.wait_for_function("v => +document.querySelector('.room').dataset.version > v", arg=before)
    page.locator(f"{ACTIVE_BOARD}, {GAME_OVER}").first.wait_for(timeout=30_000)


def until_exact(page: Any) -> None:
    """Play on until the solver values the lines of my position exactly (a 3×3 board is
    solved exactly a few moves in, however loaded the machine)."""
    for _ in range(12):
        page.wait_for_function(SETTLED_NOTE, timeout=30_000)
        if page.locator(f"{NOTE}[data-exact='true']").count():
            return
        play_one_move(page)
        assert page.locator(GAME_OVER).count() == 0, "the game ended before an exact position"
    raise AssertionError("no exact position in twelve moves")


def test_line_values_against_the_computer(contexts: Any) -> None:
    page = open_page(contexts, 1280, 800)
    new_game(page, "Against the computer", size="3×3")
    page.locator(ACTIVE_BOARD).wait_for()
    switch = page.get_by_role("button", name="Line values")
    expect(switch).to_have_attribute("aria-pressed", "false")
    expect(page.locator(NOTE)).to_have_count(0)
    expect(page.locator(LINE_NOTES)).to_have_count(0)

    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(page.locator(NOTE)).to_contain_text("What each line is worth")
    until_exact(page)
    expect(page.locator(NOTE)).to_contain_text("gives away with best play (exact")
    notes = page.locator(LINE_NOTES)
    assert notes.count() > 0
    # Only undrawn lines carry a value, and at least one is best.
    drawn = set(page.locator("[data-drawn]").evaluate_all("ls => ls.map(l => l.dataset.drawn)"))
    noted = set(notes.evaluate_all("ns => ns.map(n => n.dataset.note)"))
    assert noted and not noted & drawn, (noted, drawn)
    assert page.locator("[data-testid='line-notes'] .line-note.best").count() >= 1
    assert_accessible(page, "practice with line values")

    # The choice is kept: the room opened again shows the values again.
    page.reload()
    page.locator(BOARD).wait_for()
    expect(page.get_by_role("button", name="Line values")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function(SETTLED_NOTE, timeout=30_000)
    expect(notes.first).to_be_attached()

    # Switched off, nothing is drawn or said.
    page.get_by_role("button", name="Line values").click()
    expect(page.locator(NOTE)).to_have_count(0)
    expect(notes).to_have_count(0)

    # A game on one device offers no line values.
    new_game(page, "Two on one device", size="3×3")
    page.locator(ACTIVE_BOARD).wait_for()
    expect(page.get_by_role("button", name="Hint")).to_be_visible()
    expect(page.get_by_role("button", name="Line values")).to_have_count(0)


def test_line_values_screenshots(contexts: Any) -> None:
    """Practice with line values at both sizes, in English and Russian, to look at."""
    REVIEW_SHOTS.mkdir(parents=True, exist_ok=True)
    for locale, lang in (("en-US", "en"), ("ru-RU", "ru")):
        for width, height, tag in ((1280, 800, "desktop"), (390, 844, "phone")):
            page = open_page(contexts, width, height, locale)
            page.add_init_script(
                "localStorage.setItem('tetrad:v1:settings', JSON.stringify({lineValues: true}))"
            )
            page.goto("/")
            new_game_any_language(page)
            for _ in range(3):  # a few moves in, the lines are worth different amounts
                play_one_move(page)
            until_exact(page)
            page.wait_for_function(_SETTLED)
            page.screenshot(path=str(REVIEW_SHOTS / f"practice-values-{lang}-{tag}.png"))
            page.screenshot(
                path=str(REVIEW_SHOTS / f"practice-values-{lang}-{tag}-full.png"), full_page=True
            )
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            assert_accessible(page, f"practice values {lang} {tag}")
            page.context.close()


def new_game_any_language(page: Any) -> None:
    """A 3×3 game against the computer from the start screen, whatever the page's language."""
    page.goto("/")
    page.locator("form.new-game").wait_for()
    page.locator("form.new-game label.mode").first.click()  # against the computer
    page.locator("form.new-game label", has_text="3×3").first.click()
    page.locator("form.new-game button[type=submit]").click()
    page.locator(ACTIVE_BOARD).wait_for()
