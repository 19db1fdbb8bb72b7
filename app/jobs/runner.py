"""Start the background jobs in the process that leads (see ``leadership``).

Used by ``create_app`` (a single process, or a web instance competing for the lock when no
worker is deployed) and by the worker (``python -m app.worker``). A worker keeps its bot pool
warm (``warm_bots``): spawned when it starts and kept across leadership terms, so a stand-by
that takes over answers the waiting bots at once. A job that crashes is started again after
``RESTART_SECONDS``; starts and crashes are counted in the metrics.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from app.analysis import AnalysisRunner
from app.daily import run_daily
from app.jobs.bot_pool import process_id, warm_bot_process
from app.jobs.leadership import RedisLeader, SoleLeader
from app.kernel.cancellation import repeat, reraise_if_cancelled
from app.kernel.metrics import JOB_FAILURES, JOB_STARTS, LEADING
from app.kernel.processes import spawn_pool, stop_pool
from app.kernel.settings import Settings
from app.lobby import expire_absent_seekers, pair_quick_play
from app.luck import run_luck
from app.mail import deliver_mail, mail_enabled, queue_digests
from app.match import BotRunner, MatchPublisher, MatchRecord, Relay, keep_clocks, relay_unannounced
from app.notices import run_push
from app.puzzles import mine_puzzles
from app.realtime.bus import EventBus
from app.realtime.presence import Presence, SharedPresence
from app.realtime.redis_bus import RedisBus
from app.tournaments import run_tournaments

log = logging.getLogger(__name__)
SWEEP_SECONDS = 1.0
RESTART_SECONDS = 1.0
"""How long a crashed job waits before it starts again (the database or Redis may be away)."""
POOL_CHECK_SECONDS = 1.0
"""How often the bot job looks whether a process of its pool died."""
Job = Callable[[], Coroutine[Any, Any, None]]


def bot_count_key(prefix: str, match_id: str) -> str:
    """Redis hash: ply -> how many times a bot move was computed for it (expected: 1)."""
    return f"{prefix}bots:computed:{match_id}"


class BackgroundJobs:
    def __init__(self, settings: Settings, session_factory: sessionmaker[Session],
                 bus: EventBus, presence: Presence, publisher: MatchPublisher, *,
                 relay: Relay | None = None, warm_bots: bool = False) -> None:
        """``publisher``: the process's match publisher (it notes what it announced, for the
        outbox); ``relay``: the process's outbox relay, if it has one already. ``warm_bots``:
        spawn the bot pool now and keep it between terms (a worker, whose reason to exist is
        the jobs); else it is spawned on each takeover and stopped when leadership ends (a web
        instance, which rarely leads, keeps no idle processes)."""
        self.settings = settings
        self.session_factory = session_factory
        self.bus = bus
        self.presence = presence
        self.publisher = publisher
        self.relay = relay or Relay(session_factory, publisher)
        """The outbox relay (app/match/outbox.py); a web instance shares its own with its
        start-up pass, so the two never announce one change twice."""
        self.bots: BotRunner | None = None
        self.analysis: AnalysisRunner | None = None
        self.bot_pool: ProcessPoolExecutor | None = None
        """The warm bot pool, kept across terms (None: a pool per term)."""
        self._warming: asyncio.Task[None] | None = None
        self.leader: RedisLeader | SoleLeader
        if isinstance(bus, RedisBus):  # several processes: one leader among them
            self.leader = RedisLeader(lambda: bus.command_client,
                                      f"{settings.redis_prefix}jobs:leader",
                                      settings.leader_ttl_seconds, settings.leader_renew_seconds)
        else:
            self.leader = SoleLeader()
        if warm_bots and settings.bots_enabled:
            self.bot_pool = self._spawn_bot_pool()

    def _spawn_bot_pool(self) -> ProcessPoolExecutor:
        return spawn_pool(self.settings.bot_workers, warm_bot_process, name="bots")

    async def warm_up(self) -> None:
        """Start every process of the warm bot pool and wait until each has run its initializer
        (a pool spawns a process per job submitted while none is idle)."""
        if self.bot_pool is None:
            return
        loop = asyncio.get_running_loop()
        try:
            await asyncio.gather(*(loop.run_in_executor(self.bot_pool, process_id)
                                   for _ in range(max(1, self.settings.bot_workers))))
        except Exception:  # a process died while starting: the bot job replaces the pool
            log.warning("warming the bot pool failed", exc_info=True)

    def publish_record(self, record: MatchRecord) -> None:
        self.publisher(record)

    async def _count_bot_move(self, match_id: str, ply: int) -> None:
        assert isinstance(self.bus, RedisBus)  # counted only when the jobs are shared
        client = self.bus.command_client
        key = bot_count_key(self.settings.redis_prefix, match_id)
        async with client.pipeline(transaction=False) as pipe:
            pipe.hincrby(key, str(ply), 1)
            pipe.expire(key, 86400)
            await pipe.execute()

    def _start(self) -> list[asyncio.Task[None]]:
        presence = self.presence
        jobs: dict[str, Job] = {
            "clocks": lambda: keep_clocks(self.session_factory, self.publish_record),
            "quick_play": lambda: pair_quick_play(self.session_factory, self.publish_record,
                                                  self.bus.publish, presence),
            "seek_expiry": lambda: expire_absent_seekers(self.session_factory, presence,
                                                         self.bus.publish),
            "tournaments": lambda: run_tournaments(self.session_factory, self.publish_record,
                                                   self.bus),
            "daily": lambda: run_daily(self.session_factory, self.publish_record),
            "outbox_relay": lambda: relay_unannounced(self.relay),
            "push": lambda: run_push(self.settings, self.session_factory, self.bus, presence),
        }
        if mail_enabled(self.settings):
            jobs["mail"] = lambda: deliver_mail(self.session_factory, self.settings)
            jobs["mail_digest"] = lambda: queue_digests(self.session_factory, self.settings)
        if isinstance(presence, SharedPresence):
            jobs["presence_sweep"] = lambda: self._sweep_presence_forever(presence)
        if self.settings.bots_enabled:
            jobs["bots"] = self._run_bots
        if self.settings.analysis_workers > 0:
            jobs["analysis"] = self._run_analysis
            jobs["puzzle_mining"] = lambda: mine_puzzles(self.session_factory)
        if self.settings.luck_workers > 0:
            jobs["luck"] = lambda: run_luck(self.session_factory, self.settings.luck_workers,
                                            self.settings.luck_iterations)
        tasks = [asyncio.create_task(self._supervise(name, job)) for name, job in jobs.items()]
        tasks.append(asyncio.create_task(self._leading()))
        return tasks

    async def _leading(self) -> None:
        """Shows in the metrics that this process leads, for as long as its jobs run."""
        LEADING.inc()
        try:
            await asyncio.Event().wait()
        finally:
            LEADING.dec()

    async def _supervise(self, name: str, job: Job) -> None:
        """Run a job for as long as this process leads, starting it again if it crashes (the
        jobs keep their own loops; a crash is what escaped them, e.g. the database away when
        the bots read the waiting matches on takeover)."""
        while True:
            JOB_STARTS.labels(name).inc()
            try:
                await job()
                return
            except Exception:
                reraise_if_cancelled()
                JOB_FAILURES.labels(name).inc()
                log.exception("background job %s crashed; starting it again", name)
            await asyncio.sleep(RESTART_SECONDS)

    async def _run_bots(self) -> None:
        """The bot runner, on the warm pool or a pool of this term. A pool whose process died
        (the OOM killer, a crash) refuses every later job: the runner then stops, the pool is
        replaced and the supervisor starts the runner again, so the bots do not stay silent."""
        shared = isinstance(self.leader, RedisLeader)
        executor = self.bot_pool or spawn_pool(self.settings.bot_workers, name="bots")
        bots = self.bots = BotRunner(self.session_factory, self.publish_record,
                                     self.settings.bot_workers, executor=executor,
                                     count=self._count_bot_move if shared else None)
        running = asyncio.create_task(bots.run(self.bus))
        try:
            while not running.done():
                await asyncio.wait({running}, timeout=POOL_CHECK_SECONDS)
                if getattr(executor, "_broken", False):
                    raise RuntimeError("a bot process died; the pool is replaced")
            await running
        finally:
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await running
            if self.bot_pool is None:
                bots.shutdown()
            else:  # the warm pool outlives the term; a move under way ends unheard
                for task in bots.tasks:
                    task.cancel()
                if getattr(self.bot_pool, "_broken", False):
                    await asyncio.to_thread(stop_pool, self.bot_pool)
                    self.bot_pool = self._spawn_bot_pool()
                    self._warming = asyncio.create_task(self.warm_up())

    async def _run_analysis(self) -> None:
        analysis = self.analysis = AnalysisRunner(self.session_factory, self.bus,
                                                  self.settings.analysis_workers)
        try:
            await analysis.run()
        finally:
            await asyncio.to_thread(analysis.shutdown)

    async def _sweep_presence_forever(self, presence: SharedPresence) -> None:
        await repeat(presence.sweep_dead_instances, lambda: SWEEP_SECONDS,
                     failure="presence sweep failed", logger=log)

    async def run(self) -> None:
        """Lead when possible, forever (cancel to stop; the lock is released and the warm pool
        stopped)."""
        self._warming = asyncio.create_task(self.warm_up())
        try:
            await self.leader.lead(self._start)
        finally:
            if self._warming is not None:
                self._warming.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self._warming
            if self.bot_pool is not None:
                await asyncio.to_thread(stop_pool, self.bot_pool)
                self.bot_pool = None

    @property
    def is_leader(self) -> bool:
        return self.leader.is_leader
