"""``python -m app.worker``: the background jobs (clocks, quick-play pairing, seek expiry, bots,
tournaments, presence sweep) in a process of their own, so web instances only serve requests and sockets.

Run it beside web instances started with ``STEPWELL_BACKGROUND_JOBS=off``. Several workers may run:
they compete for the leader lock in Redis and exactly one works; when it dies (even kill -9),
another takes over within ``STEPWELL_LEADER_TTL_SECONDS`` plus one ``STEPWELL_LEADER_RENEW_SECONDS``.
Every worker spawns its bot pool when it starts, so a stand-by that takes over has its bots'
processes ready (bench/failover.py measures the silence). Without Redis a worker simply runs the
jobs (then web instances must be started with background jobs off, or be the only process).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import signal

from app.db.one_hop import limit_worker_threads
from app.db.session import make_engine, make_session_factory
from app.jobs import BackgroundJobs
from app.kernel import logs
from app.kernel.settings import Settings
from app.match import Announced, MatchPublisher
from app.realtime.bus import EventBus, InProcessBus
from app.realtime.presence import Presence, SharedPresence
from app.realtime.redis_bus import RedisBus

log = logging.getLogger("app.worker")


async def serve(settings: Settings, stop: asyncio.Event | None = None) -> None:
    engine = make_engine(settings.database_url, settings.db_pool_size)
    session_factory = make_session_factory(engine)
    loop = asyncio.get_running_loop()
    limit_worker_threads(settings.db_pool_size)
    bus: EventBus
    presence: Presence
    if settings.redis_url:
        redis_bus = RedisBus(settings.redis_url, settings.redis_prefix)
        bus = redis_bus
        presence = SharedPresence(settings.seek_grace_seconds, bus.publish,
                                  lambda: redis_bus.command_client, settings.redis_prefix,
                                  redis_bus.instance, settings.presence_heartbeat_seconds,
                                  register=False)
        redis_bus.on_reconnect(presence.rewrite)
    else:
        bus = InProcessBus()
        presence = Presence(settings.seek_grace_seconds, bus.publish)
    bus.bind_loop(loop)
    presence.bind_loop(loop)
    announced = Announced(session_factory)
    notes = asyncio.create_task(announced.run())
    jobs = BackgroundJobs(settings, session_factory, bus, presence,
                          MatchPublisher(bus, announced), warm_bots=True)
    runner = asyncio.create_task(jobs.run())
    stop = stop or asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    log.info("worker started (redis: %s)", bool(settings.redis_url))
    try:
        await stop.wait()
    finally:
        try:
            await asyncio.wait_for(_shut_down(runner, presence, bus, notes), SHUTDOWN_SECONDS)
        except TimeoutError:  # a pool process still starting can hold its pool's stop
            log.error("the worker's shutdown outlasted %s s; its processes are killed",
                      SHUTDOWN_SECONDS)
            _kill_children()
        engine.dispose()
        log.info("worker stopped")


SHUTDOWN_SECONDS = 10.0
"""How long a stopping worker waits for its jobs, bus and pools before it kills its children
(the lock is released first, so the stand-by leads meanwhile)."""


async def _shut_down(runner: asyncio.Task[None], presence: Presence, bus: EventBus,
                     notes: asyncio.Task[None]) -> None:
    runner.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await runner
    await presence.aclose()
    await bus.aclose()
    notes.cancel()  # what the bus sent is noted once more as it stops
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await notes


def _kill_children() -> None:
    """End every process this one started (pool workers), so the exit does not wait for them."""
    for child in multiprocessing.active_children():
        with contextlib.suppress(Exception):
            child.kill()


def main() -> None:
    logs.configure(Settings().log_format or "text")
    asyncio.run(serve(Settings()))
    _kill_children()  # a pool's manager thread must not keep the exit waiting for a process


if __name__ == "__main__":
    main()
