"""The event bus: services publish after a commit, websocket handlers subscribe per channel.

One interface, two implementations: in-process (one server) here; a Redis pub/sub bus for several
instances implements the same two methods. ``publish`` is thread-safe and never blocks, because
services run in worker threads while subscribers live on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import AsyncIterator
from typing import Any, Protocol

QUEUE_SIZE = 64


class EventBus(Protocol):
    def publish(self, channel: str, message: dict[str, Any]) -> None: ...

    def subscribe(self, channel: str) -> contextlib.AbstractAsyncContextManager[
        AsyncIterator[dict[str, Any]]]: ...

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None: ...

    async def aclose(self) -> None: ...


class InProcessBus:
    """Fan-out to asyncio queues on the loop that created the subscriptions."""

    def __init__(self) -> None:
        self._queues: dict[str, set[asyncio.Queue[dict[str, Any]]]] = defaultdict(set)
        self._loop: asyncio.AbstractEventLoop | None = None

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # nobody has ever subscribed on a running loop
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._deliver(channel, message)
        else:
            loop.call_soon_threadsafe(self._deliver, channel, message)

    def _deliver(self, channel: str, message: dict[str, Any]) -> None:
        for queue in list(self._queues.get(channel, ())):
            if queue.full():  # a slow reader only needs the newest state: drop the oldest
                queue.get_nowait()
            queue.put_nowait(message)

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
        self._loop = asyncio.get_running_loop()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_SIZE)
        self._queues[channel].add(queue)

        async def messages() -> AsyncIterator[dict[str, Any]]:
            while True:
                yield await queue.get()

        try:
            yield messages()
        finally:
            self._queues[channel].discard(queue)
            if not self._queues[channel]:
                del self._queues[channel]

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Remember the server's loop at start-up so publishes before any subscription work."""
        self._loop = loop

    async def aclose(self) -> None:
        """Nothing to release: the queues go with their subscribers."""

    def subscriber_count(self) -> int:
        return len(self._queues)


LIVE_CHANNEL = "live"
"""Every match change, for the Watch page."""


def match_channel(match_id: str) -> str:
    return f"match:{match_id}"


def publish_match(bus: EventBus, record: Any) -> None:
    """A committed match change, to its subscribers and to the Watch page."""
    message = {"type": "record", "record": record.to_json()}
    bus.publish(match_channel(record.id), message)
    bus.publish(LIVE_CHANNEL, message)
