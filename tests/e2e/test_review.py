"""Looking at games again: My games, the review page, export and import, the computer's
analysis and continuing from a position, in a real browser against a real server."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from core.notation import format_square
from tests.e2e.pages import BOARD, GAME_OVER, drawn_count, new_game
from tests.e2e.test_one_view import _SETTLED, AXE, assert_accessible, open_page, play_out

REVIEW = "[data-testid='review']"
REVIEW_SHOTS = Path(os.environ.get("TETRAD_REVIEW_SHOTS", "/tmp/review-shots"))
"""Where the pictures of the review screens go, to look at."""

# A 2×2 game in which coral's fourth move, a3-b3, gives away two boxes against best play
# (found with an exhaustive search over the 2×2 board); gold then takes all four.
BLUNDER = "boxes 2x2; a1-b1 b1-c1 a2-b2 a3-b3 c1-c2 b2-c2 b1-b2 a1-a2 b3-c3 a2-a3 b2-b3 c2-c3"
BLUNDER_MOVE = 4
ANALYSIS_WAIT = 120_000
"""Milliseconds an analysis may take on a loaded machine (a bound, not a measure)."""


def at_ply(page: Any, ply: int) -> None:
    expect(page.locator(REVIEW)).to_have_attribute("data-ply", str(ply))


def total_moves(page: Any) -> int:
    page.locator(REVIEW).wait_for()
    return int(page.locator(REVIEW).get_attribute("data-total"))


def import_record(page: Any, text: str) -> None:
    """From My games, paste a record and open its review."""
    page.goto("/games")
    page.get_by_label("Paste a record (text or JSON)").fill(text)
    page.get_by_role("button", name="Review it").click()
    page.locator(REVIEW).wait_for()


def test_finish_review_export_import_and_continue(contexts: Any, tmp_path: Path) -> None:
    page = contexts.new().new_page()
    room = new_game(page, "Against the computer", size="3×3")
    play_out(page)
    score = page.get_by_test_id("score-0").inner_text(), page.get_by_test_id("score-1").inner_text()

    # My games lists it, finished, with its score; the link opens the review.
    page.get_by_role("navigation").get_by_role("link", name="My games").click()
    game = page.get_by_role("link", name=re.compile(r"^Review: Dots and Boxes 3×3"))
    expect(game).to_contain_text(f"{score[0]}:{score[1]}")
    game.click()
    page.wait_for_url(re.compile(rf"/g/{room}-1"))
    total = total_moves(page)
    assert total >= 24  # every line of the board, and nothing else
    at_ply(page, total)
    assert drawn_count(page) == 24

    # Buttons and keys step through it; the board follows.
    page.get_by_role("button", name="To the start").click()
    at_ply(page, 0)
    assert drawn_count(page) == 0
    page.get_by_role("button", name="Next move").click()
    at_ply(page, 1)
    page.keyboard.press("ArrowRight")
    at_ply(page, 2)
    assert drawn_count(page) == 2
    page.keyboard.press("ArrowLeft")
    at_ply(page, 1)
    page.keyboard.press("End")
    at_ply(page, total)
    page.keyboard.press("Home")
    at_ply(page, 0)
    expect(page.get_by_role("button", name="Previous move")).to_be_disabled()
    # A move of the list opens the position after it; the address keeps it.
    page.get_by_role("button", name=re.compile(r"^Move 5, ")).click()
    at_ply(page, 5)
    page.wait_for_url(re.compile(r"#5$"))

    # Autoplay moves on by itself until paused.
    page.get_by_role("button", name="Play the moves").click()
    page.wait_for_function(f"() => +document.querySelector({REVIEW!r}).dataset.ply > 5")
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("button", name="Play the moves")).to_have_attribute(
        "aria-pressed", "false"
    )

    # The stored game's analysis runs on the server; its progress and result are shown.
    page.get_by_role("button", name="Analyse the game").click()
    expect(page.get_by_test_id("analysis")).to_have_attribute(
        "data-status", "done", timeout=ANALYSIS_WAIT
    )
    expect(page.get_by_role("img", name="Evaluation over the game")).to_be_visible()

    # Export as text and JSON.
    with page.expect_download() as text_dl:
        page.get_by_role("link", name="Download text").click()
    text = Path(text_dl.value.path()).read_text()
    assert text.startswith("boxes 3x3"), text
    with page.expect_download() as json_dl:
        page.get_by_role("link", name="Download JSON").click()
    json_file = tmp_path / "game.json"
    json_dl.value.save_as(json_file)
    assert json.loads(json_file.read_text())["game"] == "boxes"

    # Imported again, pasted as text and opened as a file, it is the same game.
    import_record(page, text)
    assert page.url.endswith("/review")
    assert total_moves(page) == total
    page.goto("/games")
    page.get_by_label("Open a file…").set_input_files(str(json_file))
    page.wait_for_url(re.compile(r"/review$"))
    assert total_moves(page) == total

    # Continue from the position after 10 moves against the computer.
    page.goto(f"/g/{room}-1#10")
    at_ply(page, 10)
    page.get_by_role("region", name="Continue from here").get_by_role(
        "button", name="Against the computer"
    ).click()
    page.wait_for_url(re.compile(r"/r/(?!" + room + r")"))
    page.locator(BOARD).wait_for()
    page.wait_for_function("() => document.querySelectorAll('[data-drawn]').length >= 10")
    assert page.locator(GAME_OVER).count() == 0


def test_analysis_marks_the_blunder(contexts: Any) -> None:
    page = open_page(contexts, 1280, 800)
    # A record the server refuses says why, in the server's words.
    page.goto("/games")
    page.get_by_label("Paste a record (text or JSON)").fill("boxes 2x2; a1-b1 a1-b1")
    page.get_by_role("button", name="Review it").click()
    refused = page.get_by_role("alert")  # (the first record starts the server's reader)
    expect(refused).to_contain_text("not a game record this server", timeout=ANALYSIS_WAIT)
    expect(refused).to_contain_text("The server says: a1-b1 is already drawn")
    import_record(page, BLUNDER)
    assert total_moves(page) == 12
    page.get_by_role("button", name="Analyse the game").click()
    expect(page.get_by_test_id("analysis")).to_have_attribute(
        "data-status", "done", timeout=ANALYSIS_WAIT
    )
    blunder = page.get_by_role(
        "button", name=re.compile(rf"^Move {BLUNDER_MOVE}, .*gives away 1 box")
    )
    expect(blunder).to_have_class(re.compile(r"\bmistake\b"))
    assert page.locator(".mv.mistake").count() >= 1
    expect(page.get_by_test_id("mistake-count")).to_contain_text("lost boxes")
    expect(page.get_by_role("img", name="Evaluation over the game")).to_be_visible()
    expect(page.get_by_test_id("eval-summary")).to_contain_text("at the start")
    # At the position before the blunder, the best moves are named, and what the move
    # played gave away, with the best line; stepping keeps it in view at both sizes.
    page.goto("/review#3")
    page.get_by_role("button", name=re.compile(r"^Move 3, ")).click()
    note = page.get_by_test_id("analysis-here")
    expect(note).to_contain_text("Best move")
    expect(note).to_contain_text("a3-b3, played here, gives away 1 box. Best was b2-c2, then:")
    # every undrawn line carries what it gives away; the best ones are marked
    notes = page.get_by_test_id("line-notes").locator("[data-note]")
    expect(notes).to_have_count(12 - 3)
    expect(page.locator(".line-note.best[data-note='h:1:1']")).to_have_count(1)  # b2-c2
    expect(page.locator(".line-note[data-note='h:0:2']")).to_contain_text("−1")  # a3-b3
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.keyboard.press("ArrowLeft")
        at_ply(page, 2)
        expect(note).to_be_in_viewport()
        page.keyboard.press("ArrowRight")
        at_ply(page, 3)
        expect(note).to_be_in_viewport()
        # the move list's hidden labels leave nothing to scroll into below the page
        blank = page.evaluate(
            "() => document.documentElement.scrollHeight"
            " - (document.body.getBoundingClientRect().bottom + scrollY)"
        )
        assert blank <= 1, f"{blank} px of blank page at {width}x{height}"
    # a fragment changed in the page moves the board with it
    page.evaluate("() => { location.hash = '#7' }")
    at_ply(page, 7)
    assert_accessible(page, "review with analysis")
    # a resigned game says so beside its score
    import_record(page, "boxes 2x2; a1-b1 b1-c1; resign 1")
    expect(page.get_by_test_id("review-result")).to_have_text("Gold won. Coral resigned. 0:0")
    # a long game's move list (each move with its hidden label) adds no blank page either
    moves = " ".join(format_square(n // 2 % 39, 2 * (n // 78) + n % 2) for n in range(160))
    import_record(page, f"dots 39x32; {moves}")
    assert total_moves(page) == 160
    blank = page.evaluate(
        "() => document.documentElement.scrollHeight"
        " - (document.body.getBoundingClientRect().bottom + scrollY)"
    )
    assert blank <= 1, f"{blank} px of blank page after a 160-move game"


def test_review_screenshots(contexts: Any) -> None:
    """The review, its analysis and My games at both sizes, in English and Russian."""
    REVIEW_SHOTS.mkdir(parents=True, exist_ok=True)
    played = [
        {
            "gameId": f"shot{i}-1",
            "roomId": f"shot{i}",
            "gameNumber": 1,
            "game": game,
            "mode": mode,
            "size": size,
            "seat": 0,
            "scores": sc,
            "level": "hard" if mode == "computer" else None,
            "finishedAt": 1_764_500_000_000 - i * 86_400_000,
        }
        for i, (game, mode, size, sc) in enumerate(
            [
                ("boxes", "computer", "5×5", [14, 11]),
                ("dots", "live", "20×20", [3, 7]),
                ("boxes", "local", "3×3", [5, 4]),
            ]
        )
    ]
    seed = f"localStorage.setItem('tetrad:v1:played', {json.dumps(json.dumps(played))})"
    for locale, lang in (("en-US", "en"), ("ru-RU", "ru")):
        for width, height, tag in ((1280, 800, "desktop"), (390, 844, "phone")):
            ctx = contexts.new(width=width, height=height, locale=locale)
            ctx.add_init_script(seed)
            ctx.add_init_script(path=str(AXE))
            page = ctx.new_page()
            page.goto("/games")
            page.locator("[data-testid='my-game']").first.wait_for()
            page.screenshot(path=str(REVIEW_SHOTS / f"my-games-{lang}-{tag}.png"), full_page=True)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            assert_accessible(page, f"my games {lang} {tag}")
            page.locator("#import-text").fill(BLUNDER)
            page.locator("form.import button[type=submit]").click()
            page.locator(REVIEW).wait_for()
            page.locator(".move-list [data-move='5']").click()
            at_ply(page, 5)
            page.wait_for_function(_SETTLED)
            page.screenshot(path=str(REVIEW_SHOTS / f"review-{lang}-{tag}.png"))
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            page.locator(".analysis button.primary").click()
            expect(page.get_by_test_id("analysis")).to_have_attribute(
                "data-status", "done", timeout=ANALYSIS_WAIT
            )
            page.locator(".move-list [data-move='3']").click()
            page.get_by_test_id("analysis").scroll_into_view_if_needed()
            page.wait_for_function(_SETTLED)
            page.screenshot(path=str(REVIEW_SHOTS / f"analysis-{lang}-{tag}.png"), full_page=True)
            assert_accessible(page, f"analysis {lang} {tag}")
            ctx.close()


def long_dots_record(moves: int) -> str:
    """A 39×32 Dots game of ``moves`` moves: pen encircles pencil's mark at c29 in the first
    seven, then the marks fill rows 1 to 14 two by two."""
    capture = ["c28", "c29", "b29", "a28", "d29", "a27", "c30"]
    rows = [format_square(n // 2 % 39, 2 * (n // 78) + n % 2) for n in range(moves - len(capture))]
    return "dots 39x32; " + " ".join(capture + rows)


def test_a_long_dots_review_steps_and_its_move_list_stays_accessible(contexts: Any) -> None:
    REVIEW_SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height, tag in ((1280, 800, "desktop"), (390, 844, "phone")):
        page = open_page(contexts, width, height)
        import_record(page, long_dots_record(500))
        assert total_moves(page) == 500
        at_ply(page, 500)
        moves = page.get_by_role("list", name="Moves")
        current = moves.get_by_role("button", name=re.compile(r"^Move 500, "))
        expect(current).to_have_attribute("aria-current", "step")
        # only the turns in sight are in the page, each saying its place among all 500
        rows = moves.get_by_role("listitem")
        assert 0 < rows.count() < 40
        expect(rows.last).to_have_attribute("aria-setsize", "500")
        expect(rows.last).to_have_attribute("aria-posinset", "500")
        page.wait_for_function(_SETTLED)
        page.screenshot(path=str(REVIEW_SHOTS / f"long-dots-{tag}.png"))
        assert_accessible(page, f"long Dots review {tag}")

        # keys from anywhere; the capture of move 7 comes and goes as the board steps
        page.keyboard.press("Home")
        at_ply(page, 0)
        board = page.locator(".dots-board")
        expect(board.locator("[data-mark]")).to_have_count(0)
        for ply in range(1, 9):
            page.keyboard.press("ArrowRight")
            at_ply(page, ply)
            expect(board.locator("[data-mark]")).to_have_count(ply)
            expect(board.locator("[data-area]")).to_have_count(1 if ply >= 7 else 0)
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        at_ply(page, 6)
        expect(board.locator("[data-area]")).to_have_count(0)
        expect(moves.get_by_role("button", name=re.compile(r"^Move 6, "))).to_have_attribute(
            "aria-current", "step"
        )

        # a move far down the list: scrolled into the page, then picked with a click
        page.locator(".move-list").evaluate("list => { list.scrollTop = list.scrollHeight }")
        moves.get_by_role("button", name=re.compile(r"^Move 498, ")).click()
        at_ply(page, 498)
        expect(board.locator("[data-mark]")).to_have_count(498)

        # from the keyboard inside the list the focus stays on the current move as it
        # steps, though the rows it passes leave the page
        focused = moves.get_by_role("button", name=re.compile(r"^Move 498, "))
        focused.focus()
        page.keyboard.press("Home")
        at_ply(page, 0)
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        at_ply(page, 3)
        expect(moves.get_by_role("button", name=re.compile(r"^Move 3, "))).to_be_focused()
        blank = page.evaluate(
            "() => document.documentElement.scrollHeight"
            " - (document.body.getBoundingClientRect().bottom + scrollY)"
        )
        assert blank <= 1, f"{blank} px of blank page at {width}x{height}"
        page.context.close()
