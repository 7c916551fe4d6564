"""docs/api.md runs: every ``curl`` is sent to a live server in order and its reply checked
against the schema and the example's shape; every websocket message a client sends is sent,
and every server message shown is compared with real ones (see :mod:`tests.docs.api_doc`)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import TypeAdapter

from server import protocol
from server.api import bots, challenges, ladder, schemas
from tests.conftest import LiveServer, StartServer
from tests.docs.api_doc import Block, json_values, read_guide, shape_differences
from tests.server.room_client import Socket, create_room, join_room, line, move, point

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "api.md"
COMPUTER_COMMANDS = {"hint", "set_level", "undo", "new_game"}


def model(name: str) -> TypeAdapter[Any]:
    if name == "dict":
        return TypeAdapter(dict[str, Any])
    for module in (schemas, bots, challenges, ladder):
        found = getattr(module, name, None)
        if found is not None:
            return TypeAdapter(found)
    return TypeAdapter(getattr(protocol, name))


class Shell:
    """One bash process the guide's commands run in, in order (variables carry over)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.runs = 0

    @classmethod
    async def start(cls, server: str, database_url: str | None = None) -> Shell:
        """A shell where ``$SERVER`` is the live server and ``tetrad`` (the operator's
        command) works on its database."""
        env = {
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            "SERVER": server,
            "LC_ALL": "C.UTF-8",
        }
        if database_url:
            env["TETRAD_DATABASE_URL"] = database_url
        process = await asyncio.create_subprocess_exec(
            "bash",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            env=env,
        )
        return cls(process)

    async def run(self, script: str) -> str:
        """Run ``script`` (an assignment of SERVER is left out: it points at the live one)."""
        self.runs += 1
        mark = f"__tetrad_docs_{self.runs}__"
        lines = [ln for ln in script.splitlines() if not ln.startswith("SERVER=")]
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(("\n".join(lines) + f"\nprintf '\\n{mark}\\n'\n").encode())
        await self.process.stdin.drain()
        output = []
        while True:
            raw = await asyncio.wait_for(self.process.stdout.readline(), 60)
            text = raw.decode()
            if text.strip() == mark:
                return "".join(output)
            if not raw:
                raise AssertionError(f"the shell ended: {''.join(output)}")
            output.append(text)

    async def close(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


def check_reply(block: Block, output: str) -> None:
    where = f"{GUIDE.name}:{block.line}"
    example = json.loads(block.body)
    values = json_values(output)
    assert values, f"{where}: the command before this reply printed no JSON: {output!r}"
    actual = values[-1]
    adapter = model(block.argument)
    adapter.validate_python(example)
    adapter.validate_python(actual)
    differences = shape_differences(example, actual)
    assert not differences, f"{where}: the example's shape is not the reply's: {differences}"


async def run_commands(guide_blocks: list[Block], server: LiveServer) -> None:
    shell = await Shell.start(server.url, server.app.state.settings.database_url)
    try:
        output = ""
        for block in guide_blocks:
            if block.verb == "run":
                output = await run_until(shell, block)
                for binding in block.options("keep"):
                    name, _, field = binding.partition("=")
                    value = json_values(output)[-1]
                    for key in field.split("."):  # challenge.id: a field of a field
                        value = value[key]
                    assert isinstance(value, str) and "'" not in value
                    await shell.run(f"{name}='{value}'")
            elif block.verb == "reply":
                check_reply(block, output)
    finally:
        await shell.close()


async def run_until(shell: Shell, block: Block) -> str:
    condition = block.options("until")
    output = await shell.run(block.body)
    if not condition:
        return output
    field, _, wanted = condition[0].partition("=")
    async with asyncio.timeout(60):
        while True:
            values = json_values(output)
            last = values[-1] if values else {}
            if field in last and (not wanted or str(last[field]) == wanted):
                return output
            await asyncio.sleep(0.1)
            output = await shell.run(block.body)


# -- the websocket part ------------------------------------------------------------------------


async def play_the_websocket_examples(
    sends: list[Block], server: LiveServer
) -> list[dict[str, Any]]:
    """Send every client message of the guide where it belongs, and drive the other messages
    the guide shows (a closing line, a capture, a refusal, a spectator), keeping everything
    the sockets receive."""
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="live", rows=2, cols=2)
        guest = await join_room(client, grant)
        against = await create_room(client, mode="computer", level="easy", rows=3, cols=3)
        dots = await create_room(client, game="dots", mode="correspondence", first="me",
                                 width=8, height=8)  # fmt: skip
        dots_guest = await join_room(client, dots)
    room = grant["room_id"]
    hello, commands = sends[0], sends[1]
    greeting = json.loads(hello.body)
    assert greeting["type"] == "hello"
    gold = await Socket.open(server, room, grant["token"], since=greeting["since"])
    coral = await Socket.open(server, room, guest["token"])
    watcher = await Socket.open(server, room, None)
    computer = await Socket.open(server, against["room_id"], against["token"])
    pen = await Socket.open(server, dots["room_id"], dots["token"])
    sockets = [gold, coral, watcher, computer, pen]
    await gold.expect("presence", lambda m: all(s["connected"] for s in m["seats"]))
    # A line that closes a box, sent with a move id.
    for socket, ends, ref in (
        (gold, (0, 0, 1, 0), "d1"),
        (coral, (0, 0, 0, 1), "d2"),
        (gold, (1, 0, 1, 1), "d3"),
        (coral, (0, 1, 1, 1), "d4"),
    ):
        await socket.send(type="move", move=line(*ends), move_id=f"id-{ref}", ref=ref)
        await socket.expect("ack", lambda m, r=ref: m["ref"] == r)
    await gold.send(type="move", move=line(1, 1, 2, 1), ref="c-53")  # coral is to move
    await gold.expect("error", lambda m: m["ref"] == "c-53")
    await gold.send(type="sync", since=gold.version - 1, ref="s-1")
    await gold.expect("resync", lambda m: m["ref"] == "s-1")
    # A Dots capture, played over REST.
    async with httpx.AsyncClient(base_url=server.url) as client:
        script = [(0, (2, 1)), (1, (2, 2)), (0, (1, 2)), (1, (0, 7)), (0, (3, 2)), (1, (1, 7)),
                  (0, (2, 3))]  # fmt: skip
        for seat, at in script:
            token = dots["token"] if seat == 0 else dots_guest["token"]
            assert (await move(client, dots["room_id"], token, point(*at))).status_code == 200
    await pen.until_version(2 + len(script))
    # The guide's own commands, each where it can be done.
    for number, text in enumerate(commands.body.splitlines()):
        message = json.loads(text)
        protocol.client_message_adapter.validate_python(message)
        socket = computer if message["type"] in COMPUTER_COMMANDS else gold
        if "version" in message:
            message["version"] = socket.version
        message.setdefault("ref", f"guide-{number}")
        if message["type"] == "move":
            message["move"] = socket.model.legal_moves()[0]
        await socket.send(**message)
        reply = await socket.expect_reply(message["ref"])
        # Refused or not at this moment, the message itself must be well formed.
        assert reply["type"] != "error" or reply["code"] not in ("bad_request", "invalid_move")
    received = [message for socket in sockets for message in socket.seen]
    for socket in sockets:
        await socket.close()
    return received


def kind_of(message: dict[str, Any]) -> tuple[str, str | None, str | None]:
    event = message.get("event") or {}
    move = event.get("move") or {}
    game = "boxes" if "line" in move else "dots" if "point" in move else None
    return message["type"], event.get("kind"), game


def check_message(block: Block, received: list[dict[str, Any]]) -> None:
    where = f"{GUIDE.name}:{block.line}"
    example = json.loads(block.body)
    model(block.argument).validate_python(example)
    alike = [m for m in received if kind_of(m) == kind_of(example)]
    assert alike, f"{where}: no {kind_of(example)} message was received to compare with"
    closest = min(alike, key=lambda m: len(shape_differences(example, m)))
    differences = shape_differences(example, closest)
    assert not differences, f"{where}: no real message has the example's shape: {differences}"


# -- the test ------------------------------------------------------------------------------------


async def test_every_example_of_the_api_guide_runs(start_server: StartServer) -> None:
    server = await start_server(ai_time_limit=0.05)
    guide = read_guide(GUIDE)
    unmarked = [b.line for b in guide.blocks if b.language in ("sh", "json") and not b.marker]
    assert not unmarked, f"examples the tests do not run (lines {unmarked}): add a marker"
    await run_commands(guide.blocks, server)
    sends = [b for b in guide.blocks if b.verb == "send"]
    assert len(sends) == 2, "the guide shows a hello and then the other commands"
    received = await play_the_websocket_examples(sends, server)
    messages = [b for b in guide.blocks if b.verb == "message"]
    assert {m.argument for m in messages} >= {
        "WelcomeMessage", "EventMessage", "ResyncMessage", "PresenceMessage", "AckMessage",
        "ErrorMessage",
    }  # fmt: skip
    for block in messages:
        check_message(block, received)


@pytest.mark.parametrize(
    ("example", "actual", "same"),
    [
        ({"a": 1, "b": [{"c": "x"}]}, {"a": 2, "b": [{"c": "y"}, {"c": "z"}]}, True),
        ({"a": 1}, {"a": 1, "b": 2}, False),
        ({"a": [{"c": 1}]}, {"a": [{"d": 1}]}, False),
        ({"a": None}, {"a": {"x": 1}}, True),
        ({"a": 1}, {"a": "1"}, False),
        ({"a": True}, {"a": 1}, False),
    ],
)
def test_shapes_are_compared_key_by_key(example: Any, actual: Any, same: bool) -> None:
    assert (not shape_differences(example, actual)) is same
