"""Friend rooms that explain themselves: what the invitation does in each game, the host
told that the friend has arrived, one Join for the guest, and take-back requests."""

from __future__ import annotations

from typing import Any

from tests.e2e.dots_pages import click_point, free_point_near, new_dots_game, wait_my_turn
from tests.e2e.test_dots_play import SHOTS_DOTS


def _seat(page: Any) -> int:
    return int(page.locator(".player.me").get_attribute("data-seat"))


def test_a_dots_friend_arrives_joins_and_a_move_is_taken_back(contexts: Any) -> None:
    host = contexts.new().new_page()
    new_dots_game(host, "With a friend, live", size="15×15")
    invite = host.get_by_test_id("invite")
    assert "press Join" in invite.inner_text()
    assert "drawn by lot" in invite.inner_text()
    host.get_by_test_id("invite-waiting").filter(has_text="Waiting for your friend").wait_for()
    url = host.get_by_test_id("invite-url").input_value()

    # The friend opens the link: the host is told so (not "1 watching"); the friend sees
    # one obvious Join above the sheet.
    guest = contexts.new(width=390, height=844).new_page()
    guest.goto(url)
    join = guest.get_by_role("button", name="Join", exact=True)
    join.wait_for()
    assert guest.get_by_role("button", name="Join").count() == 1
    assert guest.get_by_test_id("spectating").count() == 0
    box = join.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844
    host.get_by_text("Your friend has opened the link").wait_for()
    assert host.get_by_test_id("spectators").count() == 0
    SHOTS_DOTS.mkdir(parents=True, exist_ok=True)
    guest.screenshot(path=str(SHOTS_DOTS / "dots-friend-join-phone.png"))
    host.screenshot(path=str(SHOTS_DOTS / "dots-friend-arrived-desktop.png"))
    join.click()
    guest.locator(".player.me").wait_for()
    host.wait_for_function("() => !document.querySelector('[data-testid=invite]')")
    assert {_seat(host), _seat(guest)} == {0, 1}
    # The note under the controls is the Dots one.
    for page in (host, guest):
        foot = page.locator(".room-foot").inner_text()
        assert "mark" in foot and "a line counts" not in foot

    # The first mover plays, then asks to take it back; the other accepts: it is gone.
    first, second = (host, guest) if _seat(host) == 0 else (guest, host)
    wait_my_turn(first)
    click_point(first, 7, 7)
    first.get_by_role("button", name="Ask to take back").click()
    first.get_by_test_id("offers").get_by_text("You asked to take back").wait_for()
    second.get_by_test_id("offers").get_by_text("asks to take back their last move").wait_for()
    second.get_by_role("button", name="Accept").click()
    for page in (first, second):
        page.wait_for_function("() => !document.querySelector(\"[data-mark='7:7']\")")
    first.get_by_test_id("info").filter(has_text="taken back").wait_for()

    # Asked again and declined: the asker hears it and the mark stays.
    wait_my_turn(first)
    click_point(first, 7, 7)
    first.get_by_role("button", name="Ask to take back").click()
    second.get_by_role("button", name="Decline").click()
    first.get_by_test_id("info").filter(has_text="was declined").wait_for()
    assert first.locator("[data-mark='7:7']").count() == 1

    # A move cancels a pending request.
    first.get_by_role("button", name="Ask to take back").click()
    second.get_by_test_id("offers").wait_for()
    wait_my_turn(second)
    click_point(second, *free_point_near(second, 9, 9))
    for page in (first, second):
        page.wait_for_function("() => !document.querySelector('[data-testid=offers]')")
