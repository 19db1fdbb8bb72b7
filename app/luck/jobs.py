"""Computes luck reports in the job leader: the searching runs in a worker process on idle CPU
only, one game at a time, so live games never wait for it. The pool is spawned when the first
game needs a report."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor

from sqlalchemy.orm import Session, sessionmaker

from app.kernel.cancellation import reraise_if_cancelled
from app.kernel.metrics import JOB_PASSES
from app.kernel.processes import LazyPool, idle_priority
from app.luck.compute import LuckReport, luck_report
from app.luck.service import LuckService, Work

POLL_SECONDS = 10.0
log = logging.getLogger(__name__)


def _next(session_factory: sessionmaker[Session]) -> Work | None:
    with session_factory() as session:
        return LuckService(session).next_work()


def _store(session_factory: sessionmaker[Session], match_id: str, report: LuckReport | None,
           failed: bool) -> None:
    with session_factory() as session:
        LuckService(session).finish(match_id, report, failed)


def compute(work: Work, iterations: int) -> LuckReport:
    return luck_report(work["game"], work["rules_version"], work["players"],
                       dict(work["options"]), work["seed"], work["match_id"], work["scores"],
                       iterations)


async def run_luck(session_factory: sessionmaker[Session], workers: int, iterations: int,
                   poll_seconds: float = POLL_SECONDS, executor: Executor | None = None) -> None:
    """Report on every finished Town game, newest first, forever."""
    pool = LazyPool(workers, idle_priority, name="luck")
    loop = asyncio.get_running_loop()
    try:
        while True:
            try:
                work = await asyncio.to_thread(_next, session_factory)
            except Exception:
                reraise_if_cancelled()
                JOB_PASSES.labels("luck", "failed").inc()
                log.exception("luck pass failed")
                work = None
            if work is None:
                await asyncio.sleep(poll_seconds)
                continue
            try:
                report = await loop.run_in_executor(executor or pool.get(), compute, work,
                                                    iterations)
                await asyncio.to_thread(_store, session_factory, work["match_id"], report, False)
                JOB_PASSES.labels("luck", "done").inc()
            except Exception:
                reraise_if_cancelled()
                JOB_PASSES.labels("luck", "failed").inc()
                log.exception("luck report for %s failed", work["match_id"])
                await asyncio.to_thread(_store, session_factory, work["match_id"], None, True)
    finally:
        await asyncio.to_thread(pool.stop)
