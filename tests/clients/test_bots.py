"""tetrad-bot as its users run it, a process per bot against a real server: games against
the computer (both games, the core levels, an engine in sh), and two bots in one live
friend room, one of them killed with SIGKILL mid-game and started again from its state
file, watched by a spectator client."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest
from tetrad_client import Refused, Tetrad

from tests.conftest import LiveServer

HERE = Path(__file__).resolve().parent


class Bot:
    """A running ``tetrad-bot`` and the lines it printed."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []

    @classmethod
    async def start(cls, *args: str, cwd: Path | None = None) -> Bot:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tetrad_client.runner", *args,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, cwd=cwd,
        )  # fmt: skip
        return cls(process)

    async def line(self, starting: str, timeout: float = 120) -> str:
        """Read until a line that starts with ``starting``."""
        assert self.process.stdout is not None
        while True:
            raw = await asyncio.wait_for(self.process.stdout.readline(), timeout)
            if not raw:
                raise AssertionError(f"the bot ended before {starting!r}: {self.lines}")
            text = raw.decode().strip()
            self.lines.append(text)
            if text.startswith(starting):
                return text

    async def finish(self, timeout: float = 60) -> int:
        """Read its output to the end; its exit status."""
        assert self.process.stdout is not None
        try:
            async with asyncio.timeout(timeout):
                while raw := await self.process.stdout.readline():
                    self.lines.append(raw.decode().strip())
                return await self.process.wait()
        except TimeoutError:
            raise AssertionError(f"the bot did not finish: {self.lines}") from None

    async def kill(self) -> None:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
            await self.process.wait()


async def test_bots_play_the_computer_in_both_games(server: LiveServer) -> None:
    runs = [
        ("--game", "boxes", "--size", "2x2", "--games", "2", "--engine", "greedy"),
        ("--game", "dots", "--size", "5x5", "--engine", "hard", "--think", "0.05"),
        ("--game", "boxes", "--size", "2x2", "--engine", "easy", "--think", "0.05"),
        ("--game", "dots", "--size", "5x5", "--program", f"sh {HERE / 'engine.sh'}"),
    ]
    bots = [
        await Bot.start("--server", server.url, "--computer", "easy", "-v", *run) for run in runs
    ]
    codes = await asyncio.gather(*(bot.finish() for bot in bots), return_exceptions=True)
    for bot, run, code in zip(bots, runs, codes, strict=True):
        assert code == 0, (run, bot.lines)
        games = [line for line in bot.lines if line.startswith("game ")]
        expected = int(run[run.index("--games") + 1]) if "--games" in run else 1
        assert [g.split()[1] for g in games] == [str(n + 1) for n in range(expected)], bot.lines
        assert all(g.split()[2] in ("won", "lost", "draw") for g in games)


async def test_a_killed_bot_resumes_its_seat_and_both_finish(
    server: LiveServer, tmp_path: Path
) -> None:
    host_state, guest_state = tmp_path / "host.json", tmp_path / "guest.json"
    host = await Bot.start(
        "--server", server.url, "--host", "--mode", "live", "--size", "3x3",
        "--engine", "greedy", "--seed", "1", "--state", str(host_state), "--games", "2",
    )  # fmt: skip
    invite = (await host.line("invite ")).split()[1]
    room_id = (await host.line("room ")).split()[1]
    guest_args = ("--join", invite, "--engine", "random", "--seed", "2", "--games", "2")
    guest = await Bot.start(*guest_args, "--state", str(guest_state), "-v")
    async with Tetrad(server.url) as tetrad:
        watcher = tetrad.connect(room_id)
        async with watcher:
            assert watcher.seat is None and watcher.role == "spectator"
            with pytest.raises(Refused) as refused:
                await watcher.move(((0, 0), (1, 0)))
            assert refused.value.code == "not_allowed"
            await guest.line("move ")
            await guest.kill()  # mid-game: its seat's token is in its state file
            assert guest_state.exists()
            guest = await Bot.start(*guest_args, "--state", str(guest_state), "-v")
            assert (await guest.line("resumed ")).split()[2] == room_id
            assert await host.finish() == 0, host.lines
            assert await guest.finish() == 0, guest.lines
            await watcher.until(lambda r: r.over and r.snapshot.game_number == 2)
            final = (await tetrad.room(room_id)).state
            seen, kept = watcher.snapshot.board, final.board
            assert seen.lines == kept.lines  # type: ignore[union-attr]
            assert sorted(map(repr, seen.boxes)) == sorted(map(repr, kept.boxes))  # type: ignore[union-attr]
            assert watcher.status == final.status
    results = {}
    for name, bot in (("host", host), ("guest", guest)):
        results[name] = [line.split()[1:4] for line in bot.lines if line.startswith("game ")]
    opposite = {"won": "lost", "lost": "won", "draw": "draw"}
    for mine, theirs in zip(results["host"], results["guest"], strict=True):
        assert mine[0] == theirs[0] and opposite[mine[1]] == theirs[1]
        assert mine[2] == ":".join(reversed(theirs[2].split(":")))
    assert [r[0] for r in results["host"]] == ["1", "2"]
    assert not host_state.exists() and not guest_state.exists()  # done: nothing to resume


async def test_an_engine_that_cannot_load_is_a_clear_error(tmp_path: Path) -> None:
    bot = await Bot.start("--engine", "no_such_module:choose", cwd=tmp_path)
    assert await bot.finish() == 2
    assert any("cannot load the engine" in line for line in bot.lines), bot.lines
