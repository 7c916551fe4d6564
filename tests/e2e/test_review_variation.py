"""The better line of a judged move as a variation in the review: entered from the analysis
note, stepped with the game's buttons and keys, its moves nested in the move list, left with
"Back to the game" or Escape at the same move; found by role and name, at both sizes."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.e2e.pages import drawn_count
from tests.e2e.test_one_view import _SETTLED, assert_accessible, open_page
from tests.e2e.test_review import ANALYSIS_WAIT, BLUNDER, REVIEW_SHOTS, at_ply, import_record

BEFORE_BLUNDER = 3
"""The review's ply before coral's a3-b3 (move 4), which gives a box away; best was b2-c2."""


def open_the_blunder(page: Any) -> None:
    import_record(page, BLUNDER)
    page.get_by_role("button", name="Analyse the game").click()
    expect(page.get_by_test_id("analysis")).to_have_attribute(
        "data-status", "done", timeout=ANALYSIS_WAIT
    )
    page.get_by_role("button", name=re.compile(rf"^Move {BEFORE_BLUNDER}, ")).click()
    at_ply(page, BEFORE_BLUNDER)


def test_the_better_line_is_a_variation_to_step_into_and_out_of(contexts: Any) -> None:
    page = open_page(contexts, 1280, 800)
    open_the_blunder(page)
    page.get_by_role("button", name="Show the better line").click()

    variation = page.get_by_role("region", name="Variation")
    expect(variation).to_contain_text("The better line instead of move 4, a3-b3: b2-c2")
    where = page.get_by_test_id("ply")
    expect(where).to_have_text(re.compile(r"^Variation: move 1 of \d+$"))
    length = int(re.search(r"of (\d+)", where.inner_text()).group(1))  # type: ignore[union-attr]
    assert length >= 2
    # The board shows the game's position with the best move drawn; the game stays put.
    at_ply(page, BEFORE_BLUNDER)
    assert drawn_count(page) == BEFORE_BLUNDER + 1
    expect(page.locator(".line-note")).to_have_count(0)
    nested = page.get_by_role("list", name="Variation instead of move 4")
    expect(nested.get_by_role("button")).to_have_count(length)
    expect(nested.get_by_role("button", name="Variation move 1: b2-c2")).to_have_attribute(
        "aria-current", "step"
    )

    # The game's buttons and keys step within the variation.
    page.get_by_role("button", name="Next move").click()
    expect(where).to_have_text(f"Variation: move 2 of {length}")
    assert drawn_count(page) == BEFORE_BLUNDER + 2
    page.keyboard.press("End")
    expect(where).to_have_text(f"Variation: move {length} of {length}")
    expect(page.get_by_role("button", name="Next move")).to_be_disabled()
    assert drawn_count(page) == BEFORE_BLUNDER + length
    page.keyboard.press("Home")
    expect(where).to_have_text("Variation: the position before move 4")
    assert drawn_count(page) == BEFORE_BLUNDER
    page.keyboard.press("ArrowRight")
    expect(where).to_have_text(f"Variation: move 1 of {length}")
    nested.get_by_role("button", name=re.compile(r"^Variation move 2: ")).click()
    expect(where).to_have_text(f"Variation: move 2 of {length}")
    assert_accessible(page, "review in a variation")

    # Escape leads back to the game at the same move, and so does the banner's button.
    page.keyboard.press("Escape")
    expect(variation).to_have_count(0)
    expect(nested).to_have_count(0)
    at_ply(page, BEFORE_BLUNDER)
    expect(where).to_have_text("After move 3 of 12")
    assert drawn_count(page) == BEFORE_BLUNDER
    page.keyboard.press("ArrowRight")
    at_ply(page, BEFORE_BLUNDER + 1)
    page.keyboard.press("ArrowLeft")
    page.get_by_role("button", name="Show the better line").click()
    page.keyboard.press("ArrowRight")
    expect(where).to_have_text(f"Variation: move 2 of {length}")
    variation.get_by_role("button", name="Back to the game").click()
    expect(variation).to_have_count(0)
    at_ply(page, BEFORE_BLUNDER)
    # the focus goes back to where the variation was entered
    expect(page.get_by_role("button", name="Show the better line")).to_be_focused()


def test_variation_screenshots(contexts: Any) -> None:
    """The variation at both sizes, in English and Czech, to look at."""
    REVIEW_SHOTS.mkdir(parents=True, exist_ok=True)
    for locale, lang in (("en-US", "en"), ("cs-CZ", "cs")):
        for width, height, tag in ((1280, 800, "desktop"), (390, 844, "phone")):
            page = open_page(contexts, width, height, locale)
            import_record_any_language(page)
            page.locator(".move-list [data-move='3']").click()
            at_ply(page, BEFORE_BLUNDER)
            page.locator("[data-testid='played-here'] button").click()
            page.keyboard.press("ArrowRight")
            page.locator("[data-testid='variation']").wait_for()
            page.wait_for_function(_SETTLED)
            page.screenshot(path=str(REVIEW_SHOTS / f"variation-{lang}-{tag}.png"), full_page=True)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            assert_accessible(page, f"variation {lang} {tag}")
            page.context.close()


def import_record_any_language(page: Any) -> None:
    """Import the blunder and analyse it whatever the page's language (by the form's ids)."""
    page.goto("/games")
    page.locator("#import-text").fill(BLUNDER)
    page.locator("form.import button[type=submit]").click()
    page.locator("[data-testid='review']").wait_for()
    page.locator(".analysis button.primary").click()
    expect(page.get_by_test_id("analysis")).to_have_attribute(
        "data-status", "done", timeout=ANALYSIS_WAIT
    )
