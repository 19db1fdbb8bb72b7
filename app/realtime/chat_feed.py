"""Live chat lines for a match socket or stream: subscribe to the rooms a viewer may read.

Each room has its own bus channel (``chat_channel``); a spectator's connection subscribes to the
spectators' room only, so a players' line is never even delivered to it. A seated player also
subscribes to the spectators' room, whose lines are forwarded only once the game is over.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from app.match.records import MatchRecord
from app.services.chat import PLAYERS, SPECTATORS, chat_channel, readable_rooms

Messages = AsyncIterator[dict[str, Any]]


def subscribed_rooms(record: MatchRecord, viewer_id: int | None) -> list[str]:
    """The channels a connection listens to: a player's two rooms, everyone else's one."""
    if viewer_id is not None and record.seat_of(viewer_id) is not None:
        return [PLAYERS, SPECTATORS]
    return [SPECTATORS]


def visible_line(message: dict[str, Any], record: MatchRecord,
                 viewer_id: int | None) -> dict[str, Any] | None:
    """The line as this viewer gets it, or None (a room they may not read now, or a muted or
    blocked author)."""
    if message.get("room") not in readable_rooms(record, viewer_id):
        return None
    if viewer_id is not None and viewer_id in message.get("hidden_for", ()):
        return None
    return {k: v for k, v in message.items() if k != "hidden_for"}


async def merge(*sources: Messages) -> Messages:
    """Messages from several subscriptions, in arrival order."""
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def pump(source: Messages) -> None:
        async for message in source:
            await queue.put(message)

    tasks = [asyncio.create_task(pump(source)) for source in sources]
    try:
        while True:
            yield await queue.get()
    finally:
        for task in tasks:
            task.cancel()


@contextlib.asynccontextmanager
async def chat_subscription(bus: Any, match_id: str, rooms: list[str]) -> AsyncIterator[Messages]:
    async with contextlib.AsyncExitStack() as stack:
        sources = [await stack.enter_async_context(bus.subscribe(chat_channel(match_id, room)))
                   for room in rooms]
        yield merge(*sources)


async def chat_lines(bus: Any, match_id: str, viewer_id: int | None,
                     latest: Callable[[], MatchRecord]) -> Messages:
    """Every chat line this viewer may see, as it is posted (``latest`` gives the match as the
    connection currently knows it, so a player starts seeing the spectators once it is over)."""
    rooms = subscribed_rooms(latest(), viewer_id)
    async with chat_subscription(bus, match_id, rooms) as messages:
        async for message in messages:
            line = visible_line(message, latest(), viewer_id)
            if line is not None:
                yield line
