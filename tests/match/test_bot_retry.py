"""A bot move that fails (a worker process lost, the database away) is tried again by the
runner's periodic re-scan: no game waits for a change that will never come."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.db.session import make_engine, make_session_factory
from app.kernel.settings import Settings
from app.main import create_app
from app.match.bot_runner import BotRunner
from app.match.service import MatchService
from app.realtime.bus import InProcessBus
from tests.conftest import make_guest


class FailsFirst(Executor):
    """Runs bot thinking in a thread, except that its first job fails as a lost worker would."""

    def __init__(self) -> None:
        self.calls = 0
        self.threads = ThreadPoolExecutor(1)

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.calls += 1
        if self.calls == 1:
            failed: Future[Any] = Future()
            failed.set_exception(OSError("worker process lost"))
            return failed
        return self.threads.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.threads.shutdown(wait=wait, cancel_futures=cancel_futures)


def test_a_failed_bot_move_is_played_on_the_next_scan(database_url: str) -> None:
    settings = Settings(database_url=database_url, secret_key="k", bots_enabled=False)
    with TestClient(create_app(settings)) as client:
        human = make_guest(client, "Human")
        match = client.post("/api/v1/matches", json={"game": "sight", "seat": 1, "bot": "easy"},
                            headers=human).json()
    assert match["status"] == "active" and match["to_move"] == 0  # the bot's turn
    engine = make_engine(database_url, 2)
    factory = make_session_factory(engine)
    executor = FailsFirst()
    runner = BotRunner(factory, lambda record: None, executor=executor, rescan_seconds=0.05)

    async def scenario() -> int:
        bus = InProcessBus()
        bus.bind_loop(asyncio.get_running_loop())
        running = asyncio.create_task(runner.run(bus))
        deadline = time.monotonic() + 20
        try:
            while time.monotonic() < deadline:
                with factory() as session:
                    ply = MatchService.read_only(session).get(match["id"]).ply
                if ply > 0:
                    return ply
                await asyncio.sleep(0.05)
            return 0
        finally:
            running.cancel()

    try:
        assert asyncio.run(scenario()) == 1, "the bot never moved after its first attempt failed"
        assert executor.calls == 2
    finally:
        runner.shutdown()
        engine.dispose()


def test_a_scan_reads_a_match_waiting_for_a_person_once_per_ply(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(database_url=database_url, secret_key="k", bots_enabled=False)
    with TestClient(create_app(settings)) as client:
        human = make_guest(client, "Human")
        match = client.post("/api/v1/matches", json={"game": "sight", "seat": 0, "bot": "easy"},
                            headers=human).json()
    assert match["to_move"] == 0  # the person's turn
    engine = make_engine(database_url, 2)
    runner = BotRunner(make_session_factory(engine), lambda record: None, executor=FailsFirst())
    reads: list[str] = []
    original = MatchService.get

    def counted(self: MatchService, match_id: str) -> Any:
        reads.append(match_id)
        return original(self, match_id)

    monkeypatch.setattr(MatchService, "get", counted)
    try:
        for _ in range(3):
            asyncio.run(runner.catch_up())
        assert reads == [match["id"]]  # read by the first scan only: its ply has not moved
    finally:
        runner.shutdown()
        engine.dispose()
