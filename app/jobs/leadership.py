"""Who runs the background jobs: exactly one process across all instances.

- :class:`SoleLeader` — one process and no Redis (``make run``): this process always leads.
- :class:`RedisLeader` — a lock in Redis (``SET key token NX PX ttl``), renewed every third of its
  time to live by a compare-and-set script. The holder runs the jobs; everyone else keeps trying.
  A holder that dies (kill -9) stops renewing, the lock expires after ``ttl`` seconds and another
  candidate takes over; a holder that cannot renew in time (Redis away, loop stalled) stops its
  jobs before its lock can have passed to someone else. A clean shutdown releases at once.

Both expose ``async lead(start)`` which runs ``start()`` (returning the job tasks) while leading
and cancels those tasks when leadership is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)
Start = Callable[[], list["asyncio.Task[None]"]]

RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


async def _stop(tasks: list[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


class SoleLeader:
    is_leader = False

    async def lead(self, start: Start) -> None:
        self.is_leader = True
        tasks = start()
        try:
            await asyncio.Event().wait()
        finally:
            self.is_leader = False
            await _stop(tasks)


class RedisLeader:
    def __init__(self, client: Callable[[], Any], key: str, ttl_seconds: float = 5.0) -> None:
        self.client = client
        self.key = key
        self.ttl_ms = max(300, int(ttl_seconds * 1000))
        self.token = uuid.uuid4().hex
        self.is_leader = False
        self.terms = 0
        """How many times this process became leader (for tests and logs)."""

    async def _acquire(self) -> bool:
        return bool(await self.client().set(self.key, self.token, nx=True, px=self.ttl_ms))

    async def _renew(self) -> bool:
        return bool(await self.client().eval(RENEW, 1, self.key, self.token, self.ttl_ms))

    async def release(self) -> None:
        with contextlib.suppress(Exception):
            await self.client().eval(RELEASE, 1, self.key, self.token)

    async def lead(self, start: Start) -> None:
        step = self.ttl_ms / 3000
        try:
            while True:
                try:
                    acquired = await self._acquire()
                except Exception:
                    log.warning("leader lock unreachable", exc_info=True)
                    acquired = False
                if acquired:
                    await self._hold(start, step)
                else:
                    await asyncio.sleep(step)
        finally:
            self.is_leader = False
            await self.release()

    async def _hold(self, start: Start, step: float) -> None:
        self.is_leader = True
        self.terms += 1
        log.info("leading the background jobs (%s, term %d)", self.key, self.terms)
        valid_until = time.monotonic() + self.ttl_ms / 1000
        tasks = start()
        try:
            while True:
                await asyncio.sleep(step)
                renewed: bool | None
                try:
                    renewed = bool(await asyncio.wait_for(self._renew(), step))
                except Exception:  # Redis unreachable: lead on only while the lock surely holds
                    renewed = None
                if renewed:
                    valid_until = time.monotonic() + self.ttl_ms / 1000
                elif renewed is None and time.monotonic() < valid_until - step:
                    continue
                else:
                    log.warning("lost the leader lock %s; stopping the jobs", self.key)
                    return
        finally:
            self.is_leader = False
            await _stop(tasks)
