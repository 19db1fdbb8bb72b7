"""The event bus: services publish after a commit, websocket handlers subscribe per channel.

One interface, two implementations: in-process (one server) here; a Redis pub/sub bus for several
instances implements the same two methods. ``publish`` is thread-safe and never blocks, because
services run in worker threads while subscribers live on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any, Protocol

QUEUE_SIZE = 64
Inbox = asyncio.Queue[dict[str, Any]]
"""Where a subscription's messages land. A connection following several channels passes one
inbox to each ``subscribe`` and reads them all from it, with one task (memory per
socket)."""


LOCAL_RECORD = "_record"
"""Key of a ``record`` message that only this process's subscribers see: the
match's record object itself, engine state already built, so a process serving its own
players' moves does not parse back the snapshot it has just written. Never encoded (a bus that
sends messages elsewhere drops it: ``wire_form``)."""


LOCAL_WIRE = "_wire"
"""Key under which a bus message keeps its encoded form for this process's connections
(``app.realtime.messages.forwarded``); never encoded either."""


def wire_form(message: dict[str, Any]) -> dict[str, Any]:
    """The message as it leaves the process: without its local-only objects."""
    if LOCAL_RECORD in message or LOCAL_WIRE in message:
        return {k: v for k, v in message.items() if k not in (LOCAL_RECORD, LOCAL_WIRE)}
    return message


def new_inbox() -> Inbox:
    return asyncio.Queue(QUEUE_SIZE)


class Receiver:
    """A subscriber that takes each message as it is published, on the loop, instead of reading
    it from a queue: an idle match socket then holds no queue and no task of its own, only its
    place in the channel's set (cheap at 10,000 idle sockets). ``push`` must not block."""

    __slots__ = ()

    def push(self, message: dict[str, Any]) -> None:
        raise NotImplementedError


Sink = Inbox | Receiver
"""What a channel delivers to: a queue read by its own task, or a :class:`Receiver`."""


def deliver(sink: Sink, message: dict[str, Any]) -> None:
    """Into a subscriber's inbox; a slow reader only needs the newest state: drop the oldest."""
    if isinstance(sink, Receiver):
        sink.push(message)
        return
    if sink.full():
        sink.get_nowait()
    sink.put_nowait(message)


async def read(queue: Inbox) -> AsyncIterator[dict[str, Any]]:
    """A queue's messages, as ``subscribe`` yields them."""
    while True:
        yield await queue.get()


class EventBus(Protocol):
    def publish(self, channel: str, message: dict[str, Any]) -> None: ...

    def subscribe(self, channel: str, queue: Inbox | None = None
                  ) -> contextlib.AbstractAsyncContextManager[AsyncIterator[dict[str, Any]]]: ...

    async def join(self, channel: str, sink: Sink) -> None:
        """Deliver ``channel``'s messages to ``sink`` from now on (until :meth:`leave`): the
        plain form of ``subscribe`` for connections that hold several channels for their whole
        life, without a context manager (and its generator frame) per channel."""

    async def leave(self, channel: str, sink: Sink) -> None:
        """Stop delivering to ``sink``; a channel's last local subscriber frees its entry."""

    def after_sent(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (on the loop) once every message this process published before
        has left it; never if they were lost (Redis away). Thread-safe: the outbox marks a
        change announced only then (app/match/outbox.py)."""

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None: ...

    def on_reconnect(self, listener: Callable[[], None]) -> None: ...

    async def aclose(self) -> None: ...


class InProcessBus:
    """Fan-out to asyncio queues on the loop that created the subscriptions.

    Messages published from worker threads are handed to the loop in batches: a committed
    move publishes three (its match, the Watch list, its seats), and waking the loop once per
    message cost a self-pipe write and a loop turn each. The first message of a batch wakes the
    loop; those that follow before it runs ride along, in the order they were published."""

    def __init__(self) -> None:
        self._queues: dict[str, set[Sink]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._handed: list[tuple[str, dict[str, Any]]] = []
        self._handing = threading.Lock()

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
            return
        with self._handing:
            self._handed.append((channel, message))
            if len(self._handed) > 1:
                return  # the loop is already woken for this batch
        try:
            loop.call_soon_threadsafe(self._deliver_handed)
        except RuntimeError:  # the loop closed meanwhile: nobody is left to deliver to
            with self._handing:
                self._handed.clear()
            raise

    def _deliver_handed(self) -> None:
        with self._handing:
            batch, self._handed = self._handed, []
        for channel, message in batch:
            self._deliver(channel, message)

    def _deliver(self, channel: str, message: dict[str, Any]) -> None:
        for queue in list(self._queues.get(channel, ())):
            deliver(queue, message)

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str, queue: Inbox | None = None
                        ) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
        """Messages published on ``channel`` from now on, into ``queue`` (a new one unless
        given) and read through the iterator yielded here."""
        queue = queue if queue is not None else new_inbox()
        await self.join(channel, queue)
        try:
            yield read(queue)
        finally:
            await self.leave(channel, queue)

    async def join(self, channel: str, sink: Sink) -> None:
        self._loop = asyncio.get_running_loop()
        self._queues.setdefault(channel, set()).add(sink)

    async def leave(self, channel: str, sink: Sink) -> None:
        sinks = self._queues.get(channel)
        if sinks is not None:
            sinks.discard(sink)
            if not sinks:
                del self._queues[channel]

    def after_sent(self, callback: Callable[[], None]) -> None:
        """Delivered in this process as soon as published: nothing can be lost on the way."""
        callback()

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Remember the server's loop at start-up so publishes before any subscription work."""
        self._loop = loop

    def on_reconnect(self, listener: Callable[[], None]) -> None:
        """One process's bus is never away: nothing to heal."""

    async def aclose(self) -> None:
        """Nothing to release: the queues go with their subscribers."""

    def subscriber_count(self) -> int:
        return len(self._queues)


RESYNC = "resync"
"""A message the bus hands its local subscribers, never sent to clients: the connection to the
other instances was lost and is back, so whatever a subscriber shows may be out of date and should
be read again."""

LIVE_CHANNEL = "live"
"""Every match change, public part only (:class:`MatchChange`), for the Watch page, the account
streams and the bot runner."""


NOTICES_CHANNEL = "notices"
"""What the push job turns into notifications besides match changes: a challenge sent (the
same message the target's own channel carries). Read only by the jobs' leader."""


def match_channel(match_id: str) -> str:
    """A match's public channel: its changes (no secrets), presence, clock ticks."""
    return f"match:{match_id}"


def seats_channel(match_id: str) -> str:
    """The match's full records, snapshot included: only a process serving one of its players
    (or someone who may still take a seat) subscribes, to build the seats' own views."""
    return f"match:{match_id}:seats"
