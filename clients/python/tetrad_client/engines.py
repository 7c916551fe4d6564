"""Engines: what chooses a bot's moves.

An engine is a callable ``choose_move(position) -> move`` (a plain or an async function; a
position is a :class:`~tetrad_client.position.BoxesPosition` or
:class:`~tetrad_client.position.DotsPosition`, a move a tuple or a wire dict). Shipped:

* ``random``: any legal move;
* ``greedy``: Dots and Boxes: close a box when it can, else a line that gives no box away,
  else the line that gives the fewest; Dots: the point beside the most of the other
  player's marks;
* ``easy``, ``normal``, ``hard``: tetrad's own computer levels, from its ``core`` package,
  which must be installed beside this one (the only place this package uses ``core``);
* ``module:function``: any importable callable;
* :class:`Program`: an external program speaking the line protocol of docs/bots.md over its
  standard input and output, so a bot can be written in any language.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import random
import shlex
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeAlias

from tetrad_client.moves import Move, format_move, parse_move
from tetrad_client.position import BoxesPosition, DotsPosition, Position

Engine: TypeAlias = Callable[[Position], Any]
LEVELS = ("easy", "normal", "hard")


class EngineError(Exception):
    """An engine that cannot be loaded or answered something that is not a move."""


def random_engine(seed: int | None = None) -> Engine:
    rng = random.Random(seed)

    def choose_move(position: Position) -> Move:
        return rng.choice(position.legal_moves())

    return choose_move


def greedy_engine(seed: int | None = None) -> Engine:
    rng = random.Random(seed)

    def choose_move(position: Position) -> Move:
        legal = position.legal_moves()
        if isinstance(position, BoxesPosition):
            ranked = [(-position.closes(ln), position.gives(ln)) for ln in legal]  # type: ignore[arg-type]
        else:
            other = 1 - (position.seat or 0)
            ranked = [
                (-sum(position.marks.get(p) == other for p in position.neighbours(point)), 0)  # type: ignore[arg-type]
                for point in legal
            ]
        best = min(ranked)
        return rng.choice([move for move, rank in zip(legal, ranked, strict=True) if rank == best])

    return choose_move


def core_engine(level: str, think: float = 1.0, seed: int | None = None) -> Engine:
    """tetrad's computer at ``level``, thinking about ``think`` seconds a move."""
    try:
        from core import ai, boxes, dots  # noqa: PLC0415 (only this engine needs core)
    except ImportError:
        raise EngineError(
            f"--engine {level} plays with tetrad's own computer levels, which come with the "
            "tetrad server's package (its `core`); install tetrad (pip install -e . in its "
            "repository) beside tetrad-client, or choose another engine"
        ) from None
    fallback = greedy_engine(seed)

    def replay(position: Position) -> Any:
        """The position as a ``core`` state, replayed from its moves in order."""
        moves: list[Any] = position.history or []
        if isinstance(position, BoxesPosition):
            start = [boxes.Line(a, b) for a, b in position.start]
            state = boxes.new_game(position.rows, position.cols, start)
            for a, b in moves:
                state = state.play(boxes.Line(a, b))
            return state
        if position.history is None:
            return None  # a Dots game joined midway: its order of moves is not known
        marks = dots.new_game(position.width, position.height, position.start_name)  # type: ignore[arg-type]
        for x, y in moves:
            marks = marks.play(dots.Point(x, y))
        return marks

    def choose_move(position: Position) -> Move:
        state = replay(position)
        if state is None:
            return fallback(position)  # type: ignore[no-any-return]
        move = ai.choose_move(state, level=level, seed=seed, time_limit=think)
        if isinstance(move, boxes.Line):
            (x1, y1), (x2, y2) = move
            return ((x1, y1), (x2, y2))
        return (move.x, move.y)

    return choose_move


def imported_engine(name: str) -> Engine:
    """The callable ``module:function`` (the current directory is on the import path)."""
    module_name, _, attribute = name.partition(":")
    if "" not in sys.path:
        sys.path.insert(0, "")
    try:
        found = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise EngineError(f"cannot load the engine {name!r}: {error}") from None
    if not callable(found):
        raise EngineError(f"{name!r} is not callable")
    return found  # type: ignore[no-any-return]


def load_engine(name: str, *, think: float = 1.0, seed: int | None = None) -> Engine:
    """An engine by the name ``tetrad-bot --engine`` takes."""
    if name == "random":
        return random_engine(seed)
    if name == "greedy":
        return greedy_engine(seed)
    if name in LEVELS:
        return core_engine(name, think, seed)
    if ":" in name:
        return imported_engine(name)
    raise EngineError(
        f"unknown engine {name!r}: random, greedy, easy, normal, hard or module:function"
    )


def describe(position: Position) -> str:
    """The line the engine protocol writes for a position (docs/bots.md)."""
    seat = position.seat if position.seat is not None else position.to_move
    head = [position.game]
    if isinstance(position, BoxesPosition):
        head += [str(position.cols), str(position.rows)]
        drawn = [format_move(ln) for ln in sorted(position.drawn)]
        board = ["lines", str(len(drawn)), *drawn]
    else:
        head += [str(position.width), str(position.height)]
        marks = [f"{x},{y},{owner}" for (x, y), owner in sorted(position.marks.items())]
        board = ["marks", str(len(marks)), *marks]
    legal = [format_move(move) for move in position.legal_moves()]
    scores = [str(position.scores[0]), str(position.scores[1])]
    return " ".join(
        ["position", *head, str(seat), *scores, *board, "legal", str(len(legal)), *legal]
    )


class Program:
    """An engine in another process: one ``position …`` line in, one move line out."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            *shlex.split(self.command),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )

    async def __call__(self, position: Position) -> Move:
        if self.process is None:
            await self.start()
        process = self.process
        assert process is not None and process.stdin is not None and process.stdout is not None
        process.stdin.write((describe(position) + "\n").encode())
        await process.stdin.drain()
        answer = (await process.stdout.readline()).decode()
        if not answer:
            raise EngineError(f"the engine program {self.command!r} ended without a move")
        try:
            return parse_move(answer)
        except ValueError:
            raise EngineError(
                f"the engine program answered {answer.strip()!r}, not a move"
            ) from None

    async def close(self) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            return
        assert process.stdin is not None
        process.stdin.close()  # end of input: the program's cue to stop
        try:
            await asyncio.wait_for(process.wait(), 5)
        except TimeoutError:
            process.kill()
            await process.wait()


async def ask(engine: Engine, position: Position) -> Any:
    """The engine's move: an async engine is awaited, a plain one runs in a thread (so a
    slow one does not stop the connection from answering the server)."""
    if inspect.iscoroutinefunction(engine) or inspect.iscoroutinefunction(
        getattr(engine, "__call__", None)  # noqa: B004
    ):
        result: Awaitable[Any] = engine(position)
        return await result
    return await asyncio.to_thread(engine, position)


__all__ = [
    "LEVELS",
    "DotsPosition",
    "Engine",
    "EngineError",
    "Program",
    "ask",
    "core_engine",
    "describe",
    "greedy_engine",
    "load_engine",
    "random_engine",
]
