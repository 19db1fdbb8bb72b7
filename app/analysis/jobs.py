"""Runs requested analyses: in the one process leading the background jobs (like the bots), with
the searching in worker processes of lower priority, so the event loop and live games are never
kept waiting.

A request is announced on ``ANALYSIS_CHANNEL``; the runner also looks for queued rows when it
starts leading (a request made while no leader was listening) and every ``POLL_SECONDS``. A
match is claimed with a guarded update (queued -> running), so it is analysed once; positions go
to the pool one by one and progress is published on the match channel as each one ends.
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from app.analysis import compute
from app.analysis.service import ANALYSIS_CHANNEL, AnalysisService, Work, event, progress_event
from app.analysis.values import PositionValue, judge
from app.kernel.processes import idle_priority, spawn_pool, stop_pool
from app.realtime.bus import EventBus, match_channel

log = logging.getLogger(__name__)
POLL_SECONDS = 5.0
PROGRESS_WRITE_SECONDS = 1.0
"""Progress is published on every position but written to the database at most this often."""
CONCURRENT_MATCHES = 2


def make_pool(workers: int) -> ProcessPoolExecutor:
    return spawn_pool(workers, idle_priority, name="analysis")


class AnalysisRunner:
    def __init__(self, session_factory: sessionmaker[Session], bus: EventBus, workers: int = 1,
                 executor: Executor | None = None) -> None:
        self.session_factory = session_factory
        self.bus = bus
        self.executor = executor or make_pool(workers)
        self.active: set[str] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.slots = asyncio.Semaphore(CONCURRENT_MATCHES)
        self.completed = 0

    def _service(self, method: str, *args: Any) -> Any:
        with self.session_factory() as session:
            return getattr(AnalysisService(session), method)(*args)

    async def run(self) -> None:
        async with self.bus.subscribe(ANALYSIS_CHANNEL) as events:
            await asyncio.to_thread(self._service, "requeue_running")
            poller = asyncio.create_task(self._poll())
            try:
                async for message in events:
                    if message.get("type") == "requested":
                        self.consider(str(message["match_id"]))
            finally:
                poller.cancel()

    async def _poll(self) -> None:
        while True:
            try:
                for match_id in await asyncio.to_thread(self._service, "waiting"):
                    self.consider(match_id)
            except Exception:  # the next poll retries
                log.exception("looking for queued analyses failed")
            await asyncio.sleep(POLL_SECONDS)

    def consider(self, match_id: str) -> None:
        if match_id in self.active:
            return
        self.active.add(match_id)
        task = asyncio.create_task(self._analyse(match_id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _analyse(self, match_id: str) -> None:
        try:
            async with self.slots:
                work: Work | None = await asyncio.to_thread(self._service, "claim", match_id)
                if work is None:
                    return  # done already, or running elsewhere
                self._publish(match_id, "running", 0, len(work.snapshots))
                try:
                    result = await self._compute(work)
                except Exception:
                    log.exception("analysis of %s failed", match_id)
                    result = None
                final = await asyncio.to_thread(self._service, "finish", match_id, result)
                self.completed += 1
                self.bus.publish(match_channel(match_id), event(final))
        except Exception:
            log.exception("analysis of %s could not be stored", match_id)
        finally:
            self.active.discard(match_id)

    def _publish(self, match_id: str, status: str, progress: int, total: int) -> None:
        self.bus.publish(match_channel(match_id), progress_event(match_id, status, progress, total))

    async def _compute(self, work: Work) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        total = len(work.snapshots)
        futures = [loop.run_in_executor(self.executor, compute.evaluate_position, work.game,
                                        snapshot, work.budget,
                                        compute.position_seed(work.match_id, ply))
                   for ply, snapshot in enumerate(work.snapshots)]
        written = time.monotonic()
        for done, future in enumerate(asyncio.as_completed(futures), start=1):
            await future
            self._publish(work.match_id, "running", done, total)
            if time.monotonic() - written >= PROGRESS_WRITE_SECONDS and done < total:
                written = time.monotonic()
                await asyncio.to_thread(self._service, "save_progress", work.match_id, done)
        evaluations = [f.result() for f in futures]
        positions = [PositionValue(ply, e["to_move"], tuple(e["values"]), e["best"], e["proven"],
                                   e["moves"]) for ply, e in enumerate(evaluations)]
        document = judge(positions, work.played)
        for entry in document["moves"]:
            if entry["mark"] is not None and entry["best"] is not None:
                entry["best_view"] = await loop.run_in_executor(
                    self.executor, compute.preferred_view, work.game,
                    work.snapshots[entry["ply"] - 1], entry["best"])
        document["game"] = work.game
        return document

    def shutdown(self) -> None:
        """Stop: the worker processes are terminated and waited for (an analysis under way stays
        ``running`` in the database; the next leader queues it again)."""
        for task in self.tasks:
            task.cancel()
        if isinstance(self.executor, ProcessPoolExecutor):
            stop_pool(self.executor)
        else:
            self.executor.shutdown(wait=True, cancel_futures=True)
