"""A person meets a bot in the browser: "Play a bot" lists the bots connected now, a
challenge is taken by the bot (a small program reading its event stream, as bot authors
write them), and the game is played to its end, the bot's seat named and badged."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from server.bots.accounts import add_bot, revoke_bot
from server.db.session import make_engine
from tests.e2e.pages import GAME_OVER, click_first_free, wait_turn_or_over
from tests.e2e.test_one_view import assert_accessible, open_page
from tests.server.room_client import RoomModel


class RandomBot:
    """Takes every challenge from its stream and plays random legal lines."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.token = token
        self.headers = {"Authorization": f"Bearer {token}"}
        self.errors: list[BaseException] = []
        self.thread = threading.Thread(target=self._listen, daemon=True)

    def _listen(self) -> None:
        try:
            with (
                httpx.Client(base_url=self.url, timeout=None) as client,
                client.stream("GET", "/api/bots/stream", headers=self.headers) as stream,
            ):
                event = ""
                for line in stream.iter_lines():
                    if line.startswith("event: "):
                        event = line.removeprefix("event: ")
                    elif line.startswith("data: ") and event == "challenge":
                        challenge = json.loads(line.removeprefix("data: "))
                        url = f"/api/challenges/{challenge['id']}/accept"
                        taken = client.post(url, headers=self.headers).json()
                        player = threading.Thread(
                            target=self._play, args=(taken["room_id"], taken["seat"]), daemon=True
                        )
                        player.start()
        except BaseException as error:
            self.errors.append(error)

    def _play(self, room_id: str, seat: int) -> None:
        rng = random.Random(1)
        ws_url = "ws" + self.url.removeprefix("http") + f"/api/rooms/{room_id}/ws"
        try:
            with (
                httpx.Client(base_url=self.url) as client,
                connect(ws_url) as ws,
            ):
                ws.send(json.dumps({"type": "hello", "token": self.token}))
                for _ in ws:  # every message may be news: look at the room again
                    state = client.get(f"/api/rooms/{room_id}").json()["state"]
                    model = RoomModel(state)
                    if model.is_over:
                        return
                    if model.status["to_move"] != seat:
                        continue
                    move = rng.choice(model.legal_moves())
                    body = {"move": move, "version": model.version}
                    client.post(f"/api/rooms/{room_id}/moves", json=body, headers=self.headers)
        except BaseException as error:
            self.errors.append(error)


@pytest.fixture
def random_bot(e2e_server: str, e2e_data: Path) -> Iterator[RandomBot]:
    engine = make_engine(f"sqlite:///{e2e_data / 'tetrad.sqlite3'}")
    bot = RandomBot(e2e_server, add_bot(engine, "Scribbler"))
    bot.thread.start()
    yield bot
    revoke_bot(engine, "Scribbler")  # ends its stream: the thread finishes
    bot.thread.join(timeout=10)
    engine.dispose()


def test_a_person_challenges_a_connected_bot_and_plays_it_to_the_end(
    contexts: Any, random_bot: RandomBot, shots: Path
) -> None:
    page = contexts.new().new_page()
    page.goto(contexts.base_url + "/settings")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("link", name="Bots").click()
    bots = page.get_by_role("list", name="Play a bot")
    bots.get_by_text("Scribbler", exact=True).wait_for()
    assert "not rated yet" in bots.inner_text()
    page.get_by_label("Board").select_option(label="Dots and Boxes 3×3")
    page.screenshot(path=str(shots / "bots-play-a-bot.png"))
    page.get_by_role("button", name="Challenge Scribbler").click()
    page.wait_for_url("**/r/*")
    cards = page.locator("ol.players")
    cards.get_by_text("Scribbler").wait_for()
    assert "BOT" in cards.inner_text() and "Ann (You)" in cards.inner_text()
    while wait_turn_or_over(page):
        click_first_free(page)
    page.locator(GAME_OVER).wait_for()
    page.screenshot(path=str(shots / "bots-game-over.png"))
    assert random_bot.errors == []
    # My games names the bot it played, with its badge.
    page.get_by_role("link", name="My games").click()
    game = page.get_by_test_id("my-game").first
    game.get_by_text("Scribbler").wait_for()
    assert "BOT" in game.inner_text()
    page.screenshot(path=str(shots / "bots-my-games.png"))


def test_the_ladder_page_shows_the_computer_levels_as_anchors(contexts: Any, shots: Path) -> None:
    page = open_page(contexts, 390, 844)
    page.goto("/bots")
    page.get_by_role("link", name="The ladder: ratings of bots and the computer's levels").click()
    page.get_by_role("heading", name="Ladder").wait_for()
    table = page.get_by_role("table", name="Ladder of Dots and Boxes, Standard boards (4×4 to 6×6)")
    for level, rating in (("Hard", 1600), ("Normal", 1200), ("Easy", 800)):
        row = table.get_by_role("row", name=f"Computer, {level}")
        assert f"{rating} (fixed)" in row.inner_text()
    page.get_by_label("Game").select_option(label="Dots")
    dots = "Ladder of Dots, Standard sheets (13 to 24 points a side)"
    page.get_by_role("table", name=dots).wait_for()
    page.screenshot(path=str(shots / "ladder.png"))
    assert_accessible(page, "ladder")
