"""Flag overdue players even when nobody is connected; at start-up (and after a failover) the first
sweep catches up on every deadline that passed meanwhile. Deadlines live in the database and a
flag is a guarded commit, so a sweep that races a move or another sweeper changes nothing twice.
Every ``VACATION_SECONDS`` it also ends vacations whose allowance ran out and repairs clocks that
missed a vacation's start or end (app/match/vacation.py)."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from sqlalchemy.orm import Session, sessionmaker

from app.kernel import timesource
from app.kernel.metrics import JOB_PASSES
from app.match.store import Publish
from app.match.timeouts import flag_overdue, next_deadline
from app.match.vacation import sweep as sweep_vacations

POLL_SECONDS = 1.0
VACATION_SECONDS = 10.0
log = logging.getLogger(__name__)


async def keep_clocks(session_factory: sessionmaker[Session], publish: Publish,
                      poll_seconds: float = POLL_SECONDS,
                      vacation_seconds: float = VACATION_SECONDS) -> None:
    vacations_due = timesource.now()
    while True:
        try:
            if timesource.now() >= vacations_due:
                vacations_due = timesource.now() + timedelta(seconds=vacation_seconds)
                await asyncio.to_thread(sweep_vacations, session_factory, publish)
            await asyncio.to_thread(flag_overdue, session_factory, publish)
            upcoming = await asyncio.to_thread(next_deadline, session_factory)
            JOB_PASSES.labels("clocks", "done").inc()
        except Exception:  # keep watching clocks whatever one sweep hit
            JOB_PASSES.labels("clocks", "failed").inc()
            log.exception("clock sweep failed")
            upcoming = None
        delay = poll_seconds
        if upcoming is not None:
            delay = min(delay, max(0.02, (upcoming - timesource.now()).total_seconds()))
        await asyncio.sleep(delay)
