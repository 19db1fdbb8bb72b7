"""Start the background jobs in the process that leads (see ``leadership``).

Used by ``create_app`` (a single process, or a web instance competing for the lock when no
worker is deployed) and by the worker (``python -m app.worker``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from app.analysis import AnalysisRunner
from app.jobs.leadership import RedisLeader, SoleLeader
from app.kernel.settings import Settings
from app.lobby import expire_absent_seekers, pair_quick_play
from app.match import BotRunner, MatchRecord, keep_clocks, publish_match
from app.realtime.bus import EventBus
from app.realtime.presence import Presence, SharedPresence
from app.realtime.redis_bus import RedisBus
from app.tournaments import run_tournaments

log = logging.getLogger(__name__)
SWEEP_SECONDS = 1.0


def bot_count_key(prefix: str, match_id: str) -> str:
    """Redis hash: ply -> how many times a bot move was computed for it (expected: 1)."""
    return f"{prefix}bots:computed:{match_id}"


class BackgroundJobs:
    def __init__(self, settings: Settings, session_factory: sessionmaker[Session],
                 bus: EventBus, presence: Presence) -> None:
        self.settings = settings
        self.session_factory = session_factory
        self.bus = bus
        self.presence = presence
        self.bots: BotRunner | None = None
        self.analysis: AnalysisRunner | None = None
        self.leader: RedisLeader | SoleLeader
        if isinstance(bus, RedisBus):  # several processes: one leader among them
            self.leader = RedisLeader(lambda: bus.command_client,
                                      f"{settings.redis_prefix}jobs:leader",
                                      settings.leader_ttl_seconds)
        else:
            self.leader = SoleLeader()

    def publish_record(self, record: MatchRecord) -> None:
        publish_match(self.bus, record)

    async def _count_bot_move(self, match_id: str, ply: int) -> None:
        assert isinstance(self.bus, RedisBus)  # counted only when the jobs are shared
        client = self.bus.command_client
        key = bot_count_key(self.settings.redis_prefix, match_id)
        async with client.pipeline(transaction=False) as pipe:
            pipe.hincrby(key, str(ply), 1)
            pipe.expire(key, 86400)
            await pipe.execute()

    def _start(self) -> list[asyncio.Task[None]]:
        jobs: list[Coroutine[Any, Any, None]] = [
            keep_clocks(self.session_factory, self.publish_record),
            pair_quick_play(self.session_factory, self.publish_record, self.bus.publish),
            expire_absent_seekers(self.session_factory, self.presence, self.bus.publish),
            run_tournaments(self.session_factory, self.publish_record, self.bus),
        ]
        if isinstance(self.presence, SharedPresence):
            jobs.append(self._sweep_presence_forever(self.presence))
        if self.settings.bots_enabled:
            shared = isinstance(self.leader, RedisLeader)
            self.bots = BotRunner(self.session_factory, self.publish_record,
                                  self.settings.bot_workers,
                                  count=self._count_bot_move if shared else None)
            jobs.append(self._run_bots(self.bots))
        if self.settings.analysis_workers > 0:
            self.analysis = AnalysisRunner(self.session_factory, self.bus,
                                           self.settings.analysis_workers)
            jobs.append(self._run_analysis(self.analysis))
        return [asyncio.create_task(job) for job in jobs]

    async def _run_bots(self, bots: BotRunner) -> None:
        try:
            await bots.run(self.bus)
        finally:
            bots.shutdown()

    async def _run_analysis(self, analysis: AnalysisRunner) -> None:
        try:
            await analysis.run()
        finally:
            await asyncio.to_thread(analysis.shutdown)

    async def _sweep_presence_forever(self, presence: SharedPresence) -> None:
        while True:
            try:
                await presence.sweep_dead_instances()
            except Exception:
                log.exception("presence sweep failed")
            await asyncio.sleep(SWEEP_SECONDS)

    async def run(self) -> None:
        """Lead when possible, forever (cancel to stop; the lock is released)."""
        await self.leader.lead(self._start)

    @property
    def is_leader(self) -> bool:
        return self.leader.is_leader
