"""The background jobs' leader across processes (app/jobs/leadership.py, redis-py's Lock): one
leader among candidates, takeover once a holder's lock expires, jobs stopped the moment the lock
is lost, and the lock released on a clean shutdown. Candidates share one real Redis here; the
kill -9 takeover between processes is tests/realtime/test_instances.py's."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable

import pytest
import redis.asyncio as aioredis

from app.jobs.leadership import RedisLeader
from tests import servers

TTL = 1.0  # seconds; renewals every third of it, with room for a busy machine


@pytest.fixture(autouse=True)
def _redis_up() -> None:
    servers.require_redis("the leader tests")


class Candidate:
    """One process's leader with a job that runs while it leads."""

    def __init__(self, client: aioredis.Redis, key: str) -> None:
        self.leader = RedisLeader(lambda: client, key, TTL)
        self.job_running = False
        self.task: asyncio.Task[None] | None = None

    def _start(self) -> list[asyncio.Task[None]]:
        async def job() -> None:
            self.job_running = True
            try:
                await asyncio.Event().wait()
            finally:
                self.job_running = False
        return [asyncio.create_task(job())]

    def run(self) -> None:
        self.task = asyncio.create_task(self.leader.lead(self._start))

    async def shut_down(self) -> None:
        assert self.task is not None
        self.task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await self.task


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the condition never held")


def in_redis(test: Callable[[aioredis.Redis, str], Awaitable[None]]) -> None:
    async def main() -> None:
        client = aioredis.Redis.from_url(servers.REDIS_URL)
        key = f"t{uuid.uuid4().hex[:10]}:jobs:leader"
        try:
            await test(client, key)
        finally:
            await client.delete(key)
            await client.aclose()
    asyncio.run(main())


def test_one_candidate_leads_and_a_clean_shutdown_hands_over_at_once() -> None:
    async def test(client: aioredis.Redis, key: str) -> None:
        first, second = Candidate(client, key), Candidate(client, key)
        first.run()
        await until(lambda: first.job_running)
        second.run()
        await asyncio.sleep(2.5 * TTL)  # several renewals: the first keeps the lock
        assert first.leader.is_leader and not second.leader.is_leader and not second.job_running
        assert await client.get(key) == first.leader.token.encode()
        await first.shut_down()
        assert not first.job_running
        assert await client.get(key) in (None, second.leader.token.encode())  # released
        await until(lambda: second.job_running)
        await second.shut_down()
        assert await client.get(key) is None
    in_redis(test)


def test_a_holder_that_stops_renewing_is_replaced_when_its_lock_expires() -> None:
    async def test(client: aioredis.Redis, key: str) -> None:
        await client.set(key, "a dead process", px=int(TTL * 1000))  # never renewed
        candidate = Candidate(client, key)
        candidate.run()
        await asyncio.sleep(TTL / 2)
        assert not candidate.job_running
        await until(lambda: candidate.job_running)
        await candidate.shut_down()
    in_redis(test)


def test_losing_the_lock_stops_the_jobs_until_it_is_won_again() -> None:
    async def test(client: aioredis.Redis, key: str) -> None:
        candidate = Candidate(client, key)
        candidate.run()
        await until(lambda: candidate.job_running)
        await client.set(key, "another process", px=int(2 * TTL * 1000))  # e.g. after a stall
        await until(lambda: not candidate.job_running)
        assert not candidate.leader.is_leader
        assert await client.get(key) == b"another process"  # not released: it is not ours
        await until(lambda: candidate.job_running)  # once that lock expired
        assert candidate.leader.terms == 2
        await candidate.shut_down()
    in_redis(test)
