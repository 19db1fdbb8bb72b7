"""The metrics of what runs behind the requests: database pool use, the process pools' busy
workers and waiting jobs, the background jobs (starts, crashes, who leads) and the outgoing
notifications' counter. Each one is shown to move when its thing happens, read from ``/metrics``
or from the process's registry."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY

from app.db.session import make_engine, make_session_factory
from app.jobs import runner
from app.jobs.runner import BackgroundJobs
from app.kernel.metrics import NOTIFICATIONS_SENT
from app.kernel.processes import spawn_pool, stop_pool
from app.kernel.settings import Settings
from app.match.outbox import Announced
from app.match.publish import MatchPublisher
from app.realtime.bus import InProcessBus
from app.realtime.presence import Presence
from tests.databases import sqlite_database


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def scraped(client: TestClient, name: str, **labels: str) -> float:
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    pattern = "^" + re.escape(name) + (r"\{" + re.escape(wanted) + r"\}" if labels else "") + r" (\S+)$"
    found = re.search(pattern, client.get("/metrics").text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def test_database_pool_use_follows_checkouts(tmp_path: Path) -> None:
    url = sqlite_database(tmp_path / "pool.db")
    size = sample("stepwell_db_pool_size")
    engine = make_engine(url, pool_size=3)
    assert sample("stepwell_db_pool_size") == size + 3
    before = sample("stepwell_db_pool_checked_out")
    with engine.connect(), engine.connect():
        assert sample("stepwell_db_pool_checked_out") == before + 2
    assert sample("stepwell_db_pool_checked_out") == before
    assert sample("stepwell_db_pool_overflow") == 0  # the service's pools have no overflow
    engine.dispose()


def test_the_pool_metrics_are_scraped(client: TestClient) -> None:
    text = client.get("/metrics").text
    for name in ("stepwell_db_pool_size", "stepwell_db_pool_checked_out",
                 "stepwell_db_pool_overflow", "stepwell_process_pool_busy",
                 "stepwell_process_pool_queued", "stepwell_job_starts_total"):
        assert f"# HELP {name}" in text, name
    assert scraped(client, "stepwell_db_pool_size") >= 8


def test_a_pool_with_overflow_reports_it(tmp_path: Path) -> None:
    from sqlalchemy import create_engine

    from app.kernel.metrics import watch_database_pool

    engine = create_engine(f"sqlite:///{tmp_path / 'o.db'}", pool_size=1, max_overflow=2)
    watch_database_pool(engine)
    before = sample("stepwell_db_pool_overflow")
    with engine.connect(), engine.connect(), engine.connect():
        assert sample("stepwell_db_pool_overflow") == before + 2
    assert sample("stepwell_db_pool_overflow") == before  # overflow connections close on checkin
    engine.dispose()


def wait_for_file(path: str) -> str:
    """A pool job that runs until the test lets it end."""
    while not Path(path).exists():
        time.sleep(0.01)
    return path


def test_a_process_pool_shows_its_busy_workers_and_waiting_jobs(tmp_path: Path) -> None:
    gate = tmp_path / "go"
    labels = {"pool": "metrics-test"}
    pool = spawn_pool(1, name="metrics-test")
    try:
        assert sample("stepwell_process_pool_workers", **labels) == 1
        jobs = [pool.submit(wait_for_file, str(gate)) for _ in range(3)]
        assert sample("stepwell_process_pool_busy", **labels) == 1
        assert sample("stepwell_process_pool_queued", **labels) == 2
        gate.touch()
        assert [job.result(timeout=60) for job in jobs] == [str(gate)] * 3
        for _ in range(500):  # the last done-callback runs on the pool's manager thread
            if sample("stepwell_process_pool_busy", **labels) == 0:
                break
            time.sleep(0.01)
        assert sample("stepwell_process_pool_busy", **labels) == 0
        assert sample("stepwell_process_pool_queued", **labels) == 0
    finally:
        stop_pool(pool)
    assert sample("stepwell_process_pool_workers", **labels) == 0


def _jobs(tmp_path: Path) -> BackgroundJobs:
    settings = Settings(database_url=sqlite_database(tmp_path / "jobs.db"), secret_key="t",
                        bots_enabled=False, analysis_workers=0)
    factory = make_session_factory(make_engine(settings.database_url))
    bus = InProcessBus()
    return BackgroundJobs(settings, factory, bus, Presence(1.0, bus.publish),
                          MatchPublisher(bus, Announced(factory)))


def test_a_crashing_job_is_counted_and_started_again(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "RESTART_SECONDS", 0.01)
    jobs, runs = _jobs(tmp_path), []

    async def flaky() -> None:
        runs.append(1)
        if len(runs) < 3:
            raise RuntimeError("the database is away")

    starts, failures = (sample("stepwell_job_starts_total", job="flaky"),
                        sample("stepwell_job_failures_total", job="flaky"))
    asyncio.run(jobs._supervise("flaky", flaky))
    assert len(runs) == 3
    assert sample("stepwell_job_starts_total", job="flaky") - starts == 3
    assert sample("stepwell_job_failures_total", job="flaky") - failures == 2


def test_the_leader_gauge_and_job_starts_follow_leadership(tmp_path: Path) -> None:
    jobs = _jobs(tmp_path)
    clocks = sample("stepwell_job_starts_total", job="clocks")
    leading = sample("stepwell_jobs_leader")
    passes = sample("stepwell_job_passes_total", job="clocks", outcome="done")

    async def lead_then_stop() -> float:
        task = asyncio.create_task(jobs.run())
        for _ in range(1000):
            if sample("stepwell_jobs_leader") == leading + 1 and sample(
                    "stepwell_job_passes_total", job="clocks", outcome="done") > passes:
                break
            await asyncio.sleep(0.01)
        seen = sample("stepwell_jobs_leader")
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return seen

    assert asyncio.run(lead_then_stop()) == leading + 1
    assert sample("stepwell_jobs_leader") == leading
    assert sample("stepwell_job_starts_total", job="clocks") == clocks + 1
    assert sample("stepwell_job_passes_total", job="clocks", outcome="done") > passes


def test_a_failed_pass_of_a_periodic_job_is_counted() -> None:
    from app.match.clock_keeper import keep_clocks

    def database_away() -> object:
        raise ConnectionError("the database is away")

    failed = sample("stepwell_job_passes_total", job="clocks", outcome="failed")

    async def two_failed_passes() -> None:
        task = asyncio.create_task(keep_clocks(database_away, lambda record: None,  # type: ignore[arg-type]
                                               poll_seconds=0.01))
        for _ in range(1000):
            if sample("stepwell_job_passes_total", job="clocks", outcome="failed") >= failed + 2:
                break
            await asyncio.sleep(0.01)
        task.cancel()

    asyncio.run(two_failed_passes())
    assert sample("stepwell_job_passes_total", job="clocks", outcome="failed") >= failed + 2


def test_the_notifications_counter_is_shown_by_kind_and_outcome(client: TestClient) -> None:
    before = scraped(client, "stepwell_notifications_sent_total", kind="email", outcome="sent")
    NOTIFICATIONS_SENT.labels("email", "sent").inc()
    assert scraped(client, "stepwell_notifications_sent_total", kind="email",
                   outcome="sent") == before + 1
    assert "# HELP stepwell_notifications_sent_total" in client.get("/metrics").text
