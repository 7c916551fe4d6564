"""Line values in practice: against the computer, the "Line values" switch (off by default,
kept in the browser) draws on every undrawn line what it gives away, exact values only, as
the review does; one-device games do not offer it. Found by role and name, at both sizes."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.e2e.pages import ACTIVE_BOARD, BOARD, new_game
from tests.e2e.test_one_view import _SETTLED, assert_accessible, open_page
from tests.e2e.test_review import REVIEW_SHOTS

NOTE = "[data-testid='line-values']"
LINE_NOTES = "[data-testid='line-notes'] [data-note]"
SETTLED_NOTE = f"() => {{ const n = document.querySelector({NOTE!r});" \
    " return n && !/Valuing/.test(n.textContent); }"  # fmt: skip
"""The values of the position have come (or the server said why not)."""


LATE = "boxes 3x3; a1-a2 a1-b1 a2-a3 a2-b2 a3-a4 a3-b3 a4-b4 b1-c1 b2-c2 b3-c3"
"""Ten quiet moves of a 3×3 game: from there (14 lines left) the solver values every line
exactly in milliseconds, however loaded the machine."""


def practice_from_late_position(page: Any) -> None:
    """Continue the LATE game against the computer from its review (whatever the page's
    language: by the form's ids and the panels' classes), with gold to move."""
    page.goto("/games")
    page.locator("#import-text").fill(LATE)
    page.locator("form.import button[type=submit]").click()
    page.locator("[data-testid='review']").wait_for()
    page.locator("section.continue-from .btn.primary").click()
    page.locator(ACTIVE_BOARD).wait_for()
    assert page.locator("[data-drawn]").count() == 10


def until_exact(page: Any) -> None:
    """Wait until the values of my position have come, exact."""
    page.wait_for_function(SETTLED_NOTE, timeout=60_000)
    expect(page.locator(NOTE)).to_have_attribute("data-exact", "true")


def test_line_values_against_the_computer(contexts: Any) -> None:
    page = open_page(contexts, 1280, 800)
    practice_from_late_position(page)
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
    # A screen reader hears each value in the line's name.
    best = page.locator("[data-testid='line-notes'] .line-note.best").first.get_attribute(
        "data-note"
    )
    expect(page.locator(f"[data-line='{best}']")).to_have_attribute(
        "aria-label", re.compile(r"^line from \w+ to \w+, free, best$")
    )
    worse = [
        n
        for n in noted
        if (page.locator(f".line-note[data-note='{n}']").text_content() or "").strip() != "0"
    ]
    if worse:  # (a position where every line is best has none)
        expect(page.locator(f"[data-line='{worse[0]}']")).to_have_attribute(
            "aria-label", re.compile(r", free, gives away \d+ box(es)?$")
        )
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
            practice_from_late_position(page)
            until_exact(page)
            page.wait_for_function(_SETTLED)
            page.screenshot(path=str(REVIEW_SHOTS / f"practice-values-{lang}-{tag}.png"))
            page.screenshot(
                path=str(REVIEW_SHOTS / f"practice-values-{lang}-{tag}-full.png"), full_page=True
            )
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            assert_accessible(page, f"practice values {lang} {tag}")
            page.context.close()
