"""Tournament scheduling: start, pair, record and finish (app/tournaments/scheduler.py), once a
second and at once when a match ends, so standings move within a second of a game's end and an
arena player waits for a new opponent no longer than that. Runs in the job leader only; the
scheduler's guards make a second runner harmless anyway."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from app.kernel.metrics import JOB_PASSES
from app.match import Publish
from app.realtime.bus import LIVE_CHANNEL, RESYNC, EventBus
from app.tournaments.scheduler import OVER, advance_all

POLL_SECONDS = 1.0
log = logging.getLogger(__name__)


async def run_tournaments(session_factory: sessionmaker[Session], publish_record: Publish,
                          bus: EventBus, poll_seconds: float = POLL_SECONDS) -> None:
    ended = asyncio.Event()

    async def watch(events: AsyncIterator[dict[str, Any]]) -> None:
        async for message in events:
            change = message.get("change") or message.get("record") or {}
            if change.get("status") in OVER or message.get("type") == RESYNC:
                ended.set()  # a game ended (or may have, unheard while the bus was away)

    async with bus.subscribe(LIVE_CHANNEL) as events:
        watcher = asyncio.create_task(watch(events))
        try:
            while True:
                ended.clear()
                try:
                    await asyncio.to_thread(advance_all, session_factory, publish_record,
                                            bus.publish)
                    JOB_PASSES.labels("tournaments", "done").inc()
                except Exception:  # the next pass retries
                    JOB_PASSES.labels("tournaments", "failed").inc()
                    log.exception("tournament pass failed")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(ended.wait(), poll_seconds)
        finally:
            watcher.cancel()
