"""The event bus over Redis pub/sub, for several server instances behind one load balancer:
a move committed on instance A reaches a spectator connected to instance B.

One process holds ONE pub/sub connection, whatever the number of sockets (the pattern of
boardgame.io's socket.io transport): channel subscriptions are reference-counted, so a channel's
first local subscriber subscribes in Redis and its last one unsubscribes; each message is decoded
once per process and handed to every local subscriber's queue. Publishing goes through one more
connection, owned by a single publisher task (so a burst of publishes from many worker threads
never opens more connections). Commands (presence, locks) share a small bounded pool:
``command_client``. At most 1 + ``COMMAND_CONNECTIONS`` connections per process.

A message published here reaches this process's own subscribers at once (no round trip through
Redis) and the other processes through Redis; each payload starts with the publishing process's
id, so the reader skips its own. Same interface as :class:`app.realtime.bus.InProcessBus`.
Messages are JSON; channel names get a prefix so one Redis can serve several deployments (and
tests can share one Redis).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.asyncio.connection import BlockingConnectionPool
from redis.exceptions import RedisError

from app.kernel.cancellation import cancel_and_wait, reraise_if_cancelled
from app.kernel.metrics import BUS_DELIVERY_SECONDS, BUS_RECONNECTS
from app.realtime.bus import RESYNC, Inbox, Sink, deliver, new_inbox, read, wire_form

PREFIX = "stepwell:"
COMMAND_CONNECTIONS = 2
SUBSCRIBE_CONFIRM_SECONDS = 5.0
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _AfterSent:
    """A callback waiting in the publisher's queue, and how many batches had failed then."""

    failures: int
    callback: Callable[[], None]


class RedisBus:
    def __init__(self, url: str, prefix: str = PREFIX) -> None:
        self.url = url
        self.prefix = prefix
        self.instance = uuid.uuid4().hex[:12]
        self._origin = f"{self.instance}|".encode()
        self._local: dict[str, set[Sink]] = {}
        self._confirmations: dict[str, asyncio.Future[None]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._outbox: asyncio.Queue[tuple[str, bytes] | _AfterSent] | None = None
        self._failures = 0
        """Batches Redis refused so far: a callback queued before one of them is never called."""
        self._tasks: list[asyncio.Task[None]] = []
        self._resubscribing: set[asyncio.Task[None]] = set()
        """Subscriptions of channels joined while Redis was away, under way (each heal starts
        one; it leaves this set when it ends)."""
        self._control = asyncio.Lock()
        self._unconfirmed: set[str] = set()
        """Channels joined while Redis was away, to subscribe when it is back."""
        self._ready = asyncio.Event()
        self._client: aioredis.Redis | None = None
        self._pubsub_client: aioredis.Redis | None = None
        self._pubsub: Any = None
        self._reconnect_listeners: list[Callable[[], None]] = []

    # -- lifecycle --------------------------------------------------------------------------------

    def bind_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start the reader and the publisher on the server's loop (idempotent)."""
        if self._loop is loop and self._tasks:
            return
        self._loop = loop
        self._control = asyncio.Lock()
        self._ready = asyncio.Event()
        self._outbox = asyncio.Queue()
        name = f"{self.prefix}{self.instance}"  # CLIENT LIST shows each process's connections
        pool = BlockingConnectionPool.from_url(self.url, max_connections=COMMAND_CONNECTIONS,
                                               timeout=10, client_name=name)
        self._client = aioredis.Redis(connection_pool=pool)
        self._pubsub_client = aioredis.Redis.from_url(self.url, health_check_interval=15,
                                                      client_name=name)
        self._pubsub = self._pubsub_client.pubsub()
        self._tasks = [loop.create_task(self._read_forever()),
                       loop.create_task(self._publish_forever())]

    @property
    def command_client(self) -> aioredis.Redis:
        """Redis commands on the bound loop (bounded pool: never more than 2 connections)."""
        if self._client is None:
            raise RuntimeError("the bus is not bound to a loop yet")
        return self._client

    async def aclose(self) -> None:
        await self._drain_outbox()
        await cancel_and_wait([*self._tasks, *self._resubscribing])
        self._tasks = []
        self._resubscribing.clear()
        with contextlib.suppress(Exception):
            if self._pubsub is not None:
                await self._pubsub.aclose()
        for client in (self._pubsub_client, self._client):
            with contextlib.suppress(Exception):
                if client is not None:
                    await client.aclose()

    async def _drain_outbox(self) -> None:
        for _ in range(100):
            if self._outbox is None or self._outbox.empty():
                return
            await asyncio.sleep(0.01)

    # -- publishing -------------------------------------------------------------------------------

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Thread-safe and non-blocking: encoded here, sent by the publisher task in order."""
        loop = self._loop
        if loop is None or loop.is_closed() or self._outbox is None:
            return  # not serving yet (no subscriber anywhere in this process could exist)
        key = self.prefix + channel
        data = orjson.dumps(wire_form(message))
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._send(key, data, message)
        else:
            loop.call_soon_threadsafe(self._send, key, data, message)

    def _send(self, key: str, data: bytes, message: dict[str, Any]) -> None:
        assert self._outbox is not None
        self._fan_out(key, message)
        stamp = b"%.6f|" % time.time()  # the receivers measure the delivery from it
        self._outbox.put_nowait((key, self._origin + stamp + data))

    def after_sent(self, callback: Callable[[], None]) -> None:
        """Queued behind the messages published so far; called once Redis took them all."""
        loop = self._loop
        if loop is None or loop.is_closed() or self._outbox is None:
            return  # nothing was sent either
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._queue_callback(callback)
        else:
            loop.call_soon_threadsafe(self._queue_callback, callback)

    def _queue_callback(self, callback: Callable[[], None]) -> None:
        assert self._outbox is not None
        self._outbox.put_nowait(_AfterSent(self._failures, callback))

    async def _publish_forever(self) -> None:
        assert self._outbox is not None
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 256:
                batch.append(self._outbox.get_nowait())
            messages = [item for item in batch if not isinstance(item, _AfterSent)]
            try:
                if messages:
                    async with self.command_client.pipeline(transaction=False) as pipe:
                        for channel, data in messages:
                            pipe.publish(channel, data)
                        await pipe.execute()
            except Exception:  # Redis away: these messages are lost; states resync on the next
                reraise_if_cancelled()
                log.exception("publishing %d bus message(s) failed", len(messages))
                self._failures += 1
                await asyncio.sleep(0.2)
            for item in batch:
                if isinstance(item, _AfterSent) and item.failures == self._failures:
                    try:  # nothing published before it was lost
                        item.callback()
                    except Exception:
                        log.exception("an after-sent callback failed")

    # -- subscribing ------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str, queue: Inbox | None = None
                        ) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
        queue = queue if queue is not None else new_inbox()
        try:
            await self.join(channel, queue)
            yield read(queue)
        finally:
            await self.leave(channel, queue)

    async def join(self, channel: str, sink: Sink) -> None:
        """A channel's first local subscriber subscribes in Redis (and waits for the answer);
        the others only join the local set."""
        if self._loop is None or not self._tasks:
            self.bind_loop(asyncio.get_running_loop())
        key = self.prefix + channel
        sinks = self._local.get(key)
        first = not sinks
        if sinks is None:
            sinks = self._local[key] = set()
        sinks.add(sink)
        if first:
            await self._redis_subscribe(key)

    async def leave(self, channel: str, sink: Sink) -> None:
        key = self.prefix + channel
        sinks = self._local.get(key)
        if sinks is not None:
            sinks.discard(sink)
            if not sinks:
                del self._local[key]
                with contextlib.suppress(Exception):
                    await self._redis_unsubscribe(key)

    async def _redis_subscribe(self, key: str) -> None:
        loop = asyncio.get_running_loop()
        confirmed = self._confirmations.get(key)
        if confirmed is None or confirmed.done():
            confirmed = self._confirmations[key] = loop.create_future()
        await self._ready.wait()  # the reader owns the connection: never open a second one
        async with self._control:
            if key not in self._local:
                return  # everyone left while we waited for the lock
            try:
                await self._pubsub.subscribe(key)
            except (RedisError, OSError):  # Redis away: kept locally, subscribed on the heal
                log.warning("Redis away: %s is subscribed when it is back", key)
                self._unconfirmed.add(key)
                return
        with contextlib.suppress(TimeoutError):  # the reader resolves it on Redis's answer
            await asyncio.wait_for(asyncio.shield(confirmed), SUBSCRIBE_CONFIRM_SECONDS)

    async def _redis_unsubscribe(self, key: str) -> None:
        async with self._control:
            if key in self._local:
                return  # a new local subscriber arrived meanwhile: keep the Redis subscription
            await self._pubsub.unsubscribe(key)

    def subscriber_count(self) -> int:
        """Channels this process is subscribed to in Redis (for tests and metrics)."""
        return len(self._local)

    async def _read_forever(self) -> None:
        """The process's one pub/sub reader. A control channel of its own keeps the connection
        subscribed (so reading never spins) and reconnects resubscribe every channel."""
        while not self._ready.is_set():
            try:
                async with self._control:
                    await self._pubsub.subscribe(f"{self.prefix}_bus:{self.instance}")
                self._ready.set()
            except Exception:
                reraise_if_cancelled()
                log.warning("Redis pub/sub unreachable; retrying", exc_info=True)
                await asyncio.sleep(0.5)
        lost = False
        while True:
            try:
                item = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                reraise_if_cancelled()
                if not lost:
                    log.warning("Redis pub/sub connection lost; reconnecting", exc_info=True)
                lost = True
                await asyncio.sleep(0.5)
                continue
            if lost:  # the connection answers again (redis-py has re-subscribed every channel)
                lost = False
                self._healed()
            if item is None:
                continue
            kind = item.get("type")
            channel = item.get("channel")
            key = channel.decode() if isinstance(channel, bytes) else str(channel)
            if kind == "message":
                self._deliver(key, item["data"])
            elif kind == "subscribe":
                confirmed = self._confirmations.pop(key, None)
                if confirmed is not None and not confirmed.done():
                    confirmed.set_result(None)

    async def _subscribe_missed(self) -> None:
        """Subscribe the channels joined while Redis was away (the heal's resync already told
        their subscribers to read their state again)."""
        missed, self._unconfirmed = self._unconfirmed, set()
        async with self._control:
            wanted = [key for key in missed if key in self._local]
            if not wanted:
                return
            try:
                await self._pubsub.subscribe(*wanted)
            except (RedisError, OSError):  # gone again: the next heal tries them
                self._unconfirmed.update(wanted)

    def on_reconnect(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` (on the loop) each time the pub/sub connection comes back."""
        self._reconnect_listeners.append(listener)

    def _healed(self) -> None:
        """Whatever was published while Redis was away never reached this process: every local
        subscriber is told to read its state again, and the listeners (presence) rewrite
        theirs."""
        log.warning("Redis pub/sub connection back: resyncing %d channels", len(self._local))
        BUS_RECONNECTS.inc()
        if self._unconfirmed:  # joined while Redis was away: redis-py never recorded them
            task = asyncio.get_running_loop().create_task(self._subscribe_missed())
            self._resubscribing.add(task)
            task.add_done_callback(self._resubscribing.discard)
        for key in list(self._local):
            self._fan_out(key, {"type": RESYNC})
        for listener in self._reconnect_listeners:
            try:
                listener()
            except Exception:
                log.exception("a reconnect listener failed")

    def _deliver(self, key: str, data: bytes) -> None:
        if data.startswith(self._origin) or not self._local.get(key):
            return  # our own message (delivered when published) or nobody here listens
        try:
            body = data.split(b"|", 1)[1]
            if not body.startswith(b"{"):  # origin|sent|message
                sent, body = body.split(b"|", 1)
                BUS_DELIVERY_SECONDS.observe(max(0.0, time.time() - float(sent)))
            message = orjson.loads(body)
        except (IndexError, ValueError):
            log.warning("undecodable message on %s", key)
            return
        self._fan_out(key, message)

    def _fan_out(self, key: str, message: dict[str, Any]) -> None:
        for queue in list(self._local.get(key, ())):
            deliver(queue, message)
