"""The daily deal's background job: records the scores of ended games and reveals each deal when
its day ends (app/daily/service.py), in the job leader. Reads reveal a due deal too, so the page
never waits for the job; the conditional update makes the reveal happen once either way."""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy.orm import Session, sessionmaker

from app.daily.service import DailyService
from app.kernel.metrics import JOB_PASSES
from app.match import Publish

POLL_SECONDS = 10.0
log = logging.getLogger(__name__)


def daily_pass(session_factory: sessionmaker[Session], publish_record: Publish) -> list[str]:
    with session_factory() as session:
        return DailyService(session, publish_record).reveal_due()


async def run_daily(session_factory: sessionmaker[Session], publish_record: Publish,
                    poll_seconds: float = POLL_SECONDS) -> None:
    while True:
        try:
            await asyncio.to_thread(daily_pass, session_factory, publish_record)
            JOB_PASSES.labels("daily", "done").inc()
        except Exception:  # the next pass retries
            JOB_PASSES.labels("daily", "failed").inc()
            log.exception("daily deal pass failed")
        await asyncio.sleep(poll_seconds)
