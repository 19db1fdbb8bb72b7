"""The tournament job passes again as soon as any match ends (a public change on the live
channel), not only on its timer: that is what keeps standings current right after a game's end.
The timer here is a minute, longer than the test waits, so only the end can cause the pass."""

from __future__ import annotations

import asyncio

import app.tournaments.jobs as job
from app.realtime.bus import LIVE_CHANNEL, InProcessBus
from tests.live.server import run_async


def test_a_finished_match_wakes_the_tournament_job(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    passes: list[str] = []
    published: list[str] = []
    monkeypatch.setattr(job, "advance_all", lambda *args: passes.append(published[-1] if published
                                                                        else "start"))

    async def scenario() -> None:
        bus = InProcessBus()
        bus.bind_loop(asyncio.get_running_loop())
        runner = asyncio.create_task(job.run_tournaments(None, lambda record: None, bus,  # type: ignore[arg-type]
                                                         poll_seconds=60))
        while not passes:
            await asyncio.sleep(0.01)
        for status in ("active", "finished"):
            published.append(status)
            bus.publish(LIVE_CHANNEL, {"type": "change", "change": {"id": "m", "status": status}})
            await asyncio.sleep(0.1)  # room for a pass (wrong after a move) to show
        while len(passes) < 2:
            await asyncio.sleep(0.01)
        runner.cancel()

    run_async(lambda: asyncio.wait_for(scenario(), 30))  # not asyncio.run: see run_async
    # a pass at the start and one after the end, none after a move
    assert passes == ["start", "finished"]
