"""A shutdown ends every background loop even when the library it was waiting in turns the
cancellation into another error (redis-py's asyncio connection can raise ``ConnectionError``
from a cancelled read): such a loop used to log, sleep and beat again, and the app's lifespan
waited for it forever."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from app.kernel.cancellation import cancel_and_wait, repeat
from app.realtime.presence import SharedPresence


class CancellationSwallowingRedis:
    """A client whose every command waits, and answers a cancellation with ConnectionError."""

    def __init__(self) -> None:
        self.commands = 0
        self.waiting = asyncio.Event()

    def pipeline(self, transaction: bool = True) -> CancellationSwallowingRedis:
        return self

    async def __aenter__(self) -> CancellationSwallowingRedis:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: None

    async def execute(self) -> list[Any]:
        self.commands += 1
        self.waiting.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            raise ConnectionError("Connection closed by server.") from None
        return []


def test_presence_stops_although_redis_swallowed_the_cancellation() -> None:
    async def scenario() -> None:
        redis = CancellationSwallowingRedis()

        async def publish(*args: object) -> None:
            return None

        presence = SharedPresence(1.0, publish, lambda: redis, "t:", "i1",
                                  heartbeat_seconds=0.05, register=False)
        presence.bind_loop(asyncio.get_running_loop())
        await asyncio.wait_for(redis.waiting.wait(), 5)
        await asyncio.wait_for(presence.aclose(), 3)
        assert all(task.done() for task in presence._tasks) or presence._tasks == []

    asyncio.run(scenario())


def test_cancel_and_wait_gives_up_on_a_task_that_ignores_its_cancellation() -> None:
    async def scenario() -> None:
        released = asyncio.Event()

        async def stubborn() -> None:
            while not released.is_set():
                try:
                    await asyncio.sleep(3600)
                except asyncio.CancelledError:
                    continue

        task = asyncio.get_running_loop().create_task(stubborn())
        await asyncio.sleep(0)
        await asyncio.wait_for(cancel_and_wait([task], timeout=0.2), 3)
        assert not task.done()
        released.set()
        task.cancel()
        await asyncio.wait_for(task, 3)

    asyncio.run(scenario())

def test_a_repeated_step_that_fails_is_logged_and_the_next_one_runs(caplog: Any) -> None:
    async def scenario() -> int:
        steps = 0

        async def step() -> None:
            nonlocal steps
            steps += 1
            if steps == 3:
                raise asyncio.CancelledError  # the loop's own cancellation ends it
            raise OSError("Redis away")

        logger = logging.getLogger("tests.repeat")
        with contextlib.suppress(asyncio.CancelledError):
            await repeat(step, lambda: 0.0, failure="step failed", logger=logger)
        return steps

    with caplog.at_level(logging.WARNING, logger="tests.repeat"):
        assert asyncio.run(scenario()) == 3
    assert [r.message for r in caplog.records if r.name == "tests.repeat"] == ["step failed"] * 2


def test_a_repeated_step_whose_library_swallowed_the_cancellation_ends_the_loop() -> None:
    async def scenario() -> int:
        redis = CancellationSwallowingRedis()

        async def step() -> None:
            await redis.execute()

        loop = asyncio.create_task(repeat(step, lambda: 0.0, failure="step failed",
                                          logger=logging.getLogger("tests.repeat")))
        await asyncio.wait_for(redis.waiting.wait(), 5)
        await asyncio.wait_for(cancel_and_wait([loop]), 3)
        assert loop.cancelled()
        return redis.commands

    assert asyncio.run(scenario()) == 1
