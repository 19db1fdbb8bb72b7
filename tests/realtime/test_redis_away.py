"""Redis away while a socket joins or a claim asks who is at the board: the join is kept and
subscribed once Redis is back (no refused handshake), and the claim is told to retry (503
``presence_unavailable``), never a 500 nor a decision taken without presence."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from app.kernel.errors import ServerBusy
from app.realtime.presence import SharedPresence
from app.realtime.redis_bus import RedisBus
from tests.realtime.test_bus_heal import REDIS, OwnRedis


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    if REDIS is None:
        pytest.skip("!!! redis-server is not installed: the Redis-away tests did NOT run !!!")
    server = OwnRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()


async def _until(condition: Any, seconds: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not await condition():
        assert loop.time() < deadline, "the condition never held"
        await asyncio.sleep(0.05)


def test_a_channel_joined_while_redis_is_away_is_subscribed_when_it_is_back(
        own_redis: OwnRedis) -> None:
    async def scenario() -> None:
        bus = RedisBus(own_redis.url, prefix="away:")
        bus.bind_loop(asyncio.get_running_loop())
        warm: asyncio.Queue[dict[str, Any]] = asyncio.Queue(100)
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue(100)
        received: list[dict[str, Any]] = []
        try:
            await bus.join("warm", warm)  # the reader is connected
            own_redis.stop()
            await asyncio.sleep(1.5)  # the reader has seen the connection go
            await asyncio.wait_for(bus.join("match:new", inbox), 10)  # no error
            own_redis.start()
            publisher = aioredis.Redis.from_url(own_redis.url)

            async def delivered() -> bool:
                await publisher.publish("away:match:new", b"x|" + json.dumps({"n": 1}).encode())
                while not inbox.empty():
                    received.append(inbox.get_nowait())
                return any(item.get("n") == 1 for item in received)

            await _until(delivered)
            await publisher.aclose()
        finally:
            await bus.aclose()

    asyncio.run(scenario())


async def _heard(url: str, channel: str, inbox: asyncio.Queue[dict[str, Any]]) -> None:
    """Publish on ``channel`` from another client until ``inbox`` gets the message."""
    publisher = aioredis.Redis.from_url(url)
    heard: list[dict[str, Any]] = []

    async def delivered() -> bool:
        await publisher.publish(channel, b"x|" + json.dumps({"n": 1}).encode())
        await asyncio.sleep(0.05)
        while not inbox.empty():
            heard.append(inbox.get_nowait())
        return any(item.get("n") == 1 for item in heard)

    try:
        await _until(delivered)
    finally:
        await publisher.aclose()


def test_the_subscriptions_made_on_each_heal_are_forgotten_once_done(
        own_redis: OwnRedis) -> None:
    """Every heal with channels joined meanwhile starts a task to subscribe them; a long-lived
    instance through many Redis outages must not keep one per outage."""
    async def scenario() -> None:
        bus = RedisBus(own_redis.url, prefix="heals:")
        bus.bind_loop(asyncio.get_running_loop())
        lifecycle = list(bus._tasks)

        async def settled() -> bool:
            return not bus._resubscribing

        try:
            await bus.join("warm", asyncio.Queue(100))
            for outage in range(3):
                own_redis.stop()
                await asyncio.sleep(1.5)  # the reader has seen the connection go
                inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue(100)
                await asyncio.wait_for(bus.join(f"match:{outage}", inbox), 10)
                own_redis.start()
                await _heard(own_redis.url, f"heals:match:{outage}", inbox)
                await _until(settled)
            assert bus._tasks == lifecycle, "only the reader and the publisher stay"
        finally:
            await bus.aclose()

    asyncio.run(scenario())


def test_claim_asks_presence_while_redis_is_away_and_is_told_to_retry(
        own_redis: OwnRedis) -> None:
    async def scenario() -> None:
        client = aioredis.Redis.from_url(own_redis.url, socket_connect_timeout=1)
        presence = SharedPresence(30.0, lambda channel, message: None, lambda: client,
                                  "away:", "instance-a")
        presence.bind_loop(asyncio.get_running_loop())
        try:
            assert await presence.away_seconds_async("m1", 7) >= 0.0  # Redis up: an answer
            own_redis.stop()
            with pytest.raises(ServerBusy) as refused:
                await presence.away_seconds_async("m1", 7)
            assert refused.value.code == "presence_unavailable"
            assert refused.value.retry_after_seconds >= 1
        finally:
            with_redis_gone = presence.aclose()
            await asyncio.wait_for(with_redis_gone, 10)
            await client.aclose()

    asyncio.run(scenario())


def test_a_message_from_another_instance_is_timed_on_arrival(own_redis: OwnRedis) -> None:
    """Each bus message carries its publication time; the receiving instance observes the
    delivery in ``stepwell_bus_delivery_seconds`` (a committed move's change among them)."""
    from prometheus_client import REGISTRY

    def deliveries() -> float:
        return REGISTRY.get_sample_value("stepwell_bus_delivery_seconds_count") or 0.0

    async def scenario() -> None:
        sender, receiver = RedisBus(own_redis.url, "timed:"), RedisBus(own_redis.url, "timed:")
        for bus in (sender, receiver):
            bus.bind_loop(asyncio.get_running_loop())
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue(100)
        try:
            await receiver.join("match:m", inbox)
            before = deliveries()
            sender.publish("match:m", {"type": "change", "n": 2})
            assert (await asyncio.wait_for(inbox.get(), 10))["n"] == 2
            assert deliveries() == before + 1
        finally:
            await sender.aclose()
            await receiver.aclose()

    asyncio.run(scenario())
