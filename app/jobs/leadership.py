"""Who runs the background jobs: exactly one process across all instances.

- :class:`SoleLeader` — one process and no Redis (``make run``): this process always leads.
- :class:`RedisLeader` — redis-py's :class:`~redis.asyncio.lock.Lock` (``SET key token NX PX
  ttl``), taken without blocking and renewed every ``renew`` seconds (``reacquire``: a
  compare-and-set of the TTL; a third of the TTL at most). The holder runs the jobs; everyone
  else tries again every ``renew`` seconds. A holder that dies (kill -9) stops renewing, the lock
  expires within ``ttl`` seconds and another candidate takes over at its next try, so a short
  lease renewed often is a short failover; a holder that cannot renew in time (Redis away, loop
  stalled) stops its jobs before its lock can have passed to someone else. A clean shutdown
  releases at once.

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

from redis.asyncio.lock import Lock
from redis.exceptions import LockError

from app.kernel.cancellation import reraise_if_cancelled

log = logging.getLogger(__name__)
Start = Callable[[], list["asyncio.Task[None]"]]


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
    def __init__(self, client: Callable[[], Any], key: str, ttl_seconds: float = 5.0,
                 renew_seconds: float | None = None) -> None:
        self.client = client
        self.key = key
        self.ttl_ms = max(300, int(ttl_seconds * 1000))
        third = self.ttl_ms / 3000
        self.step = third if renew_seconds is None else max(0.05, min(renew_seconds, third))
        """Seconds between renewals (the holder) and between tries (everyone else)."""
        self.token = uuid.uuid4().hex
        self.is_leader = False
        self.terms = 0
        """How many times this process became leader (for tests and logs)."""
        self._lock: Lock | None = None
        """The lock this process holds or last tried to take (bound to the client of that time)."""

    async def _acquire(self) -> bool:
        self._lock = Lock(self.client(), self.key, timeout=self.ttl_ms / 1000, thread_local=False)
        return bool(await self._lock.acquire(blocking=False, token=self.token))

    async def _renew(self) -> bool:
        """Reset the lock's time to live; False when another process holds it (or nobody)."""
        assert self._lock is not None
        try:
            return bool(await self._lock.reacquire())
        except LockError:  # LockNotOwnedError included: the lock expired or passed on
            return False

    async def release(self) -> None:
        """Let go of the lock if this process still holds it (another holder's stays)."""
        lock, self._lock = self._lock, None
        if lock is not None:
            with contextlib.suppress(Exception):
                await lock.release()

    async def lead(self, start: Start) -> None:
        step = self.step
        try:
            while True:
                try:
                    acquired = await self._acquire()
                except Exception:
                    reraise_if_cancelled()
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
                    reraise_if_cancelled()
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
            for task in tasks:
                task.cancel()
            await self.release()  # now, not after the jobs' cleanup: the stand-by takes over
            await _stop(tasks)
