"""A person's view of tetrad: whole games in a real browser against a real server."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.e2e.pages import (
    ACTIVE_BOARD,
    BOARD,
    GAME_OVER,
    click_first_free,
    drawn_count,
    error_text,
    focused_line,
    new_game,
    scores,
    tab_to_board,
    version,
    wait_turn_or_over,
)


def test_whole_3x3_game_against_the_computer_by_keyboard(contexts: Any) -> None:
    page = contexts.new().new_page()
    new_game(page, "Against the computer")
    assert page.locator("[data-line]").count() == 24
    key = tab_to_board(page)
    assert key, "the board takes the keyboard focus"
    moves = 0
    while wait_turn_or_over(page, timeout=30):
        before = version(page)
        # Look for a free line with the arrow keys, starting from the first free one.
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        if (
            page.locator(f"[data-line='{focused_line(page)}']").get_attribute("aria-disabled")
            != "false"
        ):
            page.keyboard.press("Home")
        chosen = focused_line(page)
        page.keyboard.press("Enter" if moves % 2 == 0 else " ")
        page.wait_for_function(
            "([v, k]) => +document.querySelector('.room').dataset.version > v"
            " && document.querySelector(`[data-drawn='${k}']`)",
            arg=[before, chosen],
        )
        moves += 1
        assert moves <= 24
    assert drawn_count(page) == 24
    a, b = scores(page)
    assert a + b == 9
    summary = page.locator(GAME_OVER).inner_text()
    assert re.search(r"won|lost", summary), summary
    # A new game keeps the level and empties the board.
    page.get_by_role("button", name="Play again").click()
    page.wait_for_function("() => document.querySelectorAll('[data-drawn]').length === 0")
    assert page.locator("select").last.input_value() == "normal"


def test_saved_local_game_is_continued_after_a_reload(contexts: Any) -> None:
    page = contexts.new().new_page()
    room = new_game(page, "Two on one device")
    for _ in range(3):
        wait_turn_or_over(page)
        before = version(page)
        click_first_free(page)
        page.wait_for_function(
            "v => +document.querySelector('.room').dataset.version > v", arg=before
        )
    assert drawn_count(page) == 3
    page.goto("/")
    page.reload()
    cont = page.get_by_test_id("continue")
    cont.wait_for()
    cont.click()
    page.wait_for_url(f"**/r/{room}")
    page.locator(BOARD).wait_for()
    page.wait_for_function("() => document.querySelectorAll('[data-drawn]').length === 3")
    # Keep playing where we left off.
    wait_turn_or_over(page)
    click_first_free(page)
    page.wait_for_function("() => document.querySelectorAll('[data-drawn]').length === 4")


def _live_pair(contexts: Any) -> tuple[Any, Any, str]:
    """Gold creates a live 3×3 room; coral opens the invite link in another browser."""
    gold = contexts.new().new_page()
    room = new_game(gold, "With a friend, live")
    invite = gold.get_by_test_id("invite-url").input_value()
    assert f"/r/{room}" in invite and "invite=" in invite
    coral = contexts.new(width=390, height=844).new_page()
    coral.goto(invite)
    coral.locator(BOARD).wait_for()
    coral.locator(".player.seat1.me").wait_for()
    gold.locator(BOARD).wait_for()
    gold.locator(".player.seat1 .presence.online").wait_for()
    coral.locator(".player.seat0 .presence.online").wait_for()
    return gold, coral, room


def _play_to_the_end(pages: list[Any]) -> None:
    for _ in range(40):
        if all(p.locator(GAME_OVER).count() for p in pages):
            return
        for p in pages:
            if p.locator(ACTIVE_BOARD).count():
                before = version(p)
                click_first_free(p)
                p.wait_for_function(
                    "v => +document.querySelector('.room').dataset.version > v", arg=before
                )
                break
        else:
            pages[0].wait_for_timeout(100)
    for p in pages:
        p.locator(GAME_OVER).wait_for()


def test_live_room_through_the_invite_link_with_a_drop_out(contexts: Any) -> None:
    gold, coral, room = _live_pair(contexts)
    assert "Your move" in gold.get_by_test_id("turn").inner_text()

    # Gold draws; coral sees it appear by itself.
    click_first_free(gold)
    coral.wait_for_function("() => document.querySelectorAll('[data-drawn]').length === 1")

    # Coral drops off the network and draws anyway: the line waits, shown as sending, and
    # is played once the client has reconnected by itself; it is never lost.
    coral.context.set_offline(True)
    coral.get_by_test_id("conn").filter(has_text="reconnecting").wait_for()
    gold.locator(".player.seat1 .presence.offline").wait_for()
    click_first_free(coral)
    coral.locator(f"{BOARD} line.pending").wait_for(state="attached")
    assert drawn_count(gold) == 1
    coral.context.set_offline(False)
    coral.locator("[data-conn='online']").wait_for(timeout=20_000)
    gold.locator(".player.seat1 .presence.online").wait_for()
    gold.wait_for_function("() => document.querySelectorAll('[data-drawn]').length === 2")
    coral.wait_for_function("() => document.querySelectorAll('[data-drawn]').length === 2")
    assert coral.locator(f"{BOARD} line.pending").count() == 0

    # Now coral is gone while gold is to move: gold's line is refused, opponent offline.
    wait_turn_or_over(gold)
    coral.context.set_offline(True)
    gold.locator(".player.seat1 .presence.offline").wait_for()
    click_first_free(gold)
    assert "offline" in error_text(gold)
    assert drawn_count(gold) == 2

    coral.context.set_offline(False)
    coral.locator("[data-conn='online']").wait_for(timeout=20_000)
    gold.locator(".player.seat1 .presence.online").wait_for()
    _play_to_the_end([gold, coral])
    assert scores(gold) == scores(coral)
    assert sum(scores(gold)) == 9
    # The start screen lists the room with this browser's seat.
    gold.goto("/")
    gold.locator(f"[data-room='{room}']").wait_for()


class HeldServer:
    """A page's room websocket whose server messages wait here until released."""

    def __init__(self) -> None:
        self.page_side: Any = None
        self.held: list[str | bytes] = []
        self.holding = True

    def route(self, ws: Any) -> None:
        self.page_side = ws
        server = ws.connect_to_server()  # the page's own messages go straight through
        server.on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        if self.holding:
            self.held.append(message)
        else:
            self.page_side.send(message)

    def release(self) -> None:
        self.holding = False
        for message in self.held:
            self.page_side.send(message)
        self.held.clear()


def test_a_line_drawn_before_the_welcome_is_played(contexts: Any) -> None:
    """The board is drawn from the REST read before the websocket is welcomed: a line drawn
    then waits for the welcome and is played, never dropped."""
    ctx = contexts.new()
    server = HeldServer()
    ctx.route_web_socket(re.compile(r"/api/rooms/[^/]+/ws$"), server.route)
    page = ctx.new_page()
    new_game(page, "Two on one device")
    page.locator(".room[data-status='connecting']").wait_for()
    key = click_first_free(page)
    page.locator(f"{BOARD} line.pending").wait_for(state="attached")
    assert drawn_count(page) == 0
    server.release()
    page.locator(f"[data-drawn='{key}']").wait_for(state="attached")
    page.locator(".room[data-status='online'][data-version='2']").wait_for()


def test_a_second_tab_takes_over_the_seat(contexts: Any) -> None:
    ctx = contexts.new()
    first = ctx.new_page()
    room = new_game(first, "With a friend, by correspondence")
    first.locator("[data-conn='online']").wait_for()
    second = ctx.new_page()
    second.goto(f"/r/{room}")
    second.locator("[data-conn='online']").wait_for()
    first.get_by_test_id("taken-over").wait_for()
    assert "another tab" in first.get_by_test_id("taken-over").inner_text()
    # Taking it back here moves the seat again.
    first.get_by_role("button", name="Play here instead").click()
    first.locator("[data-conn='online']").wait_for()
    second.get_by_test_id("taken-over").wait_for()


def test_restart_needs_both_players(contexts: Any) -> None:
    gold, coral, _room = _live_pair(contexts)
    click_first_free(gold)
    coral.wait_for_function("() => document.querySelectorAll('[data-drawn]').length === 1")

    # Gold asks; coral declines; gold hears about it.
    gold.get_by_role("button", name="Offer a new game").click()
    coral.get_by_test_id("offers").get_by_text("Friend offers a new game.").wait_for()
    gold.get_by_test_id("offers").get_by_text("You offered a new game").wait_for()
    coral.get_by_role("button", name="Decline").click()
    gold.get_by_test_id("info").filter(has_text="was declined").wait_for()
    assert drawn_count(gold) == 1

    # A move cancels a pending request.
    gold.get_by_role("button", name="Offer a new game").click()
    coral.get_by_test_id("offers").get_by_text("Friend offers a new game.").wait_for()
    click_first_free(coral)
    gold.wait_for_function("() => !document.querySelector('[data-testid=offers]')")

    # Asked again and accepted: both see an empty board, gold to move.
    gold.get_by_role("button", name="Offer a new game").click()
    coral.get_by_role("button", name="Accept").click()
    for page in (gold, coral):
        page.wait_for_function("() => document.querySelectorAll('[data-drawn]').length === 0")
    assert "Your move" in gold.get_by_test_id("turn").inner_text()


def test_screenshots(contexts: Any, shots: Path) -> None:
    """Pictures of the start screen, a game in progress and a finished game."""
    for width, height, tag in ((390, 844, "phone"), (1280, 800, "desktop")):
        page = contexts.new(width=width, height=height).new_page()
        page.goto("/")
        page.locator("form.new-game").wait_for()
        page.screenshot(path=str(shots / f"start-{tag}.png"), full_page=True)
        new_game(page, "Two on one device")
        # Claim a box or two, then stop in the middle.
        plan = ["h:0:0", "v:0:0", "h:1:0", "v:1:0", "h:0:1", "h:2:2", "v:3:1"]
        for key in plan:
            wait_turn_or_over(page)
            before = version(page)
            page.locator(f"[data-line='{key}']").click()
            page.wait_for_function(
                "v => +document.querySelector('.room').dataset.version > v", arg=before
            )
        page.locator(f"[data-line='{'h:1:1'}']").hover()
        page.screenshot(path=str(shots / f"game-{tag}.png"), full_page=True)
        _play_to_the_end([page])
        page.screenshot(path=str(shots / f"finished-{tag}.png"), full_page=True)


def test_computer_controls_hint_level_and_undo(contexts: Any) -> None:
    page = contexts.new().new_page()
    new_game(page, "Against the computer", size="4×4")
    wait_turn_or_over(page)
    before = version(page)
    click_first_free(page)
    # The computer has answered: the room is past the click's version and it is our turn
    # again (the board is still active for a moment right after the click).
    page.wait_for_function(
        "v => +document.querySelector('.room').dataset.version > v + 1"
        " && document.querySelector('svg.boxes-board.is-active')",
        arg=before,
    )
    drawn = drawn_count(page)
    assert drawn >= 2

    page.get_by_role("button", name="Hint").click()
    page.locator("[data-hint]").wait_for(state="attached")

    # Wait on the room's state (its level), not on a notice that comes and goes.
    page.locator(".controls select").select_option("hard")
    page.locator(".room[data-level='hard']").wait_for()
    assert drawn_count(page) == drawn

    page.get_by_role("button", name="Undo").click()
    page.wait_for_function("n => document.querySelectorAll('[data-drawn]').length < n", arg=drawn)
    wait_turn_or_over(page)
    assert page.locator(".controls select").input_value() == "hard"


def test_daily_board_starts_with_lines_drawn(contexts: Any) -> None:
    page = contexts.new(locale="cs-CZ").new_page()
    page.goto("/")
    page.locator("form.new-game label.mode").nth(4).click()
    page.locator("form.new-game button[type=submit]").click()
    page.locator(BOARD).wait_for()
    assert page.locator("[data-line]").count() == 60
    assert page.locator("[data-drawn].start").count() > 0
    assert "Deska dne" in page.locator(".room-title").inner_text()
    assert "Jste na tahu" in page.get_by_test_id("turn").inner_text()
    # Play it out; the summary then says how the result compares with today's others.
    for _ in range(60):
        if not wait_turn_or_over(page, timeout=30):
            break
        before = version(page)
        click_first_free(page)
        page.wait_for_function(
            "v => +document.querySelector('.room').dataset.version > v"
            " || document.querySelector(\"[data-testid='game-over']\")",
            arg=before,
        )
    page.locator(GAME_OVER).wait_for()
    mine = scores(page)[0]
    assert f"Získali jste {mine} z 25" in page.locator(GAME_OVER).inner_text()
    compare = page.locator("[data-testid='daily-compare'][data-state='ready']")
    compare.wait_for()
    text = compare.inner_text()
    assert re.fullmatch(
        r"Dnešní desku jste dohráli jako první\.|Vaše pořadí mezi dnešními hráči: \d+\. z \d+.*\.",
        text,
    ), text
    results = page.request.get("/api/daily/results").json()
    assert results["players"] >= 1
    assert any(entry["boxes"] == mine for entry in results["distribution"])
    # One clear end card: the next game is practice, not a second result for today.
    card = page.locator(GAME_OVER)
    assert card.get_by_role("button", name="Hrát znovu (trénink)").count() == 1
    assert page.locator(".controls").get_by_role("button", name="Nová hra").count() == 0
    card.get_by_role("button", name="Hrát znovu (trénink)").click()
    page.locator(".room[data-game-number='2']").wait_for()
    assert page.locator(".room-title .badge.practice").text_content() == "Trénink"
