"""Game records sent by clients, read in a process of their own.

Replaying a long record (a 60×60 Dots game has thousands of moves, each checked against the
rules) is CPU-bound for a good part of a second. On the event loop it would stall every
request of the process; in a thread it would still hold the interpreter's lock most of that
time. So records are replayed in one worker process (started when the first record comes,
without the computer's tables), and only small results come back: a game's JSON record or
a review already written as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.refusals import Refusal
from server.review.records import GameFacts, read_record, review
from server.rooms.computer import ComputerPlayer

Read = tuple[bool, Any]
"""What a worker answers: ``(True, result)``, or ``(False, why the record is refused)``
(a Refusal itself does not survive the trip between processes)."""


def replayed_json(data: str | Mapping[str, Any]) -> Read:
    """In the worker: the JSON record of the game ``data`` describes (its own ``to_json``)."""
    try:
        return True, read_record(data).to_json()
    except Refusal as refusal:
        return False, refusal.message


def review_json(data: str | Mapping[str, Any]) -> Read:
    """In the worker: the review of the game ``data`` describes, as JSON text."""
    try:
        return True, review(read_record(data), GameFacts()).model_dump_json()
    except Refusal as refusal:
        return False, refusal.message


class RecordReader:
    """Reads records in its worker process; ``bad_record`` when a record is refused."""

    def __init__(self) -> None:
        self._pool = ComputerPlayer(1, thinks=False)

    async def replayed(self, data: str | Mapping[str, Any]) -> dict[str, Any]:
        """The JSON record of the game ``data`` describes, as the game itself writes it."""
        record: dict[str, Any] = self._answer(await self._pool.run(replayed_json, data))
        return record

    async def review(self, data: str | Mapping[str, Any]) -> str:
        """The review of the game ``data`` describes (``GameReview`` as JSON text)."""
        text: str = self._answer(await self._pool.run(review_json, data))
        return text

    @staticmethod
    def _answer(read: Read) -> Any:
        done, result = read
        if not done:
            raise Refusal("bad_record", result)
        return result

    async def close(self) -> None:
        await self._pool.close()
