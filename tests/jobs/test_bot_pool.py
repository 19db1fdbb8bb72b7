"""The worker's warm bot pool: its processes are up before any bot is asked to move, and a pool
whose process died is replaced (a broken pool refuses every later job, which would leave the bots
silent for good) while the bot job is started again."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from app.db.session import make_engine, make_session_factory
from app.jobs import runner
from app.jobs.bot_pool import process_id
from app.jobs.runner import BackgroundJobs
from app.kernel.settings import Settings
from app.match.outbox import Announced
from app.match.publish import MatchPublisher
from app.realtime.bus import InProcessBus
from app.realtime.presence import Presence
from tests.databases import sqlite_database


def _failures() -> float:
    return REGISTRY.get_sample_value("stepwell_job_failures_total", {"job": "bots"}) or 0.0


async def _until(condition: object, seconds: float = 60.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the condition never held")


def test_a_bot_pool_whose_process_died_is_replaced_warm(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "POOL_CHECK_SECONDS", 0.05)
    monkeypatch.setattr(runner, "RESTART_SECONDS", 0.05)
    settings = Settings(database_url=sqlite_database(tmp_path / "bots.db"), secret_key="t",
                        analysis_workers=0)
    bus = InProcessBus()
    factory = make_session_factory(make_engine(settings.database_url))
    jobs = BackgroundJobs(settings, factory, bus, Presence(1.0, bus.publish),
                          MatchPublisher(bus, Announced(factory)), warm_bots=True)
    first = jobs.bot_pool
    assert first is not None, "spawned with the jobs, before anything leads"
    failures = _failures()

    async def scenario() -> None:
        running = asyncio.create_task(jobs.run())
        try:
            await _until(lambda: bool(first._processes))  # type: ignore[attr-defined]
            for pid in list(first._processes):  # type: ignore[attr-defined]
                os.kill(pid, signal.SIGKILL)
            await _until(lambda: jobs.bot_pool is not first and _failures() > failures)
            replaced = jobs.bot_pool
            assert replaced is not None
            loop = asyncio.get_running_loop()
            assert await loop.run_in_executor(replaced, process_id) != os.getpid()
            await _until(lambda: jobs.bots is not None and jobs.bots.executor is replaced)
        finally:
            running.cancel()
            with pytest.raises(asyncio.CancelledError):
                await running

    asyncio.run(scenario())
    assert jobs.bot_pool is None, "stopped with the jobs"
