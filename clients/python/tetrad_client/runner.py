"""``tetrad-bot``: play whole games on a tetrad server with an engine of yours.

    tetrad-bot --engine greedy --games 3                  # against the computer
    tetrad-bot --host --engine mybot:choose_move          # a friend room: prints the invite
    tetrad-bot --join 'http://…/r/ROOM#invite=CODE' --program './mybot'
    tetrad-bot --state bot.json …                         # a killed bot resumes its seat
    tetrad-bot --token TOKEN --listen --games 0           # a bot account: challenges, ladder

See docs/bots.md. One line is printed per event worth knowing (the room, the invite, each
game's result), so another program can follow the bot's output.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import httpx

from tetrad_client.client import Tetrad, parse_invite, size_options
from tetrad_client.engines import Engine, EngineError, Program, ask, load_engine
from tetrad_client.listen import ANY_GAME, Listener, Wanted
from tetrad_client.moves import format_move, from_wire, wire_move
from tetrad_client.room import Refused, Room, RoomClosed

# Refusals a playing bot meets in the ordinary course: the room moved on before the move
# arrived (the loop looks again), or a live room's opponent is away (it waits for them).
RETRY = {"stale_version", "not_your_turn", "opponent_offline", "game_over"}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="tetrad-bot", description="Play Dots and Boxes or Dots on a tetrad server."
    )
    p.add_argument(
        "--server",
        default=os.environ.get("TETRAD_SERVER", "http://127.0.0.1:8000"),
        help="the server's address (default: $TETRAD_SERVER, else http://127.0.0.1:8000)",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--computer",
        metavar="LEVEL",
        choices=["easy", "normal", "hard"],
        help="play against the server's computer at this level (the default, normal)",
    )
    where.add_argument("--host", action="store_true", help="create a friend room, print its invite")
    where.add_argument("--join", metavar="INVITE", help="join a friend room by its invite link")
    p.add_argument("--game", choices=["boxes", "dots"], default="boxes")
    p.add_argument(
        "--size", help="boxes: ROWSxCOLS boxes (default 5x5); dots: WIDTHxHEIGHT (default 20x20)"
    )
    p.add_argument("--start", choices=["empty", "cross", "four_crosses"], help="dots' start")
    p.add_argument("--mode", choices=["live", "correspondence"], help="friend rooms (--host)")
    p.add_argument("--first", choices=["me", "opponent", "random"], help="who moves first")
    p.add_argument("--games", type=int, default=1, help="games to play in the room (default 1)")
    p.add_argument(
        "--engine",
        default="greedy",
        help="random, greedy, easy, normal, hard (tetrad's levels) or module:function",
    )
    p.add_argument("--program", help="an engine program speaking docs/bots.md's line protocol")
    p.add_argument("--think", type=float, default=1.0, help="seconds a move for the core levels")
    p.add_argument("--seed", type=int, help="make random and greedy choices repeatable")
    p.add_argument("--state", type=Path, help="keep the seat here; a bot started again resumes")
    p.add_argument("--verbose", "-v", action="store_true", help="print every move too")
    account = p.add_argument_group("bot accounts (docs/bots.md)")
    account.add_argument(
        "--token",
        default=os.environ.get("TETRAD_BOT_TOKEN"),
        help="the bot account's token (default: $TETRAD_BOT_TOKEN)",
    )
    account.add_argument(
        "--listen",
        action="store_true",
        help="take challenges and ladder games from the bot's stream; --games 0: for ever",
    )
    account.add_argument(
        "--only",
        metavar="GAME[:SIZE]",
        action="append",
        type=wanted,
        help="take only these challenges (boxes, dots, boxes:5x5; repeat for more); "
        "others are declined with the reason",
    )
    account.add_argument("--challenge", metavar="BOT", help="challenge this bot, then listen")
    account.add_argument(
        "--rated",
        action="store_true",
        help="the challenge, or the game against --computer, counts for the ladder",
    )
    return p


def wanted(text: str) -> Wanted:
    try:
        return Wanted.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def say(*words: Any) -> None:
    print(*words, flush=True)


def save_state(path: Path, data: dict[str, Any]) -> None:
    """Written whole or not at all (a bot killed while writing keeps the old file)."""
    fresh = path.with_name(path.name + ".tmp")
    fresh.write_text(json.dumps(data), encoding="utf-8")
    os.replace(fresh, path)


async def seat_for(args: argparse.Namespace) -> dict[str, Any]:
    """The room and token to play with: from ``--state`` if it holds one, else a new seat."""
    if args.state is not None and args.state.exists():
        kept: dict[str, Any] = json.loads(args.state.read_text(encoding="utf-8"))
        say(f"resumed room {kept['room_id']} seat {kept['seat']}")
        return kept
    if args.join:
        server, room_id, code = parse_invite(args.join)
        async with Tetrad(server) as tetrad:
            grant = await tetrad.join(room_id, code)
        if grant.token is None:
            raise SystemExit(f"room {room_id} has no free seat")
    else:
        server = args.server
        options: dict[str, Any] = {"first": args.first, "start": args.start}
        options.update(size_options(args.game, args.size))
        if args.host:
            options["mode"] = args.mode
        else:
            options.update(mode="computer", level=args.computer or "normal")
            if args.token:  # a bot account's own room: its token holds the seat
                options["rated"] = args.rated
        async with Tetrad(server) as tetrad:
            grant = await tetrad.create_room(args.game, token=args.token, **options)
        if grant.invite_url:
            say(f"invite {grant.invite_url}")
    token = grant.token or args.token
    seat = {"server": server, "room_id": grant.room_id, "token": token, "seat": grant.seat}
    say(f"room {grant.room_id} seat {grant.seat}")
    if args.state is not None:
        save_state(args.state, seat)
    return seat


def ready(room: Room) -> bool:
    """Whether to act: the game is over, or it is our move and the move can be made (the
    computer is not about to move; in a live room the opponent is connected)."""
    if room.over:
        return True
    if not room.my_turn or room.status.thinking:
        return False
    state = room.snapshot
    other = state.seats[1 - (room.seat or 0)]
    return state.mode != "live" or (other.taken and other.connected)


def result_line(room: Room) -> str:
    state = room.snapshot
    outcome = state.status.outcome
    assert outcome is not None and room.seat is not None
    mine, theirs = state.status.scores[room.seat], state.status.scores[1 - room.seat]
    verdict = "draw" if outcome.winner is None else "won" if outcome.winner == room.seat else "lost"
    return f"game {state.game_number} {verdict} {mine}:{theirs} ({outcome.reason})"


async def next_game(room: Room) -> None:
    """Start the next game: at once against the computer, by consent in a friend room
    (offering what the other player offered accepts it)."""
    number = room.snapshot.game_number
    with contextlib.suppress(Refused):
        if room.snapshot.mode in ("computer", "local"):
            await room.new_game()
        elif not any(r.kind == "restart" and r.seat == room.seat for r in room.snapshot.requests):
            await room.offer("restart")
    await room.until(lambda r: r.snapshot.game_number > number)


async def play(room: Room, engine: Engine, games: int, verbose: bool = False) -> None:
    """Play until the room's game number ``games`` is over."""
    reported = 0
    while True:
        await room.until(ready)
        state = room.snapshot
        if room.over:
            if state.game_number > reported:
                reported = state.game_number
                say(result_line(room))
            if state.game_number >= games:
                return
            await next_game(room)
            continue
        position = room.position()
        try:
            move = await ask(engine, position)
        except EngineError:
            raise
        except Exception as error:
            raise EngineError(f"the engine failed: {error!r}") from error
        try:
            await room.move(move)
        except Refused as refused:
            if refused.code in RETRY:
                continue
            raise EngineError(f"the engine's move {move!r} was refused: {refused}") from None
        if verbose:
            say(f"move {format_move(from_wire(wire_move(move)))} version {room.version}")


async def listen(args: argparse.Namespace, engine: Engine) -> int:
    """A bot account: take (and post) challenges and play the games they become."""
    if not args.token:
        raise SystemExit("tetrad-bot: --listen and --challenge need the bot's --token")
    async with Tetrad(args.server) as tetrad:
        only = tuple(args.only) if args.only else ANY_GAME
        listener = Listener(tetrad, args.token, engine, play, games=args.games, only=only, say=say)
        if args.challenge:
            options = size_options(args.game, args.size)
            if args.game == "dots" and args.start:
                options["start"] = args.start
            await listener.challenge(args.challenge, args.game, options, args.rated)
        await listener.run()
    return 0


async def run(args: argparse.Namespace) -> int:
    program = Program(args.program) if args.program else None
    engine: Engine = program or load_engine(args.engine, think=args.think, seed=args.seed)
    if args.listen or args.challenge:
        try:
            return await listen(args, engine)
        finally:
            if program is not None:
                await program.close()
    seat = await seat_for(args)
    try:
        async with (
            Tetrad(seat["server"]) as tetrad,
            tetrad.connect(seat["room_id"], seat["token"]) as room,
        ):
            await play(room, engine, args.games, args.verbose)
    except RoomClosed as closed:
        say(f"stopped: the server closed the room ({closed.code} {closed.reason})")
        return 1
    finally:
        if program is not None:
            await program.close()
    if args.state is not None:
        args.state.unlink(missing_ok=True)  # done: the next run starts a new room
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return asyncio.run(run(args))
    except EngineError as error:
        print(f"tetrad-bot: {error}", file=sys.stderr)
        return 2
    except (OSError, httpx.HTTPError) as error:
        print(f"tetrad-bot: cannot reach the server: {error}", file=sys.stderr)
        return 3
    except Refused as refused:
        print(f"tetrad-bot: the server refused: {refused}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
