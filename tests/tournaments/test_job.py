"""The tournament job passes again as soon as any match ends (a public change on the live
channel), not only on its timer: that is what keeps standings within a second of a game's end."""

from __future__ import annotations

import asyncio
import time

import app.tournaments.jobs as job
from app.realtime.bus import LIVE_CHANNEL, InProcessBus
from tests.live.server import run_async


def test_a_finished_match_wakes_the_tournament_job(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    passes: list[float] = []
    monkeypatch.setattr(job, "advance_all", lambda *args: passes.append(time.monotonic()))

    async def scenario() -> float:
        bus = InProcessBus()
        bus.bind_loop(asyncio.get_running_loop())
        runner = asyncio.create_task(job.run_tournaments(None, lambda record: None, bus,  # type: ignore[arg-type]
                                                         poll_seconds=60))
        while not passes:
            await asyncio.sleep(0.01)
        bus.publish(LIVE_CHANNEL, {"type": "change", "change": {"id": "m", "status": "active"}})
        await asyncio.sleep(0.1)
        assert len(passes) == 1  # a move is not an end
        ended = time.monotonic()
        bus.publish(LIVE_CHANNEL, {"type": "change", "change": {"id": "m", "status": "finished"}})
        while len(passes) < 2:
            await asyncio.sleep(0.01)
        runner.cancel()
        return passes[1] - ended

    assert run_async(lambda: asyncio.wait_for(scenario(), 5)) < 1.0  # not asyncio.run: see run_async
