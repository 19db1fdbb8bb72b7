"""The miner: finished matches of the puzzle games searched for puzzles, in the process leading
the background jobs, the searching in one worker process that only uses idle CPU (like the
analysis), one match at a time. Each match is marked mined when searched, so it is searched once
(a match that fails to search is marked too, with nothing found: it would fail again)."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from app.kernel.cancellation import repeat, reraise_if_cancelled
from app.kernel.processes import LazyPool, idle_priority
from app.puzzles.mine import Candidate, mine_record
from app.puzzles.service import PuzzleService

log = logging.getLogger(__name__)
POLL_SECONDS = 30.0
BATCH = 20


async def mine_once(session_factory: sessionmaker[Session],
                    executor: Executor | LazyPool | None) -> int:
    """Search the finished matches not mined yet (a batch); how many puzzles were stored."""
    def service_call(method: str, *args: Any) -> Any:
        with session_factory() as session:
            return getattr(PuzzleService(session), method)(*args)

    loop = asyncio.get_running_loop()
    stored = 0
    for match_id in await asyncio.to_thread(service_call, "unmined_matches", BATCH):
        line = await asyncio.to_thread(service_call, "match_line", match_id)
        found: list[Candidate] = []
        if line is not None:
            pool = executor.get() if isinstance(executor, LazyPool) else executor
            try:
                found = await loop.run_in_executor(pool, mine_record, line)
            except Exception:
                reraise_if_cancelled()
                log.exception("mining match %s failed", match_id)
        added = await asyncio.to_thread(service_call, "store", found, "game", match_id)
        await asyncio.to_thread(service_call, "mark_mined", match_id, added)
        stored += added
    return stored


async def mine_puzzles(session_factory: sessionmaker[Session]) -> None:
    """The leader job: mine finished matches every ``POLL_SECONDS`` (the searching process is
    started when the first match needs it)."""
    pool = LazyPool(1, idle_priority, name="puzzles")
    try:
        await repeat(lambda: mine_once(session_factory, pool), lambda: POLL_SECONDS,
                     failure="puzzle mining pass failed", logger=log)
    finally:
        pool.stop()
