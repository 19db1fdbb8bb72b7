"""The event bus over Redis pub/sub, for several server instances behind one load balancer:
a move committed on instance A reaches a spectator connected to instance B.

Same two methods as :class:`app.realtime.bus.InProcessBus`. Messages are JSON; channel names get
a prefix so one Redis can serve several deployments.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import redis
import redis.asyncio as aioredis

PREFIX = "stepwell:"


class RedisBus:
    def __init__(self, url: str, prefix: str = PREFIX) -> None:
        self.url = url
        self.prefix = prefix
        self._publisher = redis.Redis.from_url(url)  # thread-safe pool: services publish from threads

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        self._publisher.publish(self.prefix + channel, json.dumps(message))

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
        client = aioredis.Redis.from_url(self.url)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.prefix + channel)

        async def messages() -> AsyncIterator[dict[str, Any]]:
            async for item in pubsub.listen():
                if item.get("type") == "message":
                    yield json.loads(item["data"])

        try:
            yield messages()
        finally:
            with contextlib.suppress(Exception):
                await pubsub.unsubscribe()
                await pubsub.aclose()
                await client.aclose()

    def bind_loop(self, loop: object) -> None:
        """Nothing to bind: Redis delivers to whichever loop subscribed."""

    def close(self) -> None:
        self._publisher.close()
