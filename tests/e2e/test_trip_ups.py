"""What players tripped over (issue 28), checked as a player meets it: texts in three
languages with their plural forms, player cards whose words are not cut on a phone,
the start screen's Start in view beside two saved games, the keyboard in the game's
questions, notices that go when they stop being true, and one-device games ending
only when asked twice."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.dots_pages import DOTS_BOARD
from tests.e2e.pages import ACTIVE_BOARD, BOARD, FREE_LINE, GAME_OVER, version
from tests.e2e.test_one_view import assert_accessible, assert_in_view, open_page, start

# Records each state the Hint button goes through, as "disabled/aria-busy".
HINT_WATCH = """() => {
  window.hintSeen = [];
  const look = () => {
    const b = [...document.querySelectorAll('.controls button')]
      .find(x => x.textContent.includes('Hint'));
    if (b) window.hintSeen.push(`${b.disabled}/${b.getAttribute('aria-busy')}`);
  };
  new MutationObserver(look)
    .observe(document.body, { subtree: true, childList: true, attributes: true });
}"""

# (locale, a fresh game, after one move each, the board's name for 5×5)
LANGUAGES = [
    pytest.param("en-US", "no moves yet", "2 moves", "5 by 5 boxes", id="en"),
    pytest.param("ru-RU", "ходов ещё нет", "2 хода", "5 на 5 квадратов", id="ru"),
    pytest.param("cs-CZ", "zatím bez tahu", "2 tahy", "5 na 5 čtverečků", id="cs"),
]


DOTS_NAME = {"en-US": "Dots", "ru-RU": "Точки", "cs-CZ": "Tečky"}
OPENING_CROSS = {"en-US": "Cross", "ru-RU": "Скрест", "cs-CZ": "Kříž"}


def cut_texts(page: Any, selector: str) -> list[str]:
    """The texts under `selector` wider than their box (cut off or hidden by an ellipsis)."""
    return list(
        page.locator(selector).evaluate_all(
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
        )
    )


def move_and_wait(page: Any) -> None:
    before = version(page)
    page.locator(f"{ACTIVE_BOARD} {FREE_LINE}").first.click()
    page.wait_for_function("v => +document.querySelector('.room').dataset.version > v", arg=before)


@pytest.mark.parametrize(("locale", "fresh", "played", "board_name"), LANGUAGES)
def test_phone_start_screen_with_two_saved_games(
    contexts: Any, locale: str, fresh: str, played: str, board_name: str
) -> None:
    page = open_page(contexts, 390, 844, locale=locale)
    page.goto("/")
    page.get_by_test_id("quick-start").click()
    page.locator(ACTIVE_BOARD).wait_for()
    # The board says its size with the noun in the case the number needs.
    assert board_name in str(page.locator(BOARD).get_attribute("aria-label"))
    page.goto("/")
    page.get_by_test_id("quick-start").click()
    page.locator(ACTIVE_BOARD).wait_for()
    move_and_wait(page)
    page.locator(ACTIVE_BOARD).wait_for()  # the computer has answered
    page.goto("/")
    entries = page.get_by_test_id("continue")
    entries.nth(1).wait_for()
    names = [entries.nth(i).inner_text() for i in range(entries.count())]
    assert len(names) == 2 and names[0] != names[1], names
    assert any(played in n for n in names) and any(fresh in n for n in names), names
    assert_in_view(page, f"start two saved {locale}", "form.new-game button[type=submit]")
    # Dots asks one question more (the opening position); Start stays in view all the same.
    page.get_by_role("radio", name=DOTS_NAME[locale], exact=True).check()
    page.get_by_role("radio", name=OPENING_CROSS[locale], exact=True).wait_for()
    start_button = "form.new-game button[type=submit]"
    assert_in_view(page, f"start two saved, Dots chosen {locale}", start_button)
    # The language menu shows all of its text, whatever the language.
    assert cut_texts(page, ".top nav a, .lang-code") == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert_accessible(page, f"start with saved games {locale}")


def test_dots_friend_cards_are_not_cut_on_a_phone(contexts: Any) -> None:
    host = open_page(contexts, 390, 844, locale="ru-RU")
    host.goto("/")
    host.locator("form.new-game label").filter(has_text=re.compile(r"^✓?Точки$")).click()
    host.locator("form.new-game label").filter(has_text=re.compile(r"^✓?С другом$")).click()
    host.get_by_role("button", name="Начать", exact=True).click()
    invite = host.get_by_test_id("invite-url").input_value()
    guest = open_page(contexts, 390, 844, locale="ru-RU")
    guest.goto(invite)
    guest.get_by_role("button", name="Присоединиться").click()
    for page in (host, guest):
        page.locator(DOTS_BOARD).wait_for()
        page.locator(".player .presence.online").nth(1).wait_for()
        assert cut_texts(page, ".player .name, .player .meta") == []
        assert page.locator(".player .meta").nth(1).inner_text().endswith("на связи")
    assert_in_view(host, "dots friend cards ru", ".player.seat0", ".player.seat1")


def test_keyboard_questions_hint_feedback_and_stale_notices(contexts: Any) -> None:
    page = open_page(contexts, 1280, 800)
    drop = {"hint": False}

    def between(ws: Any) -> None:
        """Pass the room's frames both ways; when asked, cut the socket on a hint."""
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if drop["hint"] and '"type":"hint"' in str(message):
                drop["hint"] = False
                ws.close()
            else:
                server.send(message)

        ws.on_message(from_page)
        server.on_message(ws.send)

    page.route_web_socket(re.compile(r"/ws$"), between)
    start(page, "Against the computer", size="3×3")
    resign = page.get_by_role("button", name="Resign")

    # A question by Enter takes the focus (its safe answer); Escape gives it back.
    resign.focus()
    page.keyboard.press("Enter")
    question = page.get_by_role("group", name="Resign this game?")
    question.wait_for()
    keep = question.get_by_role("button", name="Keep playing")
    page.wait_for_function("() => document.activeElement?.textContent === 'Keep playing'")
    assert keep.evaluate("e => e === document.activeElement")
    page.keyboard.press("Escape")
    question.wait_for(state="detached")
    page.wait_for_function("() => document.activeElement?.textContent === 'Resign'")

    # The hint says it is working and cannot be asked twice meanwhile; its explanation
    # goes with its dashed line.
    page.evaluate(HINT_WATCH)
    page.get_by_role("button", name="Hint").click()
    explained = page.get_by_test_id("info").filter(
        has_text="The computer would draw the dashed line"
    )
    explained.wait_for()
    assert "true/true" in page.evaluate("window.hintSeen"), page.evaluate("window.hintSeen")
    move_and_wait(page)
    explained.wait_for(state="detached")

    # The connection drops after the hint was asked and before its answer: once it is
    # back, no red "cannot be reached" stays beside "Connected", and the hint can be asked.
    page.locator(ACTIVE_BOARD).wait_for()
    drop["hint"] = True
    page.get_by_role("button", name="Hint").click()
    page.get_by_test_id("info").filter(has_text="try again").wait_for()
    page.locator("[data-conn='online']").wait_for()
    assert page.get_by_test_id("error").count() == 0
    assert page.get_by_role("button", name="Hint").is_enabled()

    # Resigning from the keyboard leaves the focus on the result, not on the page.
    resign.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement?.textContent === 'Keep playing'")
    page.keyboard.press("Shift+Tab")
    page.wait_for_function("() => document.activeElement?.textContent === 'Yes, resign'")
    page.keyboard.press("Enter")
    page.locator(GAME_OVER).wait_for()
    page.wait_for_function("() => document.activeElement?.id === 'over-h'")
    assert "You resigned." in page.locator(GAME_OVER).inner_text()


def test_one_device_game_ends_only_when_asked_twice(contexts: Any) -> None:
    page = open_page(contexts, 390, 844)
    start(page, "Two on one device", size="3×3")
    move_and_wait(page)
    page.get_by_role("button", name="End as a draw").click()
    question = page.get_by_role("group", name="End this game as a draw?")
    question.wait_for()
    page.keyboard.press("Escape")
    question.wait_for(state="detached")
    assert page.locator(GAME_OVER).count() == 0
    page.get_by_role("button", name="End as a draw").click()
    question.get_by_role("button", name="Yes, a draw").click()
    card = page.locator(GAME_OVER)
    card.wait_for()
    assert "Ended by agreement." in card.inner_text()
    # The review names the players as the game did.
    card.get_by_role("link", name="Review the game").click()
    page.locator(".review .players, .players").first.wait_for()
    names = page.locator(".player .name").all_inner_texts()
    assert names == ["Player 1", "Player 2"], names
