"""Quick-play pairing: windows widen with waiting time, so waiting seekers are re-paired often."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from app.kernel.metrics import JOB_PASSES
from app.lobby.service import LobbyService
from app.match import MatchService, Publish

INTERVAL_SECONDS = 2.0
log = logging.getLogger(__name__)


def pair_once(session_factory: sessionmaker[Session], publish_record: Publish,
              publish: Callable[[str, dict[str, Any]], None]) -> int:
    with session_factory() as session:
        return LobbyService(session, MatchService(session, publish_record), publish).pair_waiting()


async def pair_quick_play(session_factory: sessionmaker[Session], publish_record: Publish,
                          publish: Callable[[str, dict[str, Any]], None],
                          interval: float = INTERVAL_SECONDS) -> None:
    while True:
        await asyncio.sleep(interval)
        try:
            await asyncio.to_thread(pair_once, session_factory, publish_record, publish)
            JOB_PASSES.labels("quick_play", "done").inc()
        except Exception:  # a failed round must not stop pairing; the next round retries
            JOB_PASSES.labels("quick_play", "failed").inc()
            log.exception("quick-play pairing failed")
